/**
 * Wrapped links at every entry point: the context is created for the real target, with
 * the automatic domain_allow for the real target's host; a wrapper that cannot be read
 * (Mimecast) is isolated as it is, without one, and the analyst is told why; the unwrap
 * setting (unwrap, ask, keep) is followed, an organisation's choice over the analyst's.
 * Against the simulator over HTTP; side effects are plain fakes.
 */
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  MENU_IDS,
  omniboxSuggestion,
  omniboxText,
  onCommand,
  onMenuClick,
  onNotificationAction,
  onOmniboxEntered,
  COMMAND_ISOLATE_TAB,
} from '../../src/background/entries';
import { createHandlers } from '../../src/background/handlers';
import type { Settings } from '../../src/settings/schema';
import type { Simulator } from '../simulator';
import { useSimulator } from '../simulator/helpers';
import { SOURCE, SOURCE_TAB, apiBodies, createFakes, simSettings, type FakeState } from '../support/background-fakes';
import { installMessages } from '../support/i18n';
import { wrap } from '../support/wrap';

const handle = useSimulator();
const sim = (): Simulator => handle.sim;

beforeEach(() => {
  fakeBrowser.reset();
  installMessages();
});

const REAL = 'https://real-phish.example/login?next=%2Fhome#top';
const SAFE_LINK = wrap.safelinks(REAL);
const PROOFPOINT = wrap.proofpointV3(REAL);
const MIMECAST = 'https://protect-eu.mimecast.com/s/AbCdEfGhIj?domain=real-phish.example';

/** The create_context commands sent, in order (setauth left out). */
function creates(): Record<string, unknown>[] {
  return apiBodies(sim()).flatMap((body) => body.slice(1) as Record<string, unknown>[]);
}

/** The URL and the domain_allow hosts of one create_context command. */
function sent(command: Record<string, unknown> | undefined): { url: unknown; domainAllow: unknown[] } {
  const data = (command?.['context_data'] ?? {}) as { urls?: unknown[]; policy?: { type: string; params: unknown[] }[] };
  return { url: data.urls?.[0], domainAllow: (data.policy ?? []).filter((entry) => entry.type === 'domain_allow').flatMap((entry) => entry.params) };
}

function fakes(overrides: Partial<Settings> = {}, locked: (keyof Settings)[] = []) {
  return createFakes(sim(), simSettings(sim(), overrides), { locked });
}

function onlyTab(state: FakeState): string {
  expect(state.tabs).toHaveLength(1);
  return state.tabs[0]?.url ?? '';
}

