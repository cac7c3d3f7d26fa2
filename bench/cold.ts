/**
 * Figure 3: the cold click, against the floor extension's, with where the time of the first
 * click after a start goes.
 */
import type { Simulator } from '../test/simulator';
import { type BenchBrowser, type ExtensionWorker, type TraceEvent } from './browser';
import type { FloorConfig } from './floor-extension';
import { inTurn, median, medianRatio, round, sleep, summary } from './stats';
import { call } from './worker-lib';
import { type ClickSetup, SAMPLE_GAP_MS, SAMPLE_TIMEOUT_MS, isolinkSample, readyOn } from './click';

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
