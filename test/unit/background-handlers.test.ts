/**
 * Every message type of the protocol, through createHandlers, against the simulator
 * over HTTP. Side effects are plain fakes; settings import/export use the real store
 * over fakeBrowser storage.
 */
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Deps } from '../../src/background/deps';
import { createHandlers, type Handlers } from '../../src/background/handlers';
import { PROTOCOL, type MessageType, type Status } from '../../src/messaging/protocol';
import type { Settings } from '../../src/settings/schema';
import { exportSettings, importSettings, readSettingsView, saveSettings } from '../../src/settings/store';
import { clearToken, moveToken, readToken, writeToken } from '../../src/settings/token';
import type { Simulator } from '../simulator';
import { createContext, useSimulator } from '../simulator/helpers';
import { SOURCE_TAB, USER, apiBodies, contextIds, createFakes, recentEntry, simSettings, type FakeState, type Fakes } from '../support/background-fakes';
import { format, installMessages } from '../support/i18n';
import { seenConnection } from '../support/import';
import { expectSaid } from '../support/said';

const handle = useSimulator();
const sim = (): Simulator => handle.sim;

beforeEach(() => {
  fakeBrowser.reset();
  installMessages();
});

const CANARY = 'canary-9vT3kQ8mZ2xW7pL4nR6yB1cF5hJ0dG';
const TARGET = 'https://evil.example/login';

function setUp(settings?: Settings, options?: Parameters<typeof createFakes>[2]): Fakes & { handlers: Handlers } {
  const fakes = createFakes(sim(), settings ?? simSettings(sim()), options);
  return { ...fakes, handlers: createHandlers(fakes.deps) };
}

const launchUrl = (id: string): string => `${sim().url}/launch?ctx=${id}`;

/** Creates a context for the analyst directly on the simulator (no client involved). */
function seedContext(url = TARGET): Promise<string> {
  return createContext(sim(), { user: USER, urls: [url] });
}

describe('every message type has a handler', () => {
  it('createHandlers answers exactly the protocol’s message types', () => {
    // Arrange
    const { handlers } = setUp();

    // Act
    const actual = Object.keys(handlers).sort();

    // Assert
    expect(actual).toEqual((Object.keys(PROTOCOL) as MessageType[]).sort());
  });
});