describe('a wrapped link is isolated as its real target', () => {
  it.each([
    [
      'link menu, Safe Links',
      (deps: Parameters<typeof onMenuClick>[0]) => onMenuClick(deps, { menuItemId: MENU_IDS.isolateLink, linkUrl: SAFE_LINK }, { ...SOURCE_TAB }),
    ],
    [
      'link menu, Proofpoint v3',
      (deps: Parameters<typeof onMenuClick>[0]) => onMenuClick(deps, { menuItemId: MENU_IDS.isolateLink, linkUrl: PROOFPOINT }, { ...SOURCE_TAB }),
    ],
    [
      'research menu, Safe Links around Proofpoint v2',
      (deps: Parameters<typeof onMenuClick>[0]) =>
        onMenuClick(deps, { menuItemId: MENU_IDS.isolateLinkResearch, linkUrl: wrap.safelinks(wrap.proofpointV2(REAL)) }, { ...SOURCE_TAB }),
    ],
    [
      'page menu',
      (deps: Parameters<typeof onMenuClick>[0]) =>
        onMenuClick(deps, { menuItemId: MENU_IDS.isolatePage, pageUrl: SAFE_LINK }, { ...SOURCE_TAB, url: SAFE_LINK }),
    ],
    ['keyboard shortcut', (deps: Parameters<typeof onCommand>[0]) => onCommand(deps, COMMAND_ISOLATE_TAB, { ...SOURCE_TAB, url: PROOFPOINT })],
    [
      'omnibox, defanged',
      (deps: Parameters<typeof onOmniboxEntered>[0]) =>
        onOmniboxEntered(deps, SAFE_LINK.replace('https://', 'hxxps://').replace('.outlook.com', '[.]outlook[.]com')),
    ],
    [
      'selection with one link',
      (deps: Parameters<typeof onMenuClick>[0]) =>
        onMenuClick(deps, { menuItemId: MENU_IDS.isolateSelection, selectionText: `Reported: ${PROOFPOINT} thanks` }, { ...SOURCE_TAB }),
    ],
    [
      'popup, pasted',
      async (deps: Parameters<typeof onMenuClick>[0]) => {
        await createHandlers({ ...fakes().deps, ...deps }).isolate({ url: `IOC: ${SAFE_LINK}`, session: 'standard' });
      },
    ],
  ])('%s: one request for the real target, domain_allow for its host, recorded as wrapped', async (_name, act) => {
    // Arrange
    const { deps, state } = fakes();

    // Act
    await act(deps);

    // Assert
    const commands = creates();
    expect(commands).toHaveLength(1);
    expect(sent(commands[0])).toEqual({ url: REAL, domainAllow: ['real-phish.example'] });
    expect(onlyTab(state)).toMatch(new RegExp(`^${sim().url}/launch\\?`));
    expect(state.recent[0]?.url).toBe(REAL);
    expect(state.recent[0]?.host).toBe('real-phish.example');
    expect(state.recent[0]?.wrappedBy?.length).toBeGreaterThan(0);
    expect(state.notices).toEqual([]);
  });

  it('a wrapped javascript: URL is refused like any other: nothing sent, no tab, a clear message', async () => {
    // Arrange
    const { deps, state } = fakes();

    // Act
    await onMenuClick(deps, { menuItemId: MENU_IDS.isolateLink, linkUrl: wrap.safelinks('javascript:alert(document.domain)') }, { ...SOURCE_TAB });

    // Assert
    expect(apiBodies(sim())).toEqual([]);
    expect(state.tabs).toEqual([]);
    expect(state.notices).toEqual([
      {
        kind: 'failure',
        failure: { title: 'Link not isolated', message: expect.stringContaining('javascript:') as unknown, next: 'none' },
        retry: undefined,
      },
    ]);
  });

  it('a look-alike of a wrapper host is isolated as the link it is', async () => {
    // Arrange
    const lookAlike = SAFE_LINK.replace('outlook.com', 'outlook.com.evil.example');
    const { deps } = fakes();

    // Act
    await onMenuClick(deps, { menuItemId: MENU_IDS.isolateLink, linkUrl: lookAlike }, { ...SOURCE_TAB });

    // Assert
    expect(sent(creates()[0])).toEqual({ url: lookAlike, domainAllow: ['nam12.safelinks.protection.outlook.com.evil.example'] });
  });
});

describe('a wrapper that cannot be read offline', () => {
  it('is isolated as it is, with no automatic domain_allow, and the analyst is told why', async () => {
    // Arrange
    const { deps, state } = fakes();

    // Act
    await onMenuClick(deps, { menuItemId: MENU_IDS.isolateLink, linkUrl: MIMECAST }, { ...SOURCE_TAB });

    // Assert
    expect(sent(creates()[0])).toEqual({ url: MIMECAST, domainAllow: [] });
    expect(state.tabs).toHaveLength(1);
    expect(state.recent[0]?.wrappedBy).toEqual(['mimecast']);
    expect(state.notices).toEqual([
      {
        kind: 'info',
        title: 'Opened as a Mimecast URL Protect link',
        message: expect.stringContaining('no automatic domain allow') as unknown,
      },
    ]);
  });

  it('inside Safe Links: peeled to the Mimecast link, which is isolated as it is', async () => {
    // Arrange
    const { deps } = fakes();

    // Act
    await onMenuClick(deps, { menuItemId: MENU_IDS.isolateLink, linkUrl: wrap.safelinks(MIMECAST) }, { ...SOURCE_TAB });

    // Assert
    expect(sent(creates()[0])).toEqual({ url: MIMECAST, domainAllow: [] });
  });
});

