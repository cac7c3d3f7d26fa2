/**
 * Fail closed: whatever goes wrong (set-up, input, service), no entry point opens
 * anything but a launch URL on the configured launch base, the analyst is told what
 * happened and what to do next, and nothing is sent that should not be.
 *
 * Entry points run against the simulator over HTTP; side effects are plain fakes.
 */
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { beforeEach, describe, expect, it } from 'vitest';
import { LAUNCH } from '../../src/service/wire';
import { checkLaunchUrl, createClient, type IsolinkClient } from '../../src/api';
import { isolate, safeLaunchUrl } from '../../src/background/actions';
import { COMMAND_ISOLATE_TAB, MENU_IDS, onCommand, onMenuClick, onOmniboxEntered } from '../../src/background/entries';
import { LaunchRefusedError, describeFailure, type Failure } from '../../src/background/failures';
import type { Deps } from '../../src/background/deps';
import { createHandlers } from '../../src/background/handlers';
import type { PendingAction } from '../../src/settings/pending';
import type { FaultSettings, Simulator } from '../simulator';
import { useSimulator } from '../simulator/helpers';
import { SOURCE, SOURCE_TAB, USER, apiRequests, createFakes, simSettings, type FakeState } from '../support/background-fakes';
import { format, installMessages } from '../support/i18n';

const handle = useSimulator();
const sim = (): Simulator => handle.sim;

beforeEach(() => {
  fakeBrowser.reset();
  installMessages();
});

const TARGET = 'https://evil.example/login?next=%2F';

type Session = 'standard' | 'research';

interface Entry {
  readonly name: string;
  readonly session: Session;
  /** Feeds `raw` (a link, a page address, typed text) into the entry point. */
  run(deps: Deps, raw: string): Promise<void>;
  /** The retry action the entry offers for `raw`; undefined when it offers none. */
  retry(raw: string): PendingAction | undefined;
}

const isolateRetry =
  (session: Session, source: typeof SOURCE | undefined) =>
  (raw: string): PendingAction => ({ kind: 'isolate', url: raw, session, source: source ? { ...source } : undefined });

/** Entry points that take one link or address as it is. */
const URL_ENTRIES: readonly Entry[] = [
  {
    name: 'menu isolate-link',
    session: 'standard',
    run: (deps, raw) => onMenuClick(deps, { menuItemId: MENU_IDS.isolateLink, linkUrl: raw, pageUrl: SOURCE_TAB.url }, { ...SOURCE_TAB }),
    retry: isolateRetry('standard', SOURCE),
  },
  {
    name: 'menu isolate-link-research',
    session: 'research',
    run: (deps, raw) => onMenuClick(deps, { menuItemId: MENU_IDS.isolateLinkResearch, linkUrl: raw, pageUrl: SOURCE_TAB.url }, { ...SOURCE_TAB }),
    retry: isolateRetry('research', SOURCE),
  },
  {
    name: 'menu isolate-page',
    session: 'standard',
    run: (deps, raw) => onMenuClick(deps, { menuItemId: MENU_IDS.isolatePage, pageUrl: raw }, { ...SOURCE_TAB, url: raw }),
    retry: isolateRetry('standard', SOURCE),
  },
  {
    name: 'keyboard command',
    session: 'standard',
    run: (deps, raw) => onCommand(deps, COMMAND_ISOLATE_TAB, { ...SOURCE_TAB, url: raw }),
    retry: isolateRetry('standard', SOURCE),
  },
  {
    name: 'omnibox',
    session: 'standard',
    run: (deps, raw) => onOmniboxEntered(deps, raw),
    retry: isolateRetry('standard', undefined),
  },
  {
    name: 'popup isolate message',
    session: 'standard',
    run: async (deps, raw) => {
      // The popup gets the error as its reply; the notification is what this test reads.
      await createHandlers(deps)
        .isolate({ url: raw, session: 'standard' })
        .catch(() => undefined);
    },
    retry: () => undefined,
  },
];

/** The selection entry with a selection holding exactly one link. */
const SELECTION_ENTRY: Entry = {
  name: 'menu isolate-selection (one link)',
  session: 'standard',
  run: (deps, raw) =>
    onMenuClick(deps, { menuItemId: MENU_IDS.isolateSelection, selectionText: `Reported by a user:\n${raw}\nplease check` }, { ...SOURCE_TAB }),
  retry: isolateRetry('standard', SOURCE),
};