describe('getStatus', () => {
  const PROBLEM = {
    noService: 'No service URL is set. Open the options and enter it.',
    badService: 'The service URL is not valid: it must use https (http only on this computer). Fix it in the options.',
    badLaunch: 'The launch URL is not valid: it must use https (http only on this computer). Fix it in the options.',
    noIdentity: 'No username or organisation is set. Open the options and enter one of them.',
    noToken: 'No admin token is set. Open the options and enter it.',
  } as const;

  it('is configured when everything is set', async () => {
    // Arrange
    const { handlers } = setUp();

    // Act
    const actual = await handlers.getStatus({});

    // Assert
    expect(actual).toEqual({
      configured: true,
      serviceHost: new URL(sim().url).host,
      serviceOrigin: sim().url,
      hasToken: true,
      tokenSource: 'session',
      hostPermission: true,
      identity: USER,
      problems: [],
    });
  });

  it.each<[string, (state: FakeState) => void, (s: Simulator) => Partial<Status>]>([
    [
      'no service URL',
      (state) => {
        state.settings = { ...state.settings, serviceUrl: '' };
      },
      () => ({ problems: [PROBLEM.noService], serviceHost: null, serviceOrigin: null, hostPermission: false }),
    ],
    [
      'a service URL that is plain http off loopback',
      (state) => {
        state.settings = { ...state.settings, serviceUrl: 'http://isolation.acme.example' };
      },
      () => ({ problems: [PROBLEM.badService], serviceHost: null, serviceOrigin: null, hostPermission: false }),
    ],
    [
      'a bad launch URL',
      (state) => {
        state.settings = { ...state.settings, launchUrl: 'ftp://launch.acme.example' };
      },
      () => ({ problems: [PROBLEM.badLaunch] }),
    ],
    [
      'no identity',
      (state) => {
        state.settings = { ...state.settings, username: '' };
      },
      () => ({ problems: [PROBLEM.noIdentity], identity: null }),
    ],
    [
      'both identities',
      (state) => {
        state.settings = { ...state.settings, org: 'acme' };
      },
      () => ({ problems: [PROBLEM.noIdentity], identity: null }),
    ],
    [
      'no token',
      (state) => {
        state.token = null;
      },
      () => ({ problems: [PROBLEM.noToken], hasToken: false, tokenSource: null }),
    ],
    [
      'no host permission',
      (state) => {
        state.permission = false;
      },
      (s) => ({ problems: [`Isolink may not reach ${s.url} yet. Open the options and click Grant access.`], hostPermission: false }),
    ],
    [
      'nothing at all',
      (state) => {
        state.settings = { ...state.settings, serviceUrl: '', username: '' };
        state.token = null;
      },
      () => ({
        problems: [PROBLEM.noService, PROBLEM.noIdentity, PROBLEM.noToken],
        serviceHost: null,
        serviceOrigin: null,
        hostPermission: false,
        identity: null,
        hasToken: false,
        tokenSource: null,
      }),
    ],
  ])('lists the problem of %s', async (_label, change, expected) => {
    // Arrange
    const { handlers, state } = setUp();
    change(state);

    // Act
    const actual = await handlers.getStatus({});

    // Assert
    expect(actual).toMatchObject({ ...expected(sim()), configured: false });
    expect(actual.problems).toEqual(expected(sim()).problems);
  });

  it('names an organisation identity', async () => {
    // Arrange
    const { handlers } = setUp(simSettings(sim(), { username: '', org: 'acme/soc' }));

    // Act
    const actual = await handlers.getStatus({});

    // Assert
    expect(actual.identity).toBe('organisation acme/soc');
    expect(actual.configured).toBe(true);
  });

  it.each([['session'], ['local'], ['managed']] as const)('never contains the token (%s)', async (source) => {
    // Arrange
    const { handlers } = setUp(undefined, { token: { token: CANARY, source, origin: new URL(sim().url).origin } });

    // Act
    const actual = JSON.stringify(await handlers.getStatus({}));

    // Assert
    expect(actual).not.toContain(CANARY);
    expect(JSON.parse(actual)).toMatchObject({ hasToken: true, tokenSource: source });
  });
});

