/**
 * Every fault switch of the simulator through every isolation entry point of the real
 * extension: a typed error, a clear notification (or error reply), the create sent once
 * and never retried, no tab, settings intact. Redirects (307/308) towards a second
 * local server: refused, and that server receives nothing.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCount, findChromium, launchBrowser, waitUntil, type Note, type Reply, type SecuritySession } from './browser';
import { closingChecks } from './closing';
import { launchTabs, seed, sleep } from './flows';
import { prove } from './ledger';
import { startSink, type Sink } from './scan';
import type { FaultSettings } from '../simulator';

type Entry = 'link' | 'research' | 'selection' | 'page' | 'shortcut' | 'omnibox' | 'popup isolate' | 'popup research' | 'popup bulk';
const ENTRIES: readonly Entry[] = ['link', 'research', 'selection', 'page', 'shortcut', 'omnibox', 'popup isolate', 'popup research', 'popup bulk'];
/** Entries that answer with a notification (the popup ones notify too: the popup may be closed). */
const NOTIFYING: readonly Entry[] = ['link', 'research', 'selection', 'page', 'shortcut', 'omnibox', 'popup isolate', 'popup research'];

const TIMEOUT_TITLE = 'The service did not answer in time';
const TITLES = {
  HttpError: 'The service reported an error',
  AuthError: 'The service rejected the admin token',
  ProtocolError: 'The service sent an unexpected reply',
  NetworkError: 'The service could not be reached',
  CommandError: 'The service refused the request',
  TimeoutError: TIMEOUT_TITLE,
} as const;
type ErrorName = keyof typeof TITLES;

const RESEARCH = { egressRegion: '', browserProfile: null, availability: [], connectivity: [] };

