/**
 * The token canary, end to end in Chromium on the production build: a random
 * token-shaped string is typed into the options page as the admin token, every flow and
 * every error path runs, and everything the run produced is scanned for the canary in
 * all its forms. It may appear only in POST bodies to the service's /api/, /getfile/
 * and /putfile/, and in the one storage area the mode allows (storage.session by
 * default; storage.local and its LevelDB files with "Remember on this device").
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findChromium, launchBrowser, type Reply, type SecuritySession } from './browser';
import { canaryFinder, makeCanary, masked } from './canary';
import { closingChecks, positiveControl } from './closing';
import { closeLaunchTabs, configureThroughOptions, launchTabs, notified, pageTexts, readClipboard, waitForLaunchTabs } from './flows';
import { prove } from './ledger';
import { scanEvidence, scanProfile, startSink, type Sink } from './scan';
import { seenConnection } from '../support/import';

/** Nothing listens here: "the service is down". */
const DOWN = 'http://127.0.0.1:9';
const RESEARCH = { egressRegion: 'New York City', browserProfile: null, availability: [], connectivity: [] };

function expectOk(reply: Reply, what: string): unknown {
  if (!reply.ok) throw new Error(`${what} failed: ${reply.error?.name ?? ''} ${reply.error?.message ?? ''}`);
  return reply.value;
}

interface RunResult {
  readonly flows: number;
  readonly requestsScanned: number;
  readonly detail: string;
}