describe('settings and token messages', () => {
  it('getSettings answers the settings view', async () => {
    // Arrange
    const { handlers, state } = setUp(undefined, { locked: ['serviceUrl'] });

    // Act
    const actual = await handlers.getSettings({});

    // Assert
    expect(actual).toEqual({ settings: state.settings, locked: ['serviceUrl'], tokenManaged: false, managedIssues: [], managedBroken: [] });
  });

  it.each([
    ['with rememberToken moves the token', { rememberToken: true }, [true]],
    ['without rememberToken leaves it', { tabPlacement: 'background' }, []],
  ])('saveSettings %s', async (_label, patch, expectedMoves) => {
    // Arrange
    const { handlers, state } = setUp();

    // Act
    const view = await handlers.saveSettings({ patch });

    // Assert
    expect(state.savedPatches).toEqual([patch]);
    expect(state.tokenMoves).toEqual(expectedMoves);
    expect(view.settings).toMatchObject(patch);
  });

  it('setToken stores the token where asked, records the choice and answers the status', async () => {
    // Arrange
    const { handlers, state } = setUp(undefined, { token: null });

    // Act
    const actual = await handlers.setToken({ token: CANARY, remember: true });

    // Assert
    expect(state.tokenWrites).toEqual([{ token: CANARY, remember: true, origin: new URL(sim().url).origin }]);
    expect(state.savedPatches).toEqual([{ rememberToken: true }]);
    expect(actual).toMatchObject({ hasToken: true, tokenSource: 'local', configured: true });
    expect(JSON.stringify(actual)).not.toContain(CANARY);
  });

  it('setToken is refused when the organisation manages the token', async () => {
    // Arrange
    const { handlers, state } = setUp(undefined, { tokenManaged: true, token: { token: 'managed', source: 'managed', origin: new URL(sim().url).origin } });

    // Act
    const act = handlers.setToken({ token: CANARY, remember: false });

    // Assert
    await expectSaid(act, { name: 'RequestRefusedError', message: 'Your organisation sets the token; it cannot be changed here.' });
    expect(state.tokenWrites).toEqual([]);
    expect(state.savedPatches).toEqual([]);
  });

  it('setToken never keeps the token on disk when the organisation locked "remember" off', async () => {
    // Arrange: real settings and token storage, with rememberToken=false set by policy
    await fakeBrowser.storage.managed.set({ rememberToken: false });
    const { deps } = setUp();
    const handlers = createHandlers({
      ...deps,
      store: { ...deps.store, readSettings: readSettingsView, readToken, writeToken, moveToken, clearToken, saveSettings },
    });

    // Act
    await handlers.setToken({ token: CANARY, remember: true }).catch(() => undefined);

    // Assert
    expect(JSON.stringify(await fakeBrowser.storage.local.get())).not.toContain(CANARY);
  });

  it('setRemember saves the choice and moves the token', async () => {
    // Arrange
    const { handlers, state } = setUp();

    // Act
    const actual = await handlers.setRemember({ remember: true });

    // Assert
    expect(state.savedPatches).toEqual([{ rememberToken: true }]);
    expect(state.tokenMoves).toEqual([true]);
    expect(actual.tokenSource).toBe('local');
  });

  it('clearToken forgets the token and says so', async () => {
    // Arrange
    const { handlers, state } = setUp();

    // Act
    const actual = await handlers.clearToken({});

    // Assert
    expect(state.tokenClears).toBe(1);
    expect(actual).toMatchObject({
      hasToken: false,
      tokenSource: null,
      configured: false,
      problems: ['No admin token is set. Open the options and enter it.'],
    });
  });

  it('exportSettings answers the file text, pretty-printed, without the token', async () => {
    // Arrange
    const { deps } = setUp();
    const saved = simSettings(sim(), { tabPlacement: 'background' });
    await saveSettings(saved);
    await writeToken(CANARY, true, new URL(sim().url).origin);
    const handlers = createHandlers({ ...deps, store: { ...deps.store, exportSettings, importSettings } });

    // Act
    const actual = await handlers.exportSettings({});

    // Assert
    expect(actual.json).toBe(`${JSON.stringify({ format: 'isolink-settings', version: 1, settings: saved }, null, 2)}\n`);
    expect(actual.json).not.toContain(CANARY);
  });

  it('importSettings applies a file and answers the new view', async () => {
    // Arrange
    const { deps } = setUp();
    const handlers = createHandlers({ ...deps, store: { ...deps.store, exportSettings, importSettings } });
    const settings = simSettings(sim(), { maxUses: 2 });

    // Act
    const json = JSON.stringify({ format: 'isolink-settings', version: 1, settings });
    const actual = await handlers.importSettings({ json, confirmed: seenConnection(json) });

    // Assert
    expect(actual).toEqual({ settings, locked: [], tokenManaged: false, managedIssues: [], managedBroken: [] });
    expect(JSON.parse((await handlers.exportSettings({})).json)).toEqual({ format: 'isolink-settings', version: 1, settings });
  });

  it.each([
    [false, 'session'],
    [true, 'local'],
  ] as const)('importSettings with rememberToken %s moves the token there at once', async (remember, source) => {
    // Arrange: the token is remembered (or not) the other way.
    const { deps, state } = setUp(undefined, { token: { token: CANARY, source: remember ? 'session' : 'local', origin: new URL(sim().url).origin } });
    const handlers = createHandlers({ ...deps, store: { ...deps.store, importSettings } });
    const settings = simSettings(sim(), { rememberToken: remember });

    // Act
    const json = JSON.stringify({ format: 'isolink-settings', version: 1, settings });
    await handlers.importSettings({ json, confirmed: seenConnection(json) });

    // Assert
    expect(state.tokenMoves).toEqual([remember]);
    expect(state.token?.source).toBe(source);
  });
});