const ALL_ENTRIES: readonly Entry[] = [...URL_ENTRIES, SELECTION_ENTRY];

/** Asserts the fail-closed outcome: no tab, exactly one failure notice, `requests` /api/ requests. */
function expectFailedClosed(state: FakeState, entry: Entry, raw: string, expected: Failure, requests: number): void {
  expect(state.tabs).toEqual([]);
  expect(state.recent).toEqual([]);
  expect(state.notices).toHaveLength(1);
  const [notice] = state.notices;
  expect(notice?.kind).toBe('failure');
  if (notice?.kind !== 'failure') return;
  expect(notice.failure).toEqual(expected);
  if (expected.next === 'retry') expect(notice.retry).toEqual(entry.retry(raw));
  expect(apiRequests(sim())).toHaveLength(requests);
}

describe('missing set-up: nothing is sent, nothing is opened, the notice points to the options', () => {
  const notConfigured = (message: string): Failure => ({ title: 'Isolink is not set up yet', message, next: 'options' });

  const SETUPS: readonly {
    readonly name: string;
    readonly change: (state: FakeState, s: Simulator) => void;
    readonly expected: (s: Simulator) => Failure;
  }[] = [
    {
      name: 'no token',
      change: (state) => {
        state.token = null;
      },
      expected: () => notConfigured('No admin token is set. Open the options and enter it.'),
    },
    {
      name: 'no service URL',
      change: (state) => {
        state.settings = { ...state.settings, serviceUrl: '' };
      },
      expected: () => notConfigured('No service URL is set. Open the options and enter it.'),
    },
    {
      name: 'no identity',
      change: (state) => {
        state.settings = { ...state.settings, username: '', org: '' };
      },
      expected: () => notConfigured('No username or organisation is set. Open the options and enter one of them.'),
    },
    {
      name: 'both a username and an organisation',
      change: (state) => {
        state.settings = { ...state.settings, username: USER, org: 'acme' };
      },
      expected: () => notConfigured('No username or organisation is set. Open the options and enter one of them.'),
    },
    {
      name: 'a launch URL that is plain http off loopback',
      change: (state) => {
        state.settings = { ...state.settings, launchUrl: 'http://launch.acme.example' };
      },
      expected: () => notConfigured('The launch URL is not valid: it must use https (http only on this computer). Fix it in the options.'),
    },
    {
      name: 'host permission missing',
      change: (state) => {
        state.permission = false;
      },
      expected: (s) => ({
        title: 'Isolink may not reach the service',
        message: `Isolink may not reach ${s.url}. Open the options and click Grant access.`,
        next: 'options',
      }),
    },
  ];

  const cases = SETUPS.flatMap((setup) => ALL_ENTRIES.map((entry) => ({ setup, entry })));

  it.each(cases.map((c) => [c.entry.name, c.setup.name, c] as const))('%s with %s', async (_entry, _setup, { setup, entry }) => {
    // Arrange
    const { deps, state } = createFakes(sim());
    setup.change(state, sim());

    // Act
    await entry.run(deps, TARGET);

    // Assert
    expectFailedClosed(state, entry, TARGET, setup.expected(sim()), 0);
  });
});

