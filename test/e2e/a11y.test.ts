/**
 * Accessibility of the popup, the options page and the reported mail page in real Chromium.
 *
 * axe-core runs inside each page, after data-ready, in light and dark mode. The pages'
 * CSP (script-src 'self') blocks page.addScriptTag's inline script (checked below), so
 * axe's source goes in through page.evaluate, which Playwright sends as CDP
 * Runtime.evaluate: the debugger's evaluation, which the page's CSP does not govern.
 * Every violation is printed; serious and critical ones fail.
 *
 * Keyboard only: Tab reaches the popup's URL field, typing and Enter open the isolated
 * tab; in the options, Tab reaches Username and Save, Enter or Space on Save saves, and
 * focus is still on Save afterwards; on the reported mail page, Tab reaches the file input,
 * Space opens the file chooser, Space unchecks links and Enter on "Open selected in
 * isolation" opens the rest.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import type { FileChooser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { targetUrlOf } from '../simulator/state';
import { PHISH } from './fixtures/mails';
import { OPTIONS_SECTIONS } from '../../src/messaging/options';
import { ARTIFACTS_DIR, configureThroughOptions, findChromium, launch, showOptionsSection, type Session } from './harness';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const SCHEMES = ['light', 'dark'] as const;
type Scheme = (typeof SCHEMES)[number];

interface AxeNode {
  readonly target: unknown[];
  readonly failureSummary?: string;
  readonly html: string;
}
interface AxeViolation {
  readonly id: string;
  readonly impact: 'minor' | 'moderate' | 'serious' | 'critical' | null;
  readonly help: string;
  readonly helpUrl: string;
  readonly nodes: AxeNode[];
}
interface AxeSummary {
  readonly violations: AxeViolation[];
  readonly passes: number;
  readonly incomplete: string[];
}

/** Runs axe-core in the page; returns its violations, and how many rules passed or need a human. */
async function runAxe(page: Page): Promise<AxeSummary> {
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run(context: Document, options: object): Promise<{ violations: AxeViolation[]; passes: unknown[]; incomplete: { id: string }[] }> };
      }
    ).axe;
    const result = await axe.run(document, { resultTypes: ['violations', 'incomplete'] });
    return {
      violations: result.violations.map((v) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        helpUrl: v.helpUrl,
        nodes: v.nodes.map((n) => ({ target: n.target, failureSummary: n.failureSummary ?? '', html: n.html.slice(0, 200) })),
      })),
      passes: result.passes.length,
      incomplete: result.incomplete.map((i) => i.id),
    };
  });
}

function describeViolations(name: string, summary: AxeSummary): string {
  const lines = [
    `[a11y] ${name}: ${summary.violations.length} violation(s), ${summary.passes} rules passed, needs review: ${summary.incomplete.join(', ') || 'none'}`,
  ];
  for (const v of summary.violations) {
    lines.push(`  ${v.impact ?? 'unknown'} ${v.id}: ${v.help} (${v.helpUrl})`);
    for (const node of v.nodes)
      lines.push(`    ${JSON.stringify(node.target)} ${node.html}\n      ${(node.failureSummary ?? '').replaceAll('\n', '\n      ')}`);
  }
  return lines.join('\n');
}

/** The focused element, described for the keyboard path printed by the tests. */
function focused(page: Page): Promise<{ tag: string; name: string; id: string }> {
  return page.evaluate(() => {
    const element = document.activeElement;
    if (!element || element === document.body) return { tag: 'body', name: '', id: '' };
    const labels = (element as HTMLInputElement).labels;
    const name = element.getAttribute('aria-label') ?? labels?.[0]?.textContent ?? (element as HTMLElement).innerText;
    return { tag: element.tagName.toLowerCase(), name: (name || '').trim().slice(0, 60), id: element.id };
  });
}

/** Presses Tab until `wanted` holds for the focused element; returns the path taken. */
async function tabUntil(page: Page, wanted: (f: { tag: string; name: string; id: string }) => boolean, limit = 80): Promise<string[]> {
  const path: string[] = [];
  for (let i = 0; i < limit; i += 1) {
    await page.keyboard.press('Tab');
    const now = await focused(page);
    path.push(`${now.tag}${now.name === '' ? '' : ` "${now.name}"`}`);
    if (wanted(now)) return path;
  }
  throw new Error(`not reached with ${limit} Tab presses; path: ${path.join(' -> ')}`);
}

