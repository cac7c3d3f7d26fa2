/**
 * German and Japanese in real Chromium: the browser started in that language (Linux
 * Chromium reads LANGUAGE; Debian's chromium-l10n holds the locales, fonts-ipafont-gothic
 * the Japanese glyphs, both installed by `npm run setup`).
 *
 * For the popup (each of its tabs), the options page and the reported mail page (with the
 * phishing mail of ./fixtures/mails read through its file input), after set-up:
 * - the page speaks the language: its title is the locale's message, and no English
 *   message that the locale translates differently appears in the page's text (so no
 *   text is hard-coded, and no key silently falls back to English);
 * - nothing is cut off or sticks out: no element is wider than the page, and no element
 *   that clips its overflow has more text than room (long German compounds, Japanese
 *   without spaces).
 * Screenshots: test-results/e2e/lang-{de,ja}-{popup-<tab>,options,mail}.png.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PHISH } from './fixtures/mails';
import { OPTIONS_SECTIONS } from '../../src/messaging/options';
import { ARTIFACTS_DIR, findChromium, launch, showOptionsSection, type Session } from './harness';

const LOCALES_DIR = resolve(import.meta.dirname, '../../public/_locales');
type Messages = Record<string, { message: string }>;
const load = (locale: string): Messages => JSON.parse(readFileSync(join(LOCALES_DIR, locale, 'messages.json'), 'utf8')) as Messages;
const en = load('en');

/** English messages that the locale words differently, long enough not to match by chance, without placeholders. */
function untranslatedProbes(messages: Messages): string[] {
  return Object.entries(en)
    .filter(([key, entry]) => !entry.message.includes('$') && entry.message.length >= 12 && messages[key]?.message !== entry.message)
    .map(([, entry]) => entry.message);
}

interface Layout {
  readonly wider: string[];
  readonly clipped: string[];
}

/** Elements wider than the document, and elements that clip text they have no room for. */
function layoutProblems(page: Page): Promise<Layout> {
  return page.evaluate(() => {
    const describe = (el: Element): string => `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''} "${(el.textContent || '').trim().slice(0, 40)}"`;
    const width = document.documentElement.clientWidth;
    const wider: string[] = [];
    const clipped: string[] = [];
    for (const el of document.body.querySelectorAll('*')) {
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      if (box.right > width + 1) wider.push(`${describe(el)} reaches ${Math.round(box.right)} px of ${width}`);
      const style = getComputedStyle(el);
      const clips = ['hidden', 'clip'].includes(style.overflowX) || style.textOverflow === 'ellipsis';
      if (clips && el.scrollWidth > el.clientWidth + 1 && el.tagName !== 'INPUT' && el.tagName !== 'SELECT') {
        clipped.push(`${describe(el)} needs ${el.scrollWidth} px, has ${el.clientWidth}`);
      }
    }
    return { wider, clipped };
  });
}

function japaneseFontInstalled(): boolean {
  try {
    return execFileSync('fc-list', [':lang=ja', 'family'], { encoding: 'utf8' }).trim() !== '';
  } catch {
    return false;
  }
}