describe('the unwrap setting', () => {
  it('"keep" isolates the wrapper as it is, without a domain_allow that would block its redirect', async () => {
    // Arrange
    const { deps, state } = fakes({ unwrap: 'keep' });

    // Act
    await onMenuClick(deps, { menuItemId: MENU_IDS.isolateLink, linkUrl: SAFE_LINK }, { ...SOURCE_TAB });

    // Assert
    expect(sent(creates()[0])).toEqual({ url: SAFE_LINK, domainAllow: [] });
    expect(state.recent[0]?.wrappedBy).toEqual(['safelinks']);
    expect(state.notices).toEqual([]);
  });

  it('"ask" creates nothing and asks; each button carries out its own choice', async () => {
    // Arrange
    const { deps, state } = fakes({ unwrap: 'ask' });

    // Act
    await onMenuClick(deps, { menuItemId: MENU_IDS.isolateLink, linkUrl: SAFE_LINK }, { ...SOURCE_TAB });

    // Assert: the question
    expect(apiBodies(sim())).toEqual([]);
    expect(state.tabs).toEqual([]);
    const [notice] = state.notices;
    expect(notice).toEqual({
      kind: 'ask',
      title: 'This link was rewritten by Microsoft Safe Links',
      message: `Real target: ${REAL}\nRewritten link: ${SAFE_LINK}`,
      button: 'Open the real target',
      action: { kind: 'isolate', url: SAFE_LINK, session: 'standard', source: SOURCE, wrapped: 'unwrap' },
      second: { label: 'Open the rewritten link', action: { kind: 'isolate', url: SAFE_LINK, session: 'standard', source: SOURCE, wrapped: 'keep' } },
    });
    if (notice?.kind !== 'ask' || !notice.second) return;

    // Act: the first button, then the second
    await onNotificationAction(deps, notice.action);
    await onNotificationAction(deps, notice.second.action);

    // Assert: the real target, then the wrapper
    expect(creates().map(sent)).toEqual([
      { url: REAL, domainAllow: ['real-phish.example'] },
      { url: SAFE_LINK, domainAllow: [] },
    ]);
    expect(state.tabs).toHaveLength(2);
    expect(state.notices).toHaveLength(1);
  });

  it('"ask" does not ask about a link that is not wrapped', async () => {
    // Arrange
    const { deps, state } = fakes({ unwrap: 'ask' });

    // Act
    await onMenuClick(deps, { menuItemId: MENU_IDS.isolateLink, linkUrl: REAL }, { ...SOURCE_TAB });

    // Assert
    expect(creates().map(sent)).toEqual([{ url: REAL, domainAllow: ['real-phish.example'] }]);
    expect(state.notices).toEqual([]);
  });

  it.each([
    ['unwrap', 'keep', REAL],
    ['keep', 'unwrap', SAFE_LINK],
    ['ask', 'keep', SAFE_LINK],
    ['ask', 'unwrap', REAL],
    ['ask', undefined, REAL],
  ] as const)('setting %s, the popup sends %s: %s is isolated (an answer counts only where the settings ask)', async (mode, wrapped, expected) => {
    // Arrange
    const { deps } = fakes({ unwrap: mode }, ['unwrap']);

    // Act
    await createHandlers(deps).isolate({ url: SAFE_LINK, session: 'standard', ...(wrapped ? { wrapped } : {}) });

    // Assert
    expect(sent(creates()[0]).url).toBe(expected);
  });

  it('a retry after a failure keeps the answer given', async () => {
    // Arrange
    const { deps, state } = fakes({ unwrap: 'ask' });
    sim().faults.set({ status: 503 });

    // Act
    await onNotificationAction(deps, { kind: 'isolate', url: SAFE_LINK, session: 'standard', source: SOURCE, wrapped: 'keep' });

    // Assert
    const [notice] = state.notices;
    expect(notice?.kind === 'failure' && notice.retry).toEqual({ kind: 'isolate', url: SAFE_LINK, session: 'standard', source: SOURCE, wrapped: 'keep' });
  });
});

