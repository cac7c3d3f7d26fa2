/**
 * The one recipe for starting real Chromium with an unpacked build of Isolink, shared by
 * the end-to-end tests, the security suite and the bench: Debian's Chromium (or
 * CHROMIUM_PATH), a given profile directory, only the extension under test, and no
 * outside host ever resolving, so nothing touches the public network.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Worker } from 'playwright-core';

const CANDIDATES = [process.env['CHROMIUM_PATH'], '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

/** The Chromium binary, or undefined when none is installed. */
export function findChromium(): string | undefined {
  return CANDIDATES.find((path): path is string => typeof path === 'string' && path !== '' && existsSync(path));
}

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
}

/**
 * Starts Chromium on `profileDir` with the build in `extensionDir` loaded, and waits for
 * its service worker. Throws a message saying what to install or build when either is missing.
 */
export async function launchExtension(extensionDir: string, profileDir: string, options: LaunchOptions = {}): Promise<LaunchedExtension> {
  const executablePath = findChromium();
  if (!executablePath) throw new Error('Chromium is not installed: apt-get install chromium (or set CHROMIUM_PATH).');
  if (!existsSync(join(extensionDir, 'manifest.json'))) throw new Error(`No build at ${extensionDir}: run npm run build (or the suite's global setup).`);
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath,
    headless: options.headless ?? true,
    ...(options.language === undefined ? {} : { env: { ...process.env, LANGUAGE: options.language, LANG: `${options.language}.UTF-8` }, locale: options.language }),
    args: [
      `--disable-extensions-except=${extensionDir}`,
      `--load-extension=${extensionDir}`,
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      // Outside hosts never resolve: only 127.0.0.1 is reached.
      '--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1',
    ],
  });
  try {
    options.beforeWorker?.(context);
    const worker =
      context.serviceWorkers().find((w) => w.url().startsWith('chrome-extension://')) ??
      (await context.waitForEvent('serviceworker', { timeout: 15_000 }));
    return { context, worker, extensionId: new URL(worker.url()).host };
  } catch (error) {
    await context.close().catch(() => undefined);
    throw error;
  }
}