describe('refused input: nothing is sent, nothing is opened, the notice says why', () => {
  const HUNDRED_KB_URL = `https://evil.example/?q=${'a'.repeat(100 * 1024)}`;
  // The analyst's words, from the URL check's code (never its English reason).
  const scheme = (name: string): string => format('errorRefusedUrlScheme', name);
  const NOT_ABSOLUTE = format('errorRefusedUrlNotAbsolute');

  const REFUSED: readonly (readonly [label: string, raw: string, reason: string])[] = [
    ['javascript:alert(1)', 'javascript:alert(1)', scheme('javascript:')],
    ['javascript: behind a space and a tab', ' \tjavascript:alert(document.cookie)', scheme('javascript:')],
    ['data: HTML', 'data:text/html,<script>alert(1)</script>', scheme('data:')],
    ['file:', 'file:///etc/passwd', scheme('file:')],
    ['blob: (which always carries its origin)', 'blob:https://evil.example/550e8400-e29b-41d4-a716-446655440000', scheme('blob:')],
    ['about:blank', 'about:blank', scheme('about:')],
    ['chrome://settings', 'chrome://settings', scheme('chrome:')],
    ['a relative URL', '/login?next=/', NOT_ABSOLUTE],
    ['a schemeless host and path', 'evil.example/login', NOT_ABSOLUTE],
    ['a 100 kB URL', HUNDRED_KB_URL, format('errorRefusedUrlTooLong', '16384')],
  ];

  const cases = REFUSED.flatMap(([label, raw, reason]) => URL_ENTRIES.map((entry) => ({ label, raw, reason, entry })));

  it.each(cases.map((c) => [c.entry.name, c.label, c] as const))('%s refuses %s', async (_entry, _label, { raw, reason, entry }) => {
    // Arrange
    const { deps, state } = createFakes(sim());
    const expected: Failure = { title: 'Link not isolated', message: reason, next: 'none' };

    // Act
    await entry.run(deps, raw);

    // Assert
    expectFailedClosed(state, entry, raw, expected, 0);
    expect(sim().requests).toEqual([]);
  });

  // A link, a page address or typed text that IS a refused URL is judged as that URL: never mined for an http link inside it.
  const WRAPPED = [
    ['javascript: that navigates to an http link', "javascript:location='https://evil.example/'", scheme('javascript:')],
    ['data: HTML holding an http link', 'data:text/html,<a href="https://evil.example/x">x</a>', scheme('data:')],
    ['javascript: with a space after the colon', "javascript: location='https://evil.example/'", scheme('javascript:')],
    ['JavaScript: in another case, with a tab', "JavaScript:\tlocation='https://evil.example/'", scheme('javascript:')],
  ] as const;
  const wrappedCases = WRAPPED.flatMap(([label, raw, reason]) => URL_ENTRIES.map((entry) => ({ label, raw, reason, entry })));

  it.each(wrappedCases.map((c) => [c.entry.name, c.label, c] as const))(
    '%s refuses %s instead of isolating the link inside it',
    async (_entry, _label, { raw, reason, entry }) => {
      // Arrange
      const { deps, state } = createFakes(sim());

      // Act
      await entry.run(deps, raw);

      // Assert
      expectFailedClosed(state, entry, raw, { title: 'Link not isolated', message: reason, next: 'none' }, 0);
    },
  );

  it.each([
    ['javascript:alert(1)'],
    ['data:text/html,<script>alert(1)</script>'],
    ['file:///etc/passwd and about:blank'],
    ['see evil.example/login'],
    ['chrome://settings'],
    [''],
  ])('menu isolate-selection with no http link in %j says so and sends nothing', async (text) => {
    // Arrange
    const { deps, state } = createFakes(sim());

    // Act
    await onMenuClick(deps, { menuItemId: MENU_IDS.isolateSelection, selectionText: text }, { ...SOURCE_TAB });

    // Assert
    expect(state.notices).toEqual([{ kind: 'info', title: 'No links found', message: 'The selected text holds no http or https link, defanged or not.' }]);
    expect(state.tabs).toEqual([]);
    expect(sim().requests).toEqual([]);
  });
});