describe('testConnection', () => {
  it('with a username proves the token with a get_context that finds nothing', async () => {
    // Arrange
    const { handlers } = setUp();

    // Act
    const actual = await handlers.testConnection({});

    // Assert
    expect(actual).toEqual({ message: `Connected to ${new URL(sim().url).host}: the service accepted the admin token.` });
    expect(apiBodies(sim())).toEqual([
      [
        { command: 'setauth', data: sim().adminToken },
        { command: 'get_context', command_id: 'c1', browse_context_id: 'isolink-connection-check' },
      ],
    ]);
  });

  it('with an organisation reads the organisation', async () => {
    // Arrange
    const { handlers } = setUp(simSettings(sim(), { username: '', org: 'acme/soc' }));

    // Act
    const actual = await handlers.testConnection({});

    // Assert
    expect(actual).toEqual({ message: `Connected to ${new URL(sim().url).host}: the admin token works for organisation acme/soc.` });
    expect(apiBodies(sim())[0]?.[1]).toEqual({ command: 'org.get', command_id: 'c1', org_name: 'acme/soc' });
  });

  it('with a bad token fails with an AuthError', async () => {
    // Arrange
    const { handlers } = setUp(undefined, { token: { token: 'wrong-token', source: 'session', origin: new URL(sim().url).origin } });

    // Act
    const act = handlers.testConnection({});

    // Assert
    await expect(act).rejects.toMatchObject({
      name: 'AuthError',
      message: 'The service rejected the admin token (KeyError: invalid or missing admin token). Check the token in the options.',
    });
  });

  it('with an organisation the token may not see fails with a CommandError', async () => {
    // Arrange
    const { handlers } = setUp(simSettings(sim(), { username: '', org: 'globex' }), {
      token: { token: 'demo-soc-admin-token', source: 'session', origin: new URL(sim().url).origin },
    });

    // Act
    const act = handlers.testConnection({});

    // Assert
    await expect(act).rejects.toMatchObject({ name: 'CommandError', kind: 'no_org' });
  });
});

