/**
 * Hostile configuration: a token is only ever sent to the origin it was entered for; a
 * policy that holds a token but no valid service URL, or an invalid connection value,
 * stops isolation instead of falling back to the user's values. Against the simulator
 * over HTTP; side effects as plain fakes.
 */
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MENU_IDS, onMenuClick } from '../../src/background/entries';
import { createHandlers } from '../../src/background/handlers';
import { readToken, writeToken } from '../../src/settings/token';
import type { Simulator } from '../simulator';
import { startSimulator } from '../simulator';
import { useSimulator } from '../simulator/helpers';
import { SOURCE_TAB, apiRequests, createFakes, simSettings } from '../support/background-fakes';
import { installMessages } from '../support/i18n';
import { expectSaid } from '../support/said';

const handle = useSimulator();
const sim = (): Simulator => handle.sim;

/** A second service on another port: a different origin, which must never receive the token. */
let other: Simulator;
beforeEach(async () => {
  fakeBrowser.reset();
  installMessages();
  other = await startSimulator();
});
afterEach(async () => {
  await other.close();
});

const TARGET = 'https://evil.example/login';
const click = (deps: Parameters<typeof onMenuClick>[0]) => onMenuClick(deps, { menuItemId: MENU_IDS.isolateLink, linkUrl: TARGET }, { ...SOURCE_TAB });

describe('a token is only ever sent to the origin it was entered for', () => {
  it.each([
    ["the user's (typed or imported: the background sees the URL in force)", []],
    ["the organisation's, with no token of its own", ['serviceUrl']],
  ] as const)('a service URL changed, %s: nothing reaches the new service, the analyst is asked for its token', async (_whose, locked) => {
    // Arrange: the token was entered for sim(); the service URL now names another origin.
    const { deps, state } = createFakes(sim(), simSettings(other, { launchUrl: '' }), { locked: [...locked] });

    // Act
    await click(deps);

    // Assert
    expect(other.requests).toEqual([]);
    expect(apiRequests(sim())).toEqual([]);
    expect(state.tabs).toEqual([]);
    const origin = new URL(sim().url).origin;
    const target = new URL(other.url).origin;
    expect(state.notices).toEqual([
      {
        kind: 'failure',
        failure: {
          title: 'Isolink is not set up yet',
          message: `The admin token was entered for ${origin} and is never sent to ${target}. Enter the token for ${target} in the options.`,
          next: 'options',
        },
        retry: { kind: 'isolate', url: TARGET, session: 'standard', source: { id: SOURCE_TAB.id, index: SOURCE_TAB.index, windowId: SOURCE_TAB.windowId } },
      },
    ]);
  });

  it('not even Test connection sends it; the status says why', async () => {
    // Arrange
    const { deps } = createFakes(sim(), simSettings(other, { launchUrl: '' }));
    const handlers = createHandlers(deps);

    // Act
    const test = handlers.testConnection({});
    const status = await handlers.getStatus({});

    // Assert
    await expect(test).rejects.toMatchObject({ name: 'NotConfiguredError' });
    expect(other.requests).toEqual([]);
    expect(status.configured).toBe(false);
    expect(status.problems.join(' ')).toContain(`is never sent to ${new URL(other.url).origin}`);
  });

  it('a token saved now is bound to the service URL in force; without one it is refused', async () => {
    // Arrange
    const { deps, state } = createFakes(sim(), simSettings(sim()), { token: null });
    const handlers = createHandlers(deps);

    // Act
    await handlers.setToken({ token: sim().adminToken, remember: false });
    state.settings = { ...state.settings, serviceUrl: '' };
    const refused = handlers.setToken({ token: 'another', remember: false });

    // Assert
    expect(state.tokenWrites).toEqual([{ token: sim().adminToken, remember: false, origin: new URL(sim().url).origin }]);
    await expectSaid(refused, { name: 'RequestRefusedError', message: 'Save the service URL first: the token is kept for that service only.' });
  });

  it('a token stored before binding is bound, once, to the service URL the user had saved', async () => {
    // Arrange: the layout of earlier releases, a bare string.
    await fakeBrowser.storage.local.set({ settings: { serviceUrl: 'https://isolation.acme.example' }, token: 'legacy-token' });

    // Act
    const first = await readToken();
    const stored = await fakeBrowser.storage.local.get('token');

    // Assert
    expect(first).toEqual({ token: 'legacy-token', source: 'local', origin: 'https://isolation.acme.example' });
    expect(stored).toEqual({ token: { token: 'legacy-token', origin: 'https://isolation.acme.example' } });
  });

  it('a token stored before binding, with no service URL saved, is dropped', async () => {
    await fakeBrowser.storage.session.set({ token: 'legacy-token' });
    expect(await readToken()).toBeNull();
    expect(await fakeBrowser.storage.session.get()).toEqual({});
  });

  it('writeToken keeps the binding beside the token', async () => {
    await writeToken('abc', false, 'https://isolation.acme.example');
    expect(await fakeBrowser.storage.session.get()).toEqual({ token: { token: 'abc', origin: 'https://isolation.acme.example' } });
  });
});

describe('a managed token is sent only to the managed service URL', () => {
  it('a policy with a token but no service URL refuses to isolate: it never falls back to the user’s URL', async () => {
    // Arrange: the user's service is sim(); the policy gives a token and no service URL.
    const { deps, state } = createFakes(sim(), simSettings(sim()), { token: { token: 'managed-token', source: 'managed', origin: null }, tokenManaged: true });

    // Act
    await click(deps);

    // Assert
    expect(apiRequests(sim())).toEqual([]);
    expect(state.tabs).toEqual([]);
    const [notice] = state.notices;
    expect(notice?.kind === 'failure' && notice.failure).toEqual({
      title: 'Isolink is not set up yet',
      message:
        "Your organisation's policy gives Isolink an admin token but no valid service URL, so the token is sent nowhere. Ask your administrator to set serviceUrl in the policy.",
      next: 'options',
    });
  });

  it('with the managed service URL, the managed token is used', async () => {
    const { deps, state } = createFakes(sim(), simSettings(sim()), {
      token: { token: sim().adminToken, source: 'managed', origin: new URL(sim().url).origin },
      tokenManaged: true,
      locked: ['serviceUrl'],
    });
    await click(deps);
    expect(apiRequests(sim())).toHaveLength(1);
    expect(state.tabs).toHaveLength(1);
  });
});

describe('an invalid managed connection value stops isolation', () => {
  it.each([['serviceUrl'], ['launchUrl'], ['token'], ['username'], ['org'], ['policy']] as const)(
    '%s: nothing sent, the message names the key',
    async (key) => {
      // Arrange
      const { deps, state } = createFakes(sim(), simSettings(sim()), { managedBroken: [key] });

      // Act
      await click(deps);
      const status = await createHandlers(deps).getStatus({});

      // Assert
      expect(apiRequests(sim())).toEqual([]);
      expect(state.tabs).toEqual([]);
      const [notice] = state.notices;
      expect(notice?.kind === 'failure' && notice.failure).toEqual({
        title: 'Isolink is not set up yet',
        message: `Your organisation's policy for Isolink has a value Isolink cannot use for: ${key}. Nothing is isolated until your administrator fixes it.`,
        next: 'options',
      });
      expect(status.configured).toBe(false);
    },
  );
});