/** The phishing mail as the file chooser or the file input takes it. */
const PHISH_FILE = (name: string) => ({ name, mimeType: 'message/rfc822', buffer: Buffer.from(PHISH) });

describe.skipIf(!findChromium() && !process.env['CI'])('accessibility of the popup, the options page and the reported mail page', () => {
  let session: Session;
  const report: string[] = [];

  beforeAll(async () => {
    session = await launch();
  });
  afterAll(async () => {
    console.log(report.join('\n'));
    await session.close();
  });

  it("the pages' CSP blocks an injected inline script, so axe goes in through CDP evaluation", async () => {
    const page = await session.openPage('popup.html');
    await expect(page.addScriptTag({ content: 'window.injected = true;' })).rejects.toThrow(/Content Security Policy/);
    expect(await page.evaluate(() => (window as unknown as { injected?: boolean }).injected)).toBeUndefined();
    await page.evaluate(AXE_SOURCE);
    expect(await page.evaluate(() => typeof (window as unknown as { axe?: unknown }).axe)).toBe('object');
    await page.close();
  });

  async function check(
    path: 'popup.html' | 'options.html' | 'mail.html',
    label: string,
    scheme: Scheme,
    shot?: string,
    prepare?: (page: Page) => Promise<void>,
  ): Promise<void> {
    const page = await session.openPage(path);
    await page.emulateMedia({ colorScheme: scheme });
    if (path === 'popup.html') await page.setViewportSize({ width: 420, height: 640 });
    await prepare?.(page);
    expect(await page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches)).toBe(scheme === 'dark');
    const summary = await runAxe(page);
    report.push(describeViolations(`${label} (${scheme})`, summary));
    if (shot !== undefined) await page.screenshot({ path: resolve(ARTIFACTS_DIR, `${shot}-${scheme}.png`), fullPage: true });
    await page.close();
    const blocking = summary.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(blocking.map((v) => `${v.impact ?? ''} ${v.id}: ${v.help}`)).toEqual([]);
  }

  it.each(SCHEMES)('popup before setup (%s): no serious or critical axe violations', async (scheme) => {
    await check('popup.html', 'popup, not set up', scheme);
  });

  it.each(SCHEMES)('options before setup (%s): no serious or critical axe violations', async (scheme) => {
    await check('options.html', 'options, not set up', scheme);
  });

  it.each(SCHEMES)('popup, set up (%s): no serious or critical axe violations', async (scheme) => {
    if (scheme === 'light') await configureThroughOptions(session, { token: session.sim.adminToken, username: 'analyst@acme.example' });
    await check('popup.html', 'popup, set up', scheme, 'a11y-popup');
  });

  it.each(SCHEMES)('options, set up (%s): no serious or critical axe violations', async (scheme) => {
    await check('options.html', 'options, set up', scheme, 'a11y-options');
  });

  // The page shows one section at a time: each of the others is checked as it is shown.
  it.each(OPTIONS_SECTIONS.slice(1))('options, set up, the %s section: no serious or critical axe violations', async (id) => {
    await check('options.html', `options, set up, ${id}`, 'light', undefined, async (page) => {
      await showOptionsSection(page, id);
    });
  });

  it.each(SCHEMES)('reported mail page with a phishing mail loaded (%s): no serious or critical axe violations', async (scheme) => {
    await check('mail.html', 'reported mail, a phishing mail loaded', scheme, 'a11y-mail', async (page) => {
      await page.getByLabel(/reported mail/i).setInputFiles(PHISH_FILE('phish.eml'));
      await page.getByRole('heading', { name: 'The mail in phish.eml' }).waitFor();
    });
  });

  /**
   * Space on the focused file input opens the file chooser. Once in a loaded CI run the
   * chooser never came (the tab had lost the browser's focus to another test's page); the
   * page is brought to the front and Space pressed again, three times at most, the input
   * checked to hold the focus each time.
   */
  async function chooserBySpace(page: Page): Promise<FileChooser> {
    for (let attempt = 1; attempt <= 3; attempt++) {
      await page.bringToFront();
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('mail-file');
      const coming = page.waitForEvent('filechooser', { timeout: 5_000 });
      await page.keyboard.press('Space');
      try {
        return await coming;
      } catch (error) {
        if (attempt === 3) throw error;
      }
    }
    throw new Error('unreachable');
  }

  it('reported mail page by keyboard only: Tab to the file input, Space chooses, Space unchecks, Enter opens the rest', async () => {
    session.sim.reset();
    const page = await session.openPage('mail.html');
    await page.bringToFront();
    const toInput = await tabUntil(page, (f) => f.id === 'mail-file');
    const chooser = await chooserBySpace(page);
    await chooser.setFiles(PHISH_FILE('keyboard.eml'));
    await page.getByRole('heading', { name: 'The mail in keyboard.eml' }).waitFor();
    const path = [...toInput, '(chose a file)'];
    for (const host of ['protect-eu.mimecast.com', 'help.evil.example', 'status.evil.example']) {
      path.push(...(await tabUntil(page, (f) => f.tag === 'input' && f.name.includes(host))), '(Space)');
      await page.keyboard.press('Space');
    }
    await page.getByText('Selected: 2').waitFor();
    path.push(...(await tabUntil(page, (f) => f.tag === 'button' && /open selected in isolation/i.test(f.name))), '(Enter)');
    await page.keyboard.press('Enter');
    report.push(`[keyboard] reported mail: ${path.join(' -> ')}`);
    await page.getByText('Isolated tabs opened: 2').waitFor({ timeout: 15_000 });
    const targets = [...session.sim.state.contexts.values()].map((context) => targetUrlOf(context)).sort();
    expect(targets).toEqual(['https://invoice.evil.example/pay?id=7', 'https://paypa1-login.example/verify?acc=1']);
    // The launch tabs, once they have reached their launch URLs, are closed for the tests that follow.
    const launched = () => session.context.pages().filter((p) => p.url().startsWith(`${session.sim.launchBase}/launch?ctx=`));
    await expect.poll(() => launched().length, { timeout: 10_000 }).toBe(2);
    for (const tab of launched()) await tab.close();
    await page.close();
  });

  it('popup by keyboard only: Tab to the URL field, type, Enter opens the isolated tab', async () => {
    session.sim.reset();
    const popup = await session.openPage('popup.html');
    await popup.bringToFront();
    const path = await tabUntil(popup, (f) => f.id === 'isolate-url' || f.name === 'URL to isolate');
    report.push(`[keyboard] popup: ${path.join(' -> ')}`);
    await popup.keyboard.type('hxxps://keyboard[.]evil[.]example/only');
    await popup.keyboard.press('Enter');
    const tab = await session.waitForTab(`${session.sim.launchBase}/launch?ctx=`);
    await tab.getByTestId('target-url').waitFor();
    expect(await tab.getByTestId('target-url').textContent()).toBe('https://keyboard.evil.example/only');
    await tab.close();
    await popup.close();
  });

  it.each([
    ['Enter', 'keyboard-enter@acme.example'],
    ['Space', 'keyboard-space@acme.example'],
  ] as const)('options by keyboard only: Tab to Username, type, Tab to Save, %s saves', async (key, username) => {
    const options = await session.openPage('options.html');
    await options.bringToFront();
    const toField = await tabUntil(options, (f) => f.name === 'Username');
    await options.keyboard.press('ControlOrMeta+A');
    await options.keyboard.type(username);
    const toSave = await tabUntil(options, (f) => f.tag === 'button' && f.name === 'Save');
    await options.keyboard.press(key);
    await expect
      .poll(async () => {
        const reply = await options.evaluate<{ value: { settings: { username: string } } }>(() =>
          chrome.runtime.sendMessage({ type: 'getSettings', data: {} }),
        );
        return reply.value.settings.username;
      })
      .toBe(username);
    await options.getByRole('status').filter({ hasText: 'Saved.' }).first().waitFor();
    const after = await focused(options);
    report.push(
      `[keyboard] options, ${key}: ${[...toField, '(typed)', ...toSave].join(' -> ')}; focus after saving: ${after.tag}${after.name === '' ? '' : ` "${after.name}"`}`,
    );
    // Busy, Save stayed focusable (aria-disabled, not disabled): focus is where the user left it.
    expect(after).toMatchObject({ tag: 'button', name: 'Save' });
    await options.close();
  });
});
