/**
 * Happy paths of the entry points and actions: what is sent to the service (exact
 * create_context commands, read from the simulator's request log), which tabs open
 * where, what is remembered, and what is copied.
 */
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { beforeEach, describe, expect, it } from 'vitest';
import { createMany, research } from '../../src/background/actions';
import {
  COMMAND_ISOLATE_TAB,
  MENU_IDS,
  omniboxSuggestion,
  onCommand,
  onMenuClick,
  onNotificationAction,
  onOmniboxEntered,
  openMany,
} from '../../src/background/entries';
import type { Deps } from '../../src/background/deps';
import { createHandlers } from '../../src/background/handlers';
import { fangMenuTitle, menuItems } from '../../src/background/menus';
import type { Settings } from '../../src/settings/schema';
import type { Simulator } from '../simulator';
import { useSimulator } from '../simulator/helpers';
import { NOW, NOW_SECONDS, SOURCE, SOURCE_TAB, USER, apiBodies, contextIds, createFakes, onlyContextId, simSettings } from '../support/background-fakes';
import { installMessages } from '../support/i18n';

const handle = useSimulator();
const sim = (): Simulator => handle.sim;

beforeEach(() => {
  fakeBrowser.reset();
  installMessages();
});

const TARGET = 'https://evil.example/login?next=%2F';
const launchUrl = (id: string): string => `${sim().url}/launch?ctx=${id}`;

/** The one command after setauth of the one /api/ request. */
function onlyCommand(): Record<string, unknown> {
  const bodies = apiBodies(sim());
  expect(bodies).toHaveLength(1);
  const [body] = bodies;
  expect(body?.[0]).toEqual({ command: 'setauth', data: sim().adminToken });
  expect(body).toHaveLength(2);
  return body?.[1] as Record<string, unknown>;
}

const RESEARCH_DEFAULTS: Settings['research'] = {
  egressRegion: 'New York City',
  browserProfile: { os: 'win', browser: 'firefox', timezone: 'America/New_York', languages: '' },
  availability: ['public'],
  connectivity: ['datacenter', 'isp'],
};

