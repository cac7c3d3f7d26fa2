/**
 * Figure 11: isolate by policy against its floor (issue 25; issue 34 item 1). A page on a
 * `from` site (`http://localhost:<port>/`) has one link to a counting server on 127.0.0.1; a
 * script click on it is stopped by the extension's network rule, sent to the landing page
 * (isolate.html), which sends its fragment to the background (`landed`: the rules checked,
 * the context created) and replaces itself with the launch URL. It is judged against the
 * landing floor (floor-extension.ts): the same kind of rule, page and one message, with
 * nothing checked, the least any extension could do on this path. The right-click path for
 * the same link (figure 2's, the launch URL opened in a new tab) is shown as information.
 * The three are taken in the same rounds, their order rotating, and timed alike
 * (autoisolate-samples.ts): Node's clock to the simulator's receipt of the launch URL's GET.
 */
import type { RecordedRequest, Simulator } from '../test/simulator';
import { localServer, type LocalServer } from '../test/e2e/local-server';
import type { BenchBrowser } from './browser';
import { readyOn } from './click';
import { row, judge, type Row } from './report';
import { inRotation, median, pairedRatios, round, summary, withInterval, type PairedRatios } from './stats';
import {
  autoSample,
  checkClock,
  FLOOR_FROM_SITE,
  floorSample,
  FROM_SITE,
  isApi,
  isLaunch,
  menuSample,
  seedRules,
  setUpLandingFloor,
  type Sample,
  type Stage,
} from './autoisolate-samples';

export { clock } from './autoisolate-samples';

type Split = { readonly beforeApiMs: number; readonly afterApiMs: number };

export interface AutoIsolateResult extends PairedRatios {
  readonly pairs: number;
  readonly warmup: number;
  readonly autoMs: ReturnType<typeof summary>;
  readonly floorMs: ReturnType<typeof summary>;
  readonly menuMs: ReturnType<typeof summary>;
  /** Isolink's from-page click against the right-click, in the same rounds (information). */
  readonly menuRatio: PairedRatios;
  /** Medians: t0 -> /api/ and /api/ -> /launch, each side. */
  readonly split: { readonly auto: Split; readonly floor: Split; readonly menu: Split };
  readonly hopMs: { readonly auto: number; readonly floor: number; readonly menu: number };
  /** Contexts the simulator holds more after each auto click (warm-up included): 1 each. */
  readonly contextsPerAuto: { readonly min: number; readonly max: number; readonly samples: number };
  readonly contextsPerMenu: { readonly min: number; readonly max: number; readonly samples: number };
  readonly apiRequestsPerAuto: { readonly min: number; readonly max: number };
  readonly apiRequestsPerFloor: { readonly min: number; readonly max: number };
  /** Where an auto click's time goes (a few clicks of their own, after the rounds). */
  readonly autoSplit: AutoSplit | string;
  /** The same steps on the landing floor's path (its page and its one message). */
  readonly floorSplit: AutoSplit | string;
  readonly splitSamples: number;
  /** Every request the target server received over the whole figure (warm-up and set-up included). */
  readonly targetHits: readonly string[];
  readonly autoRawMs: number[];
  readonly floorRawMs: number[];
  readonly menuRawMs: number[];
}

/**
 * In the landing page only (an init script of the diagnostic tab): when its document starts,
 * its messages to the worker and its rules query, on the page's epoch clock (which agrees
 * with Node's within the CDP hop, `hopMs`); the navigation's own timing entry; all sent in
 * one console message once the background answers `landed`, just before the page replaces itself.
 */
