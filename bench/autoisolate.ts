/**
 * Figure 11: isolate by policy against the right-click path (issue 25). A page on a `from`
 * site (`http://localhost:<port>/`) has one link to a counting server on 127.0.0.1; a script
 * click on it is stopped by the extension's network rule, sent to the landing page
 * (isolate.html), which sends its fragment to the background (`landed`: the rules checked,
 * the context created) and replaces itself with the launch URL. The other side is figure 2's path for the same link: the
 * context menu's dispatch in the worker, the launch URL opened in a new tab.
 *
 * Both sides are timed on Node's clock (`clock`, which the simulator must stamp its
 * requests with, see run.ts): from just before the one CDP `Runtime.evaluate` that starts
 * them (the page's `click()`, the worker's `dispatch`) to the simulator's receipt of the GET
 * of the launch URL. Everything else (loading the from page, waiting for the launch page,
 * closing the menu's tab) is untimed.
 */
import type { CDPSession, Page } from 'playwright-core';
import { localServer, type LocalServer } from '../test/e2e/local-server';
import type { RecordedRequest, Simulator } from '../test/simulator';
import type { BenchBrowser, WorkerSession } from './browser';
import { apiCount, benchSettings, readyOn, SAMPLE_GAP_MS, SAMPLE_TIMEOUT_MS } from './click';
import { row, judge, type Row } from './report';
import { call } from './worker-lib';
import { inTurn, median, pairedRatios, round, sleep, summary, withInterval, type PairedRatios } from './stats';

/** The bench's clock: epoch milliseconds with Node's monotonic sub-millisecond steps. The simulator's `now`. */
export const clock = (): number => performance.timeOrigin + performance.now();

const FROM_SITE = 'localhost';
const CLICK = `(() => { const t = performance.timeOrigin + performance.now(); document.getElementById('l').click(); return t; })()`;