describe('service faults: nothing is opened, the create is sent once and never retried', () => {
  const retryable = (title: string, message: string): Failure => ({ title, message, next: 'retry' });

  const FAULTS: readonly {
    readonly name: string;
    readonly faults?: FaultSettings;
    readonly change?: (state: FakeState) => void;
    readonly expected: (s: Simulator) => Failure;
    readonly requests: number;
  }[] = [
    {
      name: 'HTTP 500',
      faults: { status: 500 },
      expected: () => retryable('The service reported an error', 'The service answered with HTTP status 500: Simulated HTTP 500 Internal Server Error'),
      requests: 1,
    },
    {
      name: 'an HTML 502 page from a gateway',
      faults: { htmlErrorPage: true },
      expected: () => retryable('The service reported an error', 'The service answered with HTTP status 502.'),
      requests: 1,
    },
    {
      name: 'HTTP 401',
      faults: { status: 401 },
      expected: () => ({
        title: 'The service rejected the admin token',
        message: 'The service refused the admin token (HTTP 401). Check the token in the options.',
        next: 'options',
      }),
      requests: 1,
    },
    {
      name: 'a token the service does not know',
      change: (state) => {
        state.token = { token: 'not-the-admin-token', source: 'session', origin: new URL(sim().url).origin };
      },
      expected: () => ({
        title: 'The service rejected the admin token',
        message: 'The service rejected the admin token (KeyError: invalid or missing admin token). Check the token in the options.',
        next: 'options',
      }),
      requests: 1,
    },
    {
      name: 'malformed JSON',
      faults: { malformedJson: true },
      expected: () => retryable('The service sent an unexpected reply', 'The service sent a reply that is not JSON.'),
      requests: 1,
    },
    {
      name: 'a reply of the wrong length',
      faults: { wrongLength: true },
      expected: () => retryable('The service sent an unexpected reply', 'The service sent 1 results for 2 commands.'),
      requests: 1,
    },
    {
      name: 'mismatched command_id',
      faults: { mismatchedCommandId: true },
      expected: () => retryable('The service sent an unexpected reply', 'The service answered command 1 with the command_id of another command.'),
      requests: 1,
    },
    {
      name: 'an error slot for create_context',
      faults: { errorSlots: { create_context: 'ValueError: the licence allows no more contexts' } },
      expected: () => ({
        title: 'The service refused the request',
        message: 'The service refused the request (create_context): ValueError: the licence allows no more contexts',
        next: 'none',
      }),
      requests: 1,
    },
    {
      name: 'a 307 redirect (the token would be replayed)',
      faults: { redirect: { status: 307, location: 'http://127.0.0.1:1/api/' } },
      expected: (s) =>
        retryable(
          'The service could not be reached',
          `Could not reach the service at ${new URL(s.url).host}. Check the service URL and the network; Isolink refuses redirects.`,
        ),
      requests: 1,
    },
    {
      name: 'a dropped connection',
      faults: { dropConnection: true },
      expected: (s) =>
        retryable(
          'The service could not be reached',
          `Could not reach the service at ${new URL(s.url).host}. Check the service URL and the network; Isolink refuses redirects.`,
        ),
      requests: 1,
    },
    {
      name: 'a service that is down',
      change: (state) => {
        // The token entered for that service: what fails is reaching it.
        state.settings = { ...state.settings, serviceUrl: 'http://127.0.0.1:1' };
        if (state.token) state.token = { ...state.token, origin: 'http://127.0.0.1:1' };
      },
      expected: () =>
        retryable(
          'The service could not be reached',
          'Could not reach the service at 127.0.0.1:1. Check the service URL and the network; Isolink refuses redirects.',
        ),
      requests: 0,
    },
  ];

  const cases = FAULTS.flatMap((fault) => ALL_ENTRIES.map((entry) => ({ fault, entry })));

  it.each(cases.map((c) => [c.entry.name, c.fault.name, c] as const))('%s with %s', async (_entry, _fault, { fault, entry }) => {
    // Arrange
    const { deps, state } = createFakes(sim());
    fault.change?.(state);
    if (fault.faults) sim().faults.set(fault.faults);

    // Act
    await entry.run(deps, TARGET);

    // Assert
    expectFailedClosed(state, entry, TARGET, fault.expected(sim()), fault.requests);
  });

  it('a service that never answers times out with nothing opened and a retry offered', async () => {
    // Arrange
    const [entry] = URL_ENTRIES;
    if (!entry) throw new Error('no entry');
    const fakes = createFakes(sim());
    const state = fakes.state;
    // The shipped limit is REQUEST_TIMEOUT_MS (15 s); the path is the same with a short one.
    const deps = { ...fakes.deps, requestTimeoutMs: 300 };
    sim().faults.set({ hang: true });

    // Act
    await entry.run(deps, TARGET);

    // Assert
    expectFailedClosed(
      state,
      entry,
      TARGET,
      {
        title: 'The service did not answer in time',
        message: 'Nothing was opened. The context may or may not have been created; try again, or check the service URL.',
        next: 'retry',
      },
      1,
    );
  });
});

