/**
 * The one recipe for starting real Chromium with an unpacked build of Isolink, shared by
 * the end-to-end tests, the security suite and the bench: Debian's Chromium (or
 * CHROMIUM_PATH), a given profile directory, only the extension under test, and no
 * outside host ever resolving, so nothing touches the public network.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type BrowserContext, type CDPSession, type Worker } from 'playwright-core';

const CANDIDATES = [process.env['CHROMIUM_PATH'], '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

/** The Chromium binary, or undefined when none is installed. */
export function findChromium(): string | undefined {
  return CANDIDATES.find((path): path is string => typeof path === 'string' && path !== '' && existsSync(path));
}

/**
 * The flags every Chromium of the tests and the bench starts with: as root, headless, no
 * background traffic; outside hosts never resolve, so only 127.0.0.1 is reached.
 */
export const CHROMIUM_ARGS: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1 , EXCLUDE localhost',
];

export interface LaunchedExtension {
  readonly context: BrowserContext;
  /** The extension's service worker as Playwright first saw it. */
  readonly worker: Worker;
  readonly extensionId: string;
}

export interface LaunchOptions {
  readonly headless?: boolean;
  /** The browser's UI language (and so the extension's, through browser.i18n), e.g. 'ja'. Linux Chromium reads it from LANGUAGE. */
  readonly language?: string;
  /** Runs as soon as the browser context exists, before waiting for the worker: for recorders that must see everything. */
  readonly beforeWorker?: (context: BrowserContext) => void;
  /** Another unpacked extension to load beside the one under test (the bench's reference extension); its worker is never taken for Isolink's. */
  readonly alsoLoad?: { readonly dir: string; readonly workerScript: string };
}

/**
 * Starts Chromium on `profileDir` with the build in `extensionDir` loaded, and waits for
 * its service worker. Throws a message saying what to install or build when either is missing.
 */
export async function launchExtension(extensionDir: string, profileDir: string, options: LaunchOptions = {}): Promise<LaunchedExtension> {
  const executablePath = findChromium();
  if (!executablePath) throw new Error('Chromium is not installed: apt-get install chromium (or set CHROMIUM_PATH).');
  if (!existsSync(join(extensionDir, 'manifest.json'))) throw new Error(`No build at ${extensionDir}: run npm run build (or the suite's global setup).`);
  const dirs = [extensionDir, ...(options.alsoLoad ? [options.alsoLoad.dir] : [])].join(',');
  const other = options.alsoLoad ? `/${options.alsoLoad.workerScript}` : undefined;
  const isMain = (url: string): boolean => url.startsWith('chrome-extension://') && (other === undefined || !url.endsWith(other));
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath,
    headless: options.headless ?? true,
    ...(options.language === undefined
      ? {}
      : { env: { ...process.env, LANGUAGE: options.language, LANG: `${options.language}.UTF-8` }, locale: options.language }),
    args: [`--disable-extensions-except=${dirs}`, `--load-extension=${dirs}`, ...CHROMIUM_ARGS],
  });
  try {
    options.beforeWorker?.(context);
    const worker =
      context.serviceWorkers().find((w) => isMain(w.url())) ??
      (await context.waitForEvent('serviceworker', { predicate: (w) => isMain(w.url()), timeout: 15_000 }));
    return { context, worker, extensionId: new URL(worker.url()).host };
  } catch (error) {
    await context.close().catch(() => undefined);
    throw error;
  }
}

export interface WorkerWatch {
  /** The extension worker's last running status as CDP reported it. */
  status(): string;
  /** How many times it has started running since the watch began. */
  starts(): number;
  /** Resolves with Node's clock (performance.now()) when CDP reports `status`; rejects after `timeoutMs`. */
  waitFor(status: string, timeoutMs: number): Promise<number>;
}

/**
 * Follows the running status of the extension's service worker through CDP
 * (ServiceWorker.workerVersionUpdated): Playwright's worker events lag behind restarts,
 * CDP reports every change. `isOurs` picks the worker by script URL; `initialStatus` is
 * what is known before the first report ('running' when the worker is known to be up).
 */
export async function watchWorker(cdp: CDPSession, isOurs: (scriptUrl: string) => boolean, initialStatus = ''): Promise<WorkerWatch> {
  let status = initialStatus;
  let starts = 0;
  const waiters: { status: string; resolve: (at: number) => void }[] = [];
  cdp.on('ServiceWorker.workerVersionUpdated', (event: { versions: { scriptURL: string; runningStatus: string }[] }) => {
    const at = performance.now();
    for (const version of event.versions) {
      if (!isOurs(version.scriptURL)) continue;
      if (version.runningStatus === 'running' && status !== 'running') starts += 1;
      status = version.runningStatus;
      for (const waiter of waiters.filter((w) => w.status === status)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(at);
      }
    }
  });
  await cdp.send('ServiceWorker.enable');
  return {
    status: () => status,
    starts: () => starts,
    waitFor: (wanted, timeoutMs) =>
      new Promise((resolve, reject) => {
        const waiter = {
          status: wanted,
          resolve: (at: number) => {
            clearTimeout(timer);
            resolve(at);
          },
        };
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(waiter), 1);
          reject(new Error(`the service worker did not reach ${wanted} within ${timeoutMs} ms`));
        }, timeoutMs);
        timer.unref();
        waiters.push(waiter);
      }),
  };
}
