/**
 * Isolate by policy in the background: the rules installed for the settings in force
 * (and left alone when the organisation's value is broken), and the landing page's fragment
 * checked here against them: refused, asked, or one context for its target, against the
 * simulator.
 */
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ALL_SITES, type NetRule } from '../../src/autoisolate';
import { installRules, landed } from '../../src/background/rules';
import { targetUrlOf } from '../simulator/state';
import { settingIssue } from '../../src/settings/errors';
import type { Simulator } from '../simulator';
import { useSimulator } from '../simulator/helpers';
import { createFakes, simSettings, viewOf } from '../support/background-fakes';
import { installMessages } from '../support/i18n';

const handle = useSimulator();
const sim = (): Simulator => handle.sim;

beforeEach(() => {
  fakeBrowser.reset();
  installMessages();
});

const PAGE = 'chrome-extension://isolink-test/isolate.html';

function redirects(rules: readonly NetRule[]): NetRule[] {
  return rules.filter((rule) => rule.action.type === 'redirect');
}

describe('installRules', () => {
  it('installs the settings’ rules: the landing page, a fresh key, the service and launch origins exempt', async () => {
    const { deps, state } = createFakes(sim(), simSettings(sim(), { launchUrl: 'https://launch.example:8443/base', autoIsolate: { from: ['mail.example'] } }));
    await installRules(deps);
    await installRules(deps);
    expect(state.ruleSets).toHaveLength(2);
    const [first = [], second = []] = state.ruleSets;
    expect(redirects(first).map((rule) => rule.action.redirect?.regexSubstitution)).toEqual([
      expect.stringMatching(new RegExp(`^${PAGE}#k=[0-9a-f]{32}&r=100&u=\\\\0$`, 'u')),
    ]);
    expect(redirects(first)[0]?.action.redirect?.regexSubstitution).not.toBe(redirects(second)[0]?.action.redirect?.regexSubstitution);
    expect(first.filter((rule) => rule.action.type === 'allow').map((rule) => rule.condition.urlFilter)).toEqual([
      `|${new URL(sim().url).origin}/`,
      '|https://launch.example:8443/',
    ]);
  });

  it('blocks what it cannot redirect until every site is granted; then redirects alone', async () => {
    const { deps, state } = createFakes(sim(), simSettings(sim(), { autoIsolate: { from: ['mail.example'] } }));
    await installRules(deps);
    state.hostAccess = [...state.hostAccess, ...ALL_SITES];
    await installRules(deps);
    const [without = [], withAll = []] = state.ruleSets;
    expect(without.filter((rule) => rule.action.type === 'block')).toHaveLength(2);
    expect(withAll.filter((rule) => rule.action.type === 'block')).toEqual([]);
  });

  it('removes every rule when the setting is off', async () => {
    const { deps, state } = createFakes(sim());
    await installRules(deps);
    expect(state.ruleSets).toEqual([[]]);
  });

  it('leaves the rules in force when the organisation’s autoIsolate does not parse, or its policy cannot be read', async () => {
    const { deps, state } = createFakes(sim(), simSettings(sim(), { autoIsolate: { from: ['mail.example'] } }));
    const broken = {
      ...deps,
      store: {
        ...deps.store,
        readSettings: () =>
          Promise.resolve(viewOf(simSettings(sim()), { locked: ['autoIsolate'], managedIssues: [settingIssue('autoIsolate', 'settingDomain')] })),
      },
    };
    await installRules(broken);
    const unreadable = { ...deps, store: { ...deps.store, readSettings: () => Promise.reject(new Error('managed policy not read in time')) } };
    await expect(installRules(unreadable)).rejects.toThrow();
    expect(state.ruleSets).toEqual([]);
  });
});

