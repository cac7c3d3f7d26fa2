/**
 * Figures 2, 3, 4 and 7: the extension in headless Chromium against the simulator.
 * See worker-lib.ts for what is timed inside the service worker and how.
 */
import type { Page } from 'playwright-core';
import type { Simulator } from '../test/simulator';
import { withTimeout, type BenchBrowser, type ExtensionWorker, type TraceEvent, type WorkerSession } from './browser';
import { FLOOR_PAGE, type FloorConfig } from './floor-extension';
import { inTurn, median, medianRatio, round, sleep, summary, type MedianRatio } from './stats';
import { WORKER_LIB, call } from './worker-lib';

const ANALYST = 'analyst@acme.example';
const TARGET = 'https://evil.example/phish?id=1';
const SAMPLE_TIMEOUT_MS = 15_000;
/** Pause between samples (outside the timed window): the closed tab's teardown finishes first. */
const SAMPLE_GAP_MS = 100;

interface SourceTab {
  readonly id: number;
  readonly index: number;
  readonly windowId: number;
  readonly url: string;
}

interface IsolinkSample {
  readonly ms: number;
  readonly url: string;
  readonly saved: boolean;
}

interface FloorSample {
  readonly ms: number;
  readonly resolvedMs: number;
  readonly fetchMs: number;
}

const apiCount = (sim: Simulator): number => sim.requests.filter((r) => r.path === '/api/').length;

/** An extension's worker with the bench helpers installed (once per worker start). */
async function readyOn(worker: ExtensionWorker): Promise<WorkerSession> {
  const w = await worker.worker();
  await w.evaluate(WORKER_LIB);
  return w;
}

/** Context: the worker with the bench helpers, settings seeded for the simulator, and the click. */
export interface ClickSetup {
  readonly info: Record<string, unknown>;
  readonly tab: SourceTab;
  readonly prefix: string;
}

export async function setUp(b: BenchBrowser, sim: Simulator): Promise<ClickSetup> {
  const w = await readyOn(b);
  await w.evaluate(call('seed', { serviceUrl: sim.url, launchUrl: sim.launchBase, username: ANALYST, org: '' }, sim.adminToken));
  const tab = await w.evaluate<SourceTab>(call('sourceTab'));
  return {
    info: { menuItemId: 'isolate-link', linkUrl: TARGET, pageUrl: 'https://mail.example/inbox', editable: false },
    tab,
    prefix: `${sim.launchBase}/launch?ctx=`,
  };
}

export async function isolinkSample(b: BenchBrowser, setup: ClickSetup): Promise<IsolinkSample> {
  const w = await readyOn(b);
  const sample = await w.evaluate<IsolinkSample>(call('isolink', setup.info, setup.tab, setup.prefix, SAMPLE_TIMEOUT_MS));
  if (!sample.saved) throw new Error('Isolink opened the tab but did not save the context in its recent list');
  return sample;
}

// ---- Figure 2 -----------------------------------------------------------------------

export interface ClickResult {
  readonly pairs: number;
  readonly isolinkMs: ReturnType<typeof summary>;
  readonly floorMs: ReturnType<typeof summary>;
  /** tabs.create resolving, in the floor: how it compares with the onCreated end used for both. */
  readonly floorCreateResolvedMs: ReturnType<typeof summary>;
  /** The floor's fetch alone (request sent -> JSON parsed). */
  readonly floorFetchMs: ReturnType<typeof summary>;
  readonly ratios: ReturnType<typeof summary>;
  readonly medianRatio: number;
  /** Seeded 95% bootstrap interval of the median ratio: how far the verdict is from noise. */
  readonly medianRatioInterval: { readonly low: number; readonly high: number };
  readonly ratioOfMedians: number;
  readonly apiRequestsPerIsolation: { readonly min: number; readonly max: number; readonly total: number; readonly isolations: number };
  readonly isolinkRawMs: number[];
}

