/**
 * Enterprise policy end to end, in real Chromium reading a real policy file.
 *
 * Chromium on Linux reads /etc/chromium/policies/managed/*.json; an extension's policy
 * sits under `3rdparty.extensions.<extension id>` and reaches it as storage.managed,
 * validated against public/managed_schema.json. The file is machine-wide, so the
 * build is copied to a fresh directory first: an unpacked extension's id derives from
 * its path, and this copy's id is unique to this run (other suites, loading
 * .output/chrome-mv3, never see the policy). The file is removed in afterAll (and at
 * process exit), even when a test fails.
 *
 * 1. A first launch without a policy: the user saves their own service URL and username.
 * 2. The policy is written; the same profile is launched again: an isolation asked for at
 *    once already uses the policy's service and token; the managed values win,
 *    the options page shows them disabled and "Set by your organisation", a saveSettings
 *    message that touches a locked key is refused, an invalid managed value is reported
 *    and ignored, and a link is isolated with the token that only the policy holds.
 */
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, rmdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { BrowserContext, Locator, Page, Worker } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../simulator';
import { targetUrlOf } from '../simulator/state';
import { launchExtension } from '../support/chromium';
import { ARTIFACTS_DIR, EXTENSION_DIR, findChromium, showOptionsSection } from './harness';
import { localServer, type LocalServer } from './local-server';

const POLICY_DIR = '/etc/chromium/policies/managed';
const POLICY_FILE = join(POLICY_DIR, 'isolink-test.json');
const ANALYST = 'analyst@acme.example';
const LOCKED_NOTE = 'Set by your organisation';

/** Chromium's id for an unpacked extension: SHA-256 of its absolute path, first 32 hex digits mapped 0-f to a-p. */
function unpackedExtensionId(dir: string): string {
  const hex = createHash('sha256').update(realpathSync(dir)).digest('hex').slice(0, 32);
  return [...hex].map((digit) => String.fromCharCode('a'.charCodeAt(0) + parseInt(digit, 16))).join('');
}

interface Browser {
  readonly context: BrowserContext;
  readonly worker: Worker;
  readonly extensionId: string;
  openPage(path: 'popup.html' | 'options.html'): Promise<Page>;
  close(): Promise<void>;
}

async function launchChromium(extensionDir: string, profileDir: string): Promise<Browser> {
  const { context, worker, extensionId } = await launchExtension(extensionDir, profileDir);
  return {
    context,
    worker,
    extensionId,
    async openPage(path) {
      const page = await context.newPage();
      await page.goto(`chrome-extension://${extensionId}/${path}`);
      await page.locator('[data-ready="true"]').waitFor({ timeout: 15_000 });
      return page;
    },
    close: () => context.close(),
  };
}

/** The text of the elements a control's aria-describedby names: what a screen reader reads after its name. */
async function descriptionOf(control: Locator): Promise<string> {
  return control.evaluate((element) =>
    (element.getAttribute('aria-describedby') ?? '')
      .split(/\s+/u)
      .map((id) => (id === '' ? '' : (document.getElementById(id)?.textContent ?? '')))
      .join(' ')
      .trim(),
  );
}

/** The tab showing a launch URL, once it has navigated there. */
async function tabAt(context: BrowserContext, url: string): Promise<Page> {
  await expect.poll(() => context.pages().some((p) => p.url() === url), { timeout: 15_000 }).toBe(true);
  const page = context.pages().find((p) => p.url() === url);
  if (!page) throw new Error(`no tab at ${url}`);
  return page;
}

/** The one context the simulator holds, and the tab at its launch URL. */
async function onlyContextTab(sim: Simulator, context: BrowserContext): Promise<{ id: string; tab: Page }> {
  await expect.poll(() => sim.state.contexts.size, { timeout: 15_000 }).toBe(1);
  const [created] = [...sim.state.contexts.values()];
  if (!created) throw new Error('no context');
  return { id: created.id, tab: await tabAt(context, sim.launchUrl(created.id)) };
}

type Reply = { ok: true; value: unknown } | { ok: false; error: { message: string } };

/** Sends a protocol message from one of Isolink's pages, exactly as its UI does. */
function sendFrom(page: Page, type: string, data: unknown): Promise<Reply> {
  return page.evaluate(([messageType, messageData]) => chrome.runtime.sendMessage({ type: messageType, data: messageData }), [type, data] as const);
}

