/**
 * Settings sources over arbitrary input (fast-check, fake browser storage): an import
 * is either refused with a SettingsError and leaves every storage area byte-identical,
 * or it stores valid settings and touches nothing else; an arbitrary managed policy
 * never throws and keeps only valid values; nothing reachable from globalThis changes
 * (@fast-check/poisoning).
 */
import fc from 'fast-check';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_SETTINGS, SETTING_KEYS, settingShapes, settingsSchema } from '../../src/settings/schema';
import { importSettings, readManagedPolicy, readSettingsView, SettingsError } from '../../src/settings/store';
import { installMessages } from '../support/i18n';
// Order matters: settle Node's lazy globals before the poisoning package takes its snapshot.
import { RUNNER_ROOTS } from '../support/settle-globals';
import { assertNoPoisoning, restoreGlobals } from '@fast-check/poisoning';
import { jsonText } from './canary';
import { prove } from './ledger';
import { seenConnection } from '../support/import';

const RUNS = 400;
/** The fake browser is a global the tests themselves set up (messages, spies): not what the property is about. */
const IGNORED_ROOTS = new RegExp(`${RUNNER_ROOTS.source}|^(browser|chrome)$`);

const SAVED = {
  ...DEFAULT_SETTINGS,
  serviceUrl: 'https://isolation.acme.example',
  username: 'analyst@acme.example',
  policy: [{ type: 'readonly', params: ['true'] }],
  maxUses: 5,
};

async function seedStorage(): Promise<void> {
  await fakeBrowser.storage.local.set({ settings: SAVED, settings$: { v: 1 }, token: 'local-token', recentContexts: [{ id: 'ctx1' }] });
  await fakeBrowser.storage.session.set({ token: 'session-token', pendingNotifications: { n1: { kind: 'openOptions' } } });
}

async function snapshot(): Promise<string> {
  return JSON.stringify([await fakeBrowser.storage.local.get(), await fakeBrowser.storage.session.get(), await fakeBrowser.storage.sync.get()]);
}

const hostileKey = fc.oneof(
  fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', 'token', 'format', 'version', 'settings'),
  fc.constantFrom(...SETTING_KEYS),
  fc.string({ maxLength: 12 }),
);

/** Arbitrary JSON values whose objects may carry hostile keys (JSON.parse makes them own keys). */
const jsonWithHostileKeys = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small', maxDepth: 4 }, fc.jsonValue({ maxDepth: 2 }), tie('object'), fc.array(tie('value'), { maxLength: 5 })),
  object: fc.dictionary(hostileKey, tie('value'), { maxKeys: 6 }),
})).value;

/** A setting's value: valid, or anything at all. */
const settingValue = (key: (typeof SETTING_KEYS)[number]) =>
  fc.oneof(
    fc.constant((SAVED as Record<string, unknown>)[key]),
    jsonWithHostileKeys,
    // Huge lists: where a list is expected, and elsewhere.
    fc.integer({ min: 150, max: 1200 }).map((n) => Array.from({ length: n }, (_, i) => ({ type: 'domain_allow', params: [`h${i}.example`] }))),
    fc
      .integer({ min: 10, max: 40 })
      .map((n) => ({ egressRegion: '', browserProfile: null, availability: Array.from({ length: n }, (_, i) => `c${i}`), connectivity: [] })),
  );

const settingsObject = fc.tuple(fc.subarray([...SETTING_KEYS]), fc.dictionary(hostileKey, jsonWithHostileKeys, { maxKeys: 2 })).chain(([keys, extra]) =>
  fc.tuple(...keys.map((key) => settingValue(key).map((value) => [key, value] as const))).map((pairs) => {
    // JSON text so that a __proto__ key is an own key, as in a real file.
    const body = [...pairs, ...Object.entries(extra)].map(([k, v]) => `${JSON.stringify(k)}:${jsonText(v) === 'undefined' ? 'null' : jsonText(v)}`).join(',');
    return `{${body}}`;
  }),
);

const importText = fc.oneof(
  fc.json(),
  fc.string(),
  settingsObject.map((settings) => `{"format":"isolink-settings","version":1,"settings":${settings}}`),
  fc
    .tuple(
      settingsObject,
      fc.constantFrom('"token":"x"', '"__proto__":{"polluted":true}', '"constructor":{"prototype":{"polluted":true}}', '"version":2', '"format":"other"'),
    )
    .map(([settings, extra]) => `{"format":"isolink-settings","version":1,"settings":${settings},${extra}}`),
  fc.constantFrom(
    '{"format":"isolink-settings","version":1,"settings":{"__proto__":{"polluted":true}}}',
    `[${'['.repeat(5000)}${']'.repeat(5000)}]`,
    `{"format":"isolink-settings","version":1,"settings":{},"pad":"${'x'.repeat(600 * 1024)}"}`,
  ),
);

