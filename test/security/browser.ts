/**
 * Chromium with the production build of Isolink (built by ./global-setup.ts into
 * .security-output/chrome-mv3), a simulator on 127.0.0.1, and a recorder of everything
 * that could carry a secret or betray a failure:
 *
 * - requests: Playwright's context 'request' event (pages AND the service worker: with
 *   Chromium, Playwright 1.65 reports the worker's requests too, request.serviceWorker()
 *   set), plus CDP Network.requestWillBeSent on the worker and the offscreen document
 *   (a browser-level CDP session attached to each extension target);
 * - every URL a frame of any tab navigated to;
 * - console messages of every page (Playwright), of the worker (Playwright and CDP) and
 *   of the offscreen document (CDP), and CDP Log entries;
 * - errors: pageerror of every page, console errors, CDP Runtime.exceptionThrown of the
 *   worker and the offscreen document (uncaught errors and unhandled rejections);
 * - notifications: chrome.notifications.create is observed in the worker (title,
 *   message, buttons), the call itself passes through unchanged;
 * - every reply the background sent to a page through send().
 *
 * The profile directory survives closeBrowser() so its files can be scanned.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { BrowserContext, CDPSession, Page, Worker } from 'playwright-core';
import { findChromium, launchExtension, watchWorker } from '../support/chromium';
import { startSimulator, type Simulator, type SimulatorOptions } from '../simulator';
import { jsonText } from './canary';

export const SECURITY_OUT_DIR = resolve(import.meta.dirname, '../../.security-output');
export const EXTENSION_DIR = join(SECURITY_OUT_DIR, 'chrome-mv3');

export { findChromium };

export interface RequestRecord {
  /** page | worker (Playwright) | cdp:<target type> */
  readonly source: string;
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

export interface TextRecord {
  readonly source: string;
  readonly text: string;
}

export interface Note {
  readonly id: string;
  readonly title: string;
  readonly message: string;
  readonly buttons: readonly string[];
}

export interface Reply {
  readonly ok: boolean;
  readonly value?: unknown;
  readonly error?: { readonly name: string; readonly message: string };
}

export interface StorageAreas {
  readonly local: Record<string, unknown>;
  readonly session: Record<string, unknown>;
  readonly sync: Record<string, unknown>;
}

export interface SecuritySession {
  readonly context: BrowserContext;
  readonly extensionId: string;
  /** chrome-extension://<id> */
  readonly base: string;
  readonly sim: Simulator;
  readonly profileDir: string;
  readonly requests: RequestRecord[];
  readonly navigations: string[];
  readonly consoles: TextRecord[];
  readonly errors: TextRecord[];
  readonly replies: TextRecord[];
  /** Notifications seen so far (call harvestNotes() first for the latest). */
  readonly notes: Note[];
  /** The running worker (woken if stopped), with the notification observer installed. */
  worker(): Promise<Worker>;
  /** Stops every service worker through CDP and waits until ours is stopped. */
  stopWorker(): Promise<void>;
  workerStarts(): number;
  /** Opens popup.html, options.html or mail.html in a tab and waits until it is ready. */
  openPage(path: 'popup.html' | 'options.html' | 'mail.html'): Promise<Page>;
  /** Runs Isolink's registered contextMenus.onClicked listener with this click. */
  clickMenu(info: Record<string, unknown>, tab?: Record<string, unknown> | null): Promise<void>;
  /** Runs another registered listener as the browser would fire it. */
  dispatch(event: string, ...args: unknown[]): Promise<void>;
  /** runtime.sendMessage({type, data}) from an extension page; the reply is recorded. */
  send(page: Page, type: string, data: unknown): Promise<Reply>;
  harvestNotes(): Promise<Note[]>;
  /** Waits until at least `count` notifications were seen; returns them all. */
  waitForNotes(count: number, timeoutMs?: number): Promise<Note[]>;
  storage(): Promise<StorageAreas>;
  tabUrls(): string[];
  /** A quiet page for the tests' own use (never closed by closeOthers). */
  readonly home: Page;
  /** Closes every tab except the home page. */
  closeOthers(): Promise<void>;
  /** Closes the browser; the profile stays on disk. */
  closeBrowser(): Promise<void>;
  /** Closes the browser if open, the simulator, and removes the profile. */
  dispose(): Promise<void>;
}

const NOTES_GLOBAL = '__isolinkSecurityNotes';

