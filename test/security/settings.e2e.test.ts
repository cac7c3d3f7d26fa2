/**
 * Hostile settings files and patches through the real options page in Chromium: every
 * one is refused, every storage area stays byte-identical, and neither the worker's nor
 * the page's prototypes change.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../src/settings/schema';
import { findChromium, launchBrowser, type SecuritySession } from './browser';
import { closingChecks } from './closing';
import { seed } from './flows';
import { prove } from './ledger';
import { seenConnection } from '../support/import';

const envelope = (settings: string, extra = ''): string => `{"format":"isolink-settings","version":1,"settings":${settings}${extra}}`;
const full = JSON.stringify({ ...DEFAULT_SETTINGS, serviceUrl: 'https://isolation.acme.example', username: 'analyst@acme.example' });

const HOSTILE_IMPORTS: readonly (readonly [label: string, json: string])[] = [
  ['__proto__ at the top', '{"__proto__":{"polluted":true},"format":"isolink-settings","version":1,"settings":{}}'],
  ['__proto__ in the settings', envelope('{"__proto__":{"polluted":true}}')],
  ['constructor.prototype in the settings', envelope('{"constructor":{"prototype":{"polluted":true}}}')],
  [
    '__proto__ inside a value',
    envelope('{"research":{"__proto__":{"polluted":true},"egressRegion":"","browserProfile":null,"availability":[],"connectivity":[]}}'),
  ],
  ['__proto__ in a policy entry', envelope('{"policy":[{"type":"readonly","params":["true"],"__proto__":{"polluted":true}}]}')],
  ['a token', envelope('{"token":"attacker-token"}')],
  ['a token beside the settings', envelope(full, ',"token":"attacker-token"')],
  ['an unknown key', envelope('{"evil":1}')],
  ['toString', envelope('{"toString":"x"}')],
  ['a service URL of another scheme', envelope('{"serviceUrl":"javascript:alert(1)"}')],
  ['an http service off loopback', envelope('{"serviceUrl":"http://attacker.example"}')],
  ['userinfo in the launch URL', envelope('{"launchUrl":"https://isolation.acme.example@attacker.example"}')],
  ['a number for a URL', envelope('{"serviceUrl":42}')],
  ['a string for the policy', envelope('{"policy":"readonly"}')],
  ['a negative max uses', envelope('{"maxUses":-1}')],
  ['a huge threshold', envelope('{"bulkConfirmThreshold":1e308}')],
  ['a huge policy list', envelope(`{"policy":[${Array.from({ length: 5000 }, (_, i) => `{"type":"domain_allow","params":["h${i}.example"]}`).join(',')}]}`)],
  [
    'a huge category list',
    envelope(
      `{"research":{"egressRegion":"","browserProfile":null,"availability":[${Array.from({ length: 20_000 }, (_, i) => `"c${i}"`).join(',')}],"connectivity":[]}}`,
    ),
  ],
  ['a huge parameter', envelope(`{"policy":[{"type":"ribbon_message","params":["${'x'.repeat(200_000)}"]}]}`)],
  ['both a username and an organisation', envelope('{"username":"a@acme.example","org":"acme"}')],
  ['another format', '{"format":"other","version":1,"settings":{}}'],
  ['version 2', '{"format":"isolink-settings","version":2,"settings":{}}'],
  ['settings as a list', envelope('[]')],
  ['null', 'null'],
  ['a list', '[]'],
  ['a string', '"settings"'],
  ['not JSON', '{format: isolink-settings}'],
  ['empty', ''],
  ['deep nesting', `${'['.repeat(100_000)}${']'.repeat(100_000)}`],
  ['over the size limit', envelope('{}', `,"pad":"${'x'.repeat(520 * 1024)}"`)],
];

const HOSTILE_PATCHES: readonly (readonly [label: string, json: string])[] = [
  ['__proto__', '{"__proto__":{"polluted":true}}'],
  ['constructor', '{"constructor":{"prototype":{"polluted":true}}}'],
  ['a token', '{"token":"attacker-token"}'],
  ['an unknown key', '{"evil":true}'],
  ['a bad service URL', '{"serviceUrl":"file:///etc/passwd"}'],
  ['a bad value beside a good one', '{"tabPlacement":"background","maxUses":"many"}'],
];

describe.skipIf(!findChromium() && !process.env['CI'])('hostile settings in Chromium', () => {
  let session: SecuritySession;
  beforeAll(async () => {
    session = await launchBrowser();
    await seed(session, { policy: [{ type: 'readonly', params: ['true'] }], maxUses: 5 });
  });
  afterAll(async () => {
    await closingChecks(session, 'settings');
    await session.dispose();
  });

  it('refuses every hostile import and patch, leaving storage byte-identical and prototypes clean', async () => {
    await prove('settings-e2e', async () => {
      const options = await session.openPage('options.html');
      const storage = async (): Promise<string> => JSON.stringify(await session.storage());
      const shapes = async (): Promise<string> => {
        const worker = await session.worker();
        const inWorker = await worker.evaluate(() =>
          JSON.stringify([
            Reflect.ownKeys(Object.prototype).map(String).sort(),
            Reflect.ownKeys(Array.prototype).map(String).sort(),
            ({} as Record<string, unknown>)['polluted'],
          ]),
        );
        const inPage = await options.evaluate(() =>
          JSON.stringify([Reflect.ownKeys(Object.prototype).map(String).sort(), ({} as Record<string, unknown>)['polluted']]),
        );
        return `${inWorker} ${inPage}`;
      };
      const before = await storage();
      const shapeBefore = await shapes();
      const accepted: string[] = [];
      for (const [label, json] of HOSTILE_IMPORTS) {
        // Sent as the page sends a chosen file's text.
        // Confirmed as the preview would show it: only the file's content can refuse it.
        const reply = await session.send(options, 'importSettings', { json, confirmed: seenConnection(json) });
        if (reply.ok) accepted.push(label);
        expect(await storage(), label).toBe(before);
      }
      expect(accepted).toEqual([]);
      // The settings in force, as the background reads them.
      const settingsNow = async (): Promise<unknown> => (await session.send(options, 'getSettings', {})).value;
      const settingsBefore = await settingsNow();
      const patchesAccepted: string[] = [];
      for (const [label, json] of HOSTILE_PATCHES) {
        const beforePatch = await storage();
        const reply: { ok: boolean } = await options.evaluate(
          (text) => chrome.runtime.sendMessage({ type: 'saveSettings', data: { patch: JSON.parse(text) as unknown } }),
          json,
        );
        // A patch may be accepted only as a change of nothing (the router drops an own
        // __proto__ key): the settings' values stay the same.
        if (reply.ok) patchesAccepted.push(label);
        expect(await settingsNow(), label).toEqual(settingsBefore);
        if (!reply.ok) expect(await storage(), label).toBe(beforePatch);
      }
      expect(patchesAccepted.filter((label) => label !== '__proto__')).toEqual([]);
      expect(await shapes()).toBe(shapeBefore);
      // A good file is still accepted afterwards: the refusals were about the files.
      const good = await session.send(options, 'importSettings', { json: envelope(full), confirmed: seenConnection(envelope(full)) });
      expect(good.ok).toBe(true);
      await options.close();
      return {
        cases: HOSTILE_IMPORTS.length + HOSTILE_PATCHES.length,
        detail: `${HOSTILE_IMPORTS.length} hostile files (all refused, storage byte-identical) + ${HOSTILE_PATCHES.length} hostile patches (settings unchanged)`,
      };
    });
  });
});