export async function clickBench(b: BenchBrowser, sim: Simulator, setup: ClickSetup, pairs: number, warmup: number): Promise<ClickResult> {
  // Warm-up clicks; the last one's request body is the floor's command array.
  for (let i = 0; i < warmup; i++) await isolinkSample(b, setup);
  const lastApi = sim.requests.filter((r) => r.path === '/api/').at(-1);
  if (!lastApi || typeof lastApi.body !== 'string') throw new Error('no create_context request seen from Isolink');
  const body = lastApi.body;
  const commands = JSON.parse(body) as { command?: string }[];
  if (commands[1]?.command !== 'create_context') throw new Error(`unexpected command array: ${body.slice(0, 120)}`);
  const createOptions = { active: true, index: setup.tab.index + 1, windowId: setup.tab.windowId, openerTabId: setup.tab.id };
  const w = await readyOn(b);
  const floor = (): Promise<FloorSample> => w.evaluate<FloorSample>(call('floor', `${sim.url}/api/`, body, setup.prefix, createOptions, SAMPLE_TIMEOUT_MS));
  for (let i = 0; i < warmup; i++) await floor();

  const iso: number[] = [];
  const flo: number[] = [];
  const floResolved: number[] = [];
  const floFetch: number[] = [];
  const ratios: number[] = [];
  const perIsolation: number[] = [];
  const runIsolink = async (): Promise<number> => {
    await sleep(SAMPLE_GAP_MS);
    const before = apiCount(sim);
    const sample = await isolinkSample(b, setup);
    perIsolation.push(apiCount(sim) - before);
    return sample.ms;
  };
  const runFloor = async (): Promise<FloorSample> => {
    await sleep(SAMPLE_GAP_MS);
    return floor();
  };
  for (let i = 0; i < pairs; i++) {
    const [a, f] = await inTurn(i, runIsolink, runFloor);
    iso.push(a);
    flo.push(f.ms);
    floResolved.push(f.resolvedMs);
    floFetch.push(f.fetchMs);
    ratios.push(a / f.ms);
  }
  const perPair = medianRatio(ratios);
  return {
    pairs,
    isolinkMs: summary(iso),
    floorMs: summary(flo),
    floorCreateResolvedMs: summary(floResolved),
    floorFetchMs: summary(floFetch),
    ratios: summary(ratios),
    medianRatio: perPair.ratio,
    medianRatioInterval: perPair.interval,
    ratioOfMedians: round(median(iso) / median(flo), 3),
    apiRequestsPerIsolation: {
      min: Math.min(...perIsolation),
      max: Math.max(...perIsolation),
      total: perIsolation.reduce((s, n) => s + n, 0),
      isolations: perIsolation.length,
    },
    isolinkRawMs: iso.map((v) => round(v, 2)),
  };
}

// ---- Figure 3 -----------------------------------------------------------------------

export interface ColdResult {
  /** Cold pairs: one Isolink and one floor cold click each, in alternating order. */
  readonly samples: number;
  /** CDP ServiceWorker.startWorker sent -> CDP reports the worker running (Node's clock). */
  readonly startupMs: ReturnType<typeof summary>;
  /** The first click's dispatch -> tab in the fresh worker (the worker's clock). */
  readonly firstClickMs: ReturnType<typeof summary>;
  readonly coldMs: ReturnType<typeof summary>;
  readonly warmMs: ReturnType<typeof summary>;
  /** Isolink's cold click / its warm click (medians). */
  readonly ratio: number;
  /** The floor extension, measured the same way in the same pairs. */
  readonly floor: {
    readonly startupMs: ReturnType<typeof summary>;
    readonly firstClickMs: ReturnType<typeof summary>;
    readonly coldMs: ReturnType<typeof summary>;
  };
  /** Cold Isolink / cold floor, per pair. */
  readonly floorRatios: ReturnType<typeof summary>;
  readonly floorRatio: number;
  readonly floorRatioInterval: { readonly low: number; readonly high: number };
  /** Where a cold Isolink click's time goes after the worker runs (separate samples, wrapped calls). */
  readonly split: { readonly isolink: ColdSplit; readonly floor: ColdSplit } | null;
  readonly splitError?: string;
  readonly script: {
    readonly tracedStarts: number;
    /** Compiling the worker's script (v8.compile; v8.compileModule of every module of a module worker), per start. */
    readonly compileMs: ReturnType<typeof summary>;
    /** The script's top-level code (v8.run; v8.evaluateModule of a module graph). */
    readonly evaluateMs: ReturnType<typeof summary>;
    /** compile + evaluate. */
    readonly totalMs: ReturnType<typeof summary>;
    /** EvaluateTopLevelScript -> DidEvaluateTopLevelScript on the worker thread. */
    readonly topLevelMs: ReturnType<typeof summary>;
    /** The browser's StartWorker span (request -> worker started), under tracing. */
    readonly startWorkerMs: ReturnType<typeof summary>;
    readonly scripts: number;
    /** The V8 code cache each start consumed (bytes, median): 0 when the script was compiled from source. */
    readonly cacheBytes: number;
  } | null;
  readonly scriptError?: string;
}