const LANDING_MARKS = String.raw`(() => {
  if (location.protocol !== 'chrome-extension:' || !['/isolate.html', '/floor-landing.html'].includes(location.pathname)) return;
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

/**
 * In the worker (evaluated once a worker start, idempotent): its storage reads, its rules
 * query and its `fetch` noted on its epoch clock in `globalThis.__benchCalls`, which the
 * split reads after each click. The first call is about when the worker got `landed`.
 */
const WORKER_MARKS = String.raw`(() => {
  const calls = (globalThis.__benchCalls ??= []);
  const now = () => performance.timeOrigin + performance.now();
  const wrap = (owner, name, label) => {
    if (!owner || typeof owner[name] !== 'function' || owner[name].benchWrapped) return;
    const original = owner[name];
    owner[name] = function (...args) {
      const call = { label, start: now(), end: NaN };
      calls.push(call);
      const result = original.apply(this, args);
      const ended = () => { call.end = now(); };
      Promise.resolve(result).then(ended, ended);
      return result;
    };
    owner[name].benchWrapped = true;
  };
  for (const ns of [globalThis.browser, globalThis.chrome]) {
    if (!ns) continue;
    for (const area of ['local', 'session', 'managed']) wrap(ns.storage && ns.storage[area], 'get', 'storage');
    wrap(ns.declarativeNetRequest, 'getDynamicRules', 'rules');
  }
  wrap(globalThis, 'fetch', 'fetch');
  return true;
})()`;

type Call = { readonly label: string; readonly start: number; readonly end: number };

/** The worker's marks, ms from t0: its first call, its rules read, its last storage read before `fetch`, and `fetch`. */
function workerMarks(calls: readonly Call[], t0: number): Record<string, number> {
  const after = calls.filter((c) => c.start >= t0);
  const fetchCall = after.find((c) => c.label === 'fetch');
  const before = after.filter((c) => fetchCall === undefined || c.start <= fetchCall.start);
  const reads = before.filter((c) => c.label === 'storage');
  return {
    workerFirstCall: Math.min(...before.map((c) => c.start)) - t0,
    rulesRead: (before.find((c) => c.label === 'rules')?.end ?? Number.NaN) - t0,
    readsDone: (reads.length === 0 ? Number.NaN : Math.max(...reads.map((c) => c.end))) - t0,
    fetchStart: (fetchCall?.start ?? Number.NaN) - t0,
  };
}

async function autoSplit(b: BenchBrowser, sim: Simulator, stage: Stage, samples: number, floor = false): Promise<AutoSplit> {
  const worker = floor ? b.floor : b;
  if (!worker) throw new Error('no floor extension');
  const sample = floor ? floorSample : autoSample;
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
      await (await readyOn(worker)).evaluate(`${WORKER_MARKS} && globalThis.__benchCalls.splice(0).length`);
      const { t0 } = await sample(b, sim, own);
      const calls = await (await readyOn(worker)).evaluate<Call[]>('globalThis.__benchCalls.splice(0)');
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
        ...workerMarks(calls, t0),
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
  const floorTargetUrl = `http://localhost:${new URL(target.origin).port}/phish?id=1`;
  const from = (link: string): string => `<!doctype html><title>from</title><a id="l" href="${link}">report</a>`;
  const fromServer = await localServer({ '/': ['text/html', from(targetUrl)], '/floor': ['text/html', from(floorTargetUrl)] });
  const port = new URL(fromServer.origin).port;
  const fromUrl = `http://${FROM_SITE}:${port}/`;
  const page = await b.context.newPage();
  let removeFloor = (): Promise<void> => Promise.resolve();
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
      floorFromUrl: `http://${FLOOR_FROM_SITE}:${port}/floor`,
      info: { menuItemId: 'isolate-link', linkUrl: targetUrl, pageUrl: fromUrl, editable: false },
      tab,
      prefix: `${sim.launchBase}/launch?ctx=`,
    };
    const autos: Sample[] = [];
    const menus: Sample[] = [];
    const floors: Sample[] = [];
    // Isolink's first click: the floor's request body is the one it sent.
    autos.push(await autoSample(b, sim, stage));
    removeFloor = await setUpLandingFloor(b, sim, targetUrl, stage.prefix);
    const runs = [() => autoSample(b, sim, stage), () => menuSample(b, sim, stage), () => floorSample(b, sim, stage)];
    for (let i = 0; i < warmup; i++) {
      const [a, m, f] = await inRotation(i, runs);
      if (a) autos.push(a);
      if (m) menus.push(m);
      if (f) floors.push(f);
    }
    const auto: Sample[] = [];
    const menu: Sample[] = [];
    const floor: Sample[] = [];
    for (let i = 0; i < pairs; i++) {
      const [a, m, f] = await inRotation(i, runs);
      if (!a || !m || !f) throw new Error('a round without its three samples');
      auto.push(a);
      menu.push(m);
      floor.push(f);
    }
    autos.push(...auto);
    menus.push(...menu);
    floors.push(...floor);
    const failed = (error: unknown): string => (error instanceof Error ? error.message : String(error));
    const where = await autoSplit(b, sim, stage, splitSamples).catch(failed);
    const floorWhere = await autoSplit(b, sim, stage, splitSamples, true).catch(failed);
    const ms = (s: readonly Sample[]): number[] => s.map((x) => x.ms);
    const split = (s: readonly Sample[]): Split => ({
      beforeApiMs: round(median(s.map((x) => x.apiMs)), 1),
      afterApiMs: round(median(s.map((x) => x.ms - x.apiMs)), 1),
    });
    const hop = (s: readonly Sample[]): number => round(median(s.map((x) => x.hopMs)), 2);
    return {
      pairs,
      warmup,
      autoMs: summary(ms(auto), 1),
      floorMs: summary(ms(floor), 1),
      menuMs: summary(ms(menu), 1),
      ...pairedRatios(ms(auto), ms(floor)),
      menuRatio: pairedRatios(ms(auto), ms(menu)),
      split: { auto: split(auto), floor: split(floor), menu: split(menu) },
      hopMs: { auto: hop(auto), floor: hop(floor), menu: hop(menu) },
      contextsPerAuto: range(autos.map((x) => x.contexts)),
      contextsPerMenu: range(menus.map((x) => x.contexts)),
      apiRequestsPerAuto: range(autos.map((x) => x.apiRequests)),
      apiRequestsPerFloor: range(floors.map((x) => x.apiRequests)),
      autoSplit: where,
      floorSplit: floorWhere,
      splitSamples,
      targetHits: [...target.hits],
      autoRawMs: ms(auto).map((v) => round(v, 1)),
      floorRawMs: ms(floor).map((v) => round(v, 1)),
      menuRawMs: ms(menu).map((v) => round(v, 1)),
    };
  } finally {
    await page.close().catch(() => undefined);
    // The figures after this one run without either extension's rules.
    await removeFloor().catch(() => undefined);
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
    { id: 'autoisolate.ratio', figure: '11 from-page click -> launch GET, Isolink / landing floor (median ratio)', budget: `<= ${budgets.autoIsolateRatio}` },
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
    `landed ${at('landedSent')}-${at('landedAnswered')}`,
    `worker: first call ${at('workerFirstCall')}, rules ${at('rulesRead')}, reads done ${at('readsDone')}, fetch ${at('fetchStart')}`,
    `request ${at('createRequest')}`,
    `launch GET ${at('launchGet')}`,
  ].join(', ');
}

