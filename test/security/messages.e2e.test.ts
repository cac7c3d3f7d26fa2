/**
 * Messages, end to end in Chromium. A real web page on 127.0.0.1 (and a null-origin
 * frame inside it) cannot reach Isolink's background at all: no
 * externally_connectable, no web-accessible page to frame or fetch. An extension page
 * cannot be framed (frame-ancestors 'none'), so no sub-frame of ours can send. Arbitrary
 * payloads from the real popup, options and reported mail pages cause no side effect, no
 * throw and no pollution of the worker, and each page is refused every message type its
 * PROTOCOL entry does not list.
 */
import fc from 'fast-check';
import type { Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messageSchema, PROTOCOL, type MessageType, type PageName } from '../../src/messaging/protocol';
import { findChromium, launchBrowser, waitUntil, type SecuritySession, type StorageAreas } from './browser';
import { closingChecks } from './closing';
import { seed, sleep } from './flows';
import { prove } from './ledger';
import { startScripted } from './scan';

const HOSTILE_PAGE = `<!doctype html><title>hostile</title><body>
<iframe id="null-origin" sandbox="allow-scripts" srcdoc="<p>null origin</p>"></iframe>
</body>`;

/** Messages that would change something if they were answered. */
const PROBES = [
  { type: 'setToken', data: { token: 'attacker-token', remember: true } },
  { type: 'saveSettings', data: { patch: { serviceUrl: 'https://attacker.example' } } },
  { type: 'clearToken', data: {} },
  { type: 'isolate', data: { url: 'https://evil.example/', session: 'standard' } },
  { type: 'getStatus', data: {} },
];

/** What a page of this origin can do to reach the extension; answers plain data. */
async function attempts(frame: Frame | Page, extensionId: string): Promise<Record<string, string>> {
  return frame.evaluate(
    async ([id, probes]) => {
      const out: Record<string, string> = {};
      const runtime = (globalThis as { chrome?: { runtime?: { sendMessage?: (...args: unknown[]) => Promise<unknown>; connect?: unknown } } }).chrome?.runtime;
      out['chrome.runtime'] = typeof runtime;
      out['sendMessage'] = typeof runtime?.sendMessage;
      out['connect'] = typeof runtime?.connect;
      for (const probe of probes) {
        if (!runtime?.sendMessage) break;
        try {
          const reply = await Promise.race([
            runtime.sendMessage(id, probe),
            new Promise((r) =>
              setTimeout(() => {
                r('no answer');
              }, 1000),
            ),
          ]);
          out[`send ${probe.type}`] = reply === undefined ? 'undefined' : JSON.stringify(reply);
        } catch (error) {
          out[`send ${probe.type}`] = `refused: ${String(error).slice(0, 80)}`;
        }
      }
      try {
        const response = await fetch(`chrome-extension://${id}/manifest.json`);
        out['fetch manifest'] = `status ${response.status}`;
      } catch (error) {
        out['fetch manifest'] = `refused: ${String(error).slice(0, 60)}`;
      }
      return out;
    },
    [extensionId, PROBES] as const,
  );
}