/** Medians over split samples, each from the click's dispatch (ms). */
export interface ColdSplit {
  readonly samples: number;
  readonly clickMs: number;
  /** Dispatch -> fetch called: the listener, storage reads, the permission query, checks, building the request. */
  readonly beforeRequestMs: number;
  /** fetch called -> fetch resolved (the response's headers). */
  readonly requestMs: number;
  /** fetch resolved -> tabs.create called: reading and checking the reply, the launch URL. */
  readonly replyMs: number;
  /** tabs.create called -> the tab reported (tabs.onCreated). */
  readonly tabMs: number;
  /** Storage reads (storage.*.get) and host-permission queries before the request, and the span they cover. */
  readonly storageReads: number;
  readonly permissionQueries: number;
  /** i18n.getMessage calls before the tab (the first one in a worker loads the locale's messages: about 8 ms here). */
  readonly messageReads: number;
  readonly storageSpanMs: number;
}

interface SplitCall {
  readonly label: string;
  readonly start: number;
  readonly end: number;
}

interface ScriptTiming {
  readonly compileMs: number;
  readonly evaluateMs: number;
  readonly topLevelMs: number;
  readonly startWorkerMs: number;
  readonly scripts: number;
  /** The V8 code cache the compile consumed (bytes); 0 when it compiled from source. */
  readonly cacheBytes: number;
}

/**
 * From a trace of one worker start: the compile of the worker's script (v8.compile for a
 * classic script, naming its URL and the code cache it consumed; v8.compileModule for each
 * module of a module worker) and its top-level evaluation (v8.run naming the script;
 * v8.evaluateModule on the same thread for a module graph); EvaluateTopLevelScript ->
 * DidEvaluateTopLevelScript (the worker's whole top-level evaluation step);
 * ServiceWorkerVersion::StartWorker begin -> end (the browser's view of the start, up to
 * the worker being ready for events).
 */
function scriptTiming(events: readonly TraceEvent[], base: string): ScriptTiming {
  const dataOf = (e: TraceEvent): Record<string, unknown> => {
    const data = e.args?.['data'];
    return typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {};
  };
  const cacheOf = (e: TraceEvent): number => {
    const size = dataOf(e)['consumedCacheSize'];
    return typeof size === 'number' ? size : 0;
  };
  const ours = (url: unknown): boolean => typeof url === 'string' && url.startsWith(base);
  const compile = events.filter((e) => e.ph === 'X' && (e.name === 'v8.compile' || e.name === 'v8.compileModule') && ours(dataOf(e)['url']));
  const first = compile[0];
  if (!first) throw new Error('the trace has no v8.compile or v8.compileModule event for the worker');
  // A trace holds one start. A classic script is compiled inside the top-level step, a module graph before it.
  const onThread = (e: TraceEvent): boolean => e.pid === first.pid && e.tid === first.tid;
  const sameThread = (e: TraceEvent): boolean => onThread(e) && e.ts >= first.ts;
  const evaluate = events.filter(
    (e) => e.ph === 'X' && sameThread(e) && ((e.name === 'v8.run' && ours(e.args?.['fileName'])) || e.name === 'v8.evaluateModule'),
  );
  if (evaluate.length === 0) throw new Error('the trace has no v8.run or v8.evaluateModule event on the worker thread');
  const begin = events.find((e) => e.ph === 'I' && e.name === 'ServiceWorkerGlobalScopeProxy::EvaluateTopLevelScript' && onThread(e));
  const end = events.find((e) => e.name === 'ServiceWorkerGlobalScopeProxy::DidEvaluateTopLevelScript' && onThread(e));
  const startBegin = events.find((e) => e.ph === 's' && e.name === 'ServiceWorkerVersion::StartWorker');
  const startEnd = events.find(
    (e) => e.ph === 'f' && e.name === 'ServiceWorkerVersion::StartWorker' && (startBegin?.id === undefined || e.id === startBegin.id),
  );
  const sum = (list: TraceEvent[]): number => list.reduce((s, e) => s + (e.dur ?? 0), 0) / 1000;
  return {
    compileMs: sum(compile),
    evaluateMs: sum(evaluate),
    topLevelMs: begin && end ? (end.ts - begin.ts) / 1000 : Number.NaN,
    startWorkerMs: startBegin && startEnd ? (startEnd.ts - startBegin.ts) / 1000 : Number.NaN,
    scripts: compile.length,
    cacheBytes: compile.reduce((s, e) => s + cacheOf(e), 0),
  };
}

