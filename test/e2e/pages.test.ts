import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS_DIR, configureThroughOptions, findChromium, launch, type Session } from './harness';

const ANALYST = 'analyst@acme.example';

describe.skipIf(!findChromium() && !process.env['CI'])('popup and options in real Chromium', () => {
  let session: Session;
  let prefix = '';
  const launchTabs = async (): Promise<string[]> => (await session.tabUrls()).filter((u) => u.startsWith(prefix));
  const apiCount = (): number => session.sim.requests.filter((r) => r.path === '/api/').length;

  beforeAll(async () => {
    session = await launch();
    prefix = `${session.sim.launchBase}/launch?ctx=`;
  });
  afterAll(async () => {
    await session.close();
  });

  it('is configured through the options page as a user would, and the token stays out of the page', async () => {
    await configureThroughOptions(session, { token: session.sim.adminToken, username: ANALYST });
    const options = await session.openPage('options.html');
    expect(await options.getByLabel('Service URL', { exact: true }).inputValue()).toBe(session.sim.url);
    expect(await options.getByLabel('Username', { exact: true }).inputValue()).toBe(ANALYST);
    expect(await options.getByLabel('Admin token', { exact: true }).inputValue()).toBe('');
    expect(await options.content()).not.toContain(session.sim.adminToken);
    await options.screenshot({ path: resolve(ARTIFACTS_DIR, 'options.png'), fullPage: true });
    await options.close();
  });

  it('isolates a defanged URL typed into the popup', async () => {
    session.sim.reset();
    const popup = await session.openPage('popup.html');
    await popup.setViewportSize({ width: 420, height: 600 });
    await popup.screenshot({ path: resolve(ARTIFACTS_DIR, 'popup.png'), fullPage: true });
    await popup.getByLabel('URL to isolate').fill('hxxps://invoice[.]evil[.]example/pay?id=7');
    await popup.getByLabel('URL to isolate').press('Enter');
    const tab = await session.waitForTab(prefix);
    await tab.getByTestId('target-url').waitFor();
    expect(await tab.getByTestId('target-url').textContent()).toBe('https://invoice.evil.example/pay?id=7');
    expect(apiCount()).toBe(1);
    await popup.close();
    await tab.close();
  });

  it('opens the tab even when the popup closes right after Open', async () => {
    session.sim.reset();
    session.sim.faults.set({ latencyMs: 300 });
    const popup = await session.openPage('popup.html');
    await popup.getByLabel('URL to isolate').fill('https://closing.example/');
    await popup.getByRole('button', { name: 'Open', exact: true }).click();
    await popup.close();
    const tab = await session.waitForTab(prefix);
    expect(session.sim.state.contexts.size).toBe(1);
    await tab.close();
  });

  it('starts a research session from the popup with the chosen egress location', async () => {
    session.sim.reset();
    const popup = await session.openPage('popup.html');
    await popup.getByLabel('Research').check();
    await popup.getByLabel('Egress location').selectOption('New York City');
    await popup.getByRole('button', { name: 'Open', exact: true }).click();
    const tab = await session.waitForTab(prefix);
    const [context] = [...session.sim.state.contexts.values()];
    expect(context?.contextData).toMatchObject({ user: ANALYST, session_type: 'toolbox-standalone', egress_region: 'New York City' });
    await tab.getByTestId('session-type').waitFor();
    await popup.close();
    await tab.close();
  });

  it('creates many contexts from pasted text in one request, then opens them', async () => {
    session.sim.reset();
    const popup = await session.openPage('popup.html');
    await popup.getByRole('tab', { name: 'Bulk' }).click();
    await popup.getByLabel('Links text').fill('hxxp://one[.]example/a\nhxxps://two[.]example/b and https://three.example/c');
    // The tab's code and its styles load when it is first opened, under the pages' CSP.
    expect(await popup.locator('ul.urls').evaluate((list) => getComputedStyle(list).listStyleType)).toBe('none');
    await popup.getByRole('button', { name: 'Create all' }).click();
    await expect.poll(() => session.sim.state.contexts.size, { timeout: 10_000 }).toBe(3);
    expect(apiCount()).toBe(1);
    await popup.getByRole('button', { name: 'Open all' }).click();
    await expect.poll(async () => (await launchTabs()).length, { timeout: 10_000 }).toBe(3);
    for (const page of session.context.pages().filter((p) => p.url().startsWith(prefix))) await page.close();
    await popup.close();
  });

  it('lists recent contexts, shows their details and disables one', async () => {
    const popup = await session.openPage('popup.html');
    await popup.getByRole('tab', { name: 'Recent' }).click();
    const first = popup.getByRole('listitem').first();
    await first.waitFor();
    await first
      .getByRole('button', { name: /one\.example|two\.example|three\.example/ })
      .first()
      .click();
    await first.getByRole('button', { name: 'Disable' }).click();
    await expect.poll(() => [...session.sim.state.contexts.values()].filter((c) => !c.enabled).length, { timeout: 10_000 }).toBe(1);
    await popup.close();
  });

  it('defangs text in the fang tab, loaded when it is opened', async () => {
    const popup = await session.openPage('popup.html');
    await popup.getByRole('tab', { name: 'Fang' }).click();
    await popup.getByLabel('Text to convert').fill('see https://evil.example.com/a.php');
    await popup.getByRole('button', { name: 'Defang' }).click();
    expect(await popup.getByLabel('Text to convert').inputValue()).toBe('see hxxps://evil[.]example[.]com/a.php');
    await popup.close();
  });

  it('refuses a javascript: URL in the popup without sending anything', async () => {
    session.sim.reset();
    const popup = await session.openPage('popup.html');
    await popup.getByLabel('URL to isolate').fill('javascript:alert(1)');
    await popup.getByLabel('URL to isolate').press('Enter');
    await popup.getByRole('alert').first().waitFor();
    expect(apiCount()).toBe(0);
    expect(await launchTabs()).toEqual([]);
    await popup.close();
  });

  it.each(['popup.html', 'options.html'])('%s asks for the status and the settings before it renders, each once', async (path) => {
    // Notes every message a page sends, and whether the page had rendered anything yet.
    const recorder = `(() => {
      globalThis.__sent = [];
      // chrome.runtime and browser.runtime may be one object: wrapped once.
      for (const runtime of new Set([globalThis.chrome?.runtime, globalThis.browser?.runtime])) {
        if (!runtime?.sendMessage) continue;
        const send = runtime.sendMessage.bind(runtime);
        runtime.sendMessage = (message, ...rest) => {
          globalThis.__sent.push({ type: message?.type, rendered: (document.getElementById('app')?.childElementCount ?? 0) > 0 });
          return send(message, ...rest);
        };
      }
    })();`;
    const page = await session.context.newPage();
    await page.addInitScript(recorder);
    await page.goto(`chrome-extension://${session.extensionId}/${path}`);
    await page.locator('[data-ready="true"]').waitFor({ timeout: 15_000 });
    const sent = await page.evaluate<{ type: string; rendered: boolean }[]>('globalThis.__sent');
    const first = sent.filter((message) => message.type === 'getStatus' || message.type === 'getSettings');
    expect(first.map((message) => message.type).sort()).toEqual(['getSettings', 'getStatus']);
    expect(first.every((message) => !message.rendered)).toBe(true);
    await page.close();
  });
});
