/**
 * Figure 11's samples (bench/autoisolate.ts runs them and reports): one from-page click on
 * Isolink's rules, one right-click on the same link, one from-page click on the landing
 * floor's rule (floor-extension.ts). Each is timed on Node's clock (`clock`, which the
 * simulator stamps its requests with, see run.ts) from just before the one CDP
 * `Runtime.evaluate` that starts it (the page's `click()`, the worker's `dispatch`) to the
 * simulator's receipt of the GET of the launch URL. Loading the from page, waiting for the
 * launch page and closing the menu's tab are untimed.
 */
import type { CDPSession, Page } from 'playwright-core';
import type { RecordedRequest, Simulator } from '../test/simulator';
import type { BenchBrowser, WorkerSession } from './browser';
import { apiCount, benchSettings, readyOn, SAMPLE_GAP_MS, SAMPLE_TIMEOUT_MS } from './click';
import { FLOOR_TARGET, landingFloorRule, type FloorLanding } from './floor-extension';
import { call } from './worker-lib';
import { sleep } from './stats';

/** The bench's clock: epoch milliseconds with Node's monotonic sub-millisecond steps. The simulator's `now`. */
export const clock = (): number => performance.timeOrigin + performance.now();

/** Isolink's `from` site; the landing floor's is 127.0.0.1, so that neither extension's rule sees the other's click. */
export const FROM_SITE = 'localhost';
export const FLOOR_FROM_SITE = '127.0.0.1';
const CLICK = `(() => { const t = performance.timeOrigin + performance.now(); document.getElementById('l').click(); return t; })()`;

export interface Sample {
  /** On Node's clock (`clock`), just before the CDP evaluate that starts the isolation. */
  readonly t0: number;
  /** t0 -> the launch URL's GET at the simulator. */
  readonly ms: number;
  /** t0 (Node) -> the create request (/api/) at the simulator. */
  readonly apiMs: number;
  /** t0 in the browser (its own epoch clock) minus t0 in Node: the CDP hop, as far as the two clocks agree. */
  readonly hopMs: number;
  readonly contexts: number;
  readonly apiRequests: number;
}

/** The first request at or after `from` that `match` accepts, polled (the stamp is the simulator's, so the poll's delay is not timed). */
async function nextRequest(sim: Simulator, from: number, match: (r: RecordedRequest) => boolean, what: string): Promise<RecordedRequest> {
  const deadline = Date.now() + SAMPLE_TIMEOUT_MS;
  for (;;) {
    const found = sim.requests.slice(from).find(match);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no ${what} at the simulator within ${SAMPLE_TIMEOUT_MS} ms`);
    await sleep(5);
  }
}

export const isLaunch = (r: RecordedRequest): boolean => r.method === 'GET' && r.path === '/launch' && r.query['ctx'] !== undefined;
export const isApi = (r: RecordedRequest): boolean => r.path === '/api/';

/** In the worker: until the recent list holds the context (at most the sample timeout); then its launch tab closed, when asked. */
function settle(id: string, close: boolean): string {
  return `(async (id, close, timeoutMs) => {
    const end = 'ctx=' + encodeURIComponent(id);
    const has = (list) => Array.isArray(list) && list.some((c) => c && typeof c.launchUrl === 'string' && c.launchUrl.endsWith(end));
    const deadline = Date.now() + timeoutMs;
    let saved = false;
    while (!saved && Date.now() < deadline) {
      saved = has((await chrome.storage.local.get('recentContexts')).recentContexts);
      if (!saved) await new Promise((r) => setTimeout(r, 10));
    }
    const tabs = (await chrome.tabs.query({})).filter((t) => (t.pendingUrl || t.url || '').endsWith(end));
    if (close && tabs.length > 0) await chrome.tabs.remove(tabs.map((t) => t.id));
    return { saved, tabs: tabs.length };
  })(${JSON.stringify(id)}, ${String(close)}, ${String(SAMPLE_TIMEOUT_MS)})`;
}

/** Seeds the settings (with or without `autoIsolate`) and waits until the worker's dynamic rules follow. */
export async function seedRules(b: BenchBrowser, sim: Simulator, autoIsolate: boolean): Promise<number> {
  const w = await readyOn(b);
  const settings = { ...benchSettings(sim), ...(autoIsolate ? { autoIsolate: { from: [FROM_SITE] } } : {}) };
  await w.evaluate(call('seed', settings, sim.adminToken));
  const deadline = Date.now() + 10_000;
  for (;;) {
    const rules = await w.evaluate<{ action: { type: string }; condition: { initiatorDomains?: string[] } }[]>(
      'chrome.declarativeNetRequest.getDynamicRules()',
    );
    const redirects = rules.filter((r) => r.action.type === 'redirect' && r.condition.initiatorDomains?.includes(FROM_SITE)).length;
    if (autoIsolate ? redirects > 0 : rules.length === 0) return rules.length;
    if (Date.now() > deadline) throw new Error(`the worker's dynamic rules did not follow the settings (${rules.length} rules)`);
    await sleep(20);
  }
}

export interface Stage {
  readonly page: Page;
  readonly cdp: CDPSession;
  /** Isolink's from page (on FROM_SITE) and the landing floor's (on FLOOR_FROM_SITE). */
  readonly fromUrl: string;
  readonly floorFromUrl: string;
  readonly info: Record<string, unknown>;
  readonly tab: { readonly id: number; readonly index: number; readonly windowId: number; readonly url: string };
  readonly prefix: string;
}

