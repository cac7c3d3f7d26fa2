/**
 * Helpers the Chromium files share: configuring Isolink through its options page as a
 * user would, seeding settings, counting launch tabs and waiting for notifications.
 */
import type { Page } from 'playwright-core';
import { ANALYST, seedStorage } from '../support/seed';
import { waitUntil, type Note, type SecuritySession } from './browser';

export { ANALYST };

export function launchPrefix(session: SecuritySession): string {
  return `${session.sim.launchBase}/launch?ctx=`;
}

export function launchTabs(session: SecuritySession): string[] {
  return session.tabUrls().filter((url) => url.startsWith(launchPrefix(session)));
}

/** Waits until at least `count` launch tabs are open. */
export async function waitForLaunchTabs(session: SecuritySession, count: number, timeoutMs = 15_000): Promise<void> {
  await waitUntil(() => launchTabs(session).length >= count, timeoutMs, `${count} launch tabs (open: ${session.tabUrls().join(', ')})`);
}

/** Closes every launch tab (they are recorded already). */
export async function closeLaunchTabs(session: SecuritySession): Promise<void> {
  for (const page of session.context.pages()) if (page.url().startsWith(launchPrefix(session))) await page.close();
}

/** Runs `act`, then waits for the notification it causes and returns it. */
export async function notified(session: SecuritySession, act: () => Promise<unknown>, timeoutMs = 10_000): Promise<Note> {
  const before = (await session.harvestNotes()).length;
  await act();
  const notes = await session.waitForNotes(before + 1, timeoutMs);
  const note = notes[before];
  if (!note) throw new Error('no notification');
  return note;
}

/** Configures Isolink through the options page: fields, token, Save, Test connection. */
export async function configureThroughOptions(session: SecuritySession, values: { token: string; remember: boolean; serviceUrl?: string }): Promise<Page> {
  const page = await session.openPage('options.html');
  await page.getByLabel('Service URL', { exact: true }).fill(values.serviceUrl ?? session.sim.url);
  await page.getByLabel('Launch URL', { exact: true }).fill(session.sim.launchBase);
  await page.getByLabel('Username', { exact: true }).fill(ANALYST);
  await page.getByLabel('Admin token', { exact: true }).fill(values.token);
  if (values.remember) await page.getByLabel('Remember on this device').check();
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByText('Saved.', { exact: true }).first().waitFor({ timeout: 15_000 });
  await waitUntil(
    async () => (await page.getByLabel('Admin token', { exact: true }).inputValue()) === '',
    10_000,
    'the token field to be emptied after saving',
  );
  await page.getByRole('button', { name: 'Test connection', exact: true }).click();
  await page.getByText(/Connected to/).waitFor({ timeout: 15_000 });
  return page;
}

/** Seeds settings and a session token straight into storage, as a saved options page leaves them. */
export async function seed(session: SecuritySession, overrides: Record<string, unknown> = {}, token: string | null = session.sim.adminToken): Promise<void> {
  await seedStorage(await session.worker(), session.sim, overrides, token);
}

/** The clipboard's text, read from a page on the simulator's (loopback, secure) origin. */
export async function readClipboard(session: SecuritySession): Promise<string> {
  await session.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: session.sim.url });
  const page = await session.context.newPage();
  await page.goto(`${session.sim.url}/`);
  await page.bringToFront();
  const text = await page.evaluate(() => navigator.clipboard.readText());
  await page.close();
  return text;
}

/** Everything a page shows or holds: its HTML and the values of its fields. */
export async function pageTexts(page: Page): Promise<string> {
  const html = await page.content();
  const values = await page.evaluate(() => [...document.querySelectorAll('input, textarea, select')].map((el) => (el as HTMLInputElement).value).join('\n'));
  return `${html}\n${values}`;
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
