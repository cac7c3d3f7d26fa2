/**
 * Isolink's bench: `npm run bench` (everything) or `npm run bench -- --quick` (sizes, text
 * on smaller inputs, a few click pairs). Prints a table (figure, value, budget, pass/fail)
 * and writes bench/results.json (quick: bench/results-quick.json). See bench/README.md.
 *
 * Exit status: quick mode fails (1) only when a bundle-size budget is broken or the sizes
 * could not be measured; the full mode fails (1) when any budget is broken or any figure
 * with a budget could not be measured.
 */
import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { cpus, platform, release, totalmem } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { startSimulator, type Simulator } from '../test/simulator';
import { autoIsolateBench, autoIsolateFailRows, autoIsolateRows, clock } from './autoisolate';
import { launchBench, type BenchBrowser } from './browser';
import { writeFloorExtension } from './floor-extension';
import { bulkBench, type BulkResult } from './bulk';
import { clickBench, setUp, type ClickResult, type ClickSetup } from './click';
import { coldBench, setUpFloor, type ColdResult } from './cold';
import { memoryBench, type MemoryResult } from './memory';
import { pagesBench, pagesRows, type PagesResult } from './pages';
import { mailBench, mailFailRows, mailRows } from './mail';
import { qrBench, qrFailRows, qrRows } from './qr';
import { formatTable, judge, row, type Row } from './report';
import { BENCH_OUT, type Bundle } from './sizes';
import { measureSizes, printComposition, sizeFailRows } from './size-figure';
import { round, withInterval } from './stats';
import { textBench, type TextResult } from './text';
import { unwrapBench, type UnwrapResult } from './unwrap';
import { BUDGETS, keep, only, PLAN, quick } from './plan';

const ROOT = resolve(import.meta.dirname, '..');

const rows: Row[] = [];
const details: Record<string, unknown> = {};
const errors: { section: string; error: string }[] = [];
const sectionMs: Record<string, number> = {};

function log(message: string): void {
  console.log(`[bench ${((performance.now() - started) / 1000).toFixed(1)}s] ${message}`);
}

function message(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message).split('\n').slice(0, 3).join(' | ') : String(error);
}

async function section(
  name: string,
  failRows: { id: string; figure: string; budget: string; sizeBudget?: boolean }[],
  body: () => Promise<void>,
): Promise<void> {
  if (only && !only.includes(name) && name !== 'sizes' && name !== 'browser') {
    log(`${name} skipped (--only)`);
    return;
  }
  const start = performance.now();
  log(`${name} …`);
  try {
    await body();
  } catch (error) {
    errors.push({ section: name, error: message(error) });
    log(`${name} FAILED: ${message(error)}`);
    for (const r of failRows) rows.push(row(r.id, r.figure, 'could not measure (see errors)', r.budget, 'error', { sizeBudget: r.sizeBudget }));
  } finally {
    sectionMs[name] = Math.round(performance.now() - start);
  }
}

const started = performance.now();
// A hard stop: no run may hang CI. Quick mode must finish in 60 s, the full one in 5 min.
const watchdog = setTimeout(
  () => {
    console.error(`bench: watchdog: still running after ${quick ? 120 : 600} s, giving up`);
    process.exit(3);
  },
  (quick ? 120 : 600) * 1000,
);

function gitDescription(): string {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain'], { cwd: ROOT, encoding: 'utf8' }).trim() !== '';
    return `${head}${dirty ? ' (working tree has changes)' : ''}`;
  } catch {
    return 'unknown';
  }
}

const machine = {
  cores: cpus().length,
  cpu: cpus()[0]?.model ?? 'unknown',
  memoryGB: round(totalmem() / 1e9, 1),
  os: `${platform()} ${release()}`,
  node: process.version,
  chromium: 'not launched',
  commit: gitDescription(),
};
log(`mode ${quick ? 'quick' : 'full'}; ${machine.cores} cores (${machine.cpu}), Node ${machine.node}, ${machine.os}`);

// ---- 1. sizes ----------------------------------------------------------------------
let extensionDir = '';
await section('sizes', sizeFailRows(), async () => {
  const sizes = await measureSizes(log);
  extensionDir = sizes.dir;
  rows.push(...sizes.rows);
  details['sizes'] = sizes.details;
  if (sizes.composition) details['composition'] = sizes.composition;
});