export interface ColdFloor {
  /** The floor's menu click (its menu item id and the same link). */
  readonly info: Record<string, unknown>;
  readonly config: FloorConfig;
}

/** The floor's set-up: its storage seeded with the service URL and the body Isolink last sent. */
export async function setUpFloor(b: BenchBrowser, sim: Simulator, setup: ClickSetup): Promise<ColdFloor> {
  if (!b.floor) throw new Error('the browser was launched without the floor extension');
  // One Isolink click: its request body is what the floor sends.
  await isolinkSample(b, setup);
  const lastApi = sim.requests.filter((r) => r.path === '/api/').at(-1);
  if (!lastApi || typeof lastApi.body !== 'string') throw new Error('no create_context request seen from Isolink');
  const config: FloorConfig = { apiUrl: `${sim.url}/api/`, body: lastApi.body, launchPrefix: setup.prefix };
  const w = await readyOn(b.floor);
  await w.evaluate(call('seedFloor', config));
  return { info: { ...setup.info, menuItemId: 'isolate-link' }, config };
}

async function floorSample(b: BenchBrowser, floor: ColdFloor, setup: ClickSetup): Promise<number> {
  if (!b.floor) throw new Error('no floor extension');
  const w = await readyOn(b.floor);
  const sample = await w.evaluate<{ ms: number }>(call('floorClick', floor.info, setup.tab, setup.prefix, SAMPLE_TIMEOUT_MS));
  return sample.ms;
}

/** One cold click: stop every worker, start this one (CDP), click at once; the worker start and the click, in ms. */
async function coldClick(b: BenchBrowser, worker: ExtensionWorker, click: () => Promise<number>): Promise<{ startup: number; first: number }> {
  await b.stopWorker();
  const { requestedAt, runningAt } = await worker.startWorker();
  const first = await click();
  return { startup: runningAt - requestedAt, first };
}

function splitOf(samples: readonly { ms: number; calls: SplitCall[] }[]): ColdSplit {
  const per = samples.map(({ ms, calls }) => {
    const fetchCall = calls.find((c) => c.label === 'fetch');
    const tabCall = calls.find((c) => c.label === 'tabs.create');
    if (!fetchCall || !tabCall) throw new Error('the split sample saw no fetch or no tabs.create: the wrappers missed a call');
    const before = calls.filter((c) => c.start <= fetchCall.start);
    const reads = before.filter((c) => c.label.startsWith('storage.'));
    const span = reads.length === 0 ? 0 : Math.max(...reads.map((c) => c.end)) - Math.min(...reads.map((c) => c.start));
    return {
      ms,
      before: fetchCall.start,
      request: fetchCall.end - fetchCall.start,
      reply: tabCall.start - fetchCall.end,
      tab: ms - tabCall.start,
      reads: reads.length,
      permissions: before.filter((c) => c.label === 'permissions').length,
      messages: calls.filter((c) => c.label === 'i18n' && c.start <= tabCall.start).length,
      span,
    };
  });
  const med = (pick: (p: (typeof per)[number]) => number): number => round(median(per.map(pick)), 2);
  return {
    samples: per.length,
    clickMs: med((p) => p.ms),
    beforeRequestMs: med((p) => p.before),
    requestMs: med((p) => p.request),
    replyMs: med((p) => p.reply),
    tabMs: med((p) => p.tab),
    storageReads: med((p) => p.reads),
    permissionQueries: med((p) => p.permissions),
    messageReads: med((p) => p.messages),
    storageSpanMs: med((p) => p.span),
  };
}