describe.skipIf(!findChromium() && !process.env['CI'])('service faults in Chromium', () => {
  let session: SecuritySession;
  let sink: Sink;
  let popup: Page;
  let options: Page;
  let tabId = 0;

  beforeAll(async () => {
    sink = await startSink();
    session = await launchBrowser();
    await seed(session);
    popup = await session.openPage('popup.html');
    options = await session.openPage('options.html');
    const worker = await session.worker();
    tabId = (await worker.evaluate(() => chrome.tabs.query({ active: true })))[0]?.id ?? 0;
  });
  afterAll(async () => {
    await closingChecks(session, 'faults');
    await session.dispose();
    await sink.close();
  });

  const urlFor = (tag: string, entry: Entry, n = 0): string => `https://evil.example/${encodeURIComponent(tag)}/${entry.replace(' ', '-')}/${n}`;

  /** Fires one isolation at each entry point; popup replies come back as promises. */
  async function fireAll(tag: string, page: Page, entries: readonly Entry[] = ENTRIES): Promise<Promise<Reply>[]> {
    const replies: Promise<Reply>[] = [];
    for (const entry of entries) {
      const url = urlFor(tag, entry);
      switch (entry) {
        case 'link':
          await session.clickMenu({ menuItemId: 'isolate-link', linkUrl: url }, { id: tabId, index: 0, windowId: 1 });
          break;
        case 'research':
          await session.clickMenu({ menuItemId: 'isolate-link-research', linkUrl: url });
          break;
        case 'selection':
          await session.clickMenu({ menuItemId: 'isolate-selection', selectionText: `${url} and ${urlFor(tag, entry, 1)}` });
          break;
        case 'page':
          await session.clickMenu({ menuItemId: 'isolate-page', pageUrl: url });
          break;
        case 'shortcut':
          await session.dispatch('commands.onCommand', 'isolate-current-tab', { id: tabId, index: 0, windowId: 1, url });
          break;
        case 'omnibox':
          await session.dispatch('omnibox.onInputEntered', url, 'currentTab');
          break;
        case 'popup isolate':
          replies.push(session.send(page, 'isolate', { url, session: 'standard' }));
          break;
        case 'popup research':
          replies.push(session.send(page, 'research', { research: RESEARCH }));
          break;
        case 'popup bulk':
          replies.push(session.send(page, 'bulkCreate', { urls: [url, urlFor(tag, entry, 1)] }));
          break;
      }
    }
    return replies;
  }

  /** Notifications seen after the first `from`. */
  function notesSince(from: number): Note[] {
    return session.notes.slice(from);
  }

  interface Check {
    readonly tag: string;
    readonly error: ErrorName;
    readonly entries: readonly Entry[];
    readonly replies: Reply[];
    readonly notes: Note[];
  }

  /** What every fault must give at every entry point. */
  function expectFailedClosed({ tag, error, entries, replies, notes }: Check): number {
    const title = TITLES[error];
    const notifying = entries.filter((e) => NOTIFYING.includes(e));
    const expectedTitles = notifying.map((e) => (e === 'selection' ? 'Opened 0 of 2 links in isolation' : title)).sort();
    expect(notes.map((n) => n.title).sort(), `${tag}: notifications`).toEqual(expectedTitles);
    for (const note of notes) expect(note.message.length, `${tag}: a message says what happened`).toBeGreaterThan(10);
    let replyIndex = 0;
    for (const entry of entries.filter((e) => e.startsWith('popup'))) {
      const reply = replies[replyIndex];
      replyIndex += 1;
      if (entry === 'popup bulk') {
        expect(reply?.ok, `${tag}: bulk reply`).toBe(true);
        const value = reply?.value as { created: unknown[]; failures: { error: string }[] };
        expect(value.created).toEqual([]);
        expect(value.failures).toHaveLength(2);
      } else {
        expect(reply?.ok, `${tag}: ${entry} reply`).toBe(false);
        expect(reply?.error?.name, `${tag}: ${entry} error`).toBe(error);
      }
    }
    return entries.length;
  }

  const FAULTS: readonly (readonly [tag: string, fault: FaultSettings, error: ErrorName])[] = [
    ['HTTP 500', { status: 500 }, 'HttpError'],
    ['HTTP 502', { status: 502 }, 'HttpError'],
    ['HTTP 503 after latency', { status: 503, latencyMs: 300 }, 'HttpError'],
    ['HTTP 429', { status: 429 }, 'HttpError'],
    ['HTTP 404', { status: 404 }, 'HttpError'],
    ['HTTP 401', { status: 401 }, 'AuthError'],
    ['HTTP 403', { status: 403 }, 'AuthError'],
    ['HTML error page', { htmlErrorPage: true }, 'HttpError'],
    ['malformed JSON', { malformedJson: true }, 'ProtocolError'],
    ['wrong number of slots', { wrongLength: true }, 'ProtocolError'],
    ['mismatched command ids', { mismatchedCommandId: true }, 'ProtocolError'],
    ['dropped connection', { dropConnection: true }, 'NetworkError'],
    ['error slot', { errorSlots: { create_context: 'ValueError: the service is unhappy' } }, 'CommandError'],
  ];

  /** Faults that let the service run the commands, then spoil the reply. */
  const REPLY_FAULTS = new Set(['malformed JSON', 'wrong number of slots', 'mismatched command ids']);

  it('every fault switch at every entry point: a typed error, a clear notification, sent once, no tab, settings intact', async () => {
    await prove('faults-e2e', async () => {
      session.sim.reset();
      const settingsBefore = JSON.stringify((await session.storage()).local);
      const tabsBefore = launchTabs(session).length;
      let cases = 0;
      let dropResends = 0;

      // hang first: every request is held until the client's 15 s limit. (Chromium keeps
      // six connections per host, so some entries wait in its queue: their time limit
      // runs from the call, so they time out alike.)
      {
        const notesFrom = (await session.harvestNotes()).length;
        const requestsBefore = apiCount(session);
        session.sim.faults.set({ hang: true });
        try {
          const replies = await Promise.all(await fireAll('hang', popup));
          await waitUntil(async () => (await session.harvestNotes(), notesSince(notesFrom).length >= NOTIFYING.length), 30_000, 'the timeouts');
          cases += expectFailedClosed({ tag: 'hang', error: 'TimeoutError', entries: ENTRIES, replies, notes: notesSince(notesFrom) });
          expect(apiCount(session) - requestsBefore).toBeLessThanOrEqual(ENTRIES.length);
        } finally {
          session.sim.faults.clear();
        }
        expect(launchTabs(session).length).toBe(tabsBefore);
      }

      for (const [tag, fault, error] of FAULTS) {
        const requestsBefore = apiCount(session);
        const contextsBefore = session.sim.state.contexts.size;
        const recordedBefore = session.requests.length;
        const notesFrom = (await session.harvestNotes()).length;
        session.sim.faults.set(fault);
        try {
          const replies = await Promise.all(await fireAll(tag, popup));
          await waitUntil(
            async () => (await session.harvestNotes(), notesSince(notesFrom).length >= NOTIFYING.length),
            15_000,
            `${tag}: ${NOTIFYING.length} notifications`,
          );
          await sleep(100);
          cases += expectFailedClosed({ tag, error, entries: ENTRIES, replies, notes: notesSince(notesFrom) });
          // One request per entry point: Isolink never retries a create. (A dropped connection
          // is the exception, and not Isolink's: Chromium itself re-sends a request once when
          // a reused keep-alive connection closes before any answer. The service never ran
          // those creates here; see the report.)
          const sent = apiCount(session) - requestsBefore;
          if (fault.dropConnection === true) {
            expect(sent, `${tag}: requests`).toBeGreaterThanOrEqual(ENTRIES.length);
            expect(sent, `${tag}: requests`).toBeLessThanOrEqual(2 * ENTRIES.length);
            dropResends = sent - ENTRIES.length;
            // Evidence that the extra requests are the browser's, not Isolink's: the worker's
            // own fetch calls, as CDP reports them, are one per entry point.
            const fetches = session.requests.slice(recordedBefore).filter((r) => r.source === 'cdp:service_worker' && r.url.endsWith('/api/')).length;
            expect(fetches, `${tag}: fetch calls of the worker`).toBe(ENTRIES.length);
          } else expect(sent, `${tag}: requests`).toBe(ENTRIES.length);
          // Faults in front of the service run nothing; the reply faults run the creates and
          // spoil the answer (the service has contexts the analyst never gets: fail closed).
          const ran = session.sim.state.contexts.size - contextsBefore;
          if (REPLY_FAULTS.has(tag)) expect(ran, `${tag}: contexts the service created`).toBeLessThanOrEqual(ENTRIES.length + 2);
          else expect(ran, `${tag}: contexts the service created`).toBe(0);
          // Retry, where the notification offers it: fails closed again. (Only a notification
          // whose action was kept: concurrent failures lose actions, a bug with its own test.)
          const kept = Object.keys((await session.storage()).session['pendingNotifications'] ?? {});
          const linkNote = notesSince(notesFrom).find((n) => n.buttons.includes('Retry') && kept.includes(n.id));
          if (linkNote) {
            const before = (await session.harvestNotes()).length;
            await session.dispatch('notifications.onButtonClicked', linkNote.id, 0);
            await waitUntil(async () => (await session.harvestNotes(), notesSince(before).length >= 1), 10_000, `${tag}: retry`);
            expect(notesSince(before)[0]?.title).toBe(TITLES[error]);
            cases += 1;
          }
        } finally {
          session.sim.faults.clear();
        }
        expect(launchTabs(session).length, `${tag}: tabs`).toBe(tabsBefore);
      }

      // A refused URL: the create of that URL fails with the service's words.
      {
        const tag = 'refused URL';
        const entries = ENTRIES.filter((e) => e !== 'popup research');
        const requestsBefore = apiCount(session);
        const notesFrom = (await session.harvestNotes()).length;
        session.sim.faults.set({ refuseUrls: entries.flatMap((e) => [urlFor(tag, e), urlFor(tag, e, 1)]) });
        try {
          const replies = await Promise.all(await fireAll(tag, popup, entries));
          const notifying = entries.filter((e) => NOTIFYING.includes(e)).length;
          await waitUntil(async () => (await session.harvestNotes(), notesSince(notesFrom).length >= notifying), 15_000, `${tag}: notifications`);
          cases += expectFailedClosed({ tag, error: 'CommandError', entries, replies, notes: notesSince(notesFrom) });
          expect(apiCount(session) - requestsBefore).toBe(entries.length);
        } finally {
          session.sim.faults.clear();
        }
        expect(launchTabs(session).length).toBe(tabsBefore);
      }

      expect(launchTabs(session).length).toBe(tabsBefore);
      expect(JSON.stringify((await session.storage()).local)).toBe(settingsBefore);
      if (dropResends > 0)
        console.warn(
          `dropped connection: Chromium re-sent ${dropResends} of ${ENTRIES.length} create requests on its own (reused keep-alive connections); the service ran none of them.`,
        );
      return {
        cases,
        detail: `${FAULTS.length + 2} fault switches (status 500/502/503+latency/429/404/401/403, HTML page, malformed JSON, wrong length, mismatched ids, dropped connection, error slot, refused URL, hang) × ${ENTRIES.length} entry points, + retries offered`,
      };
    });
  });

  it('307 and 308 redirects towards another server are refused: it receives nothing, the user sees why', async () => {
    await prove('redirects', async () => {
      session.sim.reset();
      const tabsBefore = launchTabs(session).length;
      let cases = 0;
      for (const status of [307, 308] as const) {
        const tag = `redirect ${status}`;
        const notesFrom = (await session.harvestNotes()).length;
        session.sim.faults.set({ redirect: { status, location: `${sink.url}/api/` } });
        try {
          const replies = await Promise.all(await fireAll(tag, popup));
          await waitUntil(async () => (await session.harvestNotes(), notesSince(notesFrom).length >= NOTIFYING.length), 15_000, `${tag}: notifications`);
          cases += expectFailedClosed({ tag, error: 'NetworkError', entries: ENTRIES, replies, notes: notesSince(notesFrom) });
          for (const note of notesSince(notesFrom).filter((n) => n.title === TITLES.NetworkError)) expect(note.message).toContain('refuses redirects');
          // The options page's reads and the file endpoints.
          const test = await session.send(options, 'testConnection', {});
          expect(test.error?.name).toBe('NetworkError');
          cases += 1;
        } finally {
          session.sim.faults.clear();
        }
        for (const [scope, type, data] of [
          ['putfile', 'putFile', { name: 'x.bin', bucketId: 'b', fileToken: session.sim.fileToken, base64: 'AA==' }],
          ['getfile', 'getFile', { id: 'f1', fileToken: session.sim.fileToken }],
        ] as const) {
          session.sim.faults.set({ redirect: { status, location: `${sink.url}/${scope}/` }, scope: [scope] });
          try {
            const reply = await session.send(options, type, data);
            expect(reply.ok, `${tag} ${type}`).toBe(false);
            expect(reply.error?.name).toBe('NetworkError');
            cases += 1;
          } finally {
            session.sim.faults.clear();
          }
        }
      }
      expect(sink.received).toEqual([]);
      expect(session.requests.filter((r) => r.url.startsWith(sink.url))).toEqual([]);
      expect(launchTabs(session).length).toBe(tabsBefore);
      return { cases, detail: `307 and 308 × ${ENTRIES.length} entry points + test connection, upload, download` };
    });
  });
});