async function runCanary(remember: boolean): Promise<RunResult> {
  const canary = makeCanary();
  const finder = canaryFinder(canary);
  const sink: Sink = await startSink();
  const session: SecuritySession = await launchBrowser({ simulator: { adminToken: canary } });
  const sim = session.sim;
  const texts: { where: string; text: string }[] = [];
  const flows: string[] = [];
  const step = async (name: string, body: () => Promise<unknown>): Promise<void> => {
    flows.push(name);
    try {
      await body();
    } catch (error) {
      throw new Error(`flow "${name}": ${error instanceof Error ? masked(error.message, canary) : String(error)}`, { cause: error });
    }
  };
  const tabsAfter = async (count: number, act: () => Promise<unknown>): Promise<void> => {
    const before = launchTabs(session).length;
    await act();
    await waitForLaunchTabs(session, before + count);
  };
  const faulted = async (name: string, fault: Parameters<typeof sim.faults.set>[0], act: () => Promise<unknown>): Promise<void> => {
    await step(name, async () => {
      sim.faults.set(fault);
      try {
        await act();
      } finally {
        sim.faults.clear();
      }
    });
  };
  const menuLink = (url: string) => () =>
    notified(session, () => session.clickMenu({ menuItemId: 'isolate-link', linkUrl: url, pageUrl: 'https://mail.example/' }));
  try {
    // Configure as a user: the canary is typed into the token field and saved.
    const options = await configureThroughOptions(session, { token: canary, remember });
    flows.push('options: save', 'options: test connection');
    texts.push({ where: 'options page after save and test', text: await pageTexts(options) });
    const popup = await session.openPage('popup.html');

    // Every isolation entry point.
    await step('menu: isolate link', () =>
      tabsAfter(1, () => session.clickMenu({ menuItemId: 'isolate-link', linkUrl: 'https://evil.example/phish?id=1', pageUrl: 'https://mail.example/' })),
    );
    await step('menu: research session', () =>
      tabsAfter(1, () => session.clickMenu({ menuItemId: 'isolate-link-research', linkUrl: 'https://evil.example/research' })),
    );
    await step('menu: selection (batched)', () =>
      tabsAfter(3, () =>
        session.clickMenu({ menuItemId: 'isolate-selection', selectionText: 'hxxps://a[.]example/1 hxxp://b[.]example/2 https://c.example/3' }),
      ),
    );
    await step('menu: selection above the threshold, confirmed from the notification', async () => {
      const text = Array.from({ length: 7 }, (_, i) => `hxxps://bulk${i}[.]example/x`).join(' ');
      const ask = await notified(session, () => session.clickMenu({ menuItemId: 'isolate-selection', selectionText: text }));
      await tabsAfter(7, () => session.dispatch('notifications.onButtonClicked', ask.id, 0));
    });
    await step('menu: isolate page', () => tabsAfter(1, () => session.clickMenu({ menuItemId: 'isolate-page', pageUrl: 'https://evil.example/page' })));
    await step('shortcut', async () => {
      const worker = await session.worker();
      const [tab] = await worker.evaluate(() => chrome.tabs.query({ active: true }));
      await tabsAfter(1, () => session.dispatch('commands.onCommand', 'isolate-current-tab', { ...tab, url: 'https://evil.example/current' }));
    });
    await step('omnibox', () => tabsAfter(1, () => session.dispatch('omnibox.onInputEntered', 'hxxps://evil[.]example/omnibox', 'currentTab')));
    // One copy at a time, as a user copies: each must land before the next.
    const copies: [string, Record<string, string>, string][] = [
      ['copy-link-defanged', { linkUrl: 'https://evil.example/copy' }, 'hxxps://evil[.]example/copy'],
      ['copy-selection-defanged', { selectionText: 'see https://evil.example/a' }, 'see hxxps://evil[.]example/a'],
      ['copy-selection-refanged', { selectionText: 'see hxxps://evil[.]example/b' }, 'see https://evil.example/b'],
    ];
    for (const [menuItemId, info, expected] of copies) {
      await step(`menu: ${menuItemId}`, async () => {
        await session.clickMenu({ menuItemId, ...info });
        await expect.poll(() => readClipboard(session), { timeout: 10_000 }).toBe(expected);
      });
    }
    await step('popup: isolate typed text', async () => {
      await popup.bringToFront();
      await tabsAfter(1, async () => {
        await popup.getByLabel('URL to isolate').fill('hxxps://invoice[.]evil[.]example/pay');
        await popup.getByLabel('URL to isolate').press('Enter');
      });
    });
    await step('popup: research session', () => tabsAfter(1, async () => expectOk(await session.send(popup, 'research', { research: RESEARCH }), 'research')));
    await step('popup: bulk create, then open', async () => {
      const bulk = expectOk(await session.send(popup, 'bulkCreate', { urls: ['https://bulk-a.example/', 'https://bulk-b.example/'] }), 'bulkCreate') as {
        created: { id: string }[];
      };
      await tabsAfter(2, async () => expectOk(await session.send(popup, 'openContexts', { ids: bulk.created.map((c) => c.id) }), 'openContexts'));
    });
    await step('popup: recent contexts, details, rename, disable, delete', async () => {
      const recent = expectOk(await session.send(popup, 'listRecent', {}), 'listRecent') as { id: string }[];
      const id = recent[0]?.id ?? '';
      expectOk(await session.send(popup, 'contextDetails', { id }), 'contextDetails');
      expectOk(await session.send(popup, 'updateContext', { id, name: 'renamed', enabled: false }), 'updateContext');
      expectOk(await session.send(popup, 'deleteContext', { id }), 'deleteContext');
    });
    await step('popup: isolate current tab (an extension page: refused)', async () => {
      await popup.bringToFront();
      const reply = await session.send(popup, 'isolateCurrentTab', { session: 'standard' });
      expect(reply.ok).toBe(false);
    });
    await step('popup and options: status and settings', async () => {
      for (const page of [popup, options]) {
        expectOk(await session.send(page, 'getStatus', {}), 'getStatus');
        expectOk(await session.send(page, 'getSettings', {}), 'getSettings');
      }
    });
    await step('options: proxies (get, add, set, delete)', async () => {
      expectOk(await session.send(options, 'getProxies', { org: 'acme' }), 'getProxies');
      const proxy = { name: 'security-proxy', location: { address: '10.9.8.7' } };
      expectOk(await session.send(options, 'addProxies', { org: 'acme', proxies: [proxy] }), 'addProxies');
      expectOk(await session.send(options, 'getProxies', { org: 'acme' }), 'getProxies');
      expectOk(await session.send(options, 'setProxies', { org: 'acme', proxies: [proxy] }), 'setProxies');
      expectOk(await session.send(options, 'deleteProxies', { org: 'acme', names: ['security-proxy'] }), 'deleteProxies');
    });
    await step('options: files (upload, download)', async () => {
      const put = expectOk(
        await session.send(options, 'putFile', { name: 'evidence.bin', bucketId: 'bucket-1', fileToken: sim.fileToken, base64: 'AAECAwQFBgc=' }),
        'putFile',
      ) as { fileId: string };
      expectOk(await session.send(options, 'getFile', { id: put.fileId, fileToken: sim.fileToken }), 'getFile');
    });
    await step('options: export, import it back, refuse a hostile import', async () => {
      const exported = expectOk(await session.send(options, 'exportSettings', {}), 'exportSettings') as { json: string };
      texts.push({ where: 'exported settings file', text: exported.json });
      expectOk(await session.send(options, 'previewImport', { json: exported.json }), 'previewImport');
      expectOk(await session.send(options, 'importSettings', { json: exported.json, confirmed: seenConnection(exported.json) }), 'importSettings');
      const hostileFile = JSON.stringify({ format: 'isolink-settings', version: 1, settings: { token: canary } });
      const hostile = await session.send(options, 'importSettings', { json: hostileFile, confirmed: seenConnection(hostileFile) });
      expect(hostile.ok).toBe(false);
    });

    // Error paths: each must end in a notification or an error reply, never a tab.
    const tabsBeforeErrors = launchTabs(session).length;
    await step('bad token (the service no longer knows the canary)', async () => {
      const record = sim.state.adminTokens.get(canary);
      sim.state.adminTokens.delete(canary);
      try {
        const note = await menuLink('https://evil.example/bad-token')();
        expect(note.title).toBe('The service rejected the admin token');
        expect((await session.send(options, 'testConnection', {})).ok).toBe(false);
        expect((await session.send(options, 'getProxies', { org: 'acme' })).ok).toBe(false);
      } finally {
        if (record) sim.state.adminTokens.set(canary, record);
      }
    });
    await step('service down', async () => {
      expectOk(await session.send(options, 'saveSettings', { patch: { serviceUrl: DOWN } }), 'saveSettings');
      // The token is entered for that service too: what fails is reaching it.
      expectOk(await session.send(options, 'setToken', { token: canary, remember }), 'setToken');
      try {
        const note = await menuLink('https://evil.example/down')();
        expect(note.title).toBe('The service could not be reached');
        expect((await session.send(options, 'testConnection', {})).ok).toBe(false);
      } finally {
        expectOk(await session.send(options, 'saveSettings', { patch: { serviceUrl: sim.url } }), 'saveSettings');
        expectOk(await session.send(options, 'setToken', { token: canary, remember }), 'setToken');
      }
    });
    if (!remember) {
      await faulted('timeout (the service never answers)', { hang: true }, async () => {
        const note = await notified(session, () => session.clickMenu({ menuItemId: 'isolate-link', linkUrl: 'https://evil.example/timeout' }), 25_000);
        expect(note.title).toBe('The service did not answer in time');
      });
    }
    const echo = `ValueError: bad token ${canary} (${encodeURIComponent(canary)}) ${JSON.stringify(canary)}`;
    const replyFaults: [string, Parameters<typeof sim.faults.set>[0]][] = [
      ['malformed JSON', { malformedJson: true }],
      ['wrong number of slots', { wrongLength: true }],
      ['mismatched command ids', { mismatchedCommandId: true }],
      ['HTML error page', { htmlErrorPage: true }],
      ['HTTP 500', { status: 500 }],
      ['HTTP 401', { status: 401 }],
      ['dropped connection', { dropConnection: true }],
      ['an error slot echoing the token', { errorSlots: { create_context: echo } }],
      ['a refused URL', { refuseUrls: ['https://evil.example/refused'] }],
      ['a 307 redirect to another server', { redirect: { status: 307, location: `${sink.url}/api/` } }],
      ['a 308 redirect to another server', { redirect: { status: 308, location: `${sink.url}/api/` } }],
    ];
    for (const [name, fault] of replyFaults) {
      await faulted(
        `menu with ${name}`,
        fault,
        menuLink(name.startsWith('a refused') ? 'https://evil.example/refused' : `https://evil.example/${flows.length}`),
      );
    }
    await faulted('popup isolate with HTTP 502', { status: 502 }, async () => {
      const note = await notified(session, async () => {
        expect((await session.send(popup, 'isolate', { url: 'https://evil.example/popup-502', session: 'standard' })).ok).toBe(false);
      });
      expect(note.title).toBe('The service reported an error');
    });
    await faulted('options proxies with malformed JSON', { malformedJson: true }, async () => {
      expect((await session.send(options, 'getProxies', { org: 'acme' })).ok).toBe(false);
    });
    await faulted('options test connection with an error slot echoing the token', { errorSlots: { get_context: echo } }, async () => {
      const reply = await session.send(options, 'testConnection', {});
      expect(reply.ok).toBe(false);
    });
    await faulted(
      'upload redirected (307) to another server',
      { redirect: { status: 307, location: `${sink.url}/putfile/` }, scope: ['putfile'] },
      async () => {
        expect((await session.send(options, 'putFile', { name: 'x.bin', bucketId: 'b', fileToken: sim.fileToken, base64: 'AA==' })).ok).toBe(false);
      },
    );
    await faulted('download with HTTP 502', { status: 502, scope: ['getfile'] }, async () => {
      expect((await session.send(options, 'getFile', { id: 'missing', fileToken: sim.fileToken })).ok).toBe(false);
    });
    await step('upload with a wrong file token', async () => {
      expect((await session.send(options, 'putFile', { name: 'x.bin', bucketId: 'b', fileToken: 'wrong-file-token', base64: 'AA==' })).ok).toBe(false);
    });
    expect(launchTabs(session).length).toBe(tabsBeforeErrors);

    // What is left in the pages, the clipboard and storage.
    for (const page of [options, popup]) texts.push({ where: `page ${page.url()}`, text: await pageTexts(page) });
    texts.push({ where: 'clipboard', text: await readClipboard(session) });
    await positiveControl(session);
    await closeLaunchTabs(session);
    await closingChecks(session, remember ? 'canary-remember' : 'canary-session');
    const storage = await session.storage();
    const allowedArea = remember ? 'local' : 'session';
    // Kept bound to the service it was entered for.
    expect(storage[allowedArea]['token']).toEqual({ token: canary, origin: new URL(sim.url).origin });
    for (const area of ['local', 'session', 'sync'] as const) {
      const { token: _token, ...rest } = storage[area];
      const others = area === allowedArea ? rest : storage[area];
      expect(finder.inText(JSON.stringify(others)), `storage.${area}`).toBeNull();
    }
    expect(storage.sync).toEqual({});

    await session.closeBrowser();
    const allowedDirs = remember ? [join('Default', 'Local Extension Settings', session.extensionId)] : [];
    const disk = scanProfile(session.profileDir, finder, allowedDirs);
    const scan = scanEvidence(session, finder, canary, [sim.url, DOWN], texts);

    expect(scan.leaks.map((leak) => `${leak.where} [${leak.form}] ${leak.excerpt}`)).toEqual([]);
    expect(disk.leaks.map((leak) => `${leak.where} [${leak.form}]`)).toEqual([]);
    expect(sink.received).toEqual([]);
    // Positive controls: the scanners do see the canary where it must be.
    expect(scan.tokenBodies.simulator).toBeGreaterThan(10);
    expect(scan.tokenBodies.browser).toBeGreaterThan(10);
    expect(scan.tokenBodies.cdp).toBeGreaterThan(10);
    if (remember) expect(disk.allowedHits.length).toBeGreaterThan(0);
    else expect(disk.allowedHits).toEqual([]);
    const detail = `${flows.length} flows and error paths; ${scan.requestsScanned} requests, ${scan.textsScanned} texts, ${disk.files} profile files (${(disk.bytes / 1e6).toFixed(1)} MB) scanned`;
    return { flows: flows.length, requestsScanned: scan.requestsScanned, detail };
  } finally {
    await session.dispose();
    await sink.close();
  }
}

describe.skipIf(!findChromium() && !process.env['CI'])('token canary in Chromium', () => {
  it('session-only mode: the canary is only in /api/ and file POST bodies and storage.session; nothing on disk', async () => {
    await prove('canary-session', async () => {
      const result = await runCanary(false);
      return { cases: result.flows, detail: result.detail };
    });
  }, 240_000);

  it('"Remember on this device": the canary is only in those bodies, storage.local and its LevelDB files', async () => {
    await prove('canary-remember', async () => {
      const result = await runCanary(true);
      return { cases: result.flows, detail: result.detail };
    });
  }, 240_000);
});