// ---- 6. text (before the browser starts, on a quiet machine) -----------------------
await section(
  'text',
  [
    { id: 'text.corpus', figure: '6 refang corpus cases passed', budget: 'all but argued minority deviations' },
    { id: 'text.refang', figure: '6 refang MB/s, Isolink / ioc-extractor', budget: `>= ${BUDGETS.refangRatio}x` },
    { id: 'text.extract', figure: '6 extractUrls MB/s vs extractURLs(refang())', budget: `>= ${BUDGETS.extractRatio}x` },
  ],
  async () => {
    await Promise.resolve();
    const t: TextResult = textBench({
      size: PLAN.textSize,
      floodSize: PLAN.floodSize,
      repeats: PLAN.textRepeats,
      chunkSize: PLAN.textChunk,
      warmupPairs: PLAN.textWarmup,
      refangPairs: PLAN.refangPairs,
      extractPairs: PLAN.extractPairs,
    });
    details['text'] = t;
    // Every consensus, majority and judgement case must pass; a minority case may differ
    // only as argued in test/fixtures/fang-deviations.ts (the unit test reads the same list).
    const corpusOk = t.corpus.ok;
    rows.push(
      row('text.corpus', '6 refang corpus cases passed', t.corpus.summary, 'all but argued minority deviations', corpusOk ? 'pass' : 'fail', {
        numeric: t.corpus.isolinkPasses,
      }),
    );
    const mb = (t.refang.chunkBytes / 1e6).toFixed(1);
    const sides = (f: TextResult['refang']): string => `${f.pairs} pairs, ${f.isolink.mbPerS} vs ${f.peer.mbPerS} MB/s`;
    rows.push(
      row(
        'text.refang',
        `6 refang MB/s on ${mb} MB chunks, Isolink / ioc-extractor`,
        `${withInterval(t.refang.ratio, t.refang.interval)} (${sides(t.refang)})`,
        `>= ${BUDGETS.refangRatio}x + corpus`,
        judge(t.refang.ratio, (v) => v >= BUDGETS.refangRatio && corpusOk),
        { numeric: t.refang.ratio },
      ),
    );
    rows.push(
      row(
        'text.extract',
        `6 extractUrls vs extractURLs(refang()) MB/s`,
        `${withInterval(t.extract.ratio, t.extract.interval)} (${sides(t.extract)})`,
        `>= ${BUDGETS.extractRatio}x`,
        judge(t.extract.ratio, (v) => v >= BUDGETS.extractRatio),
        { numeric: t.extract.ratio },
      ),
    );
    for (const f of t.floods) {
      const size = f.chars >= 1e6 ? `${(f.chars / 1e6).toFixed(0)}M` : `${Math.round(f.chars / 1e3)}k`;
      rows.push(
        row(
          `text.flood.${f.flood}.${f.fn}`,
          `6 flood ${f.flood.replace('N', size)}: ${f.fn} / ordinary`,
          `${f.ratio}x (${f.floodMs} vs ${f.ordinaryMs} ms${f.extrapolatedFrom === undefined ? '' : `, extrapolated from ${f.extrapolatedFrom} chars`})`,
          `<= ${BUDGETS.floodRatio}x`,
          judge(f.ratio, (v) => v <= BUDGETS.floodRatio),
          { numeric: f.ratio },
        ),
      );
    }
  },
);

// ---- 8. unwrap (Node, before the browser starts) ---------------------------------------
await section(
  'unwrap',
  [
    { id: 'unwrap.corpus', figure: '8 unwrap corpus cases passed', budget: 'all' },
    { id: 'unwrap.nesting', figure: '8 unwrap nesting, per layer / ordinary', budget: `<= ${BUDGETS.unwrapFloodRatio}x` },
  ],
  async () => {
    await Promise.resolve();
    const u: UnwrapResult = unwrapBench({ floodSize: PLAN.floodSize, repeats: PLAN.textRepeats, links: 2000 });
    details['unwrap'] = u;
    const failed = u.corpus.failed.length === 0 ? '' : ` (failed: ${u.corpus.failed.join(' ')})`;
    rows.push(
      row(
        'unwrap.corpus',
        '8 unwrap corpus cases passed',
        `${u.corpus.passed}/${u.corpus.cases}${failed}`,
        'all',
        u.corpus.passed === u.corpus.cases ? 'pass' : 'fail',
        { numeric: u.corpus.passed },
      ),
    );
    rows.push(
      row(
        'unwrap.throughput',
        `8 unwrap MB/s on ${u.throughput.links} wrapped links`,
        `${u.throughput.mbPerS} MB/s (${u.throughput.medianMs} ms for ${(u.throughput.bytes / 1e3).toFixed(0)} kB)`,
        '-',
        'info',
        {
          numeric: u.throughput.mbPerS,
        },
      ),
    );
    for (const f of [...u.floods, u.nesting]) {
      const nesting = f === u.nesting;
      const size = f.chars >= 1e6 ? `${(f.chars / 1e6).toFixed(1)}M` : `${Math.round(f.chars / 1e3)}k`;
      rows.push(
        row(
          nesting ? 'unwrap.nesting' : `unwrap.flood.${f.flood}`,
          nesting ? `8 unwrap ${u.nesting.layers} nested layers (${size}), per layer / ordinary` : `8 unwrap flood ${f.flood.replace('N', size)} / ordinary`,
          `${f.ratio}x (${f.floodMs} vs ${f.ordinaryMs} ms)`,
          `<= ${BUDGETS.unwrapFloodRatio}x`,
          judge(f.ratio, (v) => v <= BUDGETS.unwrapFloodRatio),
          { numeric: f.ratio },
        ),
      );
    }
  },
);