describe('isolation messages', () => {
  it('isolate answers the launch URL and the recent entry', async () => {
    // Arrange
    const { handlers, state } = setUp();

    // Act
    const actual = await handlers.isolate({ url: 'hxxps://evil[.]example/login', session: 'standard' });

    // Assert
    const [id = ''] = contextIds(sim());
    expect(actual.launchUrl).toBe(launchUrl(id));
    expect(actual.context).toEqual(state.recent[0]);
    expect(actual.context).toMatchObject({ id, url: TARGET, host: 'evil.example', sessionType: 'service-ruby' });
  });

  it('isolate refuses research choices the settings schema refuses, and sends nothing', async () => {
    // Arrange
    const { handlers, state } = setUp();
    const research = { egressRegion: 'Atlantis', browserProfile: null, availability: [], connectivity: [] };

    // Act
    const act = handlers.isolate({ url: TARGET, session: 'research', research });

    // Assert
    await expectSaid(act, { name: 'RequestRefusedError', message: 'The research session choices are not valid. Check them and try again.' });
    expect(sim().requests).toEqual([]);
    expect(state.notices).toEqual([
      {
        kind: 'failure',
        failure: { title: 'Request refused', message: 'The research session choices are not valid. Check them and try again.', next: 'none' },
        retry: undefined,
      },
    ]);
  });

  it('isolateCurrentTab isolates the active tab’s page next to it', async () => {
    // Arrange
    const { handlers, state } = setUp(undefined, { activeTab: { ...SOURCE_TAB, url: TARGET } });

    // Act
    const actual = await handlers.isolateCurrentTab({ session: 'standard' });

    // Assert
    expect(state.tabs).toEqual([{ url: actual.launchUrl, options: { active: true, index: 3, windowId: 1, openerTabId: 7 } }]);
    expect(actual.context.url).toBe(TARGET);
  });

  it('isolateCurrentTab carries the popup’s research choice and policy toggles', async () => {
    // Arrange
    const settings = simSettings(sim(), {
      autoDomainAllow: false,
      expiry: { preset: 'none', customMinutes: 60 },
      policy: [{ type: 'readonly', params: ['false'] }],
    });
    const { handlers } = setUp(settings, { activeTab: { ...SOURCE_TAB, url: TARGET } });

    // Act
    await handlers.isolateCurrentTab({
      session: 'research',
      research: { egressRegion: 'Frankfurt', browserProfile: null, availability: [], connectivity: [] },
      toggles: { readonly: true },
    });

    // Assert
    expect(apiBodies(sim())[0]?.[1]).toEqual({
      command: 'create_context',
      command_id: 'c1',
      context_data: {
        user: USER,
        urls: [TARGET],
        policy: [{ type: 'readonly', params: ['true'] }],
        session_type: 'toolbox-standalone',
        egress_region: 'Frankfurt',
      },
    });
  });

  it.each([
    [
      'javascript:',
      'javascript:alert(1)',
      'urlScheme',
      'This link was not isolated: it uses the javascript: scheme. Only http and https links can be opened in isolation.',
    ],
    [
      'a browser page',
      'chrome://settings/',
      'urlScheme',
      'This link was not isolated: it uses the chrome: scheme. Only http and https links can be opened in isolation.',
    ],
    [
      'a defanged address (tabs hold real addresses only)',
      'hxxps://evil[.]example/',
      'urlNotAbsolute',
      'This link was not isolated: it is not an absolute URL. Only http and https links can be opened in isolation.',
    ],
  ])('isolateCurrentTab refuses a tab showing %s', async (_label, url, code, message) => {
    // Arrange
    const { handlers, state } = setUp(undefined, { activeTab: { ...SOURCE_TAB, url } });

    // Act
    const act = handlers.isolateCurrentTab({ session: 'standard' });

    // Assert
    await expectSaid(act, { name: 'RefusedUrlError', code, message });
    expect(sim().requests).toEqual([]);
    expect(state.tabs).toEqual([]);
  });

  it.each([
    ['no active tab', undefined],
    ['a tab whose URL cannot be read', { id: 7, index: 2, windowId: 1 }],
  ])('isolateCurrentTab with %s is refused and notified', async (_label, activeTab) => {
    // Arrange
    const { handlers, state } = setUp(undefined, { activeTab });

    // Act
    const act = handlers.isolateCurrentTab({ session: 'standard' });

    // Assert
    const message = 'Isolink cannot read the address of this tab. Copy the link and paste it into the popup instead.';
    await expectSaid(act, { name: 'RefusedUrlError', message });
    expect(state.notices).toEqual([{ kind: 'failure', failure: { title: 'Link not isolated', message, next: 'none' }, retry: undefined }]);
    expect(sim().requests).toEqual([]);
    expect(state.tabs).toEqual([]);
  });

  it('research opens a research session and answers it', async () => {
    // Arrange
    const { handlers, state } = setUp();

    // Act
    const actual = await handlers.research({ research: { egressRegion: 'Frankfurt', browserProfile: null, availability: [], connectivity: [] } });

    // Assert
    expect(actual.context).toMatchObject({ url: '', host: '', sessionType: 'toolbox-standalone' });
    expect(state.tabs.map((tab) => tab.url)).toEqual([actual.launchUrl]);
  });

  it('bulkCreate creates in one request, opens nothing and reports refused URLs', async () => {
    // Arrange
    const { handlers, state } = setUp();

    // Act
    const actual = await handlers.bulkCreate({ urls: ['https://a.example/', 'javascript:alert(1)', 'https://b.example/'] });

    // Assert
    expect(apiBodies(sim())).toHaveLength(1);
    expect(actual.created.map((entry) => entry.url)).toEqual(['https://a.example/', 'https://b.example/']);
    expect(actual.created.map((entry) => entry.launchUrl)).toEqual(contextIds(sim()).map(launchUrl));
    expect(actual.failures).toEqual([
      {
        url: 'javascript:alert(1)',
        error: 'This link was not isolated: it uses the javascript: scheme. Only http and https links can be opened in isolation.',
      },
    ]);
    expect(state.tabs).toEqual([]);
    expect(state.recent.map((entry) => entry.url)).toEqual(['https://a.example/', 'https://b.example/']);
  });
});