/**
 * Figure 3. Pairs of cold clicks, Isolink's and the floor's, in alternating order: each
 * extension first clicks warm (the state a worker is in when it is stopped after use),
 * then every worker is stopped, this one started through CDP and clicked at once.
 * Cold = start + first click. Then split samples and traced starts of Isolink alone.
 */
export async function coldBench(
  b: BenchBrowser,
  setup: ClickSetup,
  floor: ColdFloor,
  pairs: number,
  splitSamples: number,
  tracedStarts: number,
): Promise<ColdResult> {
  const floorWorker = b.floor;
  if (!floorWorker) throw new Error('the browser was launched without the floor extension');
  const iso = { startup: [] as number[], first: [] as number[], cold: [] as number[] };
  const flo = { startup: [] as number[], first: [] as number[], cold: [] as number[] };
  const warm: number[] = [];
  const ratios: number[] = [];
  const runIsolink = async (): Promise<number> => {
    warm.push((await isolinkSample(b, setup)).ms);
    const { startup, first } = await coldClick(b, b, async () => (await isolinkSample(b, setup)).ms);
    iso.startup.push(startup);
    iso.first.push(first);
    iso.cold.push(startup + first);
    return startup + first;
  };
  const runFloor = async (): Promise<number> => {
    await floorSample(b, floor, setup);
    const { startup, first } = await coldClick(b, floorWorker, () => floorSample(b, floor, setup));
    flo.startup.push(startup);
    flo.first.push(first);
    flo.cold.push(startup + first);
    return startup + first;
  };
  for (let i = 0; i < pairs; i++) {
    await sleep(SAMPLE_GAP_MS);
    const [a, f] = await inTurn(i, runIsolink, runFloor);
    ratios.push(a / f);
  }

  let split: ColdResult['split'] = null;
  let splitError: string | undefined;
  try {
    const samples = { isolink: [] as { ms: number; calls: SplitCall[] }[], floor: [] as { ms: number; calls: SplitCall[] }[] };
    for (let i = 0; i < splitSamples; i++) {
      for (const [which, worker] of [
        ['isolink', b],
        ['floor', floorWorker],
      ] as const) {
        if (which === 'isolink') await isolinkSample(b, setup);
        else await floorSample(b, floor, setup);
        await b.stopWorker();
        await worker.startWorker();
        const w = await readyOn(worker);
        const info = which === 'isolink' ? setup.info : floor.info;
        samples[which].push(
          await w.evaluate<{ ms: number; calls: SplitCall[] }>(call('splitClick', info, setup.tab, setup.prefix, SAMPLE_TIMEOUT_MS, which === 'isolink')),
        );
      }
    }
    split = { isolink: splitOf(samples.isolink), floor: splitOf(samples.floor) };
  } catch (error) {
    splitError = error instanceof Error ? error.message : String(error);
  }

  let script: ColdResult['script'] = null;
  let scriptError: string | undefined;
  try {
    const timings: ScriptTiming[] = [];
    for (let i = 0; i < tracedStarts; i++) {
      await b.stopWorker();
      const { events } = await b.trace(['v8', 'ServiceWorker'], async () => {
        await b.startWorker();
        await isolinkSample(b, setup);
      });
      timings.push(scriptTiming(events, b.base));
    }
    script = {
      tracedStarts,
      compileMs: summary(timings.map((t) => t.compileMs)),
      evaluateMs: summary(timings.map((t) => t.evaluateMs)),
      totalMs: summary(timings.map((t) => t.compileMs + t.evaluateMs)),
      topLevelMs: summary(timings.map((t) => t.topLevelMs)),
      startWorkerMs: summary(timings.map((t) => t.startWorkerMs)),
      scripts: timings[0]?.scripts ?? 0,
      cacheBytes: median(timings.map((t) => t.cacheBytes)),
    };
  } catch (error) {
    scriptError = error instanceof Error ? error.message : String(error);
  }
  const perPair = medianRatio(ratios);
  return {
    samples: pairs,
    startupMs: summary(iso.startup),
    firstClickMs: summary(iso.first),
    coldMs: summary(iso.cold),
    warmMs: summary(warm),
    ratio: round(median(iso.cold) / median(warm), 3),
    floor: { startupMs: summary(flo.startup), firstClickMs: summary(flo.first), coldMs: summary(flo.cold) },
    floorRatios: summary(ratios),
    floorRatio: perPair.ratio,
    floorRatioInterval: perPair.interval,
    split,
    ...(splitError === undefined ? {} : { splitError }),
    script,
    ...(scriptError === undefined ? {} : { scriptError }),
  };
}