describe('isolating one link', () => {
  it('sends create_context with the identity, the default policy plus domain_allow, max_uses and the expiry preset', async () => {
    // Arrange
    const settings = simSettings(sim(), {
      policy: [
        { type: 'readonly', params: ['true'] },
        { type: 'ribbon_message', params: ['Isolated by the SOC'] },
      ],
      maxUses: 3,
      expiry: { preset: '8h', customMinutes: 60 },
      autoDomainAllow: true,
    });
    const { deps } = createFakes(sim(), settings);

    // Act
    await onMenuClick(deps, { menuItemId: MENU_IDS.isolateLink, linkUrl: TARGET, pageUrl: SOURCE_TAB.url }, { ...SOURCE_TAB });

    // Assert
    expect(apiBodies(sim())).toEqual([
      [
        { command: 'setauth', data: sim().adminToken },
        {
          command: 'create_context',
          command_id: 'c1',
          max_uses: 3,
          expires: String(NOW_SECONDS + 8 * 3600),
          context_data: {
            user: USER,
            urls: [TARGET],
            policy: [
              { type: 'readonly', params: ['true'] },
              { type: 'ribbon_message', params: ['Isolated by the SOC'] },
              { type: 'domain_allow', params: ['evil.example'] },
            ],
          },
        },
      ],
    ]);
  });

  it.each([
    ['none', { preset: 'none', customMinutes: 60 }, undefined],
    ['1h', { preset: '1h', customMinutes: 60 }, String(NOW_SECONDS + 3600)],
    ['24h', { preset: '24h', customMinutes: 60 }, String(NOW_SECONDS + 86_400)],
    ['7d', { preset: '7d', customMinutes: 60 }, String(NOW_SECONDS + 604_800)],
    ['custom 90 minutes', { preset: 'custom', customMinutes: 90 }, String(NOW_SECONDS + 5400)],
  ] as const)('expiry preset %s sends expires %s', async (_label, expiry, expected) => {
    // Arrange
    const { deps } = createFakes(sim(), simSettings(sim(), { expiry }));

    // Act
    await onMenuClick(deps, { menuItemId: MENU_IDS.isolateLink, linkUrl: TARGET }, { ...SOURCE_TAB });

    // Assert
    const actual = onlyCommand()['expires'];
    expect(actual).toBe(expected);
  });

  it('sends no policy and no max_uses when the settings set none and autoDomainAllow is off', async () => {
    // Arrange
    const { deps } = createFakes(sim(), simSettings(sim(), { autoDomainAllow: false, expiry: { preset: 'none', customMinutes: 60 } }));

    // Act
    await onMenuClick(deps, { menuItemId: MENU_IDS.isolateLink, linkUrl: TARGET }, { ...SOURCE_TAB });

    // Assert
    expect(onlyCommand()).toEqual({ command: 'create_context', command_id: 'c1', context_data: { user: USER, urls: [TARGET] } });
  });

  it('adds no second domain_allow when the default policy already allows the host', async () => {
    // Arrange
    const policy = [{ type: 'domain_allow', params: ['evil.example', 'cdn.example'] }];
    const { deps } = createFakes(sim(), simSettings(sim(), { policy }));

    // Act
    await onMenuClick(deps, { menuItemId: MENU_IDS.isolateLink, linkUrl: TARGET }, { ...SOURCE_TAB });

    // Assert
    expect((onlyCommand()['context_data'] as Record<string, unknown>)['policy']).toEqual(policy);
  });

  it('creates for the organisation when the settings name one instead of a user', async () => {
    // Arrange
    const { deps } = createFakes(sim(), simSettings(sim(), { username: '', org: 'acme/soc', autoDomainAllow: false }));

    // Act
    await onMenuClick(deps, { menuItemId: MENU_IDS.isolateLink, linkUrl: TARGET }, { ...SOURCE_TAB });

    // Assert
    expect(onlyCommand()['context_data']).toEqual({ org: 'acme/soc', urls: [TARGET] });
  });

  it.each([
    ['foreground', true],
    ['background', false],
  ] as const)('opens the launch URL right after the source tab (%s)', async (tabPlacement, active) => {
    // Arrange
    const { deps, state } = createFakes(sim(), simSettings(sim(), { tabPlacement }));

    // Act
    await onMenuClick(deps, { menuItemId: MENU_IDS.isolateLink, linkUrl: TARGET }, { ...SOURCE_TAB });

    // Assert
    expect(state.tabs).toEqual([{ url: launchUrl(onlyContextId(sim())), options: { active, index: 3, windowId: 1, openerTabId: 7 } }]);
    expect(state.notices).toEqual([]);
  });

  it('remembers the context as a recent entry', async () => {
    // Arrange
    const { deps, state } = createFakes(sim(), simSettings(sim(), { maxUses: 5, expiry: { preset: '1h', customMinutes: 60 } }));

    // Act
    await onMenuClick(deps, { menuItemId: MENU_IDS.isolateLink, linkUrl: 'https://Bücher.example/a' }, { ...SOURCE_TAB });

    // Assert
    const id = onlyContextId(sim());
    expect(state.recent).toEqual([
      {
        id,
        url: 'https://xn--bcher-kva.example/a',
        host: 'xn--bcher-kva.example',
        sessionType: 'service-ruby',
        createdAt: NOW,
        expires: NOW_SECONDS + 3600,
        maxUses: 5,
        launchUrl: launchUrl(id),
        name: '',
      },
    ]);
  });

  it.each([
    ['the page URL of the click', { pageUrl: 'https://evil.example/page' }, 'https://evil.example/page'],
    ["the tab's URL when the click has none", {}, SOURCE_TAB.url],
  ])('isolate-page isolates %s', async (_label, info, expected) => {
    // Arrange
    const { deps } = createFakes(sim(), simSettings(sim(), { autoDomainAllow: false }));

    // Act
    await onMenuClick(deps, { menuItemId: MENU_IDS.isolatePage, ...info }, { ...SOURCE_TAB });

    // Assert
    expect((onlyCommand()['context_data'] as Record<string, unknown>)['urls']).toEqual([expected]);
  });

  it("the keyboard command isolates the current tab's page and opens it next to it", async () => {
    // Arrange
    const { deps, state } = createFakes(sim());

    // Act
    await onCommand(deps, COMMAND_ISOLATE_TAB, { ...SOURCE_TAB, url: TARGET });

    // Assert
    expect((onlyCommand()['context_data'] as Record<string, unknown>)['urls']).toEqual([TARGET]);
    expect(state.tabs.map((tab) => tab.options)).toEqual([{ active: true, index: 3, windowId: 1, openerTabId: 7 }]);
  });

  it('ignores other commands and unknown menu items', async () => {
    // Arrange
    const { deps, state } = createFakes(sim());

    // Act
    await onCommand(deps, '_execute_action', { ...SOURCE_TAB, url: TARGET });
    await onMenuClick(deps, { menuItemId: 'isolate-everything', linkUrl: TARGET }, { ...SOURCE_TAB });

    // Assert
    expect(sim().requests).toEqual([]);
    expect(state.tabs).toEqual([]);
    expect(state.notices).toEqual([]);
  });

  it('the omnibox refangs what was typed and opens a tab with no source position', async () => {
    // Arrange
    const { deps, state } = createFakes(sim(), simSettings(sim(), { autoDomainAllow: false }));

    // Act
    await onOmniboxEntered(deps, '  hxxps://evil[.]example/login?next=%2F  ');

    // Assert
    expect((onlyCommand()['context_data'] as Record<string, unknown>)['urls']).toEqual([TARGET]);
    expect(state.tabs.map((tab) => tab.options)).toEqual([{ active: true, index: undefined, windowId: undefined, openerTabId: undefined }]);
  });
});

