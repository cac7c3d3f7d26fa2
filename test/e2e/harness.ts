/**
 * End-to-end harness: the production build of Isolink loaded into real Chromium
 * (Debian's package), a simulator on 127.0.0.1, and helpers to drive the extension as
 * the browser would: context-menu clicks dispatched to the real registered listener,
 * pages opened as tabs, the service worker stopped through CDP.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { BrowserContext, Locator, Page, Worker } from 'playwright-core';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { OptionsSection } from '../../src/messaging/options';
import { startSimulator, type Simulator, type SimulatorOptions } from '../simulator';
import { findChromium, launchExtension, watchWorker } from '../support/chromium';
import { seedStorage } from '../support/seed';

/** The build under test: `.output/` unless ISOLINK_OUT_DIR (read by wxt.config.ts too) names another directory. */
export const EXTENSION_DIR = resolve(import.meta.dirname, '../..', process.env['ISOLINK_OUT_DIR'] ?? '.output', 'chrome-mv3');
export const ARTIFACTS_DIR = resolve(import.meta.dirname, '../../test-results/e2e');

export { findChromium };

export interface Session {
  readonly context: BrowserContext;
  readonly worker: Worker;
  readonly extensionId: string;
  readonly sim: Simulator;
  readonly profileDir: string;
  /** Opens one of the extension's pages in a tab and waits until it marks itself ready. */
  openPage(path: 'popup.html' | 'options.html' | 'mail.html'): Promise<Page>;
  /** The service worker, woken and current (after a stop, a new one starts). */
  currentWorker(): Promise<Worker>;
  /** Stops every service worker through CDP and waits until CDP reports ours stopped. */
  stopWorker(): Promise<void>;
  /** How many times Isolink's service worker has started running (CDP), since launch. */
  workerStarts(): number;
  /** Runs Isolink's real contextMenus.onClicked listener with this click. */
  clickMenu(info: Record<string, unknown>, tab?: Record<string, unknown>): Promise<void>;
  /** URLs of every open tab. */
  tabUrls(): Promise<string[]>;
  /** Waits for a tab whose URL starts with `prefix`. */
  waitForTab(prefix: string, timeoutMs?: number): Promise<Page>;
  /** The system clipboard's text, read from a page on the simulator's origin. */
  readClipboard(): Promise<string>;
  /** Runs one of Isolink's other registered listeners, as the browser would fire it. */
  dispatch(event: 'commands.onCommand' | 'omnibox.onInputEntered' | 'notifications.onButtonClicked', ...args: unknown[]): Promise<void>;
  /** Ids of the notifications currently shown (their words are checked by the unit tests). */
  notifications(): Promise<string[]>;
  close(): Promise<void>;
}

/** Launches Chromium with the built extension and a fresh profile, and starts a simulator. */
export async function launch(options: { headless?: boolean; language?: string; simulator?: SimulatorOptions } = {}): Promise<Session> {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const sim = await startSimulator(options.simulator);
  const profileDir = mkdtempSync(join(tmpdir(), 'isolink-e2e-'));
  const launched = await launchExtension(EXTENSION_DIR, profileDir, {
    ...(options.headless === undefined ? {} : { headless: options.headless }),
    ...(options.language === undefined ? {} : { language: options.language }),
  }).catch(async (error: unknown) => {
    await sim.close();
    rmSync(profileDir, { recursive: true, force: true });
    throw error;
  });
  const { context, worker, extensionId } = launched;
  const base = `chrome-extension://${extensionId}`;

  const cdpPage = context.pages()[0] ?? (await context.newPage());
  const cdp = await context.newCDPSession(cdpPage);
  const workerWatch = await watchWorker(cdp, (url) => url.startsWith(base));

  const session: Session = {
    context,
    worker,
    extensionId,
    sim,
    profileDir,
    async openPage(path) {
      const page = await context.newPage();
      await page.goto(`${base}/${path}`);
      await page.locator('[data-ready="true"]').waitFor({ timeout: 15_000 });
      return page;
    },
    async currentWorker() {
      if (workerWatch.status() === 'stopped' || workerWatch.status() === 'stopping') {
        // A stopped worker is woken by an extension event: opening one of its pages does it.
        const running = workerWatch.waitFor('running', 15_000);
        const page = await context.newPage();
        await page.goto(`${base}/popup.html`);
        await running;
        await page.close();
      }
      const live = context.serviceWorkers().find((w) => w.url().startsWith(base));
      return live ?? (await context.waitForEvent('serviceworker', { timeout: 15_000 }));
    },
    async stopWorker() {
      const stopped = workerWatch.waitFor('stopped', 10_000);
      await cdp.send('ServiceWorker.stopAllWorkers');
      await stopped;
    },
    workerStarts: () => workerWatch.starts(),
    async clickMenu(info, tab) {
      const sw = await session.currentWorker();
      await sw.evaluate(
        ([clickInfo, clickTab]) => {
          (chrome.contextMenus.onClicked as unknown as { dispatch(i: unknown, t: unknown): void }).dispatch(clickInfo, clickTab);
        },
        [{ editable: false, ...info }, tab ?? null] as const,
      );
    },
    async readClipboard() {
      // Extension origins cannot be granted clipboard access; a loopback page can.
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: sim.url });
      const page = await context.newPage();
      await page.goto(`${sim.url}/launch?ctx=clipboard-reader`);
      await page.bringToFront();
      const text = await page.evaluate(() => navigator.clipboard.readText());
      await page.close();
      return text;
    },
    async dispatch(event, ...args) {
      const sw = await session.currentWorker();
      await sw.evaluate(
        ([name, eventArgs]) => {
          const [area, key] = name.split('.') as [string, string];
          const target = (chrome as unknown as Record<string, Record<string, { dispatch(...a: unknown[]): void }>>)[area]?.[key];
          if (!target) throw new Error(`no event ${name}`);
          target.dispatch(...eventArgs);
        },
        [event, args] as const,
      );
    },
    tabUrls() {
      return Promise.resolve(context.pages().map((p) => p.url()));
    },
    async waitForTab(prefix, timeoutMs = 15_000) {
      const found = context.pages().find((p) => p.url().startsWith(prefix));
      if (found) return found;
      return context.waitForEvent('page', { predicate: (p) => p.url().startsWith(prefix), timeout: timeoutMs }).catch(() => {
        const again = context.pages().find((p) => p.url().startsWith(prefix));
        if (again) return again;
        throw new Error(
          `no tab opened at ${prefix}; tabs: ${context
            .pages()
            .map((p) => p.url())
            .join(', ')}`,
        );
      });
    },
    async notifications() {
      const sw = await session.currentWorker();
      return sw.evaluate(async () => Object.keys(await chrome.notifications.getAll()));
    },
    async close() {
      await context.close();
      await sim.close();
      rmSync(profileDir, { recursive: true, force: true });
    },
  };
  return session;
}