// ---- Figure 4 -----------------------------------------------------------------------

/**
 * Runs in each new document before its scripts: notes when `[data-ready="true"]` first
 * appears, and resolves `__benchReady` with that time. The bench awaits that promise with
 * one evaluate: a locator's wait would query the page and check visibility on every
 * animation frame, forcing style and layout in the page it times (the blank page, which
 * is not waited for, paid none of it).
 */
const READY_OBSERVER = `(() => {
  let resolveReady;
  globalThis.__benchReady = new Promise((resolve) => { resolveReady = resolve; });
  const mark = () => {
    if (globalThis.__benchReadyAt === undefined && document.querySelector('[data-ready="true"]')) {
      globalThis.__benchReadyAt = performance.now();
      observer.disconnect();
      resolveReady(globalThis.__benchReadyAt);
    }
  };
  const observer = new MutationObserver(mark);
  observer.observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-ready'] });
})();`;

export interface PagesResult {
  readonly samples: number;
  /** Navigation start -> load event end of chrome-extension://<id>/manifest.json. */
  readonly blankMs: ReturnType<typeof summary>;
  /** Navigation start -> `[data-ready="true"]` appears. */
  readonly popupMs: ReturnType<typeof summary>;
  readonly optionsMs: ReturnType<typeof summary>;
  /** The floor extension's page (see floor-extension.ts), in the same rounds. */
  readonly floorMs: ReturnType<typeof summary>;
  readonly popupLoadMs: ReturnType<typeof summary>;
  readonly optionsLoadMs: ReturnType<typeof summary>;
  /** Medians of the per-round ratios (each round loads the four pages once), with intervals. */
  readonly ratios: {
    readonly popupToBlank: MedianRatio;
    readonly optionsToBlank: MedianRatio;
    readonly floorToBlank: MedianRatio;
    readonly popupToFloor: MedianRatio;
    readonly optionsToFloor: MedianRatio;
  };
}

async function loadEnd(page: Page): Promise<number> {
  return page.evaluate(`(() => { const n = performance.getEntriesByType('navigation')[0]; return n ? n.loadEventEnd : NaN; })()`);
}