// ---- 9. mail (Node, before the browser starts) -------------------------------------------
await section('mail', [...mailFailRows(BUDGETS)], async () => {
  const r = await mailBench({ pairs: PLAN.mailPairs, warmup: PLAN.mailWarmup, corpusPairs: PLAN.mailCorpusPairs });
  details['mail'] = r;
  const worker = (details['sizes'] as { bundles: Bundle[] } | undefined)?.bundles.find((b) => b.name === 'background');
  rows.push(...mailRows(r, BUDGETS, worker && extensionDir !== '' ? { dir: extensionDir, bundle: worker } : 'no build (the sizes section failed)'));
});

// ---- 10. QR codes (a Chromium of its own, before the extension's starts) ------------------
await section('qr', [...qrFailRows(BUDGETS)], async () => {
  const r = await qrBench({ pairs: PLAN.qrPairs, warmup: PLAN.qrWarmup, rounds: PLAN.qrRounds, nodeRuns: PLAN.qrNodeRuns });
  details['qr'] = r;
  rows.push(...qrRows(r, BUDGETS, details['sizes'], extensionDir));
});

// ---- 5. bulk (Node) ------------------------------------------------------------------
if (PLAN.bulk) {
  await section(
    'bulk',
    [
      { id: 'bulk.speedup', figure: '5 bulk 50 URLs vs 50 sequential (+50 ms/req)', budget: `>= ${BUDGETS.bulkSpeedup}x` },
      { id: 'bulk.requests', figure: '5 requests for 50 URLs (bulk)', budget: `<= ${BUDGETS.bulkRequests}` },
    ],
    async () => {
      const r: BulkResult = await bulkBench({ urls: 50, latencyMs: 50, repeats: 3 });
      details['bulk'] = r;
      rows.push(
        row(
          'bulk.speedup',
          '5 bulk 50 URLs vs 50 sequential (+50 ms/req)',
          `${r.speedup}x faster (${r.bulkMs.median} vs ${r.sequentialMs.median} ms${r.bulkFailures > 0 ? `, ${r.bulkFailures} failed` : ''})`,
          `>= ${BUDGETS.bulkSpeedup}x`,
          judge(r.speedup, (v) => v >= BUDGETS.bulkSpeedup && r.bulkFailures === 0),
          { numeric: r.speedup },
        ),
      );
      rows.push(
        row(
          'bulk.requests',
          '5 requests for 50 URLs (bulk)',
          `${r.bulkRequests.max} (sequential: ${r.sequentialRequests.max})`,
          `<= ${BUDGETS.bulkRequests}`,
          judge(r.bulkRequests.max, (v) => v <= BUDGETS.bulkRequests),
          {
            numeric: r.bulkRequests.max,
          },
        ),
      );
    },
  );
}