/** Untimed: the from page loaded in its tab, in front; the worker running with the bench's helpers. */
async function prepare(b: BenchBrowser, stage: Stage, fromUrl = stage.fromUrl): Promise<WorkerSession> {
  await stage.page.goto(fromUrl);
  await stage.page.bringToFront();
  const w = await readyOn(b);
  await sleep(SAMPLE_GAP_MS);
  return w;
}

async function timeOne(sim: Simulator, start: () => Promise<number>): Promise<Sample & { readonly id: string }> {
  const from = sim.requests.length;
  const contexts = sim.state.contexts.size;
  const apis = apiCount(sim);
  const t0 = clock();
  const inBrowser = await start();
  const launch = await nextRequest(sim, from, isLaunch, 'GET of the launch URL');
  const api = await nextRequest(sim, from, isApi, 'create request');
  return {
    t0,
    ms: launch.at - t0,
    apiMs: api.at - t0,
    hopMs: inBrowser - t0,
    contexts: sim.state.contexts.size - contexts,
    apiRequests: apiCount(sim) - apis,
    id: launch.query['ctx'] ?? '',
  };
}

/** The from page's link clicked (CDP in the page); ends when the page has become the launch page. */
async function clickSample(sim: Simulator, stage: Stage): Promise<Sample & { readonly id: string }> {
  const sample = await timeOne(sim, async () => {
    const reply = (await stage.cdp.send('Runtime.evaluate', { expression: CLICK, returnByValue: true })) as { result: { value?: unknown } };
    return Number(reply.result.value);
  });
  await stage.page.waitForURL((url) => url.href.startsWith(stage.prefix), { timeout: SAMPLE_TIMEOUT_MS });
  return sample;
}

export async function autoSample(b: BenchBrowser, sim: Simulator, stage: Stage): Promise<Sample> {
  const w = await prepare(b, stage);
  const sample = await clickSample(sim, stage);
  const settled = await w.evaluate<{ saved: boolean }>(settle(sample.id, false));
  if (!settled.saved) throw new Error('the landing page opened the launch URL but the context is not in the recent list');
  return sample;
}

export async function menuSample(b: BenchBrowser, sim: Simulator, stage: Stage): Promise<Sample> {
  const w = await prepare(b, stage);
  const dispatch = `(() => { const t = performance.timeOrigin + performance.now(); chrome.contextMenus.onClicked.dispatch(...${JSON.stringify([stage.info, stage.tab])}); return t; })()`;
  const sample = await timeOne(sim, () => w.evaluate<number>(dispatch));
  const settled = await w.evaluate<{ saved: boolean; tabs: number }>(settle(sample.id, true));
  if (!settled.saved || settled.tabs !== 1) throw new Error(`the menu's isolation: saved ${String(settled.saved)}, ${settled.tabs} launch tab(s)`);
  return sample;
}

/** The same click on the landing floor's from page, in the same tab: its rule, its page, its worker's one create. */
export async function floorSample(b: BenchBrowser, sim: Simulator, stage: Stage): Promise<Sample> {
  if (!b.floor) throw new Error('the browser was launched without the floor extension');
  await prepare(b, stage, stage.floorFromUrl);
  return clickSample(sim, stage);
}

/**
 * The landing floor set up for `floorTarget` (the floor's from page links to it): its one
 * storage value (the body of Isolink's last create request, with Isolink's target
 * `isolinkTarget` cut out) and its one network rule. Returns a function that removes the rule.
 */
export async function setUpLandingFloor(b: BenchBrowser, sim: Simulator, isolinkTarget: string, prefix: string): Promise<() => Promise<void>> {
  if (!b.floor) throw new Error('the browser was launched without the floor extension');
  const body = sim.requests.filter(isApi).at(-1)?.body;
  const escaped = JSON.stringify(isolinkTarget).slice(1, -1);
  if (typeof body !== 'string' || !body.includes(escaped)) throw new Error("no create request of Isolink's for the from page's link");
  const config: FloorLanding = { apiUrl: `${sim.url}/api/`, body: body.replace(escaped, FLOOR_TARGET), launchPrefix: prefix };
  const w = await readyOn(b.floor);
  const rule = landingFloorRule(b.floor.base, FLOOR_FROM_SITE);
  await w.evaluate(
    `chrome.storage.local.set({ floorLanding: ${JSON.stringify(config)} }).then(() => chrome.declarativeNetRequest.updateDynamicRules({ removeRuleIds: [1], addRules: [${JSON.stringify(rule)}] })).then(() => true)`,
  );
  const floor = b.floor;
  return async () => {
    const session = await readyOn(floor);
    await session.evaluate('chrome.declarativeNetRequest.updateDynamicRules({ removeRuleIds: [1] }).then(() => true)');
  };
}

/** Checks that the simulator stamps its requests with `clock` (a GET of an unknown launch URL, answered 404). */
export async function checkClock(sim: Simulator): Promise<void> {
  const from = sim.requests.length;
  const before = clock();
  await fetch(`${sim.launchBase}/launch?ctx=bench-clock-check`).then((r) => r.arrayBuffer());
  const after = clock();
  const at = sim.requests.slice(from).find(isLaunch)?.at ?? Number.NaN;
  if (!(at >= before && at <= after)) throw new Error('the simulator does not stamp requests with the bench clock (start it with { now: clock })');
}