/** Installed in the worker: records each notification's words, then calls the real create. */
function installNoteObserver(globalName: string): void {
  const scope = globalThis as unknown as Record<string, unknown>;
  if (Array.isArray(scope[globalName])) return;
  const seen: unknown[] = [];
  scope[globalName] = seen;
  const area = chrome.notifications as unknown as Record<string, (...args: unknown[]) => unknown>;
  const original = area['create'];
  if (!original) return;
  area['create'] = function observed(...args: unknown[]) {
    const [id, options] = typeof args[0] === 'string' ? [args[0], args[1]] : ['', args[0]];
    const o = (options ?? {}) as { title?: unknown; message?: unknown; buttons?: { title?: unknown }[] };
    const text = (value: unknown): string => (typeof value === 'string' ? value : '');
    seen.push({ id, title: text(o.title), message: text(o.message), buttons: (o.buttons ?? []).map((b) => text(b.title)) });
    return original.apply(chrome.notifications, args);
  };
}

export async function waitUntil(check: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

interface TargetInfo {
  readonly targetId: string;
  readonly type: string;
  readonly url: string;
}

interface CdpMessage {
  readonly id?: number;
  readonly method?: string;
  readonly params?: Record<string, unknown>;
  readonly result?: Record<string, unknown>;
}

/** Attaches (non-flattened) to the extension's non-page targets: worker, offscreen document. */
async function watchExtensionTargets(session: CDPSession, base: string, sinks: Pick<SecuritySession, 'requests' | 'consoles' | 'errors'>): Promise<void> {
  const attached = new Set<string>();
  const typeOf = new Map<string, string>();
  const pending = new Map<number, (result: Record<string, unknown> | undefined) => void>();
  let nextId = 1_000_000;
  const sendTo = (sessionId: string, method: string, params: Record<string, unknown> = {}): Promise<Record<string, unknown> | undefined> => {
    nextId += 1;
    const id = nextId;
    return new Promise((resolvePromise) => {
      pending.set(id, resolvePromise);
      session.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method, params }) }).catch(() => {
        pending.delete(id);
        resolvePromise(undefined);
      });
    });
  };
  const attach = async (info: TargetInfo): Promise<void> => {
    if (!info.url.startsWith(base) || info.type === 'page' || attached.has(info.targetId)) return;
    attached.add(info.targetId);
    try {
      const { sessionId } = await session.send('Target.attachToTarget', { targetId: info.targetId, flatten: false });
      typeOf.set(sessionId, info.type);
      await Promise.all([sendTo(sessionId, 'Runtime.enable'), sendTo(sessionId, 'Network.enable'), sendTo(sessionId, 'Log.enable')]);
    } catch {
      attached.delete(info.targetId);
    }
  };
  session.on('Target.targetCreated', (event: { targetInfo: TargetInfo }) => void attach(event.targetInfo));
  session.on('Target.targetInfoChanged', (event: { targetInfo: TargetInfo }) => void attach(event.targetInfo));
  session.on('Target.targetDestroyed', (event: { targetId: string }) => {
    attached.delete(event.targetId);
  });
  session.on('Target.receivedMessageFromTarget', (event: { sessionId: string; message: string }) => {
    const message = JSON.parse(event.message) as CdpMessage;
    if (message.id !== undefined) {
      pending.get(message.id)?.(message.result);
      pending.delete(message.id);
      return;
    }
    const source = `cdp:${typeOf.get(event.sessionId) ?? 'target'}`;
    const params = message.params ?? {};
    switch (message.method) {
      case 'Network.requestWillBeSent': {
        const request = params['request'] as {
          url: string;
          method: string;
          headers: Record<string, string>;
          postData?: string;
          hasPostData?: boolean;
          postDataEntries?: { bytes?: string }[];
        };
        const entries = (request.postDataEntries ?? []).map((entry) => Buffer.from(entry.bytes ?? '', 'base64').toString('utf8')).join('');
        const record: RequestRecord = { source, method: request.method, url: request.url, headers: request.headers, body: request.postData ?? entries };
        sinks.requests.push(record);
        if (request.hasPostData === true && record.body === '') {
          void sendTo(event.sessionId, 'Network.getRequestPostData', { requestId: params['requestId'] }).then((result) => {
            const body = typeof result?.['postData'] === 'string' ? result['postData'] : '';
            if (body !== '') sinks.requests.push({ ...record, source: `${source} (post data)`, body });
          });
        }
        break;
      }
      case 'Runtime.consoleAPICalled': {
        const args = (params['args'] as { value?: unknown; description?: string; unserializableValue?: string }[] | undefined) ?? [];
        const text = args
          .map((arg) =>
            arg.value !== undefined
              ? typeof arg.value === 'string'
                ? arg.value
                : JSON.stringify(arg.value)
              : (arg.description ?? arg.unserializableValue ?? ''),
          )
          .join(' ');
        sinks.consoles.push({ source: `${source} console.${String(params['type'])}`, text });
        if (params['type'] === 'error' && source !== 'cdp:service_worker') sinks.errors.push({ source: `${source} console.error`, text });
        break;
      }
      case 'Runtime.exceptionThrown': {
        const details = params['exceptionDetails'] as { text?: string; exception?: { description?: string; value?: unknown } };
        const text = `${details.text ?? ''} ${details.exception?.description ?? JSON.stringify(details.exception?.value ?? '')}`;
        sinks.errors.push({ source: `${source} exception`, text });
        sinks.consoles.push({ source: `${source} exception`, text });
        break;
      }
      case 'Log.entryAdded': {
        const entry = params['entry'] as { source: string; level: string; text: string; url?: string };
        sinks.consoles.push({ source: `${source} log.${entry.source}.${entry.level}`, text: `${entry.text} ${entry.url ?? ''}` });
        if (entry.level === 'error' && entry.source === 'javascript') sinks.errors.push({ source: `${source} log`, text: entry.text });
        break;
      }
      default:
        break;
    }
  });
  await session.send('Target.setDiscoverTargets', { discover: true });
  const { targetInfos } = (await session.send('Target.getTargets')) as { targetInfos: TargetInfo[] };
  await Promise.all(targetInfos.map(attach));
}