export async function pagesBench(b: BenchBrowser, samples: number, warmup: number): Promise<PagesResult> {
  const floorBase = b.floor?.base;
  if (floorBase === undefined) throw new Error('the browser was launched without the floor extension');
  const page = await b.context.newPage();
  await page.addInitScript(READY_OBSERVER);
  const blank = async (): Promise<{ ready: number; load: number }> => {
    await page.goto(`${b.base}/manifest.json`, { waitUntil: 'load' });
    const load = await loadEnd(page);
    return { ready: load, load };
  };
  const app = (base: string, path: string) => async (): Promise<{ ready: number; load: number }> => {
    await page.goto(`${base}/${path}`, { waitUntil: 'load' });
    const ready = await withTimeout(page.evaluate<number>('globalThis.__benchReady'), 15_000, `${path} ready`);
    return { ready, load: await loadEnd(page) };
  };
  const kinds = { blank, popup: app(b.base, 'popup.html'), options: app(b.base, 'options.html'), floor: app(floorBase, FLOOR_PAGE) };
  type Kind = keyof typeof kinds;
  const order: readonly Kind[] = ['blank', 'popup', 'options', 'floor'];
  const out: Record<Kind, { ready: number[]; load: number[] }> = {
    blank: { ready: [], load: [] },
    popup: { ready: [], load: [] },
    options: { ready: [], load: [] },
    floor: { ready: [], load: [] },
  };
  for (let i = 0; i < warmup; i++) for (const k of order) await kinds[k]();
  for (let i = 0; i < samples; i++) {
    // Rotate the order each round.
    for (let j = 0; j < order.length; j++) {
      const k = order[(i + j) % order.length] ?? 'blank';
      const r = await kinds[k]();
      if (!Number.isFinite(r.ready)) throw new Error(`${k}: no ready time`);
      out[k].ready.push(r.ready);
      out[k].load.push(r.load);
    }
  }
  await page.close();
  const perRound = (k: Kind, against: Kind): MedianRatio => medianRatio(out[k].ready.map((ready, i) => ready / (out[against].ready[i] ?? Number.NaN)));
  return {
    samples,
    blankMs: summary(out.blank.ready),
    popupMs: summary(out.popup.ready),
    optionsMs: summary(out.options.ready),
    floorMs: summary(out.floor.ready),
    popupLoadMs: summary(out.popup.load),
    optionsLoadMs: summary(out.options.load),
    ratios: {
      popupToBlank: perRound('popup', 'blank'),
      optionsToBlank: perRound('options', 'blank'),
      floorToBlank: perRound('floor', 'blank'),
      popupToFloor: perRound('popup', 'floor'),
      optionsToFloor: perRound('options', 'floor'),
    },
  };
}

// ---- Figure 7 -----------------------------------------------------------------------

export interface MemoryResult {
  readonly isolations: number;
  readonly failed: number;
  readonly warmup: number;
  /** Runtime.getHeapUsage usedSize after HeapProfiler.collectGarbage, at each checkpoint. */
  readonly checkpoints: { readonly after: number; readonly usedBytes: number; readonly totalBytes: number }[];
  readonly growthBytes: number;
  readonly apiRequests: number;
  /** Worker starts during the run: 0, or the heap figures compare two different workers. */
  readonly workerRestarts: number;
  readonly seconds: number;
}

async function settledHeap(w: WorkerSession): Promise<{ usedSize: number; totalSize: number }> {
  // Twice: a second full collection frees what the first one's finalizers released.
  await w.collectGarbage();
  await w.collectGarbage();
  return w.heapUsage();
}

export async function memoryBench(
  b: BenchBrowser,
  sim: Simulator,
  setup: ClickSetup,
  isolations: number,
  warmup: number,
  checkpoints: number,
): Promise<MemoryResult> {
  const start = performance.now();
  let w = await readyOn(b);
  await w.evaluate(call('loop', warmup, setup.info, setup.tab, setup.prefix, SAMPLE_TIMEOUT_MS), 600_000);
  const heap0 = await settledHeap(w);
  const startsBefore = b.workerStarts();
  const points: MemoryResult['checkpoints'] = [{ after: 0, usedBytes: heap0.usedSize, totalBytes: heap0.totalSize }];
  const apiBefore = apiCount(sim);
  const step = Math.ceil(isolations / checkpoints);
  let failed = 0;
  let done = 0;
  while (done < isolations) {
    const n = Math.min(step, isolations - done);
    w = await readyOn(b);
    const result = await w.evaluate<{ failed: number }>(call('loop', n, setup.info, setup.tab, setup.prefix, SAMPLE_TIMEOUT_MS), 600_000);
    failed += result.failed;
    done += n;
    const heap = await settledHeap(w);
    points.push({ after: done, usedBytes: heap.usedSize, totalBytes: heap.totalSize });
  }
  const last = points.at(-1) ?? points[0];
  return {
    isolations,
    failed,
    warmup,
    checkpoints: points,
    growthBytes: (last?.usedBytes ?? 0) - heap0.usedSize,
    apiRequests: apiCount(sim) - apiBefore,
    workerRestarts: b.workerStarts() - startsBefore,
    seconds: round((performance.now() - start) / 1000, 1),
  };
}