/** Configures Isolink through its options page, as a user would. */
export async function configureThroughOptions(session: Session, values: { token: string; username?: string; org?: string }): Promise<void> {
  const page = await session.openPage('options.html');
  await page.getByLabel('Service URL', { exact: true }).fill(session.sim.url);
  await page.getByLabel('Launch URL', { exact: true }).fill(session.sim.launchBase);
  await page.getByLabel('Admin token', { exact: true }).fill(values.token);
  if (values.org !== undefined) {
    await page.getByLabel('Organisation', { exact: true }).fill(values.org);
  } else {
    await page.getByLabel('Username', { exact: true }).fill(values.username ?? 'analyst@acme.example');
  }
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByRole('button', { name: 'Test connection', exact: true }).click();
  await page.getByText(/Connected to/).waitFor({ timeout: 15_000 });
  await page.close();
}

/**
 * Shows one section of the options page as a user does: a click on its link in the page's
 * navigation (`href="#<id>"`, whatever the language), then waits until it is the section shown.
 */
export async function showOptionsSection(page: Page, id: OptionsSection): Promise<Locator> {
  await page.getByRole('navigation').locator(`a[href="#${id}"]`).click();
  const section = page.locator(`section#${id}`);
  await section.waitFor({ state: 'visible' });
  return section;
}

/** The dynamic network rules the worker has installed (isolate by policy). */
export async function dynamicRules(session: Session): Promise<unknown[]> {
  const worker = await session.currentWorker();
  return worker.evaluate(() => chrome.declarativeNetRequest.getDynamicRules());
}

/**
 * Sets "Isolate automatically" through the options page, as a user would (the lists typed,
 * saved), then waits until the worker has installed rules with a new key.
 */
export async function autoIsolateThroughOptions(session: Session, value: { from?: string[]; to?: string[]; except?: string[]; ask?: boolean }): Promise<void> {
  const before = JSON.stringify(await dynamicRules(session));
  const options = await session.openPage('options.html');
  const section = await showOptionsSection(options, 'auto-isolate');
  await section.getByLabel('Links opened from these sites').fill((value.from ?? []).join('\n'));
  await section.getByLabel('Links to these domains, always').fill((value.to ?? []).join('\n'));
  await section.getByLabel('Never isolate these domains').fill((value.except ?? []).join('\n'));
  await section.getByLabel('Ask before opening each link').setChecked(value.ask ?? false);
  await section.getByRole('button', { name: 'Save automatic isolation' }).click();
  await section.getByText('Saved. The rules apply to links opened from now on.').waitFor({ timeout: 10_000 });
  await options.close();
  const deadline = Date.now() + 10_000;
  while (JSON.stringify(await dynamicRules(session)) === before) {
    if (Date.now() > deadline) throw new Error('the worker did not install new rules within 10 s of saving');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * One browser for a test file, as most files use it: launched before the first test and
 * closed after the last; before each test, the simulator reset, every tab but the first
 * closed, and Isolink configured for the simulator with its admin token. Call it in a
 * describe block; it returns the session (set once the browser is up).
 */
export function useSession(options: Parameters<typeof launch>[0] = {}): () => Session {
  let session: Session | undefined;
  const current = (): Session => {
    if (session === undefined) throw new Error('the browser is not up yet: use the session inside a test');
    return session;
  };
  beforeAll(async () => {
    session = await launch(options);
  });
  afterAll(async () => {
    await session?.close();
  });
  beforeEach(async () => {
    const { sim, context } = current();
    sim.reset();
    for (const page of context.pages().slice(1)) await page.close();
    await seedStorage(await current().currentWorker(), sim, {}, sim.adminToken);
  });
  return current;
}