describe('typed text (omnibox and popup): refanged, and its first http(s) link taken', () => {
  const ENTRIES = [
    ['omnibox', (deps: Deps, text: string) => onOmniboxEntered(deps, text)],
    [
      'popup',
      (deps: Deps, text: string) =>
        createHandlers(deps)
          .isolate({ url: text, session: 'standard' })
          .then(() => undefined),
    ],
  ] as const;

  const TEXTS = [
    ['a defanged link', 'hxxps://evil[.]example/login?next=%2F'],
    ['a link padded with spaces', '  hxxps[:]//evil[.]example/login?next=%2F \n'],
    ['a link inside a sentence', 'please check hxxps://evil[.]example/login?next=%2F today'],
    ['a link after a label ending in a colon', 'URL: hxxps://evil[.]example/login?next=%2F'],
    ['a link after an IOC label', 'IOC: https://evil.example/login?next=%2F'],
    ['a link followed by a remark', 'https://evil.example/login?next=%2F (from the phishing mail)'],
  ] as const;

  const cases = TEXTS.flatMap(([label, text]) => ENTRIES.map(([entry, run]) => ({ label, text, entry, run })));

  it.each(cases.map((c) => [c.entry, c.label, c] as const))('%s: %s isolates the link', async (_entry, _label, { text, run }) => {
    // Arrange
    const { deps, state } = createFakes(sim(), simSettings(sim(), { autoDomainAllow: false }));

    // Act
    await run(deps, text);

    // Assert
    expect(state.notices).toEqual([]);
    expect((onlyCommand()['context_data'] as Record<string, unknown>)['urls']).toEqual([TARGET]);
  });
});