interface Sample {
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

export interface AutoIsolateResult extends PairedRatios {
  readonly pairs: number;
  readonly warmup: number;
  readonly autoMs: ReturnType<typeof summary>;
  readonly menuMs: ReturnType<typeof summary>;
  /** Medians: t0 -> /api/ and /api/ -> /launch, each side. */
  readonly split: {
    readonly auto: { readonly beforeApiMs: number; readonly afterApiMs: number };
    readonly menu: { readonly beforeApiMs: number; readonly afterApiMs: number };
  };
  readonly hopMs: { readonly auto: number; readonly menu: number };
  /** Contexts the simulator holds more after each auto click (warm-up included): 1 each. */
  readonly contextsPerAuto: { readonly min: number; readonly max: number; readonly samples: number };
  readonly contextsPerMenu: { readonly min: number; readonly max: number; readonly samples: number };
  readonly apiRequestsPerAuto: { readonly min: number; readonly max: number };
  /** Where an auto click's time goes (a few clicks of their own, after the pairs). */
  readonly autoSplit: AutoSplit | string;
  readonly splitSamples: number;
  /** Every request the target server received over the whole figure (warm-up and set-up included). */
  readonly targetHits: readonly string[];
  readonly autoRawMs: number[];
  readonly menuRawMs: number[];
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

const isLaunch = (r: RecordedRequest): boolean => r.method === 'GET' && r.path === '/launch' && r.query['ctx'] !== undefined;
const isApi = (r: RecordedRequest): boolean => r.path === '/api/';

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
async function seedRules(b: BenchBrowser, sim: Simulator, autoIsolate: boolean): Promise<number> {
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

interface Stage {
  readonly page: Page;
  readonly cdp: CDPSession;
  readonly fromUrl: string;
  readonly info: Record<string, unknown>;
  readonly tab: { readonly id: number; readonly index: number; readonly windowId: number; readonly url: string };
  readonly prefix: string;
}

/** Untimed: the from page loaded in its tab, in front; the worker running with the bench's helpers. */
async function prepare(b: BenchBrowser, stage: Stage): Promise<WorkerSession> {
  await stage.page.goto(stage.fromUrl);
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

async function autoSample(b: BenchBrowser, sim: Simulator, stage: Stage): Promise<Sample> {
  const w = await prepare(b, stage);
  const sample = await timeOne(sim, async () => {
    const reply = (await stage.cdp.send('Runtime.evaluate', { expression: CLICK, returnByValue: true })) as { result: { value?: unknown } };
    return Number(reply.result.value);
  });
  await stage.page.waitForURL((url) => url.href.startsWith(stage.prefix), { timeout: SAMPLE_TIMEOUT_MS });
  const settled = await w.evaluate<{ saved: boolean }>(settle(sample.id, false));
  if (!settled.saved) throw new Error('the landing page opened the launch URL but the context is not in the recent list');
  return sample;
}

async function menuSample(b: BenchBrowser, sim: Simulator, stage: Stage): Promise<Sample> {
  const w = await prepare(b, stage);
  const dispatch = `(() => { const t = performance.timeOrigin + performance.now(); chrome.contextMenus.onClicked.dispatch(...${JSON.stringify([stage.info, stage.tab])}); return t; })()`;
  const sample = await timeOne(sim, () => w.evaluate<number>(dispatch));
  const settled = await w.evaluate<{ saved: boolean; tabs: number }>(settle(sample.id, true));
  if (!settled.saved || settled.tabs !== 1) throw new Error(`the menu's isolation: saved ${String(settled.saved)}, ${settled.tabs} launch tab(s)`);
  return sample;
}

/** Checks that the simulator stamps its requests with `clock` (a GET of an unknown launch URL, answered 404). */
async function checkClock(sim: Simulator): Promise<void> {
  const from = sim.requests.length;
  const before = clock();
  await fetch(`${sim.launchBase}/launch?ctx=bench-clock-check`).then((r) => r.arrayBuffer());
  const after = clock();
  const at = sim.requests.slice(from).find(isLaunch)?.at ?? Number.NaN;
  if (!(at >= before && at <= after)) throw new Error('the simulator does not stamp requests with the bench clock (start it with { now: clock })');
}

/**
 * In the landing page only (an init script of the diagnostic tab): when its document starts,
 * its messages to the worker and its rules query, on the page's epoch clock (which agrees
 * with Node's within the CDP hop, `hopMs`); the navigation's own timing entry; all sent in
 * one console message once the background answers `landed`, just before the page replaces itself.
 */
const LANDING_MARKS = String.raw`(() => {
  if (location.protocol !== 'chrome-extension:' || location.pathname !== '/isolate.html') return;
  const now = () => performance.timeOrigin + performance.now();
  const marks = { origin: performance.timeOrigin, document: now() };
  const wrap = (owner, name, label, last) => {
    if (!owner || typeof owner[name] !== 'function' || owner[name].benchWrapped) return;
    const original = owner[name].bind(owner);
    owner[name] = (...args) => {
      const key = label(args);
      marks[key + '.start'] = now();
      const result = original(...args);
      Promise.resolve(result).then(() => {
        marks[key + '.end'] = now();
        if (key !== last) return;
        const nav = performance.getEntriesByType('navigation')[0];
        console.debug('isolink-bench ' + JSON.stringify({ marks, nav: nav ? nav.toJSON() : null }));
      }, () => undefined);
      return result;
    };
    owner[name].benchWrapped = true;
  };
  // wxt's browser is the browser namespace where there is one, else chrome's.
  for (const ns of [globalThis.browser, globalThis.chrome]) {
    if (!ns) continue;
    wrap(ns.runtime, 'sendMessage', (args) => String(args[0] && args[0].type), 'landed');
  }
  document.addEventListener('DOMContentLoaded', () => { marks.domContentLoaded = now(); });
})()`;

/**
 * Where an auto click's time goes, ms from t0 (medians over a few clicks in a tab of their
 * own, not the ratio's): the navigation's start and the landing page's response end (its
 * timing entry), its document created (the init script), `landed` sent (main.tsx runs),
 * DOMContentLoaded, the create request at the simulator, `landed` answered (the background
 * checked the fragment against the rules and created the context), the launch URL's GET.
 */
type AutoSplit = Record<string, number>;

async function autoSplit(b: BenchBrowser, sim: Simulator, stage: Stage, samples: number): Promise<AutoSplit> {
  const page = await b.context.newPage();
  try {
    await page.addInitScript(LANDING_MARKS);
    let reported: ((text: string) => void) | undefined;
    page.on('console', (message) => {
      if (message.text().startsWith('isolink-bench ')) reported?.(message.text().slice('isolink-bench '.length));
    });
    await page.goto(stage.fromUrl);
    const own: Stage = { ...stage, page, cdp: await b.context.newCDPSession(page) };
    const rows: Record<string, number>[] = [];
    for (let i = 0; i < samples; i++) {
      const text = new Promise<string>((resolve) => {
        reported = resolve;
      });
      const from = sim.requests.length;
      const { t0 } = await autoSample(b, sim, own);
      const { marks, nav } = JSON.parse(await text) as { marks: Record<string, number>; nav: Record<string, number> | null };
      const at = (match: (r: RecordedRequest) => boolean): number => (sim.requests.slice(from).find(match)?.at ?? Number.NaN) - t0;
      const m = (key: string): number => (marks[key] ?? Number.NaN) - t0;
      const origin = marks['origin'] ?? Number.NaN;
      rows.push({
        navigationStart: origin - t0,
        landingResponseEnd: origin + (nav?.['responseEnd'] ?? Number.NaN) - t0,
        landingDocument: m('document'),
        landedSent: m('landed.start'),
        domContentLoaded: m('domContentLoaded'),
        createRequest: at(isApi),
        landedAnswered: m('landed.end'),
        launchGet: at(isLaunch),
      });
    }
    const keys = Object.keys(rows[0] ?? {});
    return Object.fromEntries(keys.map((k) => [k, round(median(rows.map((r) => r[k] ?? Number.NaN)), 1)]));
  } finally {
    await page.close().catch(() => undefined);
  }
}

const range = (values: readonly number[]): { min: number; max: number; samples: number } => ({
  min: Math.min(...values),
  max: Math.max(...values),
  samples: values.length,
});

export async function autoIsolateBench(
  b: BenchBrowser,
  sim: Simulator,
  { pairs, warmup, split: splitSamples }: { readonly pairs: number; readonly warmup: number; readonly split: number },
): Promise<AutoIsolateResult> {
  await checkClock(sim);
  const target: LocalServer = await localServer();
  const targetUrl = `${target.origin}/phish?id=1`;
  const html = `<!doctype html><title>from</title><a id="l" href="${targetUrl}">report</a>`;
  const fromServer = await localServer({ '/': ['text/html', html] });
  const fromUrl = `http://${FROM_SITE}:${new URL(fromServer.origin).port}/`;
  const page = await b.context.newPage();
  try {
    await seedRules(b, sim, true);
    await page.goto(fromUrl);
    const cdp = await b.context.newCDPSession(page);
    const w = await readyOn(b);
    const tab = await w.evaluate<Stage['tab'] | null>(
      `chrome.tabs.query({ url: ${JSON.stringify(fromUrl)} }).then(([t]) => t ? { id: t.id, index: t.index, windowId: t.windowId, url: t.url } : null)`,
    );
    if (!tab) throw new Error(`no tab at ${fromUrl}`);
    const stage: Stage = {
      page,
      cdp,
      fromUrl,
      info: { menuItemId: 'isolate-link', linkUrl: targetUrl, pageUrl: fromUrl, editable: false },
      tab,
      prefix: `${sim.launchBase}/launch?ctx=`,
    };
    const autos: Sample[] = [];
    const menus: Sample[] = [];
    for (let i = 0; i < warmup; i++) {
      autos.push(await autoSample(b, sim, stage));
      menus.push(await menuSample(b, sim, stage));
    }
    const auto: Sample[] = [];
    const menu: Sample[] = [];
    for (let i = 0; i < pairs; i++) {
      const [a, m] = await inTurn(
        i,
        () => autoSample(b, sim, stage),
        () => menuSample(b, sim, stage),
      );
      auto.push(a);
      menu.push(m);
    }
    autos.push(...auto);
    menus.push(...menu);
    const where = await autoSplit(b, sim, stage, splitSamples).catch((error: unknown) => (error instanceof Error ? error.message : String(error)));
    const ms = (s: readonly Sample[]): number[] => s.map((x) => x.ms);
    const split = (s: readonly Sample[]): { beforeApiMs: number; afterApiMs: number } => ({
      beforeApiMs: round(median(s.map((x) => x.apiMs)), 1),
      afterApiMs: round(median(s.map((x) => x.ms - x.apiMs)), 1),
    });
    return {
      pairs,
      warmup,
      autoMs: summary(ms(auto), 1),
      menuMs: summary(ms(menu), 1),
      ...pairedRatios(ms(auto), ms(menu)),
      split: { auto: split(auto), menu: split(menu) },
      hopMs: { auto: round(median(auto.map((x) => x.hopMs)), 2), menu: round(median(menu.map((x) => x.hopMs)), 2) },
      contextsPerAuto: range(autos.map((x) => x.contexts)),
      contextsPerMenu: range(menus.map((x) => x.contexts)),
      apiRequestsPerAuto: range(autos.map((x) => x.apiRequests)),
      autoSplit: where,
      splitSamples,
      targetHits: [...target.hits],
      autoRawMs: ms(auto).map((v) => round(v, 1)),
      menuRawMs: ms(menu).map((v) => round(v, 1)),
    };
  } finally {
    await page.close().catch(() => undefined);
    // The figures after this one run without the rules.
    await seedRules(b, sim, false).catch(() => undefined);
    await fromServer.close();
    await target.close();
  }
}

interface Budgets {
  readonly autoIsolateRatio: number;
}

export function autoIsolateFailRows(budgets: Budgets): { id: string; figure: string; budget: string }[] {
  return [
    { id: 'autoisolate.ratio', figure: '11 from-page click -> launch GET, auto / right-click (median ratio)', budget: `<= ${budgets.autoIsolateRatio}` },
    { id: 'autoisolate.target', figure: '11 requests reaching the link target', budget: '= 0' },
    { id: 'autoisolate.contexts', figure: '11 contexts created per auto click', budget: '= 1 each' },
  ];
}

function splitText(p: AutoSplit): string {
  const at = (key: string): string => String(p[key] ?? '?');
  return [
    `nav ${at('navigationStart')}`,
    `landing response ${at('landingResponseEnd')}`,
    `document ${at('landingDocument')}`,
    `landed ${at('landedSent')}-${at('landedAnswered')} (request ${at('createRequest')})`,
    `launch GET ${at('launchGet')}`,
  ].join(', ');
}

export function autoIsolateRows(r: AutoIsolateResult, budgets: Budgets): Row[] {
  const once = r.contextsPerAuto.min === 1 && r.contextsPerAuto.max === 1;
  return [
    row(
      'autoisolate.ratio',
      `11 from-page click -> launch GET, auto / right-click (median of ${r.pairs} pair ratios)`,
      `${withInterval(r.medianRatio, r.medianRatioInterval)} (auto ${r.autoMs.median} ms, right-click ${r.menuMs.median} ms)`,
      `<= ${budgets.autoIsolateRatio}`,
      judge(r.medianRatio, (v) => v <= budgets.autoIsolateRatio),
      { numeric: r.medianRatio },
    ),
    row(
      'autoisolate.split',
      '11 t0 -> create request + create request -> launch GET (medians, ms)',
      `auto ${r.split.auto.beforeApiMs} + ${r.split.auto.afterApiMs}; right-click ${r.split.menu.beforeApiMs} + ${r.split.menu.afterApiMs}`,
      '-',
      'info',
      { numeric: r.split.auto.beforeApiMs },
    ),
    row(
      'autoisolate.where',
      `11 an auto click's steps, ms from t0 (median of ${typeof r.autoSplit === 'string' ? '?' : r.splitSamples})`,
      typeof r.autoSplit === 'string' ? `could not measure: ${r.autoSplit}` : splitText(r.autoSplit),
      '-',
      'info',
    ),
    row(
      'autoisolate.target',
      '11 requests reaching the link target',
      `${r.targetHits.length} over ${r.pairs + r.warmup} pairs${r.targetHits.length > 0 ? ` (${r.targetHits.slice(0, 3).join(', ')})` : ''}`,
      '= 0',
      r.targetHits.length === 0 ? 'pass' : 'fail',
      { numeric: r.targetHits.length },
    ),
    row(
      'autoisolate.contexts',
      '11 contexts created per auto click',
      `min ${r.contextsPerAuto.min}, max ${r.contextsPerAuto.max} over ${r.contextsPerAuto.samples} (create requests: ${r.apiRequestsPerAuto.min}-${r.apiRequestsPerAuto.max})`,
      '= 1 each',
      once ? 'pass' : 'fail',
      { numeric: r.contextsPerAuto.max },
    ),
  ];
}