describe.skipIf(!findChromium()).each(['de', 'ja'])('the extension in %s', (language) => {
  const messages = load(language);
  const probes = untranslatedProbes(messages);
  let session: Session;

  beforeAll(async () => {
    if (language === 'ja' && !japaneseFontInstalled()) {
      const message = 'No Japanese font (fc-list :lang=ja is empty): npm run setup installs fonts-ipafont-gothic.';
      if (process.env['CI']) throw new Error(message);
      console.warn(`[languages] ${message} The screenshots will show boxes.`);
    }
    session = await launch({ language });
    // Set up through the background's messages (the labels are not English here).
    const options = await session.openPage('options.html');
    const send = (message: unknown): Promise<{ ok: boolean }> =>
      options.evaluate(async (m) => chrome.runtime.sendMessage<unknown, { ok: boolean }>(m), message);
    await expect(
      send({ type: 'saveSettings', data: { patch: { serviceUrl: session.sim.url, launchUrl: session.sim.launchBase, username: 'analyst@acme.example' } } }),
    ).resolves.toMatchObject({ ok: true });
    await expect(send({ type: 'setToken', data: { token: session.sim.adminToken, remember: false } })).resolves.toMatchObject({ ok: true });
    await options.close();
  });

  afterAll(async () => {
    await session.close();
  });

  async function check(page: Page, name: string, expectedTitle: string | undefined): Promise<void> {
    await page.screenshot({ path: join(ARTIFACTS_DIR, `lang-${language}-${name}.png`), fullPage: true });
    if (expectedTitle !== undefined) expect(await page.title()).toBe(expectedTitle);
    const text = await page.evaluate(() => document.body.innerText);
    expect(
      probes.filter((probe) => text.includes(probe)),
      `English text on ${name}`,
    ).toEqual([]);
    expect(await layoutProblems(page), `layout of ${name}`).toEqual({ wider: [], clipped: [] });
  }

  it('the options page speaks the language and nothing is cut off, in every section', async () => {
    const page = await session.openPage('options.html');
    await page.setViewportSize({ width: 800, height: 900 });
    await check(page, 'options', messages['optionsTitle']?.message);
    // One section is shown at a time: each is checked as it is shown, its link named in the language.
    for (const id of OPTIONS_SECTIONS.slice(1)) {
      await showOptionsSection(page, id);
      await check(page, `options-${id}`, messages['optionsTitle']?.message);
    }
    await showOptionsSection(page, 'connection');
    // Positive controls: the checks above can fail. An English message, an element
    // wider than the page and a clipping box too small for its text are all reported.
    expect(probes.length).toBeGreaterThan(100);
    const probe = probes[0] ?? '';
    await page.evaluate((text) => {
      const english = document.createElement('p');
      english.textContent = text;
      const wide = document.createElement('div');
      wide.id = 'control-wide';
      wide.style.width = '3000px';
      wide.style.height = '1px';
      const clip = document.createElement('div');
      clip.id = 'control-clip';
      Object.assign(clip.style, { width: '40px', overflow: 'hidden', whiteSpace: 'nowrap' });
      clip.textContent = 'Sicherheitsüberprüfungseinstellungen';
      document.body.append(english, wide, clip);
    }, probe);
    const text = await page.evaluate(() => document.body.innerText);
    expect(probes.filter((p) => text.includes(p))).toContain(probe);
    const controls = await layoutProblems(page);
    expect(controls.wider.some((line) => line.startsWith('div#control-wide'))).toBe(true);
    expect(controls.clipped.some((line) => line.startsWith('div#control-clip'))).toBe(true);
    await page.close();
  });

  it('every tab of the popup speaks the language and nothing is cut off', async () => {
    const page = await session.openPage('popup.html');
    // The popup's own width (body: 400px), as the browser shows it.
    await page.setViewportSize({ width: 400, height: 600 });
    const tabs = page.getByRole('tab');
    const count = await tabs.count();
    expect(count).toBeGreaterThan(1);
    for (let i = 0; i < count; i += 1) {
      await tabs.nth(i).click();
      await check(page, `popup-${i + 1}`, i === 0 ? messages['popupTitle']?.message : undefined);
    }
    await page.close();
  });

  it('the reported mail page, with a mail read, speaks the language and nothing is cut off', async () => {
    const page = await session.openPage('mail.html');
    await page.setViewportSize({ width: 800, height: 900 });
    // The file input by its label in this language.
    const input = page.getByLabel(messages['mailFileLabel']?.message ?? 'mailFileLabel', { exact: true });
    expect(await input.getAttribute('type')).toBe('file');
    await input.setInputFiles({ name: 'reported-phish.eml', mimeType: 'message/rfc822', buffer: Buffer.from(PHISH) });
    const heading = (messages['mailReportHeading']?.message ?? 'mailReportHeading').replace('$1', 'reported-phish.eml');
    await page.getByRole('heading', { name: heading, exact: true }).waitFor();
    // The mail is shown: a box for each of its five links that can be opened (its javascript: one is refused).
    expect(await page.getByRole('checkbox').count()).toBe(5);
    await check(page, 'mail', messages['mailTitle']?.message);
    await page.close();
  });
});