describe('research sessions', () => {
  it('isolate-link-research sends toolbox-standalone with the research defaults', async () => {
    // Arrange
    const { deps, state } = createFakes(sim(), simSettings(sim(), { research: RESEARCH_DEFAULTS, expiry: { preset: 'none', customMinutes: 60 } }));

    // Act
    await onMenuClick(deps, { menuItemId: MENU_IDS.isolateLinkResearch, linkUrl: TARGET }, { ...SOURCE_TAB });

    // Assert
    expect(onlyCommand()).toEqual({
      command: 'create_context',
      command_id: 'c1',
      context_data: {
        user: USER,
        urls: [TARGET],
        policy: [{ type: 'domain_allow', params: ['evil.example'] }],
        session_type: 'toolbox-standalone',
        egress_region: 'New York City',
        browser_profile: { os: 'win', browser: 'firefox', timezone: 'America/New_York' },
        categories: { availability: ['public'], connectivity: ['datacenter', 'isp'] },
      },
    });
    expect(state.recent.map((entry) => entry.sessionType)).toEqual(['toolbox-standalone']);
  });

  it('a research session without research defaults sends only the session type', async () => {
    // Arrange
    const { deps } = createFakes(sim(), simSettings(sim(), { autoDomainAllow: false, expiry: { preset: 'none', customMinutes: 60 } }));

    // Act
    await onMenuClick(deps, { menuItemId: MENU_IDS.isolateLinkResearch, linkUrl: TARGET }, { ...SOURCE_TAB });

    // Assert
    expect(onlyCommand()['context_data']).toEqual({ user: USER, urls: [TARGET], session_type: 'toolbox-standalone' });
  });

  it("the popup's research session sends the popup's choices, no URL and no domain_allow", async () => {
    // Arrange
    const { deps, state } = createFakes(sim(), simSettings(sim(), { research: RESEARCH_DEFAULTS, expiry: { preset: 'none', customMinutes: 60 } }));
    const choice: Settings['research'] = {
      egressRegion: 'Frankfurt',
      browserProfile: { os: 'mac', browser: 'chrome', timezone: '', languages: 'de-DE,de;q=0.9' },
      availability: [],
      connectivity: ['isp'],
    };

    // Act
    const outcome = await createHandlers(deps).research({ research: choice });

    // Assert
    expect(onlyCommand()).toEqual({
      command: 'create_context',
      command_id: 'c1',
      context_data: {
        user: USER,
        session_type: 'toolbox-standalone',
        egress_region: 'Frankfurt',
        browser_profile: { os: 'mac', browser: 'chrome', languages: 'de-DE,de;q=0.9' },
        categories: { connectivity: ['isp'] },
      },
    });
    const id = onlyContextId(sim());
    expect(outcome.launchUrl).toBe(launchUrl(id));
    expect(state.tabs).toEqual([{ url: launchUrl(id), options: { active: true, index: 3, windowId: 1, openerTabId: 7 } }]);
    expect(state.recent).toEqual([expect.objectContaining({ id, url: '', host: '', sessionType: 'toolbox-standalone' })]);
  });

  it('research() uses the research defaults when no choice is given', async () => {
    // Arrange
    const { deps } = createFakes(sim(), simSettings(sim(), { research: RESEARCH_DEFAULTS, expiry: { preset: 'none', customMinutes: 60 } }));

    // Act
    await research(deps, {});

    // Assert
    expect((onlyCommand()['context_data'] as Record<string, unknown>)['egress_region']).toBe('New York City');
  });
});