// ---- 2, 3, 4, 7: the extension in Chromium ---------------------------------------------
let browser: BenchBrowser | undefined;
let sim: Simulator | undefined;
let clickSetup: ClickSetup | undefined;
const clickRows = [
  { id: 'click.ratio', figure: '2 click -> tab, Isolink / floor (median ratio)', budget: `<= ${BUDGETS.clickRatio}` },
  { id: 'click.requests', figure: '2 HTTP requests to /api/ per isolation', budget: '= 1' },
];
try {
  await section('browser', [...clickRows], async () => {
    if (extensionDir === '') throw new Error('no build to load (the sizes section failed)');
    // Figure 11 reads its end event from the simulator's stamps: Node's sub-millisecond clock.
    sim = await startSimulator({ port: 0, now: clock });
    browser = await launchBench({ extensionDir, floorDir: writeFloorExtension(join(BENCH_OUT, 'floor')) });
    machine.chromium = browser.chromiumVersion;
    log(`Chromium ${browser.chromiumVersion}, simulator at ${sim.url}`);
    clickSetup = await setUp(browser, sim);
  });
  if (browser && sim && clickSetup) {
    const b = browser;
    const s = sim;
    const setup = clickSetup;

    await section('click', clickRows, async () => {
      const r: ClickResult = await clickBench(b, s, setup, PLAN.clickPairs, PLAN.clickWarmup);
      details['click'] = r;
      rows.push(
        row(
          'click.ratio',
          `2 click -> tab, Isolink / floor (median of ${r.pairs} pair ratios)`,
          `${withInterval(r.medianRatio, r.medianRatioInterval)} (Isolink ${r.isolinkMs.median} ms, floor ${r.floorMs.median} ms)`,
          `<= ${BUDGETS.clickRatio}`,
          judge(r.medianRatio, (v) => v <= BUDGETS.clickRatio),
          { numeric: r.medianRatio },
        ),
      );
      const exact = r.apiRequestsPerIsolation.min === 1 && r.apiRequestsPerIsolation.max === 1;
      rows.push(
        row(
          'click.requests',
          '2 HTTP requests to /api/ per isolation',
          `${r.apiRequestsPerIsolation.total}/${r.apiRequestsPerIsolation.isolations} (min ${r.apiRequestsPerIsolation.min}, max ${r.apiRequestsPerIsolation.max})`,
          '= 1 each',
          exact ? 'pass' : 'fail',
          { numeric: r.apiRequestsPerIsolation.max },
        ),
      );
    });

    if (PLAN.cold) {
      await section('cold', [{ id: 'cold.floor', figure: '3 cold click, Isolink / floor (median ratio)', budget: `<= ${BUDGETS.coldRatio}` }], async () => {
        const floor = await setUpFloor(b, s, setup);
        const r: ColdResult = await coldBench(b, setup, floor, PLAN.coldPairs, 5, 3);
        details['cold'] = r;
        rows.push(
          row(
            'cold.floor',
            `3 cold click, Isolink / floor (median of ${r.samples} pair ratios)`,
            `${withInterval(r.floorRatio, r.floorRatioInterval)} (Isolink ${r.coldMs.median} ms = start ${r.startupMs.median} + 1st click ${r.firstClickMs.median}; floor ${r.floor.coldMs.median} = ${r.floor.startupMs.median} + ${r.floor.firstClickMs.median})`,
            `<= ${BUDGETS.coldRatio}`,
            judge(r.floorRatio, (v) => v <= BUDGETS.coldRatio),
            { numeric: r.floorRatio },
          ),
        );
        rows.push(
          row('cold.ratio', '3 cold click / warm click, Isolink', `${r.ratio} (cold ${r.coldMs.median} ms; warm ${r.warmMs.median})`, '-', 'info', {
            numeric: r.ratio,
          }),
        );
        rows.push(
          r.split
            ? row(
                'cold.split',
                '3 cold 1st click split (medians, ms)',
                (['isolink', 'floor'] as const)
                  .map((which) => {
                    const p = r.split?.[which];
                    return p
                      ? `${which} ${p.clickMs} = before request ${p.beforeRequestMs} (${p.storageReads} storage reads over ${p.storageSpanMs}, ${p.permissionQueries} permission queries, ${p.messageReads} message reads) + request ${p.requestMs} + reply ${p.replyMs} + tab ${p.tabMs}`
                      : '';
                  })
                  .join('; '),
                '-',
                'info',
                { numeric: r.split.isolink.clickMs },
              )
            : row('cold.split', '3 cold 1st click split (medians, ms)', `could not measure: ${r.splitError ?? '?'}`, '-', 'error'),
        );
        rows.push(
          r.script
            ? row(
                'cold.script',
                '3 worker script compile + evaluate (trace)',
                `${r.script.totalMs.median} ms (compile ${r.script.compileMs.median} + evaluate ${r.script.evaluateMs.median}, ${r.script.scripts} script(s), ${r.script.cacheBytes > 0 ? `V8 code cache ${round(r.script.cacheBytes / 1000, 1)} kB` : 'no code cache'}; top-level step ${r.script.topLevelMs.median}; traced start ${r.script.startWorkerMs.median})`,
                '-',
                'info',
                { numeric: r.script.totalMs.median },
              )
            : row('cold.script', '3 worker script compile + evaluate (trace)', `could not measure: ${r.scriptError ?? '?'}`, '-', 'error'),
        );
      });
    }

    if (PLAN.pages) {
      const pageRows = [
        { id: 'pages.popup', figure: '4 popup ready / floor page (median ratio)', budget: `<= ${BUDGETS.popupFloorRatio}` },
        { id: 'pages.options', figure: '4 options ready / floor page (median ratio)', budget: `<= ${BUDGETS.optionsFloorRatio}` },
      ];
      await section('pages', pageRows, async () => {
        const r: PagesResult = await pagesBench(b, 30, 3);
        details['pages'] = r;
        rows.push(...pagesRows(r, BUDGETS));
      });
    }

    if (PLAN.memory) {
      await section('memory', [{ id: 'memory.growth', figure: '7 worker JS heap growth, 1000 isolations', budget: '< 1 MB' }], async () => {
        const r: MemoryResult = await memoryBench(b, s, setup, 1000, 50, 4);
        details['memory'] = r;
        const first = r.checkpoints[0]?.usedBytes ?? 0;
        const last = r.checkpoints.at(-1)?.usedBytes ?? 0;
        const valid = r.workerRestarts === 0 && r.failed === 0;
        rows.push(
          row(
            'memory.growth',
            `7 worker JS heap growth, ${r.isolations} isolations`,
            `${r.growthBytes >= 0 ? '+' : ''}${(r.growthBytes / 1e6).toFixed(3)} MB (${(first / 1e6).toFixed(3)} -> ${(last / 1e6).toFixed(3)} MB${r.failed > 0 ? `, ${r.failed} failed` : ''}${r.workerRestarts > 0 ? `, worker restarted ${r.workerRestarts}x` : ''})`,
            '< 1 MB',
            valid ? judge(r.growthBytes, (v) => v < BUDGETS.heapGrowth) : 'error',
            { numeric: r.growthBytes },
          ),
        );
      });
    }

    // Last: it installs isolate-by-policy rules for its run (and removes them after).
    await section('autoisolate', autoIsolateFailRows(BUDGETS), async () => {
      const r = await autoIsolateBench(b, s, { pairs: PLAN.autoIsolatePairs, warmup: PLAN.autoIsolateWarmup, split: PLAN.autoIsolateSplit });
      details['autoisolate'] = r;
      rows.push(...autoIsolateRows(r, BUDGETS));
    });
  }
} finally {
  await browser?.close().catch(() => undefined);
  await sim?.close().catch(() => undefined);
  // The built files would be linted by `eslint .` (its ignores list .output/, not this directory).
  if (!keep) rmSync(BENCH_OUT, { recursive: true, force: true });
}