describe('a selection of several links fails closed too', () => {
  const LINKS = ['https://one.example/a', 'https://two.example/b', 'https://three.example/c'];
  const SELECTION = `IOCs: ${LINKS.join(' , ')}`;
  const partial = (error: string) => ({
    kind: 'info',
    title: 'Opened 0 of 3 links in isolation',
    message: LINKS.map((url) => `${url}: ${error}`).join('\n'),
  });

  it.each<[string, (state: FakeState) => void, FaultSettings | undefined, (s: Simulator) => unknown, number]>([
    [
      'no token',
      (state) => {
        state.token = null;
      },
      undefined,
      () => ({
        kind: 'failure',
        failure: { title: 'Isolink is not set up yet', message: 'No admin token is set. Open the options and enter it.', next: 'options' },
        retry: { kind: 'openMany', urls: LINKS, source: SOURCE },
      }),
      0,
    ],
    [
      'host permission missing',
      (state) => {
        state.permission = false;
      },
      undefined,
      (s) => ({
        kind: 'failure',
        failure: {
          title: 'Isolink may not reach the service',
          message: `Isolink may not reach ${s.url}. Open the options and click Grant access.`,
          next: 'options',
        },
        retry: { kind: 'openMany', urls: LINKS, source: SOURCE },
      }),
      0,
    ],
    ['HTTP 500', () => undefined, { status: 500 }, () => partial('The service answered with HTTP status 500: Simulated HTTP 500 Internal Server Error'), 1],
    [
      'a token the service does not know',
      (state) => {
        state.token = { token: 'not-the-admin-token', source: 'session', origin: new URL(sim().url).origin };
      },
      undefined,
      () => partial('The service rejected the admin token (KeyError: invalid or missing admin token). Check the token in the options.'),
      1,
    ],
    ['malformed JSON', () => undefined, { malformedJson: true }, () => partial('The service sent a reply that is not JSON.'), 1],
  ])('with %s: no tab, the notice says why, the batch is sent at most once', async (_label, change, faults, expected, requests) => {
    // Arrange
    const { deps, state } = createFakes(sim());
    change(state);
    if (faults) sim().faults.set(faults);

    // Act
    await onMenuClick(deps, { menuItemId: MENU_IDS.isolateSelection, selectionText: SELECTION }, { ...SOURCE_TAB });

    // Assert
    expect(state.tabs).toEqual([]);
    expect(state.recent).toEqual([]);
    expect(state.notices).toEqual([expected(sim())]);
    expect(apiRequests(sim())).toHaveLength(requests);
  });
});