describe('popup policy toggles replace the default entry of their type', () => {
  const DEFAULT_POLICY = [
    { type: 'readonly', params: ['false'] },
    { type: 'file_transfer', params: ['block_all'] },
    { type: 'clipboard', params: ['allow_to_local', 'block_to_silo'] },
    { type: 'ad_block', params: ['enable'] },
  ];

  it.each([
    [
      'all three',
      { readonly: true, fileTransfer: 'allow_all', clipboard: 'block_all' },
      [
        { type: 'ad_block', params: ['enable'] },
        { type: 'readonly', params: ['true'] },
        { type: 'file_transfer', params: ['allow_all'] },
        { type: 'clipboard', params: ['block_all'] },
      ],
    ],
    [
      'readonly only',
      { readonly: true },
      [
        { type: 'file_transfer', params: ['block_all'] },
        { type: 'clipboard', params: ['allow_to_local', 'block_to_silo'] },
        { type: 'ad_block', params: ['enable'] },
        { type: 'readonly', params: ['true'] },
      ],
    ],
    [
      'readonly false',
      { readonly: false },
      [
        { type: 'file_transfer', params: ['block_all'] },
        { type: 'clipboard', params: ['allow_to_local', 'block_to_silo'] },
        { type: 'ad_block', params: ['enable'] },
        { type: 'readonly', params: ['false'] },
      ],
    ],
    ['none set', {}, DEFAULT_POLICY],
  ] as const)('%s', async (_label, toggles, expectedPolicy) => {
    // Arrange
    const { deps } = createFakes(sim(), simSettings(sim(), { policy: DEFAULT_POLICY, autoDomainAllow: false }));

    // Act
    await createHandlers(deps).isolate({ url: TARGET, session: 'standard', toggles });

    // Assert
    expect((onlyCommand()['context_data'] as Record<string, unknown>)['policy']).toEqual(expectedPolicy);
  });

  it('the popup isolate follows autoDomainAllow and places the tab after the active tab', async () => {
    // Arrange
    const { deps, state } = createFakes(sim(), simSettings(sim(), { policy: DEFAULT_POLICY }));

    // Act
    const outcome = await createHandlers(deps).isolate({
      url: 'hxxps://evil[.]example/login?next=%2F',
      session: 'standard',
      toggles: { clipboard: 'allow_all' },
    });

    // Assert
    expect((onlyCommand()['context_data'] as Record<string, unknown>)['policy']).toEqual([
      { type: 'readonly', params: ['false'] },
      { type: 'file_transfer', params: ['block_all'] },
      { type: 'ad_block', params: ['enable'] },
      { type: 'clipboard', params: ['allow_all'] },
      { type: 'domain_allow', params: ['evil.example'] },
    ]);
    expect(state.tabs).toEqual([{ url: outcome.launchUrl, options: { active: true, index: 3, windowId: 1, openerTabId: 7 } }]);
  });
});