describe.skipIf(!findChromium() && !process.env['CI'])('messages in Chromium', () => {
  let session: SecuritySession;
  beforeAll(async () => {
    session = await launchBrowser();
    await seed(session);
  });
  afterAll(async () => {
    // The browser reports each frame this file tries to put around an extension page.
    await closingChecks(session, 'messages', /violates the following Content Security Policy directive: "frame-ancestors 'none'"/);
    await session.dispose();
  });

  /**
   * Every storage area as text, once the worker's installation of the network rules has
   * settled: it removes its copy of the rules in storage.session before it changes them and
   * writes it again after (src/background/index.ts), so a settings change of an earlier test
   * could otherwise land between two snapshots of this one.
   */
  async function snapshot(): Promise<string> {
    let areas: StorageAreas = await session.storage();
    await waitUntil(async () => Object.hasOwn((areas = await session.storage()).session, 'installedRules'), 10_000, 'the rules installed');
    return JSON.stringify(areas);
  }

  /** Own property names of the worker's built-in prototypes and its global object. */
  async function workerShape(): Promise<string> {
    const worker = await session.worker();
    return worker.evaluate(() => {
      const roots: Record<string, object> = {
        Object,
        'Object.prototype': Object.prototype,
        'Array.prototype': Array.prototype,
        'Function.prototype': Function.prototype,
        'String.prototype': String.prototype,
        'Promise.prototype': Promise.prototype,
        JSON,
        globalThis,
      };
      return JSON.stringify(Object.entries(roots).map(([name, root]) => [name, Reflect.ownKeys(root).map(String).sort()]));
    });
  }

  it('a web page and a null-origin frame cannot message, frame, navigate to or fetch the extension', async () => {
    await prove('messages-web', async () => {
      const site = await startScripted(() => ({ status: 200, headers: { 'content-type': 'text/html' }, body: HOSTILE_PAGE }));
      try {
        session.sim.reset();
        const storageBefore = await snapshot();
        const page = await session.context.newPage();
        await page.goto(`${site.url}/`);
        const nullFrame = page.frames().find((f) => f !== page.mainFrame());
        if (!nullFrame) throw new Error('no null-origin frame');
        expect(await nullFrame.evaluate(() => origin)).toBe('null');
        let cases = 0;
        for (const [where, target] of [
          ['web page', page],
          ['null-origin frame', nullFrame],
        ] as const) {
          const result = await attempts(target, session.extensionId);
          expect(result['chrome.runtime'], where).toBe('undefined');
          expect(result['sendMessage'], where).toBe('undefined');
          expect(result['fetch manifest'], where).toMatch(/^refused/);
          cases += 2;
        }
        // Framing an extension page from the web: blocked (no web_accessible_resources).
        for (const framed of ['options.html', 'mail.html'] as const) {
          await page.evaluate((src) => {
            const frame = document.createElement('iframe');
            frame.src = src;
            document.body.append(frame);
          }, `${session.base}/${framed}`);
          cases += 1;
        }
        await sleep(500);
        expect(
          page
            .frames()
            .map((f) => f.url())
            .filter((u) => u.startsWith(session.base)),
        ).toEqual([]);
        // Navigating the tab itself to an extension page: blocked too.
        await page.evaluate((src) => {
          location.href = src;
        }, `${session.base}/options.html`);
        await sleep(500);
        expect(page.url().startsWith(session.base)).toBe(false);
        cases += 1;
        await page.close();
        expect(await snapshot()).toBe(storageBefore);
        expect(session.sim.requests).toEqual([]);
        return {
          cases,
          detail:
            'no runtime.sendMessage in a 127.0.0.1 page nor in its null-origin frame (no externally_connectable); fetch, framing (options and mail pages) and navigation to extension pages blocked',
        };
      } finally {
        await site.close();
      }
    });
  });

  it('an extension page cannot be framed, even by another extension page: no sub-frame can send', async () => {
    await prove('messages-subframe', async () => {
      const storageBefore = await snapshot();
      let cases = 0;
      for (const [host, framed] of [
        ['popup.html', 'options.html'],
        ['options.html', 'popup.html'],
        ['options.html', 'options.html'],
        ['popup.html', 'mail.html'],
        ['mail.html', 'options.html'],
        ['mail.html', 'mail.html'],
      ] as const) {
        const page = await session.openPage(host);
        await page.evaluate((src) => {
          const frame = document.createElement('iframe');
          frame.src = src;
          document.body.append(frame);
        }, `${session.base}/${framed}`);
        await sleep(400);
        const frames = page.frames().filter((f) => f !== page.mainFrame());
        expect(frames.length).toBe(1);
        // Blocked by frame-ancestors 'none': an error page, never our page.
        expect(frames.every((f) => !f.url().startsWith(session.base))).toBe(true);
        // A same-origin about:blank frame gets no extension APIs to send with.
        const blank = await page.evaluate(() => {
          const frame = document.createElement('iframe');
          document.body.append(frame);
          return typeof (frame.contentWindow as unknown as { chrome?: { runtime?: { sendMessage?: unknown } } }).chrome?.runtime?.sendMessage;
        });
        expect(blank).toBe('undefined');
        await page.close();
        cases += 2;
      }
      expect(await snapshot()).toBe(storageBefore);
      return { cases, detail: 'popup, options and mail pages framing each other and themselves; about:blank frames' };
    });
  });

  it('arbitrary payloads from the real popup, options and mail pages: no side effect, no throw, no pollution; other pages’ messages refused', async () => {
    await prove('messages-arbitrary', async () => {
      session.sim.reset();
      const types = Object.keys(PROTOCOL) as MessageType[];
      const readOnly = new Set<string>(['getStatus', 'getSettings', 'listRecent', 'exportSettings']);
      const key = fc.oneof(
        fc.string({ maxLength: 8 }),
        fc.constantFrom('__proto__', 'constructor', 'prototype', 'type', 'data', 'url', 'patch', 'token', 'toString', 'valueOf'),
      );
      const json = fc.letrec((tie) => ({
        value: fc.oneof({ depthSize: 'small' }, fc.jsonValue({ maxDepth: 2 }), tie('object'), fc.array(tie('value'), { maxLength: 4 })),
        object: fc.dictionary(key, tie('value'), { maxKeys: 5 }),
      })).value;
      const message = fc.oneof(
        json,
        fc.record({ type: fc.constantFrom(...types, '__proto__', 'constructor', 'toString', 'hasOwnProperty'), data: json }),
        fc.record({ type: fc.constantFrom(...types), data: fc.dictionary(key, json, { maxKeys: 4 }) }),
      );
      // The reported mail page reads status and settings and opens links: nothing more.
      const mayMail = types.filter((type) => (PROTOCOL[type].pages as readonly PageName[]).includes('mail'));
      expect(mayMail.sort()).toEqual(['bulkCreate', 'getSettings', 'getStatus', 'openContexts']);
      const storageBefore = await snapshot();
      const shapeBefore = await workerShape();
      let sent = 0;
      let refused = 0;
      const pageNames = { 'popup.html': 'popup', 'options.html': 'options', 'mail.html': 'mail' } as const;
      for (const path of ['popup.html', 'options.html', 'mail.html'] as const) {
        const pageName: PageName = pageNames[path];
        // Payloads that would be valid, side-effecting messages from this page are left out:
        // those are the extension's function, not an attack.
        const payloads = fc.sample(message, { numRuns: 300, seed: path.length }).filter((m) => {
          if (typeof m !== 'object' || m === null || Array.isArray(m)) return true;
          const { type, data } = m as { type?: unknown; data?: unknown };
          if (typeof type !== 'string' || !Object.hasOwn(PROTOCOL, type) || readOnly.has(type)) return true;
          const entry = PROTOCOL[type as MessageType];
          return !((entry.pages as readonly string[]).includes(pageName) && messageSchema(type as MessageType).safeParse(data).success);
        });
        const page = await session.openPage(path);
        // Sent as JSON text and parsed in the page: JSON.parse makes own __proto__ keys.
        const replies = await page.evaluate(
          async (texts) => {
            const out: string[] = [];
            for (const text of texts) {
              try {
                const reply: unknown = await chrome.runtime.sendMessage(JSON.parse(text));
                out.push(
                  reply === undefined
                    ? 'no answer'
                    : typeof (reply as { ok?: unknown }).ok === 'boolean'
                      ? `ok=${String((reply as { ok: boolean }).ok)}`
                      : 'malformed',
                );
              } catch (error) {
                out.push(`threw ${String(error).slice(0, 80)}`);
              }
            }
            return out;
          },
          payloads.map((p) => JSON.stringify(p)),
        );
        sent += payloads.length;
        // Every payload got an answer as data (the router never throws, never leaves a page hanging).
        expect(replies.filter((r) => !r.startsWith('ok='))).toEqual([]);
        // Every message type this page may not send is refused as such, before its data is read.
        for (const type of types.filter((t) => !(PROTOCOL[t].pages as readonly PageName[]).includes(pageName))) {
          const reply = await session.send(page, type, {});
          expect(reply, `${type} from ${pageName}`).toEqual({
            ok: false,
            error: { name: 'RefusedMessage', message: `The ${pageName} page may not send ${type}.` },
          });
          refused += 1;
        }
        if (pageName === 'mail') {
          // What it may send gets past the page check: read-only ones answered, the others' bad data refused as malformed.
          for (const type of ['getStatus', 'getSettings'] as const) expect((await session.send(page, type, {})).ok, type).toBe(true);
          for (const type of ['bulkCreate', 'openContexts'] as const) {
            expect((await session.send(page, type, {})).error?.message, type).toBe(`Isolink refused a malformed ${type} message.`);
          }
        }
        const pagePolluted = await page.evaluate(() => Object.keys(Object.prototype).length + Object.keys(Array.prototype).length);
        expect(pagePolluted).toBe(0);
        await page.close();
      }
      await sleep(300);
      expect(await snapshot()).toBe(storageBefore);
      expect(await workerShape()).toBe(shapeBefore);
      expect(session.sim.requests).toEqual([]);
      const notes = await session.harvestNotes();
      expect(notes.filter((n) => n.title !== 'Link not isolated')).toEqual([]);
      return {
        cases: sent + refused,
        detail: `${sent} arbitrary payloads from the popup, options and mail pages; ${refused} message types refused to the pages that may not send them`,
      };
    });
  });
});
