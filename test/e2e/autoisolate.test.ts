/**
 * Isolate by policy in real Chromium, set in the options page as a user does: the built
 * extension's network rules stop a navigation before a byte reaches its target, and the
 * landing page creates one context for it and shows the launch URL in that tab. Sites are
 * two loopback names (`localhost` and `127.0.0.1` are different sites); each target is a
 * server of its own that counts every request it receives.
 *
 * The managed policy's path is in enterprise.test.ts (a real policy file).
 */
import type { Page } from 'playwright-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { targetUrlOf } from '../simulator/state';
import { autoIsolateThroughOptions, dynamicRules as rulesOf, findChromium, useSession, type Session } from './harness';
import { localServer, type LocalServer } from './local-server';

/** The from page: a same-tab link, a new-tab link, a script navigation, a form, all to `target`. */
function fromPage(target: string): string {
  return `<!doctype html><title>from</title>
<a id="same" href="${target}/same?q=1">same tab</a>
<a id="blank" target="_blank" rel="noopener noreferrer" href="${target}/blank">new tab</a>
<button id="script" onclick="location.href='${target}/script'">script</button>
<form id="form" method="post" action="${target}/form"><input name="a" value="b"><button>post</button></form>`;
}

describe.skipIf(!findChromium() && !process.env['CI'])('isolate by policy in real Chromium', () => {
  let session: Session;
  let target: LocalServer;
  let site: LocalServer;
  /** The from page's origin under the name `localhost`: another site than 127.0.0.1. */
  let fromOrigin = '';
  /** The from pages' servers of the current test. */
  const servers: LocalServer[] = [];

  const use = useSession();
  beforeEach(async () => {
    session = use();
    target = await localServer();
    site = await localServer({ '/': ['text/html', ''] });
  });
  afterEach(async () => {
    await target.close();
    await site.close();
    for (const served of servers.splice(0)) await served.close();
  });

  /** Targets of the contexts the simulator holds, in creation order. */
  const created = (): string[] => [...session.sim.state.contexts.values()].map((context) => targetUrlOf(context) ?? '');

  const setAutoIsolate = (value: Parameters<typeof autoIsolateThroughOptions>[1]): Promise<void> => autoIsolateThroughOptions(session, value);
  const dynamicRules = (): Promise<unknown[]> => rulesOf(session);

  async function openFromPage(html: (target: string) => string, origin = 'localhost'): Promise<Page> {
    const served = await localServer({ '/': ['text/html', html(target.origin)] });
    const port = new URL(served.origin).port;
    fromOrigin = `http://${origin}:${port}`;
    servers.push(served);
    const page = await session.context.newPage();
    await page.goto(`${fromOrigin}/`);
    return page;
  }

  const launchPrefix = (): string => `${session.sim.launchBase}/launch?ctx=`;

  it('a same-tab link on a from page: one context for the target, the launch URL in that tab, nothing sent to the target', async () => {
    await setAutoIsolate({ from: ['localhost'] });
    const page = await openFromPage(fromPage);
    await page.click('#same');
    await page.waitForURL((url) => url.href.startsWith(launchPrefix()), { timeout: 15_000 });
    expect(created()).toEqual([`${target.origin}/same?q=1`]);
    expect(target.hits).toEqual([]);
    // The landing page replaced itself: back goes to the from page, not to a second isolation.
    await page.goBack();
    expect(page.url()).toBe(`${fromOrigin}/`);
    expect(created()).toHaveLength(1);
  });

  it('a target=_blank link, a script navigation and a form post: each isolated, none reaches the target', async () => {
    await setAutoIsolate({ from: ['localhost'] });
    const page = await openFromPage(fromPage);
    const opened = session.context.waitForEvent('page');
    await page.click('#blank');
    const tab = await opened;
    await tab.waitForURL((url) => url.href.startsWith(launchPrefix()), { timeout: 15_000 });
    await page.click('#script');
    await page.waitForURL((url) => url.href.startsWith(launchPrefix()), { timeout: 15_000 });
    await page.goto(`${fromOrigin}/`);
    await page.click('#form button');
    await expect.poll(() => created().length, { timeout: 15_000 }).toBe(3);
    expect(created()).toEqual([`${target.origin}/blank`, `${target.origin}/script`, `${target.origin}/form`]);
    expect(target.hits).toEqual([]);
  });

  it('an except target loads as usual and creates nothing; a link on another site loads as usual', async () => {
    await setAutoIsolate({ from: ['localhost'], except: ['127.0.0.1'] });
    const page = await openFromPage(fromPage);
    await page.click('#same');
    await page.waitForURL(`${target.origin}/same?q=1`);
    expect(target.hits).toContain('GET /same?q=1');
    await setAutoIsolate({ from: ['example.org'] });
    const other = await openFromPage(fromPage);
    await other.click('#same');
    await other.waitForURL(`${target.origin}/same?q=1`);
    expect(created()).toEqual([]);
  });

  it('to isolates a typed navigation; the service and launch origins on the same host are never isolated', async () => {
    await setAutoIsolate({ to: ['127.0.0.1'] });
    const page = await session.context.newPage();
    await page.goto(`${target.origin}/typed`).catch(() => undefined);
    await page.waitForURL((url) => url.href.startsWith(launchPrefix()), { timeout: 15_000 });
    expect(created()).toEqual([`${target.origin}/typed`]);
    expect(target.hits).toEqual([]);
  });

  it('ask: the target is shown and nothing is created until chosen; Open in isolation creates one', async () => {
    await setAutoIsolate({ from: ['localhost'], ask: true });
    const page = await openFromPage(fromPage);
    await page.click('#same');
    await page.locator('[data-phase="ask"]').waitFor({ timeout: 15_000 });
    expect(await page.locator('.target-url').textContent()).toBe(`${target.origin}/same?q=1`);
    expect(created()).toEqual([]);
    await page.getByRole('button', { name: 'Open in isolation' }).click();
    await page.waitForURL((url) => url.href.startsWith(launchPrefix()), { timeout: 15_000 });
    expect(created()).toEqual([`${target.origin}/same?q=1`]);
    expect(target.hits).toEqual([]);
  });

  it('a hostile page cannot make Isolink create a context through the landing page, with or without its secrets', async () => {
    await setAutoIsolate({ from: ['localhost'] });
    const keyOf = async (): Promise<string> => {
      const rules = (await dynamicRules()) as { action: { redirect?: { regexSubstitution: string } } }[];
      const substitution = rules.find((rule) => rule.action.redirect)?.action.redirect?.regexSubstitution ?? '';
      return /#k=([0-9a-f]{32})/u.exec(substitution)?.[1] ?? '';
    };
    // A key the rules carried once, replaced since: a change of settings writes a new one.
    const stale = await keyOf();
    await setAutoIsolate({ from: ['localhost', 'example.org'] });
    const key = await keyOf();
    expect(key).toMatch(/^[0-9a-f]{32}$/u);
    expect(key).not.toBe(stale);
    const worker = await session.currentWorker();
    // The per-session address a web page would have to guess; the rules use the fixed one.
    const dynamic = await worker.evaluate(() => chrome.runtime.getURL('/isolate.html'));
    const fixed = `chrome-extension://${session.extensionId}/isolate.html`;
    expect(dynamic).not.toBe(fixed);
    expect(JSON.stringify(await dynamicRules())).toContain(`"${fixed}#k=${key}&r=100&u=`);
    expect(JSON.stringify(await dynamicRules())).not.toContain(new URL(dynamic).host);
    const fragment = (k: string): string => `#k=${k}&r=100&u=${target.origin}/planted`;
    const guessed = 'f'.repeat(32);
    // The browser refuses the fixed address to any web page: even the real key gets nowhere.
    const refusedByBrowser = [fixed, `${fixed}${fragment(guessed)}`, `${fixed}${fragment(key)}`];
    // At the per-session address (were it guessed), the page checks the key against the rules in force.
    const refusedByPage = [dynamic, `${dynamic}${fragment(guessed)}`, `${dynamic}${fragment(stale)}`, `${dynamic}#k=${key}&r=999&u=${target.origin}/planted`];
    const hostile = await session.context.newPage();
    const attempt = async (url: string): Promise<void> => {
      await hostile.goto(`${site.origin}/`);
      await hostile.evaluate((to) => {
        location.href = to;
      }, url);
    };
    for (const url of refusedByBrowser) {
      await attempt(url);
      await hostile.waitForURL((at) => at.protocol === 'chrome-error:', { timeout: 10_000 });
    }
    for (const url of refusedByPage) {
      await attempt(url);
      await hostile.locator('[data-phase="refused"]').waitFor({ timeout: 10_000 });
      expect(await hostile.getByRole('heading').textContent()).toBe('Isolink did not open this link');
    }
    expect(created()).toEqual([]);
    expect(session.sim.requests.filter((request) => request.path === '/api/')).toEqual([]);
    expect(target.hits).toEqual([]);
  });
});