describe('a selection with several links', () => {
  const SELECTION = 'IOCs: hxxps://one[.]example/a, hxxp://two[.]example/b and https://three.example/c.';
  const URLS = ['https://one.example/a', 'http://two.example/b', 'https://three.example/c'];

  it('at or below the threshold creates them in ONE request and opens one tab each after the source tab', async () => {
    // Arrange
    const { deps, state } = createFakes(sim(), simSettings(sim(), { bulkConfirmThreshold: 3, expiry: { preset: 'none', customMinutes: 60 } }));

    // Act
    await onMenuClick(deps, { menuItemId: MENU_IDS.isolateSelection, selectionText: SELECTION }, { ...SOURCE_TAB });

    // Assert
    expect(apiBodies(sim())).toEqual([
      [
        { command: 'setauth', data: sim().adminToken },
        ...URLS.map((url, i) => ({
          command: 'create_context',
          command_id: `c${i + 1}`,
          context_data: { user: USER, urls: [url], policy: [{ type: 'domain_allow', params: [new URL(url).hostname] }] },
        })),
      ],
    ]);
    const ids = contextIds(sim());
    expect(state.tabs).toEqual([
      { url: launchUrl(ids[0] ?? ''), options: { active: true, index: 3, windowId: 1, openerTabId: 7 } },
      { url: launchUrl(ids[1] ?? ''), options: { active: false, index: 4, windowId: 1, openerTabId: 7 } },
      { url: launchUrl(ids[2] ?? ''), options: { active: false, index: 5, windowId: 1, openerTabId: 7 } },
    ]);
    expect(state.recent.map((entry) => entry.url)).toEqual(URLS);
    expect(state.notices).toEqual([]);
  });

  it('above the threshold asks first and sends nothing; the answer creates and opens them', async () => {
    // Arrange
    const { deps, state } = createFakes(sim(), simSettings(sim(), { bulkConfirmThreshold: 2 }));

    // Act
    await onMenuClick(deps, { menuItemId: MENU_IDS.isolateSelection, selectionText: SELECTION }, { ...SOURCE_TAB });

    // Assert
    expect(sim().requests).toEqual([]);
    expect(state.tabs).toEqual([]);
    const expectedAction = { kind: 'openMany', urls: URLS, source: SOURCE };
    expect(state.notices).toEqual([
      { kind: 'ask', title: 'Open 3 links in isolation?', message: URLS.join('\n'), button: 'Open 3 tabs', action: expectedAction },
    ]);

    // Act: the analyst clicks the notification's button
    const [notice] = state.notices;
    await onNotificationAction(deps, notice?.kind === 'ask' ? notice.action : undefined);

    // Assert
    expect(apiBodies(sim())).toHaveLength(1);
    expect(apiBodies(sim())[0]).toHaveLength(4);
    expect(state.tabs.map((tab) => tab.options.index)).toEqual([3, 4, 5]);
    expect(state.tabs.map((tab) => tab.url)).toEqual(contextIds(sim()).map(launchUrl));
  });

  it('the question lists at most five links', async () => {
    // Arrange
    const urls = Array.from({ length: 7 }, (_, i) => `https://host${i}.example/`);
    const { deps, state } = createFakes(sim());

    // Act
    await onMenuClick(deps, { menuItemId: MENU_IDS.isolateSelection, selectionText: urls.join(' ') }, { ...SOURCE_TAB });

    // Assert
    expect(state.notices).toEqual([
      {
        kind: 'ask',
        title: 'Open 7 links in isolation?',
        message: `${urls.slice(0, 5).join('\n')}\n…`,
        button: 'Open 7 tabs',
        action: { kind: 'openMany', urls, source: SOURCE },
      },
    ]);
  });

  it('a link the service refuses is reported; the others open', async () => {
    // Arrange
    const { deps, state } = createFakes(sim());
    sim().faults.set({ refuseUrls: ['http://two.example/b'] });

    // Act
    await openMany(deps, URLS, SOURCE);

    // Assert
    expect(state.tabs.map((tab) => tab.options.index)).toEqual([3, 4]);
    expect(state.recent.map((entry) => entry.url)).toEqual(['https://one.example/a', 'https://three.example/c']);
    expect(state.notices).toEqual([
      {
        kind: 'info',
        title: 'Opened 2 of 3 links in isolation',
        message: expect.stringMatching(/^http:\/\/two\.example\/b: The service refused the request \(create_context\): ValueError: /) as unknown,
      },
    ]);
  });

  it('reads the settings and the token once for a whole bulk list, creating and opening', async () => {
    // Arrange
    const { deps, state } = createFakes(sim());
    let settingsReads = 0;
    let tokenReads = 0;
    const counted = {
      ...deps,
      store: {
        ...deps.store,
        readSettings: () => ((settingsReads += 1), deps.store.readSettings()),
        readToken: () => ((tokenReads += 1), deps.store.readToken()),
      },
    };

    // Act
    await openMany(counted, URLS, SOURCE);

    // Assert: one connection (before, opening the tabs connected a second time).
    expect(state.tabs).toHaveLength(3);
    expect(settingsReads).toBe(1);
    expect(tokenReads).toBe(1);
  });

  it('createMany creates without opening any tab', async () => {
    // Arrange
    const { deps, state } = createFakes(sim());

    // Act
    const outcome = await createMany(deps, URLS);

    // Assert
    expect(outcome.failures).toEqual([]);
    expect(outcome.created.map((entry) => entry.launchUrl)).toEqual(contextIds(sim()).map(launchUrl));
    expect(state.tabs).toEqual([]);
  });
});