describe('recent contexts', () => {
  it('openContexts opens only known ids, and only launch URLs on the launch base, reading no token', async () => {
    // Arrange
    const first = await seedContext();
    const second = await seedContext('https://other.example/');
    const recent = [
      recentEntry({ id: first, launchUrl: launchUrl(first) }),
      recentEntry({ id: 'forged', launchUrl: 'https://evil.example/launch?ctx=forged' }),
      recentEntry({ id: 'target', launchUrl: TARGET }),
      recentEntry({ id: second, launchUrl: launchUrl(second) }),
    ];
    const { handlers, state, deps } = setUp(undefined, { recent });
    const readToken = vi.spyOn(deps.store, 'readToken');
    const requestsBefore = sim().requests.length;

    // Act
    const actual = await handlers.openContexts({ ids: [second, 'forged', 'unknown', 'target', first] });

    // Assert
    expect(actual).toEqual({ opened: 2 });
    expect(state.tabs).toEqual([
      { url: launchUrl(second), options: { active: true, index: 3, windowId: 1, openerTabId: 7 } },
      { url: launchUrl(first), options: { active: false, index: 4, windowId: 1, openerTabId: 7 } },
    ]);
    expect(sim().requests).toHaveLength(requestsBefore);
    expect(readToken).not.toHaveBeenCalled();
  });

  it('listRecent answers the stored list', async () => {
    // Arrange
    const recent = [recentEntry({ id: 'a', launchUrl: launchUrl('a') }), recentEntry({ id: 'b', launchUrl: launchUrl('b') })];
    const { handlers } = setUp(undefined, { recent });

    // Act
    const actual = await handlers.listRecent({});

    // Assert
    expect(actual).toEqual(recent);
  });

  it('contextDetails answers the live details', async () => {
    // Arrange
    const id = await seedContext();
    const record = sim().state.contexts.get(id);
    const { handlers } = setUp();

    // Act
    const actual = await handlers.contextDetails({ id });

    // Assert
    expect(actual).toEqual({ id, name: '', enabled: true, useCount: 0, maxUses: 1000, usesLeft: 1000, expires: record?.expires, created: record?.created });
  });

  it('contextDetails of an unknown id fails with a not_found CommandError', async () => {
    // Arrange
    const { handlers } = setUp();

    // Act
    const act = handlers.contextDetails({ id: 'no-such-context' });

    // Assert
    await expect(act).rejects.toMatchObject({ name: 'CommandError', kind: 'not_found' });
  });

  it('updateContext changes the context and renames the recent entry', async () => {
    // Arrange
    const id = await seedContext();
    const { handlers, state } = setUp(undefined, { recent: [recentEntry({ id, launchUrl: launchUrl(id) })] });

    // Act
    const actual = await handlers.updateContext({ id, enabled: false, name: 'invoice phish' });

    // Assert
    expect(actual).toMatchObject({ id, name: 'invoice phish', enabled: false });
    expect(sim().state.contexts.get(id)).toMatchObject({ name: 'invoice phish', enabled: false });
    expect(state.recent).toEqual([recentEntry({ id, launchUrl: launchUrl(id), name: 'invoice phish' })]);
  });

  it('updateContext without a name leaves the recent entry alone', async () => {
    // Arrange
    const id = await seedContext();
    const { handlers, state } = setUp(undefined, { recent: [recentEntry({ id, launchUrl: launchUrl(id) })] });

    // Act
    await handlers.updateContext({ id, enabled: false });

    // Assert
    expect(state.recentUpdates).toEqual([]);
  });

  it('deleteContext deletes it and removes the recent entry; a second delete answers false', async () => {
    // Arrange
    const id = await seedContext();
    const { handlers, state } = setUp(undefined, { recent: [recentEntry({ id, launchUrl: launchUrl(id) })] });

    // Act
    const first = await handlers.deleteContext({ id });
    const second = await handlers.deleteContext({ id });

    // Assert
    expect([first, second]).toEqual([{ deleted: true }, { deleted: false }]);
    expect(sim().state.contexts.get(id)?.deleted).toBe(true);
    expect(state.recent).toEqual([]);
    expect(state.recentRemovals).toEqual([id, id]);
  });
});

