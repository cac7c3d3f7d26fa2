import { beforeEach, describe, expect, it } from 'vitest';
import { ANALYST, seedStorage } from '../support/seed';
import { findChromium, useSession, type Session } from './harness';

/** Seeds settings and a session token straight into storage, as a saved options page would leave them. */
async function seed(session: Session, overrides: Record<string, unknown> = {}, token: string | null = session.sim.adminToken): Promise<void> {
  await seedStorage(await session.currentWorker(), session.sim, overrides, token);
}

const apiCount = (session: Session): number => session.sim.requests.filter((r) => r.path === '/api/').length;

describe.skipIf(!findChromium() && !process.env['CI'])('context menus in real Chromium', () => {
  const use = useSession();
  let session: Session;
  beforeEach(() => {
    session = use();
  });

  it('opens a link in isolation: one request, then the launch tab on the session page', async () => {
    await session.clickMenu({ menuItemId: 'isolate-link', linkUrl: 'https://evil.example/phish?id=1', pageUrl: 'https://mail.example/' });
    const tab = await session.waitForTab(`${session.sim.launchBase}/launch?ctx=`);
    await tab.getByTestId('target-url').waitFor();
    expect(await tab.getByTestId('target-url').textContent()).toBe('https://evil.example/phish?id=1');
    expect(apiCount(session)).toBe(1);
    const sent = session.sim.requests.find((r) => r.path === '/api/')?.body;
    if (typeof sent !== 'string') throw new Error('no /api/ body');
    const body = JSON.parse(sent) as unknown[];
    expect(body[1]).toMatchObject({
      command: 'create_context',
      context_data: { user: ANALYST, urls: ['https://evil.example/phish?id=1'], policy: [{ type: 'domain_allow', params: ['evil.example'] }] },
    });
    expect(await session.tabUrls()).not.toContain('https://evil.example/phish?id=1');
  });

  it('sends the default policies: the session page shows the ribbon in its colours', async () => {
    await seed(session, {
      policy: [
        { type: 'ribbon_message', params: ['Isolated by the SOC: do not enter credentials'] },
        { type: 'ribbon_background_color', params: ['#b00020'] },
        { type: 'ribbon_text_color', params: ['#ffffff'] },
        { type: 'readonly', params: ['true'] },
      ],
    });
    await session.clickMenu({ menuItemId: 'isolate-link', linkUrl: 'https://evil.example/ribbon' });
    const tab = await session.waitForTab(`${session.sim.launchBase}/launch?ctx=`);
    const ribbon = tab.getByTestId('ribbon');
    await ribbon.waitFor();
    expect(await ribbon.textContent()).toBe('Isolated by the SOC: do not enter credentials');
    const colours = await ribbon.evaluate((el) => [getComputedStyle(el).backgroundColor, getComputedStyle(el).color]);
    expect(colours).toEqual(['rgb(176, 0, 32)', 'rgb(255, 255, 255)']);
  });

  it('opens several links of a selection with one batched request', async () => {
    await session.clickMenu({
      menuItemId: 'isolate-selection',
      selectionText: 'IOCs: hxxps://a[.]example/1 and hxxp://b[.]example/2, also https://c.example/3.',
      pageUrl: 'https://ticket.example/',
    });
    const prefix = `${session.sim.launchBase}/launch?ctx=`;
    const deadline = Date.now() + 15_000;
    while ((await session.tabUrls()).filter((u) => u.startsWith(prefix)).length < 3 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
    }
    expect((await session.tabUrls()).filter((u) => u.startsWith(prefix))).toHaveLength(3);
    expect(apiCount(session)).toBe(1);
    const targets = [...session.sim.state.contexts.values()].map((c) => c.contextData.urls?.[0]).sort();
    expect(targets).toEqual(['http://b.example/2', 'https://a.example/1', 'https://c.example/3']);
  });

  it.each([
    ['a javascript: link', { menuItemId: 'isolate-link', linkUrl: 'javascript:alert(document.cookie)' }],
    ['a data: link', { menuItemId: 'isolate-link', linkUrl: 'data:text/html,<script>alert(1)</script>' }],
    ['a file: page', { menuItemId: 'isolate-page', pageUrl: 'file:///etc/passwd' }],
  ])('refuses %s: no request, no tab, a notification', async (_label, info) => {
    const before = (await session.notifications()).length;
    const tabsBefore = await session.tabUrls();
    await session.clickMenu(info);
    await expect.poll(async () => (await session.notifications()).length, { timeout: 10_000 }).toBeGreaterThan(before);
    expect(apiCount(session)).toBe(0);
    expect(await session.tabUrls()).toEqual(tabsBefore);
  });

  it.each([
    ['no token', async () => seed(session, {}, null)],
    ['a bad token', async () => seed(session, {}, 'wrong-token')],
    ['the service down', async () => seed(session, { serviceUrl: 'http://127.0.0.1:9', launchUrl: '' })],
    [
      'an HTTP 502',
      () => {
        session.sim.faults.set({ status: 502 });
        return Promise.resolve();
      },
    ],
    [
      'a malformed reply',
      () => {
        session.sim.faults.set({ malformedJson: true });
        return Promise.resolve();
      },
    ],
  ])('fails closed with %s: no tab to the link, a notification', async (_label, arrange) => {
    await arrange();
    const before = (await session.notifications()).length;
    const tabsBefore = await session.tabUrls();
    await session.clickMenu({ menuItemId: 'isolate-link', linkUrl: 'https://evil.example/x' });
    await expect.poll(async () => (await session.notifications()).length, { timeout: 10_000 }).toBeGreaterThan(before);
    expect(await session.tabUrls()).toEqual(tabsBefore);
  });

  it.each([
    ['copy-link-defanged', { linkUrl: 'https://evil.example/a.b?x=1' }, 'hxxps://evil[.]example/a.b?x=1'],
    ['copy-selection-defanged', { selectionText: 'see http://bad.example/p and 198.51.100.7' }, 'see hxxp://bad[.]example/p and 198[.]51[.]100[.]7'],
    ['copy-selection-refanged', { selectionText: 'see hxxp://bad[.]example/p' }, 'see http://bad.example/p'],
  ])('%s puts the converted text on the clipboard', async (menuItemId, info, expected) => {
    await session.clickMenu({ menuItemId, ...info });
    await expect.poll(() => session.readClipboard(), { timeout: 10_000 }).toBe(expected);
    expect(apiCount(session)).toBe(0);
  });

  it('the keyboard shortcut isolates the current tab', async () => {
    const sw = await session.currentWorker();
    const [tab] = await sw.evaluate(() => chrome.tabs.query({}));
    await session.dispatch('commands.onCommand', 'isolate-current-tab', { ...tab, url: 'https://evil.example/current' });
    await session.waitForTab(`${session.sim.launchBase}/launch?ctx=`);
    expect([...session.sim.state.contexts.values()].map((c) => c.contextData.urls?.[0])).toEqual(['https://evil.example/current']);
  });

  it('the omnibox keyword isolates defanged text', async () => {
    await session.dispatch('omnibox.onInputEntered', 'hxxps://evil[.]example/from-omnibox', 'currentTab');
    await session.waitForTab(`${session.sim.launchBase}/launch?ctx=`);
    expect([...session.sim.state.contexts.values()].map((c) => c.contextData.urls?.[0])).toEqual(['https://evil.example/from-omnibox']);
  });

  it('creates one context for a double click', async () => {
    session.sim.faults.set({ latencyMs: 300 });
    await Promise.all([
      session.clickMenu({ menuItemId: 'isolate-link', linkUrl: 'https://evil.example/double' }),
      session.clickMenu({ menuItemId: 'isolate-link', linkUrl: 'https://evil.example/double' }),
    ]);
    await session.waitForTab(`${session.sim.launchBase}/launch?ctx=`);
    await new Promise((r) => setTimeout(r, 800));
    expect(apiCount(session)).toBe(1);
    expect(session.sim.state.contexts.size).toBe(1);
  });

  it('isolates with one request on a just-started worker, five times in a row', async () => {
    const startsBefore = session.workerStarts();
    const requestsBefore = apiCount(session);
    const prefix = `${session.sim.launchBase}/launch?ctx=`;
    const launchTabs = async (): Promise<number> => (await session.tabUrls()).filter((u) => u.startsWith(prefix)).length;
    for (let round = 0; round < 5; round += 1) {
      await session.stopWorker();
      await session.clickMenu({ menuItemId: 'isolate-link', linkUrl: `https://evil.example/round-${round}` });
      // The round ends when its tab is open: stopping the worker earlier would cut the action short.
      await expect.poll(launchTabs, { timeout: 15_000 }).toBe(round + 1);
    }
    expect(session.sim.state.contexts.size).toBe(5);
    // One request per click, the click being the first thing each new worker did.
    expect(apiCount(session) - requestsBefore).toBe(5);
    // Each round ran in a freshly started worker.
    expect(session.workerStarts() - startsBefore).toBeGreaterThanOrEqual(5);
  });
});