describe('copying', () => {
  it.each([
    ['copy-link-defanged', { menuItemId: MENU_IDS.copyLinkDefanged, linkUrl: 'https://evil.example/a.php?x=1' }, 'hxxps://evil[.]example/a.php?x=1'],
    [
      'copy-selection-defanged',
      { menuItemId: MENU_IDS.copySelectionDefanged, selectionText: 'C2 at https://c2.evil.example/gate.php and 203.0.113.7' },
      'C2 at hxxps://c2[.]evil[.]example/gate.php and 203[.]0[.]113[.]7',
    ],
    [
      'copy-selection-refanged',
      { menuItemId: MENU_IDS.copySelectionRefanged, selectionText: 'hxxps[:]//evil[.]example/login and user[at]mail[.]example' },
      'https://evil.example/login and user@mail.example',
    ],
  ])('%s copies the exact text and sends nothing', async (_label, info, expected) => {
    // Arrange
    const { deps, state } = createFakes(sim());

    // Act
    await onMenuClick(deps, info, { ...SOURCE_TAB });

    // Assert
    expect(state.copied).toEqual([expected]);
    expect(sim().requests).toEqual([]);
    expect(state.tabs).toEqual([]);
  });

  it("a refused copy is notified, in Isolink's words rather than the browser's", async () => {
    // Arrange
    const { deps, state } = createFakes(sim());
    state.copyError = new DOMException('Document is not focused.', 'NotAllowedError');

    // Act
    await onMenuClick(deps, { menuItemId: MENU_IDS.copyLinkDefanged, linkUrl: TARGET }, { ...SOURCE_TAB });

    // Assert
    expect(state.notices).toEqual([
      { kind: 'info', title: 'Could not copy to the clipboard', message: 'Select the text and copy it with the keyboard instead.' },
    ]);
  });
});

describe('a double click', () => {
  it('two concurrent clicks on the same link create one context and open one tab', async () => {
    // Arrange
    const { deps, state } = createFakes(sim());
    const click = () => onMenuClick(deps, { menuItemId: MENU_IDS.isolateLink, linkUrl: TARGET }, { ...SOURCE_TAB });

    // Act
    await Promise.all([click(), click()]);

    // Assert
    expect(apiBodies(sim())).toHaveLength(1);
    expect(sim().state.contexts.size).toBe(1);
    expect(state.tabs).toHaveLength(1);
    expect(deps.inFlight.size).toBe(0);
  });

  it('a defanged and a plain spelling of the same link also join', async () => {
    // Arrange
    const { deps, state } = createFakes(sim());

    // Act
    await Promise.all([
      onMenuClick(deps, { menuItemId: MENU_IDS.isolateLink, linkUrl: TARGET }, { ...SOURCE_TAB }),
      onOmniboxEntered(deps, 'hxxps://evil[.]example/login?next=%2F'),
    ]);

    // Assert
    expect(sim().state.contexts.size).toBe(1);
    expect(state.tabs).toHaveLength(1);
  });

  it('a click after the first finished creates a second context', async () => {
    // Arrange
    const { deps, state } = createFakes(sim());
    const click = () => onMenuClick(deps, { menuItemId: MENU_IDS.isolateLink, linkUrl: TARGET }, { ...SOURCE_TAB });

    // Act
    await click();
    await click();

    // Assert
    expect(sim().state.contexts.size).toBe(2);
    expect(state.tabs).toHaveLength(2);
  });

  it('a standard and a research session of the same link are two contexts', async () => {
    // Arrange
    const { deps } = createFakes(sim());

    // Act
    await Promise.all([
      onMenuClick(deps, { menuItemId: MENU_IDS.isolateLink, linkUrl: TARGET }, { ...SOURCE_TAB }),
      onMenuClick(deps, { menuItemId: MENU_IDS.isolateLinkResearch, linkUrl: TARGET }, { ...SOURCE_TAB }),
    ]);

    // Assert
    expect(sim().state.contexts.size).toBe(2);
  });
});