describe('proxies', () => {
  it('getProxies answers own and inherited proxies with the proxy policy', async () => {
    // Arrange
    const { handlers } = setUp();

    // Act
    const actual = await handlers.getProxies({ org: 'acme/soc' });

    // Assert
    expect(actual).toEqual({
      proxies: [
        { name: 'soc-tls', location: { address: 'tls-proxy.soc.acme.example', type: 'https' } },
        { name: 'acme-egress', location: { address: 'proxy.acme.example', port: 3128, type: 'http' }, inherited_from: 'acme' },
      ],
      proxy_policy: { enabled: true, fail_mode: 'closed', inherited_from: 'acme' },
    });
    expect(apiBodies(sim())[0]?.[1]).toEqual({ command: 'policy_proxies.get', command_id: 'c1', org_name: 'acme/soc', include_proxy_policy: true });
  });

  it('addProxies appends with defaults filled in', async () => {
    // Arrange
    const { handlers } = setUp();

    // Act
    const actual = await handlers.addProxies({ org: 'acme', proxies: [{ name: 'dc2', location: { address: '10.1.1.1' } }] });

    // Assert
    expect(actual).toEqual({
      proxies: [
        { name: 'acme-egress', location: { address: 'proxy.acme.example', port: 3128, type: 'http' } },
        { name: 'dc2', location: { address: '10.1.1.1', port: 80, type: 'http' } },
      ],
      warnings: [],
    });
  });

  it('setProxies replaces the list and warns about https certificate names', async () => {
    // Arrange
    const { handlers } = setUp();

    // Act
    const actual = await handlers.setProxies({ org: 'acme', proxies: [{ name: 'tls', location: { address: 'tls.acme.example', type: 'https' } }] });

    // Assert
    expect(actual).toEqual({
      proxies: [{ name: 'tls', location: { address: 'tls.acme.example', port: 443, type: 'https' } }],
      warnings: [
        {
          proxy: 'tls',
          code: 'https_certificate_name',
          // The analyst's words for the code, with the proxy's name.
          message: format('proxyWarnHttpsCertificate', 'tls'),
        },
      ],
    });
    expect(sim().state.orgs.get(1)?.proxies).toEqual([{ name: 'tls', location: { address: 'tls.acme.example', port: 443, type: 'https' } }]);
  });

  it('setProxies refuses an invalid proxy before sending anything', async () => {
    // Arrange
    const { handlers } = setUp();

    // Act
    const act = handlers.setProxies({ org: 'acme', proxies: [{ name: 'bad', location: { address: 'not a host' } }] });

    // Assert
    await expect(act).rejects.toMatchObject({ name: 'ValidationError', field: 'proxies[0].location.address' });
    expect(sim().requests).toEqual([]);
  });

  it('deleteProxies answers what was deleted and what was not found', async () => {
    // Arrange
    const { handlers } = setUp();

    // Act
    const actual = await handlers.deleteProxies({ org: 'acme', names: ['acme-egress', 'nope'] });

    // Assert
    expect(actual).toEqual({ proxies_deleted: ['acme-egress'], proxies_not_found: ['nope'] });
  });
});

