/**
 * Isolate by policy in the background: the rules installed for the settings in force
 * (and left alone when the organisation's value is broken). The landing page's isolation is
 * bulkCreate's (background-actions), its checks test/unit/isolate-page.test.ts.
 */
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { beforeEach, describe, expect, it } from 'vitest';
import { ALL_SITES, type NetRule } from '../../src/autoisolate';
import { installRules } from '../../src/background/rules';
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