export async function launchBrowser(options: { simulator?: SimulatorOptions } = {}): Promise<SecuritySession> {
  const sim = await startSimulator(options.simulator);
  const profileDir = mkdtempSync(join(tmpdir(), 'isolink-security-'));
  const requests: RequestRecord[] = [];
  const navigations: string[] = [];
  const consoles: TextRecord[] = [];
  const errors: TextRecord[] = [];
  const replies: TextRecord[] = [];
  const notes: Note[] = [];

  // The recorders are attached as soon as the context exists, before the worker starts.
  const record = (context: BrowserContext): void => {
    context.on('request', (request) => {
      const worker = request.serviceWorker();
      requests.push({
        source: worker ? 'worker' : 'page',
        method: request.method(),
        url: request.url(),
        headers: request.headers(),
        body: request.postDataBuffer()?.toString('utf8') ?? '',
      });
    });
    // Errors count for the extension's own contexts; the test's web pages (the simulator's
    // pages, the hostile page) are recorded for the canary scan but are not Isolink.
    const ours = (url: string): boolean => url.startsWith('chrome-extension://');
    context.on('console', (message) => {
      const where = message.page()?.url() ?? message.worker()?.url() ?? 'unknown';
      consoles.push({ source: `console.${message.type()} ${where}`, text: message.text() });
      if (message.type() === 'error' && ours(where)) errors.push({ source: `console.error ${where}`, text: message.text() });
    });
    const watchPage = (page: Page): void => {
      navigations.push(page.url());
      page.on('framenavigated', (frame) => navigations.push(frame.url()));
      page.on('pageerror', (error) => {
        const record = { source: `pageerror ${page.url()}`, text: `${error.name}: ${error.message}` };
        consoles.push(record);
        if (ours(page.url())) errors.push(record);
      });
    };
    context.pages().forEach(watchPage);
    context.on('page', watchPage);
  };
  const { context, extensionId } = await launchExtension(EXTENSION_DIR, profileDir, { beforeWorker: record }).catch(async (error: unknown) => {
    await sim.close();
    rmSync(profileDir, { recursive: true, force: true });
    throw error;
  });
  const base = `chrome-extension://${extensionId}`;

  const browserCdp = await context.browser()?.newBrowserCDPSession();
  if (!browserCdp) throw new Error('no browser CDP session');
  await watchExtensionTargets(browserCdp, base, { requests, consoles, errors });

  const home = context.pages()[0] ?? (await context.newPage());
  const cdp = await context.newCDPSession(home);
  const workerWatch = await watchWorker(cdp, (url) => url.startsWith(base), 'running');

  let closed = false;
  const liveWorker = async (): Promise<Worker> => {
    if (workerWatch.status() === 'stopped' || workerWatch.status() === 'stopping') {
      // Started as the browser starts it for an event (a fresh worker runs its script).
      const running = workerWatch.waitFor('running', 15_000);
      const started = await cdp.send('ServiceWorker.startWorker', { scopeURL: `${base}/` }).then(
        () => true,
        () => false,
      );
      if (!started) {
        const page = await context.newPage();
        await page.goto(`${base}/popup.html`);
        await page.close();
      }
      await running;
    }
    const live = context.serviceWorkers().find((w) => w.url().startsWith(base));
    return live ?? (await context.waitForEvent('serviceworker', { timeout: 15_000 }));
  };

  const session: SecuritySession = {
    context,
    extensionId,
    base,
    sim,
    profileDir,
    requests,
    navigations,
    consoles,
    errors,
    replies,
    notes,
    home,
    async worker() {
      const worker = await liveWorker();
      await worker.evaluate(installNoteObserver, NOTES_GLOBAL);
      return worker;
    },
    async stopWorker() {
      await session.harvestNotes();
      const stopped = workerWatch.waitFor('stopped', 10_000);
      await cdp.send('ServiceWorker.stopAllWorkers');
      await stopped;
    },
    workerStarts: () => workerWatch.starts(),
    async openPage(path) {
      const page = await context.newPage();
      await page.goto(`${base}/${path}`);
      await page.locator('[data-ready="true"]').waitFor({ timeout: 15_000 });
      return page;
    },
    async clickMenu(info, tab = null) {
      const worker = await session.worker();
      await worker.evaluate(
        ([clickInfo, clickTab]) => {
          (chrome.contextMenus.onClicked as unknown as { dispatch(i: unknown, t: unknown): void }).dispatch(clickInfo, clickTab);
        },
        [{ editable: false, ...info }, tab] as const,
      );
    },
    async dispatch(event, ...args) {
      const worker = await session.worker();
      await worker.evaluate(
        ([name, eventArgs]) => {
          const [area, key] = name.split('.') as [string, string];
          const target = (chrome as unknown as Record<string, Record<string, { dispatch(...a: unknown[]): void } | undefined> | undefined>)[area]?.[key];
          if (!target) throw new Error(`no event ${name}`);
          target.dispatch(...eventArgs);
        },
        [event, args] as const,
      );
    },
    async send(page, type, data) {
      const reply: unknown = await page.evaluate(([t, d]) => chrome.runtime.sendMessage({ type: t, data: d }), [type, data] as const);
      replies.push({ source: `${page.url()} ${type}`, text: jsonText(reply) });
      return reply as Reply;
    },
    async harvestNotes() {
      if (closed || workerWatch.status() !== 'running') return notes;
      const worker = context.serviceWorkers().find((w) => w.url().startsWith(base));
      if (!worker) return notes;
      const fresh = await worker
        .evaluate((globalName) => {
          const list = (globalThis as unknown as Record<string, unknown[] | undefined>)[globalName];
          return list ? list.splice(0) : [];
        }, NOTES_GLOBAL)
        .catch(() => []);
      notes.push(...(fresh as Note[]));
      return notes;
    },
    async waitForNotes(count, timeoutMs = 10_000) {
      await waitUntil(async () => (await session.harvestNotes()).length >= count, timeoutMs, `${count} notifications (saw ${notes.length})`);
      return notes;
    },
    async storage() {
      const worker = await liveWorker();
      return worker.evaluate(async () => ({
        local: await chrome.storage.local.get(null),
        session: await chrome.storage.session.get(null),
        sync: await chrome.storage.sync.get(null),
      }));
    },
    tabUrls: () => context.pages().map((page) => page.url()),
    async closeOthers() {
      for (const page of context.pages()) if (page !== home) await page.close();
    },
    async closeBrowser() {
      if (closed) return;
      await session.harvestNotes();
      closed = true;
      await browserCdp.detach().catch(() => undefined);
      await context.close();
    },
    async dispose() {
      await session.closeBrowser();
      await sim.close();
      rmSync(profileDir, { recursive: true, force: true });
    },
  };
  // The first worker predates the observer: install it now.
  await session.worker();
  return session;
}

/** Requests that reached a path of the simulator, from its own log. */
export function apiCount(session: SecuritySession): number {
  return session.sim.requests.filter((r) => r.path === '/api/').length;
}

/** Errors that are not the suite's own positive control. */
export function realErrors(session: SecuritySession, controlMarker?: string): TextRecord[] {
  return session.errors.filter((error) => controlMarker === undefined || !error.text.includes(controlMarker));
}
