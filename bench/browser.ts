/**
 * Chromium with the bench's own build of Isolink (`.bench-output/chrome-mv3`), launched
 * with the same recipe as test/e2e/harness.ts (whose launch() reads `.output/` only), plus
 * what the bench needs on top: a CDP session on the service worker itself (heap usage,
 * garbage collection, evaluation that survives worker restarts), the worker's running
 * status from CDP, and browser-wide tracing.
 *
 * The worker session goes through the browser-level CDP session: Target.attachToTarget
 * (not flattened) and Target.sendMessageToTarget, because Playwright's CDPSession cannot
 * address a flattened child session and its Worker object has no CDP session of its own.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import { launchExtension, watchWorker, type WorkerWatch } from '../test/support/chromium';

export const BENCH_EXTENSION_DIR = resolve(import.meta.dirname, '../.bench-output/chrome-mv3');

interface TargetInfo {
  readonly targetId: string;
  readonly type: string;
  readonly url: string;
}

interface ProtocolReply {
  readonly id?: number;
  readonly result?: unknown;
  readonly error?: { readonly message: string };
}

interface EvaluateResult {
  readonly result: { readonly value?: unknown };
  readonly exceptionDetails?: { readonly text: string; readonly exception?: { readonly description?: string } };
}

export interface HeapUsage {
  readonly usedSize: number;
  readonly totalSize: number;
  readonly embedderHeapUsedSize?: number;
  readonly backingStorageSize?: number;
}

/** One trace event as Chromium reports it (only the fields the bench reads). */
export interface TraceEvent {
  readonly name: string;
  readonly cat: string;
  readonly ph: string;
  readonly ts: number;
  readonly pid?: number;
  readonly tid?: number;
  readonly id?: string;
  readonly dur?: number;
  readonly args?: Record<string, unknown>;
}

export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      reject(new Error(`${what} did not finish within ${ms} ms`));
    }, ms);
    timer.unref();
  });
  return Promise.race([promise, timeout]).finally(() => {
    clearTimeout(timer);
  });
}

/** A CDP session on the extension's service worker target. */
export class WorkerSession {
  readonly #browser: CDPSession;
  readonly #sessionId: string;
  #nextId = 0;
  readonly #waiters = new Map<number, { resolve: (reply: ProtocolReply) => void; reject: (error: Error) => void }>();
  #detached = false;