beforeEach(() => {
  fakeBrowser.reset();
  installMessages();
});

afterEach(() => {
  restoreGlobals({ ignoredRootRegex: IGNORED_ROOTS });
});

describe('imports over arbitrary files', () => {
  it('refuses with a SettingsError and leaves storage byte-identical, or stores valid settings only', async () => {
    await prove('settings-import', async () => {
      let refused = 0;
      let accepted = 0;
      await fc.assert(
        fc.asyncProperty(importText, async (text) => {
          await Promise.all([fakeBrowser.storage.local.clear(), fakeBrowser.storage.session.clear(), fakeBrowser.storage.sync.clear()]);
          await seedStorage();
          const before = await snapshot();
          let view: Awaited<ReturnType<typeof importSettings>> | undefined;
          try {
            view = await importSettings(text, seenConnection(text));
          } catch (error) {
            expect(error).toBeInstanceOf(SettingsError);
            expect(await snapshot()).toBe(before);
            refused += 1;
          }
          if (view) {
            accepted += 1;
            const stored = (await fakeBrowser.storage.local.get('settings'))['settings'];
            expect(settingsSchema.safeParse(stored).success).toBe(true);
            expect(view.settings).toEqual(stored);
            // Nothing but the settings changed: not the tokens, the recent list or the session.
            const [local, session] = JSON.parse(before) as [Record<string, unknown>, Record<string, unknown>];
            expect({ ...(await fakeBrowser.storage.local.get()), settings: null }).toEqual({ ...local, settings: null });
            expect(await fakeBrowser.storage.session.get()).toEqual(session);
          }
          expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
        }),
        { numRuns: RUNS },
      );
      assertNoPoisoning({ ignoredRootRegex: IGNORED_ROOTS });
      expect(refused).toBeGreaterThan(RUNS / 4);
      expect(accepted).toBeGreaterThan(0);
      return { cases: refused + accepted, detail: `${refused} refused (storage byte-identical) + ${accepted} accepted (valid) arbitrary files` };
    });
  });
});

describe('managed policy over arbitrary contents', () => {
  it('never throws, keeps only valid values, carries only a non-blank text token, and pollutes nothing', async () => {
    await prove(
      'settings-managed',
      async () => {
        let current: unknown = {};
        const managed = fakeBrowser.storage.managed as unknown as { get(): Promise<unknown> };
        vi.spyOn(managed, 'get').mockImplementation(() => Promise.resolve(current));
        const policyText = fc.oneof(
          settingsObject,
          fc
            .tuple(settingsObject, jsonWithHostileKeys)
            .map(
              ([settings, token]) =>
                `${settings.slice(0, -1)}${settings.length > 2 ? ',' : ''}"token":${jsonText(token) === 'undefined' ? 'null' : jsonText(token)}}`,
            ),
        );
        let runs = 0;
        await fc.assert(
          fc.asyncProperty(
            fc.oneof(
              policyText.map((text) => JSON.parse(text) as unknown),
              fc.dictionary(hostileKey, jsonWithHostileKeys, { maxKeys: 6 }),
            ),
            async (raw) => {
              runs += 1;
              current = raw;
              const policy = await readManagedPolicy();
              for (const [key, value] of Object.entries(policy.values)) {
                expect(SETTING_KEYS as readonly string[]).toContain(key);
                expect(settingShapes[key as keyof typeof settingShapes].safeParse(value).success).toBe(true);
              }
              expect(Object.getPrototypeOf(policy.values)).toBe(Object.prototype);
              if (policy.token !== undefined) {
                expect(typeof policy.token).toBe('string');
                expect(policy.token.trim()).not.toBe('');
              }
              const view = await readSettingsView();
              expect(settingsSchema.safeParse(view.settings).success).toBe(true);
              expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
            },
          ),
          { numRuns: RUNS },
        );
        assertNoPoisoning({ ignoredRootRegex: IGNORED_ROOTS });
        return { cases: runs, detail: `${runs} arbitrary managed policies` };
      },
      'values',
    );
  });

  it('a managed area that answers something other than an object gives no policy (and no throw)', async () => {
    await prove(
      'settings-managed',
      async () => {
        const managed = fakeBrowser.storage.managed as unknown as { get(): Promise<unknown> };
        const answers: unknown[] = [null, undefined, [], ['token'], 'token', 42, true];
        const failures: string[] = [];
        for (const answer of answers) {
          vi.spyOn(managed, 'get').mockResolvedValue(answer);
          try {
            const policy = await readManagedPolicy();
            expect(policy.values).toEqual({});
            expect(policy.token).toBeUndefined();
          } catch (error) {
            failures.push(`${jsonText(answer)}: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`);
          }
        }
        expect(failures).toEqual([]);
        return { cases: answers.length, detail: `${answers.length} non-object answers of storage.managed` };
      },
      'top level',
    );
  });
});
