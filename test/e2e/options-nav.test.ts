/**
 * The options page's navigation in real Chromium: one section at a time, the section in the
 * address (no fragment: the connection), each section reached by a link named by its
 * heading, a reload landing on the same section, the keyboard, and the popup's and the
 * notifications' "Open options" landing on the connection (the popup's brings an open options tab
 * there rather than a second one opened).
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { OptionsSection } from '../../src/messaging/options';
import { findChromium, launch, showOptionsSection, type Session } from './harness';

/** Each section and its heading, in the order of the navigation. */
const HEADINGS: readonly (readonly [OptionsSection, string])[] = [
  ['connection', 'Connection'],
  ['policy', 'Policy defaults'],
  ['session', 'Session defaults'],
  ['auto-isolate', 'Isolate automatically'],
  ['proxies', 'Organisation proxies'],
  ['files', 'Files'],
  ['import-export', 'Import and export'],
];

/** The ids of the sections the page shows (a section kept in the page but hidden is not shown). */
function shownSections(page: Page): Promise<string[]> {
  return page.locator('section').evaluateAll((sections) => sections.filter((section) => section.checkVisibility()).map((section) => section.id));
}

/** The id of the element that has the focus. */
function focused(page: Page): Promise<string> {
  return page.evaluate(() => document.activeElement?.id ?? '');
}

describe.skipIf(!findChromium() && !process.env['CI'])('the options page finds its way', () => {
  let session: Session;
  let optionsUrl = '';
  /** The open tabs on the options page. */
  const optionsTabs = (): Page[] => session.context.pages().filter((page) => page.url().startsWith(optionsUrl));

  beforeAll(async () => {
    // Not set up: the popup offers "Open options", and an isolation fails with a notification that does.
    session = await launch();
    optionsUrl = `chrome-extension://${session.extensionId}/options.html`;
  });
  afterAll(async () => {
    await session.close();
  });
  beforeEach(async () => {
    for (const page of session.context.pages().slice(1)) await page.close();
  });

  it('opens on the connection section alone when the address names no section', async () => {
    const page = await session.openPage('options.html');

    expect(await shownSections(page)).toEqual(['connection']);
    const current = page.getByRole('navigation').getByRole('link', { name: 'Connection' });
    expect(await current.getAttribute('aria-current')).toBe('page');
    expect(await page.getByLabel('Service URL', { exact: true }).isVisible()).toBe(true);
  });

  it('shows each section from its link, named by its heading, writes it into the address, and a reload lands there', async () => {
    const page = await session.openPage('options.html');
    const nav = page.getByRole('navigation');

    for (const [id, heading] of HEADINGS) {
      await nav.getByRole('link', { name: heading }).click();

      await page.getByRole('heading', { level: 2, name: heading }).waitFor();
      expect(await shownSections(page)).toEqual([id]);
      expect(new URL(page.url()).hash).toBe(`#${id}`);
      expect(await nav.locator('[aria-current="page"]').getAttribute('href')).toBe(`#${id}`);
      expect(await focused(page)).toBe(`${id}-heading`);

      await page.reload();
      await page.locator('[data-ready="true"]').waitFor();
      expect(await shownSections(page)).toEqual([id]);
      expect(await page.getByRole('heading', { level: 2, name: heading }).isVisible()).toBe(true);
    }
  });

  it('works from the keyboard: Tab to a link, Enter shows its section and takes the focus there; Back returns', async () => {
    const page = await session.openPage('options.html');
    await page.bringToFront();

    let name = '';
    for (let presses = 0; presses < 20 && name !== 'Files'; presses += 1) {
      await page.keyboard.press('Tab');
      name = await page.evaluate(() => (document.activeElement instanceof HTMLAnchorElement ? document.activeElement.textContent : ''));
    }
    expect(name).toBe('Files');
    await page.keyboard.press('Enter');

    await page.locator('section#files').waitFor({ state: 'visible' });
    expect(await shownSections(page)).toEqual(['files']);
    expect(await focused(page)).toBe('files-heading');
    // The next Tab goes on into the section, not back to the top of the page.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.closest('section')?.id)).toBe('files');

    await page.goBack();
    await page.locator('section#connection').waitFor({ state: 'visible' });
    expect(await shownSections(page)).toEqual(['connection']);
  });

  it('keeps what was typed in a section while another is shown', async () => {
    const page = await session.openPage('options.html');
    await page.getByLabel('Service URL', { exact: true }).fill('https://typed.example.com');

    await showOptionsSection(page, 'session');
    await showOptionsSection(page, 'connection');

    expect(await page.getByLabel('Service URL', { exact: true }).inputValue()).toBe('https://typed.example.com');
  });

  it("the popup's Open options opens the options at the connection, then brings that tab back there", async () => {
    const popup = await session.openPage('popup.html');

    await popup.getByRole('button', { name: 'Open options' }).click();

    await expect.poll(() => optionsTabs().map((page) => page.url())).toEqual([`${optionsUrl}#connection`]);
    const [options] = optionsTabs();
    if (options === undefined) throw new Error('no options tab');
    await options.locator('[data-ready="true"]').waitFor();
    expect(await shownSections(options)).toEqual(['connection']);

    // The analyst goes elsewhere in it; the popup's button brings the same tab to the connection.
    await showOptionsSection(options, 'files');
    await popup.getByRole('button', { name: 'Open options' }).click();

    await expect.poll(() => shownSections(options)).toEqual(['connection']);
    expect(optionsTabs()).toEqual([options]);
    expect(options.url()).toBe(`${optionsUrl}#connection`);
  });

  it("a notification's Open options opens the options page, on the connection", async () => {
    const before = await session.notifications();
    await session.clickMenu({ menuItemId: 'isolate-link', linkUrl: 'https://evil.example/not-set-up' });
    await expect.poll(async () => (await session.notifications()).length, { timeout: 10_000 }).toBeGreaterThan(before.length);
    const id = (await session.notifications()).find((note) => !before.includes(note));

    await session.dispatch('notifications.onButtonClicked', id, 0);

    // The worker uses the browser's own opener (its 42 kB guard): options.html, no fragment.
    await expect.poll(() => optionsTabs().map((page) => page.url()), { timeout: 10_000 }).toEqual([optionsUrl]);
    const [options] = optionsTabs();
    await options?.locator('[data-ready="true"]').waitFor();
    expect(options === undefined ? [] : await shownSections(options)).toEqual(['connection']);
  });
});