  private constructor(browser: CDPSession, sessionId: string) {
    this.#browser = browser;
    this.#sessionId = sessionId;
    browser.on('Target.receivedMessageFromTarget', this.#onMessage);
    browser.on('Target.detachedFromTarget', this.#onDetached);
  }

  static async attach(browser: CDPSession, targetId: string): Promise<WorkerSession> {
    const reply = await browser.send('Target.attachToTarget', { targetId, flatten: false });
    return new WorkerSession(browser, reply.sessionId);
  }

  get detached(): boolean {
    return this.#detached;
  }

  readonly #onMessage = (event: { sessionId: string; message: string }): void => {
    if (event.sessionId !== this.#sessionId) return;
    const reply = JSON.parse(event.message) as ProtocolReply;
    if (reply.id === undefined) return;
    const waiter = this.#waiters.get(reply.id);
    if (!waiter) return;
    this.#waiters.delete(reply.id);
    waiter.resolve(reply);
  };

  readonly #onDetached = (event: { sessionId: string }): void => {
    if (event.sessionId !== this.#sessionId) return;
    this.#dispose(new Error('the service worker session was detached'));
  };

  #dispose(error: Error): void {
    if (this.#detached) return;
    this.#detached = true;
    this.#browser.off('Target.receivedMessageFromTarget', this.#onMessage);
    this.#browser.off('Target.detachedFromTarget', this.#onDetached);
    for (const waiter of this.#waiters.values()) waiter.reject(error);
    this.#waiters.clear();
  }

  async send(method: string, params: Record<string, unknown> = {}, timeoutMs = 120_000): Promise<unknown> {
    if (this.#detached) throw new Error('the service worker session is detached');
    this.#nextId += 1;
    const id = this.#nextId;
    const reply = new Promise<ProtocolReply>((resolvePromise, reject) => {
      this.#waiters.set(id, { resolve: resolvePromise, reject });
    });
    await this.#browser.send('Target.sendMessageToTarget', { sessionId: this.#sessionId, message: JSON.stringify({ id, method, params }) });
    const answer = await withTimeout(reply, timeoutMs, method);
    if (answer.error) throw new Error(`${method}: ${answer.error.message}`);
    return answer.result;
  }

  /** Evaluates a JavaScript expression in the worker, awaiting a promise, returning its value as JSON. */
  async evaluate<T>(expression: string, timeoutMs = 120_000): Promise<T> {
    const reply = (await this.send('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true }, timeoutMs)) as EvaluateResult;
    if (reply.exceptionDetails) {
      throw new Error(`in the service worker: ${reply.exceptionDetails.exception?.description ?? reply.exceptionDetails.text}`);
    }
    return reply.result.value as T;
  }

  async heapUsage(): Promise<HeapUsage> {
    return (await this.send('Runtime.getHeapUsage')) as HeapUsage;
  }

  async collectGarbage(): Promise<void> {
    await this.send('HeapProfiler.collectGarbage');
  }

  async detach(): Promise<void> {
    if (this.#detached) return;
    try {
      await this.#browser.send('Target.detachFromTarget', { sessionId: this.#sessionId });
    } catch {
      // Already gone with the worker.
    }
    this.#dispose(new Error('detached'));
  }
}

/** One extension's service worker, as the bench drives it. */
export interface ExtensionWorker {
  readonly extensionId: string;
  /** `chrome-extension://<id>` */
  readonly base: string;
  /** The service worker's CDP session, attached afresh after a restart. */
  worker(): Promise<WorkerSession>;
  /** Asks for the worker to start (CDP ServiceWorker.startWorker); resolves with Node's clock when CDP reports it running. */
  startWorker(): Promise<{ requestedAt: number; runningAt: number }>;
  /** The worker's last running status reported by CDP. */
  workerStatus(): string;
  /** How many times the worker has started running since launch (CDP). */
  workerStarts(): number;
}

/** The browser with Isolink's build (its worker is the browser's own ExtensionWorker) and, when asked, the floor extension. */
export interface BenchBrowser extends ExtensionWorker {
  readonly context: BrowserContext;
  /** The first tab (about:blank): the source tab of clicks, and the page CDP session's host. */
  readonly page: Page;
  readonly chromiumVersion: string;
  /** The cold floor's worker (see floor-extension.ts), when launched with floorDir. */
  readonly floor: ExtensionWorker | undefined;
  /** Stops every service worker (CDP ServiceWorker.stopAllWorkers) and waits until Isolink's (and the floor's) are stopped. */
  stopWorker(): Promise<void>;
  /** Records a browser-wide trace of the given categories while `run` runs. */
  trace<T>(categories: readonly string[], run: () => Promise<T>): Promise<{ value: T; events: TraceEvent[] }>;
  close(): Promise<void>;
}

export interface LaunchBenchOptions {
  readonly extensionDir?: string;
  readonly headless?: boolean;
  /** The floor extension's directory (see floor-extension.ts), loaded beside Isolink. */
  readonly floorDir?: string;
}

export async function launchBench(options: LaunchBenchOptions = {}): Promise<BenchBrowser> {
  const extensionDir = options.extensionDir ?? BENCH_EXTENSION_DIR;
  if (!existsSync(join(extensionDir, 'manifest.json'))) throw new Error(`No build at ${extensionDir}.`);
  const workerScript = workerScriptOf(extensionDir);

  const profileDir = mkdtempSync(join(tmpdir(), 'isolink-bench-'));
  const launchOptions = {
    ...(options.headless === undefined ? {} : { headless: options.headless }),
    ...(options.floorDir === undefined ? {} : { alsoLoad: { dir: options.floorDir, workerScript: workerScriptOf(options.floorDir) } }),
  };
  const { context, extensionId } = await launchExtension(extensionDir, profileDir, launchOptions).catch((error: unknown) => {
    rmSync(profileDir, { recursive: true, force: true });
    throw error;
  });
  const closeAll = async (): Promise<void> => {
    await context.close().catch(() => undefined);
    rmSync(profileDir, { recursive: true, force: true });
  };
  try {
    const browser = context.browser();
    if (!browser) throw new Error('Playwright gave no Browser for the persistent context: no browser-level CDP session.');
    const page = context.pages()[0] ?? (await context.newPage());
    const pageCdp = await context.newCDPSession(page);
    const browserCdp = await browser.newBrowserCDPSession();

    const isolink = await driveWorker(pageCdp, browserCdp, extensionId, workerScript, 'Isolink');
    let floor: DrivenWorker | undefined;
    if (options.floorDir !== undefined) {
      const floorScript = workerScriptOf(options.floorDir);
      const isFloor = (url: string): boolean => url.startsWith('chrome-extension://') && url.endsWith(`/${floorScript}`);
      const floorWorker =
        context.serviceWorkers().find((w) => isFloor(w.url())) ??
        (await context.waitForEvent('serviceworker', { predicate: (w) => isFloor(w.url()), timeout: 15_000 }));
      floor = await driveWorker(pageCdp, browserCdp, new URL(floorWorker.url()).host, floorScript, 'the floor');
    }
    const workers = floor ? [isolink, floor] : [isolink];

    const bench: BenchBrowser = {
      ...isolink.handle,
      context,
      page,
      chromiumVersion: browser.version(),
      floor: floor?.handle,
      async stopWorker() {
        const live = workers.filter((w) => ['running', 'starting'].includes(w.handle.workerStatus()));
        const stopped = live.map((w) => w.watch.waitFor('stopped', 10_000));
        await pageCdp.send('ServiceWorker.stopAllWorkers');
        await Promise.all(stopped);
        for (const w of workers) await w.forget();
      },
      async trace(categories, run) {
        const events: TraceEvent[] = [];
        const onData = (event: { value: Record<string, string>[] }): void => {
          events.push(...(event.value as unknown as TraceEvent[]));
        };
        browserCdp.on('Tracing.dataCollected', onData);
        const complete = new Promise<void>((resolvePromise) => {
          browserCdp.once('Tracing.tracingComplete', () => {
            resolvePromise();
          });
        });
        await browserCdp.send('Tracing.start', { traceConfig: { includedCategories: [...categories] }, transferMode: 'ReportEvents' });
        try {
          const value = await run();
          return { value, events };
        } finally {
          await browserCdp.send('Tracing.end');
          await withTimeout(complete, 30_000, 'Tracing.end');
          browserCdp.off('Tracing.dataCollected', onData);
        }
      },
      async close() {
        for (const w of workers) await w.forget();
        await closeAll();
      },
    };
    return bench;
  } catch (error) {
    await closeAll();
    throw error;
  }
}

function workerScriptOf(extensionDir: string): string {
  const manifest = JSON.parse(readFileSync(join(extensionDir, 'manifest.json'), 'utf8')) as { background?: { service_worker?: string } };
  return manifest.background?.service_worker ?? 'background.js';
}

interface DrivenWorker {
  readonly handle: ExtensionWorker;
  readonly watch: WorkerWatch;
  /** Detaches the CDP session (the worker stopped or the browser closes). */
  forget(): Promise<void>;
}

/** The bench's handle on one extension's service worker: its CDP session, status and start. */
async function driveWorker(pageCdp: CDPSession, browserCdp: CDPSession, extensionId: string, workerScript: string, name: string): Promise<DrivenWorker> {
  const base = `chrome-extension://${extensionId}`;
  const scriptUrl = `${base}/${workerScript}`;
  const watch = await watchWorker(pageCdp, (url) => url === scriptUrl, 'unknown');
  let current: WorkerSession | undefined;
  const findTarget = async (): Promise<TargetInfo | undefined> => {
    const { targetInfos } = (await browserCdp.send('Target.getTargets')) as { targetInfos: TargetInfo[] };
    return targetInfos.find((t) => t.type === 'service_worker' && t.url === scriptUrl);
  };
  const handle: ExtensionWorker = {
    extensionId,
    base,
    async worker() {
      if (current && !current.detached && watch.status() === 'running') return current;
      // Attach to a running worker only: while it starts, its extension bindings may not be there yet.
      if (watch.status() === 'starting' || watch.status() === 'unknown')
        await watch.waitFor('running', watch.status() === 'unknown' ? 3_000 : 15_000).catch(() => undefined);
      if (watch.status() !== 'running') await handle.startWorker();
      const deadline = Date.now() + 15_000;
      for (;;) {
        const target = await findTarget();
        if (target) {
          await current?.detach();
          const session = await WorkerSession.attach(browserCdp, target.targetId);
          if (await session.evaluate<boolean>(`typeof chrome === 'object' && typeof chrome.tabs === 'object'`, 5_000).catch(() => false)) {
            current = session;
            return current;
          }
          await session.detach();
        }
        if (Date.now() > deadline) throw new Error(`no service worker target for ${name}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    async startWorker() {
      const running = watch.waitFor('running', 15_000);
      const requestedAt = performance.now();
      await pageCdp.send('ServiceWorker.startWorker', { scopeURL: `${base}/` });
      const runningAt = await running;
      return { requestedAt, runningAt };
    },
    workerStatus: () => watch.status(),
    workerStarts: () => watch.starts(),
  };
  return {
    handle,
    watch,
    async forget() {
      await current?.detach();
      current = undefined;
    },
  };
}