describe('notification actions', () => {
  it('openOptions opens the options page', async () => {
    // Arrange
    const { deps, state } = createFakes(sim());

    // Act
    await onNotificationAction(deps, { kind: 'openOptions' });

    // Assert
    expect(state.optionsOpened).toHaveLength(1);
    expect(sim().requests).toEqual([]);
  });

  it('a retried isolation creates the context and opens it after the original tab', async () => {
    // Arrange
    const { deps, state } = createFakes(sim(), simSettings(sim(), { tabPlacement: 'background' }));

    // Act
    await onNotificationAction(deps, { kind: 'isolate', url: TARGET, session: 'standard', source: SOURCE });

    // Assert
    expect(state.tabs).toEqual([{ url: launchUrl(onlyContextId(sim())), options: { active: false, index: 3, windowId: 1, openerTabId: 7 } }]);
  });

  it('no action (already taken, or expired) does nothing', async () => {
    // Arrange
    const { deps, state } = createFakes(sim());

    // Act
    await onNotificationAction(deps, undefined);

    // Assert
    expect(state.optionsOpened).toEqual([]);
    expect(state.tabs).toEqual([]);
    expect(sim().requests).toEqual([]);
  });
});

describe('omnibox suggestion', () => {
  it.each([
    ['hxxps://evil[.]example/login', 'Open in isolation: https://evil.example/login'],
    ['  hxxp[:]//evil(.)example/a?b=c  ', 'Open in isolation: http://evil.example/a?b=c'],
    ['https://Evil.Example/', 'Open in isolation: https://evil.example/'],
    ['see hxxps://evil[.]example/x for details', 'Open in isolation: https://evil.example/x'],
    ['javascript:alert(1)', undefined],
    ['evil.example', undefined],
    ['', undefined],
  ])('%j suggests %j', (text, expected) => {
    // Act
    const actual = omniboxSuggestion(text);

    // Assert
    expect(actual).toBe(expected);
  });
});

describe('menus', () => {
  it('has the stable ids in order, each for its context', () => {
    // Act
    const actual = menuItems().map((item) => [item.id, item.contexts, item.title]);

    // Assert
    expect(actual).toEqual([
      ['isolate-link', ['link'], 'Open link in isolation'],
      ['isolate-link-research', ['link'], 'Open link in a research session'],
      ['copy-link-defanged', ['link'], 'Copy link defanged'],
      ['copy-link-unwrapped', ['link'], 'Copy link unwrapped'],
      ['isolate-selection', ['selection'], 'Open in isolation'],
      ['copy-selection-defanged', ['selection'], 'Copy defanged'],
      ['copy-selection-refanged', ['selection'], 'Copy refanged'],
      ['copy-selection-unwrapped', ['selection'], 'Copy refanged + unwrapped'],
      ['isolate-page', ['page'], 'Open this page in isolation'],
      ['scan-qr-image', ['image'], 'Open QR code in isolation'],
      ['scan-qr-tab', ['page', 'action'], 'Scan this tab for QR codes'],
    ]);
  });

  it.each([
    ['no link here', 'No links found in the selection'],
    ['hxxps://evil[.]example/', 'Open 1 link in isolation'],
    ['https://a.example/ https://b.example/ hxxp://c[.]example/', 'Open 3 links in isolation'],
  ])('the selection title for %j is %j', (selection, expected) => {
    // Act
    const actual = fangMenuTitle(selection);

    // Assert
    expect(actual).toBe(expected);
  });
});
