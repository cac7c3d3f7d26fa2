/**
 * Figure 2, the warm click, and what figures 3 and 7 share with it: the extension set up in
 * headless Chromium against the simulator, and one timed isolation. See worker-lib.ts for
 * what is timed inside the service worker and how.
 */
import type { Simulator } from '../test/simulator';
import { type BenchBrowser, type ExtensionWorker, type WorkerSession } from './browser';
import { inTurn, pairedRatios, round, sleep, summary, type PairedRatios } from './stats';
import { WORKER_LIB, call } from './worker-lib';

const ANALYST = 'analyst@acme.example';
const TARGET = 'https://evil.example/phish?id=1';
export const SAMPLE_TIMEOUT_MS = 15_000;
/** Pause between samples (outside the timed window): the closed tab's teardown finishes first. */
export const SAMPLE_GAP_MS = 100;

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

export const apiCount = (sim: Simulator): number => sim.requests.filter((r) => r.path === '/api/').length;

/** An extension's worker with the bench helpers installed (once per worker start). */
export async function readyOn(worker: ExtensionWorker): Promise<WorkerSession> {
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

/** The settings the bench seeds: the simulator as the service (figure 11 adds `autoIsolate`). */
export function benchSettings(sim: Simulator): Record<string, unknown> {
  return { serviceUrl: sim.url, launchUrl: sim.launchBase, username: ANALYST, org: '' };
}

export async function setUp(b: BenchBrowser, sim: Simulator): Promise<ClickSetup> {
  const w = await readyOn(b);
  await w.evaluate(call('seed', benchSettings(sim), sim.adminToken));
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

export interface ClickResult extends PairedRatios {
  readonly pairs: number;
  readonly isolinkMs: ReturnType<typeof summary>;
  readonly floorMs: ReturnType<typeof summary>;
  /** tabs.create resolving, in the floor: how it compares with the onCreated end used for both. */
  readonly floorCreateResolvedMs: ReturnType<typeof summary>;
  /** The floor's fetch alone (request sent -> JSON parsed). */
  readonly floorFetchMs: ReturnType<typeof summary>;
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
  }
  return {
    pairs,
    isolinkMs: summary(iso),
    floorMs: summary(flo),
    floorCreateResolvedMs: summary(floResolved),
    floorFetchMs: summary(floFetch),
    ...pairedRatios(iso, flo),
    apiRequestsPerIsolation: {
      min: Math.min(...perIsolation),
      max: Math.max(...perIsolation),
      total: perIsolation.reduce((s, n) => s + n, 0),
      isolations: perIsolation.length,
    },
    isolinkRawMs: iso.map((v) => round(v, 2)),
  };
}