describe('selections and lists of wrapped links', () => {
  it('three wrapped links: one request, every real target with its own domain_allow', async () => {
    // Arrange
    const { deps, state } = fakes();
    const targets = ['https://a.example/1', 'https://b.example/2', 'https://c.example/3'];
    const text = `Links: ${wrap.safelinks(targets[0] ?? '')}\n${wrap.proofpointV2(targets[1] ?? '')}\n${wrap.google(targets[2] ?? '')}`;

    // Act
    await onMenuClick(deps, { menuItemId: MENU_IDS.isolateSelection, selectionText: text }, { ...SOURCE_TAB });

    // Assert
    expect(apiBodies(sim())).toHaveLength(1);
    expect(creates().map(sent)).toEqual(targets.map((url) => ({ url, domainAllow: [new URL(url).hostname] })));
    expect(state.tabs).toHaveLength(3);
  });

  it('a Mimecast link among others goes in a request of its own, without a domain_allow', async () => {
    // Arrange
    const { deps } = fakes();
    const text = `${SAFE_LINK} and ${MIMECAST}`;

    // Act
    await onMenuClick(deps, { menuItemId: MENU_IDS.isolateSelection, selectionText: text }, { ...SOURCE_TAB });

    // Assert
    expect(apiBodies(sim())).toHaveLength(2);
    expect(creates().map(sent)).toEqual([
      { url: REAL, domainAllow: ['real-phish.example'] },
      { url: MIMECAST, domainAllow: [] },
    ]);
  });

  it('two wrappers of one target are one target', async () => {
    // Arrange
    const { deps, state } = fakes();

    // Act
    await onMenuClick(deps, { menuItemId: MENU_IDS.isolateSelection, selectionText: `${SAFE_LINK} ${PROOFPOINT}` }, { ...SOURCE_TAB });

    // Assert
    expect(creates().map(sent)).toEqual([{ url: REAL, domainAllow: ['real-phish.example'] }]);
    expect(state.tabs).toHaveLength(1);
  });

  it('"ask": the confirmation lists the real targets and offers both; the second button opens the links as written', async () => {
    // Arrange
    const { deps, state } = fakes({ unwrap: 'ask' });
    const text = `${SAFE_LINK} and https://plain.example/x`;

    // Act
    await onMenuClick(deps, { menuItemId: MENU_IDS.isolateSelection, selectionText: text }, { ...SOURCE_TAB });

    // Assert
    expect(apiBodies(sim())).toEqual([]);
    const [notice] = state.notices;
    expect(notice?.kind).toBe('ask');
    if (notice?.kind !== 'ask' || !notice.second) throw new Error('expected a question with two buttons');
    expect(notice.message).toBe(`${REAL} (wrapped by Microsoft Safe Links)\nhttps://plain.example/x`);
    await onNotificationAction(deps, notice.second.action);
    expect(creates().map(sent)).toEqual([
      { url: 'https://plain.example/x', domainAllow: ['plain.example'] },
      { url: SAFE_LINK, domainAllow: [] },
    ]);
  });

  it('the popup bulk list: each link resolved as one link is', async () => {
    // Arrange
    const { deps } = fakes();

    // Act
    const result = await createHandlers(deps).bulkCreate({ urls: [SAFE_LINK, wrap.safelinks('javascript:alert(1)'), 'https://plain.example/'] });

    // Assert
    expect(result.created.map((context) => [context.url, context.wrappedBy])).toEqual([
      [REAL, ['safelinks']],
      ['https://plain.example/', undefined],
    ]);
    expect(result.failures).toEqual([{ url: wrap.safelinks('javascript:alert(1)'), error: expect.stringContaining('javascript:') as unknown }]);
  });
});

describe('copying and the omnibox', () => {
  it('copy link unwrapped: the real target', async () => {
    const { deps, state } = fakes();
    await onMenuClick(deps, { menuItemId: MENU_IDS.copyLinkUnwrapped, linkUrl: wrap.safelinks(PROOFPOINT) }, { ...SOURCE_TAB });
    expect(state.copied).toEqual([REAL]);
  });

  it('copy refanged + unwrapped: the text kept, each wrapped link replaced by its real target', async () => {
    const { deps, state } = fakes();
    const defanged = SAFE_LINK.replace('https://', 'hxxps://');
    await onMenuClick(
      deps,
      { menuItemId: MENU_IDS.copySelectionUnwrapped, selectionText: `See ${defanged}. Also hxxp://other[.]example/x` },
      { ...SOURCE_TAB },
    );
    expect(state.copied).toEqual([`See ${REAL}. Also http://other.example/x`]);
  });

  it.each([
    ['https://evil.example/?a=1&b=<script>', false, 'https://evil.example/?a=1&amp;b=&lt;script&gt;'],
    ['https://evil.example/x]]>"\'', false, 'https://evil.example/x]]&gt;&quot;&apos;'],
    ['https://evil.example/?a=1&b=<script>', true, 'https://evil.example/?a=1&b=<script>'],
  ])('omnibox text %j (Firefox: %s) is %j: XML-escaped for Chrome, plain for Firefox', (text, firefox, expected) => {
    expect(omniboxText(text, firefox)).toBe(expected);
  });

  it('the omnibox suggestion names the wrappers of a typed link', () => {
    expect(omniboxSuggestion(SAFE_LINK)).toBe(`Open in isolation: ${SAFE_LINK} (wrapped by Microsoft Safe Links)`);
    expect(omniboxSuggestion(REAL)).toBe(`Open in isolation: ${REAL}`);
  });
});
