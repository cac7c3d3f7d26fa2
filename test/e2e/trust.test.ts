/**
 * Hostile configuration in real Chromium, through the options page as an analyst uses it:
 * a token entered for one service is never sent to another one, whether the service URL
 * is typed or comes in an imported file; choosing a settings file changes nothing until
 * the review that names the old and new origins is applied. A second simulator on another
 * port stands for the other service: it must receive nothing.
 */
import { resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../simulator';
import { ARTIFACTS_DIR, configureThroughOptions, findChromium, launch, showOptionsSection, type Session } from './harness';

const ANALYST = 'analyst@acme.example';

describe.skipIf(!findChromium() && !process.env['CI'])('hostile configuration in real Chromium', () => {
  let session: Session;
  let other: Simulator;
  const settingsNow = async (page: Page): Promise<Record<string, unknown>> => {
    const reply = await page.evaluate<{ value: { settings: Record<string, unknown> } }>(() => chrome.runtime.sendMessage({ type: 'getSettings', data: {} }));
    return reply.value.settings;
  };

  beforeAll(async () => {
    session = await launch();
    other = await startSimulator();
    await configureThroughOptions(session, { token: session.sim.adminToken, username: ANALYST });
  });
  afterAll(async () => {
    await session.close();
    await other.close();
  });

  it('a service URL typed in the options never receives the token, not even from Test connection', async () => {
    const options = await session.openPage('options.html');
    await options.getByLabel('Service URL', { exact: true }).fill(other.url);
    await options.getByLabel('Launch URL', { exact: true }).fill('');
    await options.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(async () => (await settingsNow(options))['serviceUrl']).toBe(other.url);
    await options.getByRole('button', { name: 'Test connection', exact: true }).click();
    await options
      .getByText(`is never sent to ${new URL(other.url).origin}`, { exact: false })
      .first()
      .waitFor();
    const before = (await session.notifications()).length;
    await session.clickMenu({ menuItemId: 'isolate-link', linkUrl: 'https://evil.example/typed' });
    await expect.poll(async () => (await session.notifications()).length, { timeout: 10_000 }).toBeGreaterThan(before);
    expect(other.requests).toEqual([]);
    expect(session.sim.requests.filter((r) => r.path === '/api/')).toHaveLength(1); // the first Test connection only
    // Entering the token for the new service binds it there.
    await options.getByLabel('Admin token', { exact: true }).fill(other.adminToken);
    await options.getByRole('button', { name: 'Save', exact: true }).click();
    await options.getByRole('button', { name: 'Test connection', exact: true }).click();
    await options.getByText(/Connected to/).waitFor({ timeout: 15_000 });
    expect(other.requests.filter((r) => r.path === '/api/')).toHaveLength(1);
    await options.close();
  });

  it('choosing a settings file changes nothing; the review names both origins; Cancel keeps everything, Apply moves but never the token', async () => {
    other.reset();
    session.sim.reset();
    const options = await session.openPage('options.html');
    await showOptionsSection(options, 'import-export');
    const before = await settingsNow(options);
    const file = {
      name: 'from-it.json',
      mimeType: 'application/json',
      buffer: Buffer.from(
        JSON.stringify({
          format: 'isolink-settings',
          version: 1,
          settings: { serviceUrl: session.sim.url, launchUrl: session.sim.launchBase, username: ANALYST, maxUses: 3 },
        }),
      ),
    };
    const chooser = options.getByLabel('Import settings', { exact: true });

    await chooser.setInputFiles(file);
    const review = options.getByRole('group', { name: /^Importing from-it\.json changes these settings:/ });
    await review.waitFor();
    expect(await review.textContent()).toContain(`The service changes from ${new URL(other.url).origin} to ${new URL(session.sim.url).origin}.`);
    expect(await review.textContent()).toContain(
      `Isolated tabs will open on ${new URL(session.sim.launchBase).origin} instead of ${new URL(other.url).origin}.`,
    );
    await options.screenshot({ path: resolve(ARTIFACTS_DIR, 'options-import-review.png'), fullPage: true });
    expect(await settingsNow(options)).toEqual(before);
    await review.getByRole('button', { name: 'Cancel' }).click();
    await options.getByText('Nothing was imported.').waitFor();
    expect(await settingsNow(options)).toEqual(before);

    await chooser.setInputFiles(file);
    await options.getByRole('button', { name: 'Apply import' }).click();
    await options.getByText('Imported the settings from from-it.json.').waitFor();
    expect(await settingsNow(options)).toMatchObject({ serviceUrl: session.sim.url, maxUses: 3 });
    // The token in force was entered for the other service: the imported one gets nothing.
    const notes = (await session.notifications()).length;
    await session.clickMenu({ menuItemId: 'isolate-link', linkUrl: 'https://evil.example/imported' });
    await expect.poll(async () => (await session.notifications()).length, { timeout: 10_000 }).toBeGreaterThan(notes);
    expect(session.sim.requests.filter((r) => r.path === '/api/')).toEqual([]);
    expect(other.requests.filter((r) => r.path === '/api/')).toEqual([]);
    await options.close();
  });
});