/** Removes the policy file, and the directories this test created if they are empty. */
let createdDirs: string[] = [];
function removePolicy(): void {
  rmSync(POLICY_FILE, { force: true });
  for (const dir of createdDirs) {
    if (existsSync(dir) && readdirSync(dir).length === 0) rmdirSync(dir);
  }
  createdDirs = [];
}

function writePolicy(extensionId: string, values: Record<string, unknown>): void {
  for (let dir = POLICY_DIR; !existsSync(dir); dir = dirname(dir)) createdDirs.unshift(dir);
  createdDirs.reverse();
  mkdirSync(POLICY_DIR, { recursive: true });
  writeFileSync(POLICY_FILE, `${JSON.stringify({ '3rdparty': { extensions: { [extensionId]: values } } }, null, 2)}\n`);
}

const canWritePolicy = (() => {
  try {
    return process.getuid?.() === 0;
  } catch {
    return false;
  }
})();

describe.skipIf((!findChromium() || !canWritePolicy) && !process.env['CI'])('enterprise policy in real Chromium', () => {
  let sim: Simulator;
  let extensionDir: string;
  let profileDir: string;
  let extensionId: string;
  let browser: Browser | undefined;
  let policy: Record<string, unknown>;
  const timings: string[] = [];

  beforeAll(async () => {
    process.once('exit', removePolicy);
    if (existsSync(POLICY_FILE)) throw new Error(`${POLICY_FILE} exists already: another run is using it; remove it if it is stale.`);
    sim = await startSimulator();
    extensionDir = mkdtempSync(join(tmpdir(), 'isolink-enterprise-ext-'));
    cpSync(EXTENSION_DIR, extensionDir, { recursive: true });
    profileDir = mkdtempSync(join(tmpdir(), 'isolink-enterprise-profile-'));
    extensionId = unpackedExtensionId(extensionDir);
    policy = {
      serviceUrl: sim.url,
      launchUrl: sim.launchBase,
      username: ANALYST,
      token: sim.adminToken,
      rememberToken: false,
      bulkConfirmThreshold: 7,
      // Valid for the schema (an integer), refused by the extension (must be positive): reported and ignored.
      maxUses: -3,
    };
  });

  afterAll(async () => {
    try {
      await browser?.close();
    } finally {
      removePolicy();
      process.removeListener('exit', removePolicy);
      await sim.close();
      rmSync(profileDir, { recursive: true, force: true });
      rmSync(extensionDir, { recursive: true, force: true });
      console.log(`[enterprise] start-up with and without a policy:\n  ${timings.join('\n  ')}`);
    }
  });

  it('without a policy, the user saves their own settings (and the computed extension id is the real one)', async () => {
    browser = await launchChromium(extensionDir, profileDir);
    expect(browser.extensionId).toBe(extensionId);
    const started = Date.now();
    const options = await browser.openPage('options.html');
    timings.push(`no policy:     options page data-ready ${Date.now() - started} ms after opening`);
    await options.getByLabel('Service URL', { exact: true }).fill('https://isolation.user.example');
    await options.getByLabel('Username', { exact: true }).fill('user@acme.example');
    await options.getByRole('button', { name: 'Save', exact: true }).click();
    await expect
      .poll(async () => ((await sendFrom(options, 'getSettings', {})) as { value: { settings: { serviceUrl: string } } }).value.settings.serviceUrl)
      .toBe('https://isolation.user.example');
    expect(await options.getByText(LOCKED_NOTE).count()).toBe(0);
    await browser.close();
    browser = undefined;
  });

  it('right after start-up, an isolation already uses the policy (service, identity, token)', async () => {
    writePolicy(extensionId, policy);
    const launched = Date.now();
    browser = await launchChromium(extensionDir, profileDir);
    const workerUp = Date.now() - launched;
    // The popup opens as soon as the worker runs; it must not wait long for storage.managed.
    const opened = Date.now();
    const popup = await browser.openPage('popup.html');
    const popupReady = Date.now() - opened;
    // Isolate at once, before storage.managed is known to have loaded: the policy must already be in force.
    const reply = await sendFrom(popup, 'isolate', { url: 'https://first-click.example/', session: 'standard' });
    const isolated = Date.now() - launched;
    // Then time the first storage.managed read the test itself makes.
    const managed = await browser.worker.evaluate(async () => {
      const start = performance.now();
      const values = await chrome.storage.managed.get();
      return { ms: performance.now() - start, keys: Object.keys(values).sort() };
    });
    timings.push(
      `policy present: worker up ${workerUp} ms after launch; popup data-ready ${popupReady} ms after opening; ` +
        `isolate answered ${isolated} ms after launch (${reply.ok ? 'ok' : `refused: ${reply.error.message}`}); ` +
        `the test's own first storage.managed.get() then took ${managed.ms.toFixed(0)} ms`,
    );
    expect(managed.keys).toEqual(Object.keys(policy).sort());
    expect(reply.ok ? 'isolated' : reply.error.message).toBe('isolated');
    expect(sim.requests.filter((r) => r.path === '/api/')).toHaveLength(1);
    const { tab } = await onlyContextTab(sim, browser.context);
    await tab.close();
    await popup.close();
  });

  it('with the policy loaded, the managed values are in force and the token is the managed one', async () => {
    if (!browser) throw new Error('no browser');
    const worker = browser.worker;
    await expect.poll(() => worker.evaluate(async () => Object.keys(await chrome.storage.managed.get()).length), { timeout: 15_000 }).toBeGreaterThan(0);
    const popup = await browser.openPage('popup.html');
    const view = (await sendFrom(popup, 'getSettings', {})) as {
      ok: true;
      value: { settings: Record<string, unknown>; locked: string[]; tokenManaged: boolean; managedIssues: { key: string }[] };
    };
    expect(view.ok).toBe(true);
    expect(view.value.settings).toMatchObject({ serviceUrl: sim.url, launchUrl: sim.launchBase, username: ANALYST, bulkConfirmThreshold: 7, maxUses: null });
    // maxUses is invalid in the policy: locked at its default, never the user's value.
    expect([...view.value.locked].sort()).toEqual(['bulkConfirmThreshold', 'launchUrl', 'maxUses', 'rememberToken', 'serviceUrl', 'username']);
    expect(view.value.tokenManaged).toBe(true);
    expect(view.value.managedIssues.map((issue) => issue.key)).toEqual(['maxUses']);

    const status = (await sendFrom(popup, 'getStatus', {})) as { ok: true; value: { configured: boolean; tokenSource: string | null } };
    expect(status.value).toMatchObject({ configured: true, tokenSource: 'managed' });
    expect(await popup.content()).not.toContain(sim.adminToken);
    await popup.close();
  });

  it('shows the locked values disabled, marked "Set by your organisation", and reports the invalid one', async () => {
    if (!browser) throw new Error('no browser');
    const options = await browser.openPage('options.html');
    for (const [label, value] of [
      ['Service URL', sim.url],
      ['Launch URL', sim.launchBase],
      ['Username', ANALYST],
    ] as const) {
      const field = options.getByLabel(label, { exact: true });
      expect(await field.inputValue()).toBe(value);
      expect(await field.isDisabled()).toBe(true);
      expect(await descriptionOf(field)).toContain(LOCKED_NOTE);
    }
    const token = options.getByLabel('Admin token', { exact: true });
    expect(await token.isDisabled()).toBe(true);
    expect(await token.inputValue()).toBe('');
    expect(await descriptionOf(token)).toContain(LOCKED_NOTE);
    await options.getByText('A token is set (set by your organisation)').waitFor();
    expect(await options.getByText(LOCKED_NOTE).count()).toBeGreaterThanOrEqual(4);
    // The invalid managed value: listed for the administrator, not applied.
    await options.getByRole('heading', { name: 'Some settings from your organisation could not be used' }).waitFor();
    expect(await options.getByRole('region', { name: 'Some settings from your organisation could not be used' }).textContent()).toContain('maxUses');
    expect(await options.content()).not.toContain(sim.adminToken);
    await options.screenshot({ path: resolve(ARTIFACTS_DIR, 'options-managed.png'), fullPage: true });
    await options.close();
  });

  it('refuses a saveSettings message that changes a locked key, and leaves storage as it was', async () => {
    if (!browser) throw new Error('no browser');
    const options = await browser.openPage('options.html');
    const stored = async (): Promise<unknown> => browser?.worker.evaluate(async () => (await chrome.storage.local.get('settings'))['settings']);
    const before = JSON.stringify(await stored());

    const refused = await sendFrom(options, 'saveSettings', { patch: { serviceUrl: 'https://isolation.attacker.example', tabPlacement: 'background' } });
    expect(refused.ok).toBe(false);
    expect(refused.ok ? '' : refused.error.message).toContain('serviceUrl is set by your organisation');
    expect(JSON.stringify(await stored())).toBe(before);

    const token = await sendFrom(options, 'setToken', { token: 'user-typed-token', remember: true });
    expect(token.ok ? 'stored' : 'refused').toBe('refused');

    // A key the organisation left open is still the user's to change.
    const allowed = await sendFrom(options, 'saveSettings', { patch: { tabPlacement: 'background' } });
    expect(allowed.ok).toBe(true);
    const after = (await sendFrom(options, 'getSettings', {})) as { value: { settings: Record<string, unknown> } };
    expect(after.value.settings).toMatchObject({ serviceUrl: sim.url, tabPlacement: 'background' });
    // Restore the default, so the next test opens the tab in the foreground.
    expect((await sendFrom(options, 'saveSettings', { patch: { tabPlacement: 'foreground' } })).ok).toBe(true);
    await options.close();
  });

  it('isolates a link with the token only the policy holds', async () => {
    if (!browser) throw new Error('no browser');
    const context = browser.context;
    const tokens = await browser.worker.evaluate(async () => ({
      local: (await chrome.storage.local.get('token'))['token'] ?? null,
      session: (await chrome.storage.session.get('token'))['token'] ?? null,
    }));
    expect(tokens).toEqual({ local: null, session: null });
    sim.reset();
    const popup = await browser.openPage('popup.html');
    const url = popup.getByLabel('URL to isolate');
    await url.fill('hxxps://invoice[.]evil[.]example/pay?id=7');
    await url.press('Enter');
    const { tab } = await onlyContextTab(sim, context);
    await tab.getByTestId('target-url').waitFor();
    expect(await tab.getByTestId('target-url').textContent()).toBe('https://invoice.evil.example/pay?id=7');
    const calls = sim.requests.filter((r) => r.path === '/api/');
    expect(calls).toHaveLength(1);
    expect(JSON.stringify(calls[0]?.body)).toContain(sim.adminToken);
    const [created] = [...sim.state.contexts.values()];
    expect(created?.contextData).toMatchObject({ user: ANALYST });
    await tab.close();
    await popup.close();
  });

  /** Closes the browser, writes `values` as the policy and starts the same profile again, once storage.managed has them. */
  async function relaunchWith(values: Record<string, unknown>): Promise<Browser> {
    await browser?.close();
    writePolicy(extensionId, values);
    browser = await launchChromium(extensionDir, profileDir);
    const worker = browser.worker;
    await expect
      .poll(() => worker.evaluate(async () => JSON.stringify(Object.keys(await chrome.storage.managed.get()).sort())), { timeout: 15_000 })
      .toBe(JSON.stringify(Object.keys(values).sort()));
    return browser;
  }

  it("a policy with a token but no service URL: the user's own service never receives the token", async () => {
    const current = await relaunchWith({ token: sim.adminToken, username: ANALYST });
    const options = await current.openPage('options.html');
    // The user points their own (unlocked) service URL at the simulator: it must not get the policy's token.
    expect((await sendFrom(options, 'saveSettings', { patch: { serviceUrl: sim.url, launchUrl: '' } })).ok).toBe(true);
    sim.reset();
    const popup = await current.openPage('popup.html');
    const reply = await sendFrom(popup, 'isolate', { url: 'https://evil.example/no-managed-service', session: 'standard' });
    expect(reply.ok ? 'isolated' : reply.error.message).toBe(
      "Your organisation's policy gives Isolink an admin token but no valid service URL, so the token is sent nowhere. Ask your administrator to set serviceUrl in the policy.",
    );
    expect(sim.requests.filter((r) => r.path === '/api/')).toHaveLength(0);
    expect(sim.state.contexts.size).toBe(0);
    await popup.close();
    await options.close();
  });

  it('an invalid managed service URL stops isolation, names the key, and the options page shows it', async () => {
    const current = await relaunchWith({ serviceUrl: 'ftp://isolation.evil.example', token: sim.adminToken, username: ANALYST });
    sim.reset();
    const popup = await current.openPage('popup.html');
    const reply = await sendFrom(popup, 'isolate', { url: 'https://evil.example/broken-policy', session: 'standard' });
    const message =
      "Your organisation's policy for Isolink has a value Isolink cannot use for: serviceUrl. Nothing is isolated until your administrator fixes it.";
    expect(reply.ok ? 'isolated' : reply.error.message).toBe(message);
    expect(sim.requests).toHaveLength(0);
    await popup.close();
    const options = await current.openPage('options.html');
    const region = options.getByRole('region', { name: 'Some settings from your organisation could not be used' });
    await region.getByText(message).waitFor();
    expect(await options.getByLabel('Service URL', { exact: true }).isDisabled()).toBe(true);
    await options.screenshot({ path: resolve(ARTIFACTS_DIR, 'options-managed-broken.png'), fullPage: true });
    await options.close();
  });

  /** A target server, and a from page on `localhost` with one link to it (127.0.0.1: another site). */
  interface Sites {
    readonly target: LocalServer;
    readonly site: LocalServer;
  }

  /**
   * Relaunches with a policy for the simulator (service, user, token) and `autoIsolate`, and runs
   * `test` with a target server and a from page linking to it; both are closed after.
   */
  async function withAutoIsolatePolicy(autoIsolate: Record<string, unknown>, test: (current: Browser, sites: Sites) => Promise<void>): Promise<void> {
    const current = await relaunchWith({ serviceUrl: sim.url, launchUrl: sim.launchBase, username: ANALYST, token: sim.adminToken, autoIsolate });
    const target = await localServer();
    const site = await localServer({ '/': ['text/html', `<!doctype html><title>mail</title><a id="link" href="${target.origin}/phish">report</a>`] });
    try {
      await test(current, { target, site });
    } finally {
      await site.close();
      await target.close();
    }
  }

  /** Clicks the from page's link under the policy in force; resolves once its tab shows a launch URL. */
  async function clickThrough(current: Browser, site: LocalServer): Promise<void> {
    sim.reset();
    const page = await current.context.newPage();
    await page.goto(site.origin.replace('127.0.0.1', 'localhost'));
    await page.click('#link');
    await page.waitForURL((url) => url.href.startsWith(`${sim.launchBase}/launch?ctx=`), { timeout: 15_000 });
    await page.close();
  }

  it('autoIsolate from the policy: a link on a from page opens in isolation, its target receives nothing, the section is locked', async () => {
    await withAutoIsolatePolicy({ from: ['localhost'] }, async (current, { target, site }) => {
      await expect
        .poll(() => current.worker.evaluate(async () => (await chrome.declarativeNetRequest.getDynamicRules()).length), { timeout: 15_000 })
        .toBeGreaterThan(0);
      await clickThrough(current, site);
      expect([...sim.state.contexts.values()].map(targetUrlOf)).toEqual([`${target.origin}/phish`]);
      expect(JSON.stringify(sim.requests.find((r) => r.path === '/api/')?.body)).toContain(sim.adminToken);
      expect(target.hits).toEqual([]);
      const options = await current.openPage('options.html');
      const section = await showOptionsSection(options, 'auto-isolate');
      const list = section.getByLabel('Links opened from these sites');
      expect(await list.inputValue()).toBe('localhost');
      expect(await list.isDisabled()).toBe(true);
      expect(await descriptionOf(list)).toContain(LOCKED_NOTE);
      await options.close();
    });
  });

  it('an autoIsolate the extension cannot use is reported and locked, and never loosens the rules in force', async () => {
    // Valid for the schema (strings), refused by the extension (not a domain).
    await withAutoIsolatePolicy({ from: ['not a domain'] }, async (current, { target, site }) => {
      const options = await current.openPage('options.html');
      const region = options.getByRole('region', { name: 'Some settings from your organisation could not be used' });
      expect(await region.textContent()).toContain('autoIsolate');
      expect(await (await showOptionsSection(options, 'auto-isolate')).getByLabel('Links opened from these sites').isDisabled()).toBe(true);
      await options.close();
      // The last valid policy's rules (from: localhost) still stop the link.
      await clickThrough(current, site);
      expect([...sim.state.contexts.values()].map(targetUrlOf)).toEqual([`${target.origin}/phish`]);
      expect(target.hits).toEqual([]);
    });
  });
});