export function autoIsolateRows(r: AutoIsolateResult, budgets: Budgets): Row[] {
  const once = r.contextsPerAuto.min === 1 && r.contextsPerAuto.max === 1;
  const s = (x: Split): string => `${x.beforeApiMs} + ${x.afterApiMs}`;
  return [
    row(
      'autoisolate.ratio',
      `11 from-page click -> launch GET, Isolink / landing floor (median of ${r.pairs} pair ratios)`,
      `${withInterval(r.medianRatio, r.medianRatioInterval)} (Isolink ${r.autoMs.median} ms, floor ${r.floorMs.median} ms)`,
      `<= ${budgets.autoIsolateRatio}`,
      judge(r.medianRatio, (v) => v <= budgets.autoIsolateRatio),
      { numeric: r.medianRatio },
    ),
    row(
      'autoisolate.menu',
      `11 from-page click / right-click, same rounds (median of ${r.pairs} pair ratios)`,
      `${withInterval(r.menuRatio.medianRatio, r.menuRatio.medianRatioInterval)} (right-click ${r.menuMs.median} ms)`,
      '-',
      'info',
      { numeric: r.menuRatio.medianRatio },
    ),
    row(
      'autoisolate.split',
      '11 t0 -> create request + create request -> launch GET (medians, ms)',
      `Isolink ${s(r.split.auto)}; floor ${s(r.split.floor)}; right-click ${s(r.split.menu)}`,
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
      'autoisolate.floorWhere',
      `11 the landing floor's steps, ms from t0 (median of ${typeof r.floorSplit === 'string' ? '?' : r.splitSamples})`,
      typeof r.floorSplit === 'string' ? `could not measure: ${r.floorSplit}` : splitText(r.floorSplit),
      '-',
      'info',
    ),
    row(
      'autoisolate.target',
      '11 requests reaching the link target',
      `${r.targetHits.length} over ${r.pairs + r.warmup + 1} rounds${r.targetHits.length > 0 ? ` (${r.targetHits.slice(0, 3).join(', ')})` : ''}`,
      '= 0',
      r.targetHits.length === 0 ? 'pass' : 'fail',
      { numeric: r.targetHits.length },
    ),
    row(
      'autoisolate.contexts',
      '11 contexts created per auto click',
      `min ${r.contextsPerAuto.min}, max ${r.contextsPerAuto.max} over ${r.contextsPerAuto.samples} (create requests: ${r.apiRequestsPerAuto.min}-${r.apiRequestsPerAuto.max}; floor ${r.apiRequestsPerFloor.min}-${r.apiRequestsPerFloor.max})`,
      '= 1 each',
      once ? 'pass' : 'fail',
      { numeric: r.contextsPerAuto.max },
    ),
  ];
}