describe('landed (the landing page’s fragment)', () => {
  const settingsWith = (autoIsolate: Record<string, unknown>) => simSettings(sim(), { autoIsolate });

  async function installed(autoIsolate: Record<string, unknown>) {
    const fakes = createFakes(sim(), settingsWith(autoIsolate));
    await installRules(fakes.deps);
    const substitution = redirects(fakes.state.ruleSets.at(-1) ?? [])[0]?.action.redirect?.regexSubstitution ?? '';
    const key = /#k=([0-9a-f]{32})/u.exec(substitution)?.[1] ?? '';
    return { ...fakes, key };
  }

  it('isolates the target of a fragment the installed rules wrote: one context, its launch URL, no tab', async () => {
    const { deps, state, key } = await installed({ from: ['mail.example'] });
    const answer = await landed(deps, `#k=${key}&r=100&u=https://phish.example/login`, false);
    expect(answer).toMatchObject({ kind: 'opened', url: 'https://phish.example/login', host: 'phish.example', reason: { from: 'mail.example' } });
    expect(answer.kind === 'opened' && answer.launchUrl.startsWith(`${sim().launchBase}/launch?ctx=`)).toBe(true);
    expect([...sim().state.contexts.values()].map(targetUrlOf)).toEqual(['https://phish.example/login']);
    expect(state.tabs).toEqual([]);
  });

  it('answers the launch URL without waiting for the recent list, which still records the context', async () => {
    const { deps, state, key } = await installed({ from: ['mail.example'] });
    let save: (() => void) | undefined;
    const slow = {
      ...deps,
      store: {
        ...deps.store,
        addRecent: (entries: Parameters<typeof deps.store.addRecent>[0]) =>
          new Promise<void>((done) => {
            save = () => {
              void deps.store.addRecent(entries).then(done);
            };
          }),
      },
    };
    const answer = await landed(slow, `#k=${key}&r=100&u=https://phish.example/late`, false);
    expect(answer).toMatchObject({ kind: 'opened' });
    expect(state.recent).toEqual([]);
    expect(save).toBeDefined();
    save?.();
    await expect
      .poll(() => state.recent.map((context) => [context.url, context.launchUrl]))
      .toEqual([['https://phish.example/late', answer.kind === 'opened' ? answer.launchUrl : '']]);
  });

  it('answers the launch URL when the recent list cannot be written (best effort, never a failed isolation)', async () => {
    const { deps, key } = await installed({ from: ['mail.example'] });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const failing = { ...deps, store: { ...deps.store, addRecent: () => Promise.reject(new Error('storage quota exceeded')) } };
    expect(await landed(failing, `#k=${key}&r=100&u=https://phish.example/quota`, false)).toMatchObject({ kind: 'opened' });
    await expect.poll(() => warn.mock.calls).toEqual([['Isolink could not update the recent contexts list']]);
    warn.mockRestore();
  });

  it.each([
    ['no fragment', () => ''],
    ['a guessed key', () => `#k=${'f'.repeat(32)}&r=100&u=https://phish.example/`],
    ['a rule that does not redirect', (key: string) => `#k=${key}&r=101&u=https://phish.example/`],
    ['a target on the from site', (key: string) => `#k=${key}&r=100&u=https://a.mail.example/`],
  ])('refuses %s and sends nothing', async (_name, fragment) => {
    const { deps, key } = await installed({ from: ['mail.example'] });
    expect(await landed(deps, fragment(key), true)).toEqual({ kind: 'refused' });
    expect(sim().requests.filter((request) => request.path === '/api/')).toEqual([]);
  });

  it('asks first when the settings say so, and isolates only once told to go', async () => {
    const { deps, key } = await installed({ from: ['mail.example'], to: ['watched.example'], ask: true });
    expect(await landed(deps, `#k=${key}&r=100&u=https://phish.example/`, false)).toEqual({
      kind: 'ask',
      url: 'https://phish.example/',
      host: 'phish.example',
      reason: { from: 'mail.example' },
      local: true,
    });
    // A watched domain is never offered to open on this computer, wherever the link starts.
    expect(await landed(deps, `#k=${key}&r=100&u=https://a.watched.example/`, false)).toMatchObject({
      kind: 'ask',
      local: false,
      reason: { to: 'watched.example' },
    });
    expect(sim().state.contexts.size).toBe(0);
    expect(await landed(deps, `#k=${key}&r=100&u=https://phish.example/`, true)).toMatchObject({ kind: 'opened' });
    expect(sim().state.contexts.size).toBe(1);
  });

  it('says why the service refused the target, and creates nothing', async () => {
    const { deps, key } = await installed({ to: ['watched.example'] });
    sim().faults.set({ refuseUrls: ['https://a.watched.example/x'] });
    const answer = await landed(deps, `#k=${key}&r=10&u=https://a.watched.example/x`, false);
    expect(answer).toMatchObject({ kind: 'failed', url: 'https://a.watched.example/x', reason: { to: 'watched.example' } });
    expect(answer.kind === 'failed' ? answer.error : '').not.toBe('');
    expect(sim().state.contexts.size).toBe(0);
  });
});