describe('files', () => {
  const ALL_BYTES = Uint8Array.from({ length: 256 }, (_, i) => i);
  const ALL_BYTES_BASE64 = Buffer.from(ALL_BYTES).toString('base64');

  it('putFile then getFile round-trips every byte value through base64', async () => {
    // Arrange
    const { handlers } = setUp();

    // Act
    const { fileId } = await handlers.putFile({
      name: 'bytes.bin',
      bucketId: 'case-42',
      fileToken: sim().fileToken,
      base64: ALL_BYTES_BASE64,
      contentType: 'application/octet-stream',
    });
    const actual = await handlers.getFile({ id: fileId, fileToken: sim().fileToken });

    // Assert
    expect(actual).toEqual({ base64: ALL_BYTES_BASE64, size: 256 });
    expect(sim().state.files.get(fileId)).toMatchObject({ bucketId: 'case-42', name: 'bytes.bin', contentType: 'application/octet-stream', bytes: ALL_BYTES });
  });

  it('putFile refuses data that is not base64 and sends nothing', async () => {
    // Arrange
    const { handlers } = setUp();

    // Act
    const act = handlers.putFile({ name: 'x.bin', bucketId: 'b', fileToken: sim().fileToken, base64: 'not base64!' });

    // Assert
    await expectSaid(act, { name: 'RequestRefusedError', message: 'The file data is damaged. Choose the file again.' });
    expect(sim().requests).toEqual([]);
  });

  it('getFile with a wrong file token fails with an AuthError', async () => {
    // Arrange
    const { handlers } = setUp();
    const { fileId } = await handlers.putFile({ name: 'a', bucketId: 'b', fileToken: sim().fileToken, base64: 'AAEC' });

    // Act
    const act = handlers.getFile({ id: fileId, fileToken: 'wrong-file-token' });

    // Assert
    await expect(act).rejects.toMatchObject({ name: 'AuthError' });
  });
});

describe('every service message needs host access', () => {
  it.each<[string, (h: Handlers) => Promise<unknown>]>([
    ['testConnection', (h) => h.testConnection({})],
    ['contextDetails', (h) => h.contextDetails({ id: 'x' })],
    ['updateContext', (h) => h.updateContext({ id: 'x', enabled: false })],
    ['deleteContext', (h) => h.deleteContext({ id: 'x' })],
    ['getProxies', (h) => h.getProxies({ org: 'acme' })],
    ['setProxies', (h) => h.setProxies({ org: 'acme', proxies: [] })],
    ['putFile', (h) => h.putFile({ name: 'a', bucketId: 'b', fileToken: 'f', base64: '' })],
    ['getFile', (h) => h.getFile({ id: 'a', fileToken: 'f' })],
    ['bulkCreate', (h) => h.bulkCreate({ urls: ['https://a.example/'] })],
    ['openContexts', (h) => h.openContexts({ ids: ['a'] })],
  ])('%s sends nothing without it', async (_label, send) => {
    // Arrange
    const { deps } = setUp(undefined, { recent: [recentEntry({ id: 'a', launchUrl: launchUrl('a') })] });
    const noAccess: Deps = { ...deps, browser: { ...deps.browser, hasHostPermission: () => Promise.resolve(false) } };

    // Act
    const act = send(createHandlers(noAccess));

    // Assert
    await expectSaid(act, { name: 'PermissionMissingError', message: `Isolink may not reach ${sim().url}. Open the options and click Grant access.` });
    expect(sim().requests).toEqual([]);
  });
});