// ---- report ----------------------------------------------------------------------------
const totalMs = Math.round(performance.now() - started);
clearTimeout(watchdog);
const order = (id: string): number =>
  ['size', 'click', 'cold', 'pages', 'bulk', 'text', 'memory', 'unwrap', 'mail', 'qr', 'autoisolate'].indexOf(id.split('.')[0] ?? '');
rows.sort((a, b) => order(a.id) - order(b.id));

console.log('');
console.log(
  `Isolink bench (${quick ? 'quick' : 'full'}) — ${machine.cores} cores ${machine.cpu}, Node ${machine.node}, Chromium ${machine.chromium}, ${machine.os}, commit ${machine.commit}`,
);
console.log('');
// Quick mode (CI) judges the bundle sizes only: its timings rest on few samples (10 click
// pairs after 3 warm-up clicks, 1 MiB of text) and are shown as an indication.
console.log(formatTable(rows, (r) => !quick || r.sizeBudget === true));
if (quick) console.log('quick mode: only the bundle sizes are judged; run `npm run bench` for every budget.');
console.log('');

printComposition(details);

const out = join(ROOT, 'bench', only ? 'results-only.json' : quick ? 'results-quick.json' : 'results.json');
const results = {
  mode: quick ? 'quick' : 'full',
  date: new Date().toISOString(),
  machine,
  plan: PLAN,
  budgets: BUDGETS,
  durationMs: { total: totalMs, sections: sectionMs },
  rows,
  errors,
  details,
};
writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
console.log(
  `results: ${relative(ROOT, out)}; ${(totalMs / 1000).toFixed(1)} s; sections (s): ${Object.entries(sectionMs)
    .map(([k, v]) => `${k} ${(v / 1000).toFixed(1)}`)
    .join(', ')}`,
);
for (const e of errors) console.log(`error in ${e.section}: ${e.error}`);

const failing = rows.filter((r) => r.verdict === 'fail' || r.verdict === 'error');
const exitFailing = quick ? failing.filter((r) => r.sizeBudget === true) : failing;
if (exitFailing.length > 0) {
  console.log(`${exitFailing.length} budget(s) broken or unmeasured${quick ? ' (bundle sizes)' : ''}: ${exitFailing.map((r) => r.id).join(', ')}`);
  process.exitCode = 1;
}