describe('launch URLs: only ever on the configured launch base', () => {
  it.each([
    ['another loopback port', 'http://127.0.0.1:1', 'http://127.0.0.1:1/launch?ctx='],
    ['a base with a path', 'http://localhost:9/isolation/', 'http://localhost:9/isolation/launch?ctx='],
  ])('a launch URL on %s opens a tab there and nowhere else', async (_label, launchUrl, expectedPrefix) => {
    // Arrange
    const { deps, state } = createFakes(sim(), simSettings(sim(), { launchUrl }));

    // Act
    await onMenuClick(deps, { menuItemId: MENU_IDS.isolateLink, linkUrl: TARGET }, { ...SOURCE_TAB });

    // Assert
    const [id] = sim().state.contexts.keys();
    expect(state.notices).toEqual([]);
    expect(state.tabs.map((tab) => tab.url)).toEqual([`${expectedPrefix}${id ?? 'missing'}`]);
  });

  const LAUNCH_BASE = 'https://launch.acme.example';

  /** A connection whose client answers `candidate` as the launch URL of every context. */
  function rogue(candidate: () => string): { client: IsolinkClient } {
    return { client: { launchUrl: candidate } as unknown as IsolinkClient };
  }

  it('safeLaunchUrl passes the launch URL the client made on the launch base', () => {
    // Arrange
    const client = createClient({ baseUrl: 'https://isolation.acme.example', launchBase: LAUNCH_BASE, token: 't' });

    // Act
    const actual = safeLaunchUrl({ client }, 'abc123');

    // Assert
    expect(actual).toBe(`${LAUNCH_BASE}${LAUNCH.path}?${LAUNCH.param}=abc123`);
  });

  it.each([
    ['another origin', 'https://evil.example/launch?ctx=abc123'],
    ['a look-alike host', 'https://launch.acme.example.evil.example/launch?ctx=abc123'],
    ['a downgrade to http', 'http://launch.acme.example/launch?ctx=abc123'],
    ['another port', 'https://launch.acme.example:8443/launch?ctx=abc123'],
    ['userinfo', 'https://analyst:pw@launch.acme.example/launch?ctx=abc123'],
    ['a fragment', 'https://launch.acme.example/launch?ctx=abc123#https://evil.example/'],
    ['an extra parameter', 'https://launch.acme.example/launch?ctx=abc123&next=https://evil.example/'],
    ['another path', 'https://launch.acme.example/redirect?ctx=abc123'],
    ['an empty ctx', 'https://launch.acme.example/launch?ctx='],
    ['javascript:', 'javascript:alert(1)'],
    ['the target itself', TARGET],
    ['not a URL', 'launch?ctx=abc123'],
  ])('the one launch URL check (checkLaunchUrl, which the client runs) refuses %s', (_label, candidate) => {
    // Act
    const actual = checkLaunchUrl(LAUNCH_BASE, candidate);

    // Assert
    expect(actual).toBeNull();
  });

  it.each([
    ['an empty context id', ''],
    ['a context id longer than the service allows', 'x'.repeat(300)],
  ])('the client makes no launch URL for %s: safeLaunchUrl refuses', (_label, id) => {
    // Arrange
    const client = createClient({ baseUrl: 'https://isolation.acme.example', launchBase: LAUNCH_BASE, token: 't' });

    // Act
    const act = () => safeLaunchUrl({ client }, id);

    // Assert
    expect(act).toThrow(LaunchRefusedError);
  });

  it('safeLaunchUrl refuses when the client cannot build a launch URL at all', () => {
    // Arrange
    const connection = rogue(() => {
      throw new Error('bad id');
    });

    // Act
    const act = () => safeLaunchUrl(connection, 'abc123');

    // Assert
    expect(act).toThrow(LaunchRefusedError);
  });

  it('a refused launch URL is notified as such, with the options as next step', () => {
    // Arrange
    const error = new LaunchRefusedError();

    // Act
    const actual = describeFailure(error);

    // Assert
    expect(actual).toEqual({
      title: 'Launch address refused',
      message: 'The service answered with a launch address outside the configured launch URL, so Isolink did not open it. Check the launch URL in the options.',
      next: 'options',
    });
  });

  it('isolate() rejects and opens nothing when the action fails after the create', async () => {
    // Arrange: the tab cannot be opened (the window closed); the error must surface, not be swallowed.
    const { deps, state } = createFakes(sim());
    const failing: Deps = { ...deps, browser: { ...deps.browser, openTab: () => Promise.reject(new Error('No window with id: 1.')) } };

    // Act
    const act = isolate(failing, { link: TARGET, session: 'standard', source: SOURCE });

    // Assert
    await expect(act).rejects.toThrow('No window with id: 1.');
    expect(state.tabs).toEqual([]);
    expect(state.recent).toEqual([]);
  });

  it('an unknown error is described without detail and offers a retry', () => {
    // Arrange
    const error = new TypeError(`secret ${'x'.repeat(40)}`);

    // Act
    const actual = describeFailure(error);

    // Assert
    expect(actual).toEqual({
      title: 'Isolink could not open the link',
      message: 'Nothing was opened locally. Try again; if it keeps failing, reload the extension.',
      next: 'retry',
    });
  });
});

describe('host access is checked before every call', () => {
  it('asks for the exact service origin, once per isolation', async () => {
    // Arrange
    const { deps, state } = createFakes(sim());

    // Act
    await onMenuClick(deps, { menuItemId: MENU_IDS.isolateLink, linkUrl: TARGET }, { ...SOURCE_TAB });
    await onMenuClick(deps, { menuItemId: MENU_IDS.isolateLink, linkUrl: 'https://other.example/' }, { ...SOURCE_TAB });

    // Assert
    expect(state.permissionChecks).toEqual([sim().url, sim().url]);
    expect(state.tabs).toHaveLength(2);
  });

  it('a permission revoked between two clicks stops the second', async () => {
    // Arrange
    const { deps, state } = createFakes(sim());
    await onMenuClick(deps, { menuItemId: MENU_IDS.isolateLink, linkUrl: TARGET }, { ...SOURCE_TAB });
    state.permission = false;

    // Act
    await onMenuClick(deps, { menuItemId: MENU_IDS.isolateLink, linkUrl: 'https://other.example/' }, { ...SOURCE_TAB });

    // Assert
    expect(state.tabs).toHaveLength(1);
    expect(apiRequests(sim())).toHaveLength(1);
    expect(state.notices.map((notice) => (notice.kind === 'failure' ? notice.failure.next : notice.kind))).toEqual(['options']);
  });
});
