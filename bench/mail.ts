/**
 * Figure 9: reading a reported mail. `linksInMail` (src/readers) against a conformant peer on
 * the same bytes (./mail-peer: postal-mime, then parse5's tree of the HTML and its links),
 * the least a reader of a mail's links does: budget 1.0 (issue 32 item 8). postal-mime's own
 * parse, the first thing linksInMail does, is shown beside it as information. Two inputs: a generated 10 MB mail with
 * 2,000 links (generateMail, seeded) and the fixtures of the mail tests
 * (test/fixtures/mail/eml/*.eml; the .msg files beside them are timed for linksInMail
 * alone, postal-mime reads MIME only). And the issue's other half: the service worker holds
 * none of the mail code and stays within its 42 kB.
 *
 * Timed as shipped: src/readers bundled and minified by esbuild with its dependencies, as
 * the extension's mail page ships them; postal-mime's parse is the same bundle's copy, so
 * both sides run the very same postal-mime code, with the options linksInMail gives it
 * (read from a call of linksInMail, not copied).
 */
import { build } from 'esbuild';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type PostalMimeClass from 'postal-mime';
import type { PostalMimeOptions } from 'postal-mime';
import type { linksInMail as LinksInMail, MailReading } from '../src/readers';
import type { peerLinks as PeerLinks } from './mail-peer';
import { judge, row, type Row } from './report';
import { BENCH_OUT, type Bundle } from './sizes';
import { inTurn, kB, median, ratioOfMedians, round, summary, withInterval, type MedianRatio } from './stats';
import { generateMail, type MailStats } from './mailgen';

const ROOT = resolve(import.meta.dirname, '..');
const CORPUS = join(ROOT, 'test/fixtures/mail');

// ---- the code as shipped -------------------------------------------------------------

export interface ShippedMail {
  readonly linksInMail: typeof LinksInMail;
  readonly PostalMime: typeof PostalMimeClass;
  readonly peerLinks: typeof PeerLinks;
}

const ENTRY = [
  "export { linksInMail } from './src/readers/index.ts';",
  "export { default as PostalMime } from 'postal-mime';",
  "export { peerLinks } from './bench/mail-peer.ts';",
].join('\n');

/**
 * src/readers and postal-mime bundled into `outfile` by esbuild (platform node), minified as
 * shipped unless `minify` is false (the profile's bundle: names and each module's path
 * comment kept). @kenjiuno/msgreader is CommonJS and requires Node's modules (through
 * iconv-lite): the banner gives the ES module a `require`.
 */
export async function bundleMail(outfile: string, minify: boolean): Promise<ShippedMail> {
  await build({
    stdin: { contents: ENTRY, resolveDir: ROOT, sourcefile: 'bench-mail-entry.ts', loader: 'ts' },
    bundle: true,
    minify,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    outfile,
    banner: { js: "import { createRequire as __benchRequire } from 'node:module'; const require = __benchRequire(import.meta.url);" },
    logLevel: 'error',
  });
  return (await import(pathToFileURL(outfile).href)) as ShippedMail;
}

let loaded: Promise<ShippedMail> | undefined;

/** The mail reader as shipped (minified), built once per run into .bench-output/. */
export function shippedMail(): Promise<ShippedMail> {
  loaded ??= bundleMail(join(BENCH_OUT, 'mail.mjs'), true);
  return loaded;
}

/**
 * The options linksInMail gives postal-mime, seen by reading one mail with the parser's
 * `parse` wrapped: the reader makes its own parser (a subclass, src/readers/mime.ts) with
 * them, which postal-mime keeps as `options`.
 */
async function postalOptions(shipped: ShippedMail, mail: Uint8Array): Promise<PostalMimeOptions> {
  const prototype = shipped.PostalMime.prototype as unknown as { parse: (this: { options?: PostalMimeOptions }, buf: Uint8Array) => Promise<unknown> };
  const original = prototype.parse;
  let seen: PostalMimeOptions | undefined;
  prototype.parse = function parse(buf) {
    seen ??= this.options;
    return original.call(this, buf);
  };
  try {
    await shipped.linksInMail(mail);
  } finally {
    prototype.parse = original;
  }
  if (seen === undefined) throw new Error('linksInMail did not parse with PostalMime: the baseline would not be its floor');
  return seen;
}

// ---- timing ----------------------------------------------------------------------------

/**
 * One timed run. No collection is forced between runs (as in figure 6): one side's garbage
 * may be collected in the other's next run, which the alternation spreads over both. Forcing
 * a full collection before every run (tried) made both sides two to four times slower, the
 * code run after it as if cold, and moved the ratio from 1.9 to 2.8.
 */
async function timedRun(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

/** linksInMail against postal-mime on the same bytes: the ratio of medians and the runs behind it. */
export interface MailRatio {
  readonly pairs: number;
  /** Passes over the inputs in each timed run (the times below are per pass). */
  readonly passes: number;
  readonly bytes: number;
  /** median(linksInMail) / median(postal-mime), with a bootstrap interval over the pairs. */
  readonly ratio: number;
  readonly interval: MedianRatio['interval'];
  /** For comparison: the median of the per-pair ratios. */
  readonly medianPairRatio: number;
  readonly isolinkMs: ReturnType<typeof summary>;
  readonly postalMs: ReturnType<typeof summary>;
  readonly isolinkMbPerS: number;
  readonly postalMbPerS: number;
}

/** Warm-up lasts at least this long (and `warmup` pairs), so that the JIT is done tiering up 45 small mails too. */
const WARMUP_MS = 1000;
/** A timed run reads its inputs as many times as it takes the floor's run to last this long: short runs are at the mercy of the scheduler. */
const SAMPLE_MS = 50;

/** Each input read once by `read`, in order. */
function pass(read: (bytes: Uint8Array) => Promise<unknown>, inputs: readonly Uint8Array[], passes = 1): () => Promise<void> {
  return async () => {
    for (let p = 0; p < passes; p++) for (const bytes of inputs) await read(bytes);
  };
}

/** Warm-up runs of `fns` in turn, then how many passes make a run of the last one at least SAMPLE_MS. */
async function warmUp(warmup: number, ...fns: (() => Promise<void>)[]): Promise<number> {
  const start = performance.now();
  const last: number[] = [];
  for (let i = 0; i < warmup || performance.now() - start < WARMUP_MS; i++) {
    for (const fn of i % 2 === 0 ? fns : [...fns].reverse()) {
      const ms = await timedRun(fn);
      if (fn === fns.at(-1)) last.push(ms);
    }
  }
  return Math.max(1, Math.min(100, Math.ceil(SAMPLE_MS / median(last.slice(-warmup)))));
}

async function versus(
  linksInMail: (bytes: Uint8Array) => Promise<unknown>,
  postal: (bytes: Uint8Array) => Promise<unknown>,
  inputs: readonly Uint8Array[],
  warmup: number,
  pairs: number,
): Promise<MailRatio> {
  const passes = await warmUp(warmup, pass(linksInMail, inputs), pass(postal, inputs));
  const isolinkRun = pass(linksInMail, inputs, passes);
  const postalRun = pass(postal, inputs, passes);
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < pairs; i++) {
    const [x, y] = await inTurn(
      i,
      () => timedRun(isolinkRun),
      () => timedRun(postalRun),
    );
    a.push(x / passes);
    b.push(y / passes);
  }
  const bytes = inputs.reduce((sum, input) => sum + input.length, 0);
  const { ratio, interval } = ratioOfMedians(a, b);
  const mbPerS = (runs: number[]): number => round(bytes / 1e6 / (median(runs) / 1000), 1);
  return {
    pairs,
    passes,
    bytes,
    ratio,
    interval,
    medianPairRatio: round(median(a.map((x, i) => x / (b[i] ?? Number.NaN))), 3),
    isolinkMs: summary(a, 2),
    postalMs: summary(b, 2),
    isolinkMbPerS: mbPerS(a),
    postalMbPerS: mbPerS(b),
  };
}

// ---- the bench ---------------------------------------------------------------------------

export interface MailBenchOptions {
  /** Timed pairs on the 10 MB mail. */
  readonly pairs: number;
  /** Warm-up pairs before the timed ones, on each input (and at least a second of them). */
  readonly warmup: number;
  /** Timed pairs on the corpus (each run reads every file, as many times as makes 50 ms); timed runs of the .msg files. */
  readonly corpusPairs: number;
}

/** What linksInMail listed, against what the mail holds. */
export interface MailFound {
  readonly links: number;
  readonly targets: number;
  readonly expected: number;
  /** Up to five targets written and not listed, and listed and not written. */
  readonly missing: string[];
  readonly extra: string[];
  readonly mismatches: number;
  readonly refused: number;
  readonly problems: string[];
}

export interface MailResult {
  readonly generated: MailStats & { readonly seed: string; readonly generateMs: number };
  /** The options linksInMail gives PostalMime.parse, which the baseline uses too. */
  readonly postalOptions: PostalMimeOptions;
  /** Against the peer (./mail-peer), judged; `peerLinks` is how many links the peer listed. */
  readonly big: MailRatio & { readonly found: MailFound; readonly peerLinks: number };
  /** Against postal-mime's parse alone, as information. */
  readonly bigPostal: MailRatio;
  /** Null when test/fixtures/mail/eml holds no .eml file yet. */
  readonly corpus: (MailRatio & { readonly files: number; readonly read: number; readonly links: number; readonly peerLinks: number }) | null;
  readonly corpusPostal: MailRatio | null;
  /** linksInMail alone on test/fixtures/mail/msg/*.msg; null when there is none. */
  readonly msg: {
    readonly files: number;
    readonly passes: number;
    readonly bytes: number;
    readonly read: number;
    readonly links: number;
    readonly ms: ReturnType<typeof summary>;
    readonly mbPerS: number;
  } | null;
}

function filesOf(dir: string, ext: string): { name: string; bytes: Uint8Array }[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.toLowerCase().endsWith(ext))
    .sort()
    .map((name) => ({ name, bytes: new Uint8Array(readFileSync(join(dir, name))) }));
}

function found(reading: MailReading, expected: ReadonlySet<string>): MailFound {
  if (!reading.ok) throw new Error(`linksInMail could not read the generated mail: ${reading.reason}`);
  const targets = new Set(reading.links.flatMap((link) => (link.target === null ? [] : [link.target])));
  return {
    links: reading.links.length,
    targets: targets.size,
    expected: expected.size,
    missing: [...expected].filter((t) => !targets.has(t)).slice(0, 5),
    extra: [...targets].filter((t) => !expected.has(t)).slice(0, 5),
    mismatches: reading.links.filter((link) => link.mismatch).length,
    refused: reading.links.filter((link) => link.target === null).length,
    problems: reading.problems.map((p) => p.code),
  };
}

export async function mailBench(options: MailBenchOptions): Promise<MailResult> {
  const shipped = await shippedMail();
  const { linksInMail, PostalMime, peerLinks } = shipped;
  const seed = 0x3a11b0c5;
  const start = performance.now();
  const mail = generateMail({ size: 10_000_000, links: 2000, seed });
  const generateMs = performance.now() - start;
  const postal = await postalOptions(shipped, mail.bytes);

  const peer = (bytes: Uint8Array): Promise<string[]> => peerLinks(PostalMime, bytes, postal);
  const postalParse = (bytes: Uint8Array): Promise<unknown> => PostalMime.parse(bytes, postal);
  const big = await versus(linksInMail, peer, [mail.bytes], options.warmup, options.pairs);
  const bigPostal = await versus(linksInMail, postalParse, [mail.bytes], options.warmup, options.pairs);

  const eml = filesOf(join(CORPUS, 'eml'), '.eml');
  let corpus: MailResult['corpus'] = null;
  let corpusPostal: MailRatio | null = null;
  if (eml.length > 0) {
    const readings = await Promise.all(eml.map((file) => linksInMail(file.bytes)));
    const inputs = eml.map((file) => file.bytes);
    const ratio = await versus(linksInMail, peer, inputs, options.warmup, options.corpusPairs);
    corpusPostal = await versus(linksInMail, postalParse, inputs, options.warmup, options.corpusPairs);
    corpus = {
      ...ratio,
      files: eml.length,
      read: readings.filter((r) => r.ok).length,
      links: readings.reduce((sum, r) => sum + (r.ok ? r.links.length : 0), 0),
      peerLinks: (await Promise.all(inputs.map(peer))).reduce((sum, links) => sum + links.length, 0),
    };
  }

  const msgFiles = filesOf(join(CORPUS, 'msg'), '.msg');
  let msg: MailResult['msg'] = null;
  if (msgFiles.length > 0) {
    const readings = await Promise.all(msgFiles.map((file) => linksInMail(file.bytes)));
    const inputs = msgFiles.map((file) => file.bytes);
    const passes = await warmUp(options.warmup, pass(linksInMail, inputs));
    const run = pass(linksInMail, inputs, passes);
    const runs: number[] = [];
    for (let i = 0; i < options.corpusPairs; i++) runs.push((await timedRun(run)) / passes);
    const bytes = msgFiles.reduce((sum, file) => sum + file.bytes.length, 0);
    msg = {
      files: msgFiles.length,
      passes,
      bytes,
      read: readings.filter((r) => r.ok).length,
      links: readings.reduce((sum, r) => sum + (r.ok ? r.links.length : 0), 0),
      ms: summary(runs, 2),
      mbPerS: round(bytes / 1e6 / (median(runs) / 1000), 1),
    };
  }

  return {
    generated: { ...mail.stats, seed: `0x${seed.toString(16)}`, generateMs: round(generateMs, 1) },
    postalOptions: postal,
    big: { ...big, found: found(await linksInMail(mail.bytes), mail.targets), peerLinks: (await peer(mail.bytes)).length },
    bigPostal,
    corpus,
    corpusPostal,
    msg,
  };
}

// ---- the service worker ------------------------------------------------------------------

/** A string each of the mail reader's dependencies ships, found in no other code: in the worker, it would mean mail code there. */
const MARKERS: Readonly<Record<string, string>> = {
  'postal-mime': 'maxRfc822NestingDepth',
  parse5: 'unexpected-question-mark-instead-of-tag-name',
  '@kenjiuno/msgreader': 'PidLidWorkAddressPostalCode',
  tldts: 'kommunalforbund',
};

export interface WorkerCheck {
  readonly gzip: number;
  readonly raw: number;
  /** The dependencies of the mail reader whose code is in the worker (none, as it should be). */
  readonly mailCode: string[];
}

/** The service worker as figure 1 measured it (`bundle`), searched for the mail reader's dependencies. */
export function workerCheck(extensionDir: string, bundle: Bundle): WorkerCheck {
  const readers = readFileSync(join(BENCH_OUT, 'mail.mjs'), 'utf8');
  const stale = Object.entries(MARKERS).filter(([, marker]) => !readers.includes(marker));
  if (stale.length > 0) throw new Error(`markers not in the mail bundle, pick others: ${stale.map(([dep]) => dep).join(', ')}`);
  const code = bundle.files
    .filter((file) => file.path.endsWith('.js'))
    .map((file) => readFileSync(join(extensionDir, file.path), 'utf8'))
    .join('\n');
  return { gzip: bundle.gzip, raw: bundle.raw, mailCode: Object.entries(MARKERS).flatMap(([dep, marker]) => (code.includes(marker) ? [dep] : [])) };
}

// ---- the rows ------------------------------------------------------------------------------

/** The figure's budgets (run.ts's BUDGETS): the ratio, for both inputs, and the service worker's size. */
export interface MailBudgets {
  readonly mailRatio: number;
  readonly mailWorkerGzip: number;
}

interface FailRow {
  readonly id: string;
  readonly figure: string;
  readonly budget: string;
}

/** The rows with a budget, as run.ts shows them when the section fails. */
export function mailFailRows(budgets: MailBudgets): readonly [FailRow, FailRow, FailRow] {
  return [
    { id: 'mail.big', figure: '9 linksInMail / peer (postal-mime + parse5 tree + links), 10 MB mail', budget: `<= ${budgets.mailRatio}x` },
    { id: 'mail.corpus', figure: '9 linksInMail / peer (postal-mime + parse5 tree + links), corpus', budget: `<= ${budgets.mailRatio}x` },
    { id: 'mail.worker', figure: '9 service worker gzip -9, no mail code in it', budget: `<= ${kB(budgets.mailWorkerGzip)}` },
  ];
}

function ratioText(r: MailRatio, other: string): string {
  return `${withInterval(r.ratio, r.interval)} (linksInMail ${r.isolinkMs.median} ms = ${r.isolinkMbPerS} MB/s, ${other} ${r.postalMs.median} ms = ${r.postalMbPerS} MB/s; ${r.pairs} pairs${r.passes > 1 ? ` of ${r.passes} passes` : ''})`;
}

/** The figure's rows; `worker` is figure 1's service worker and where it was built, or why there is none. */
export function mailRows(r: MailResult, budgets: MailBudgets, worker: { readonly dir: string; readonly bundle: Bundle } | string): Row[] {
  const [bigRow, corpusRow, workerRow] = mailFailRows(budgets);
  const mb = (r.big.bytes / 1e6).toFixed(1);
  const f = r.big.found;
  const rows: Row[] = [
    row(
      'mail.big',
      `9 linksInMail / peer (postal-mime + parse5 tree + links), ${mb} MB mail, ${r.generated.anchors} links`,
      `${ratioText(r.big, 'peer')}; the peer listed ${r.big.peerLinks} links`,
      bigRow.budget,
      judge(r.big.ratio, (v) => v <= budgets.mailRatio),
      { numeric: r.big.ratio },
    ),
    row('mail.big.postal', `9 linksInMail / PostalMime.parse alone, ${mb} MB mail`, ratioText(r.bigPostal, 'postal-mime'), '-', 'info', {
      numeric: r.bigPostal.ratio,
    }),
    row(
      'mail.big.links',
      `9 targets listed from the ${mb} MB mail`,
      `${f.targets} of ${f.expected} written${f.missing.length > 0 ? ` (missing ${f.missing.join(' ')})` : ''}${f.extra.length > 0 ? ` (not written: ${f.extra.join(' ')})` : ''}; ${f.mismatches} lying shown texts flagged of ${r.generated.lying}; ${r.generated.safeLinks} Safe Links, ${r.generated.defanged} defanged mentions`,
      '= the targets written, every lie flagged',
      f.targets === f.expected && f.missing.length === 0 && f.extra.length === 0 && f.mismatches === r.generated.lying ? 'pass' : 'fail',
      { numeric: f.targets },
    ),
  ];
  const c = r.corpus;
  rows.push(
    c === null
      ? row('mail.corpus', corpusRow.figure, 'no corpus (no test/fixtures/mail/eml/*.eml yet)', corpusRow.budget, 'info')
      : row(
          'mail.corpus',
          `9 linksInMail / peer (postal-mime + parse5 tree + links), corpus (${c.files} .eml, ${(c.bytes / 1e6).toFixed(2)} MB)`,
          `${ratioText(c, 'peer')}; ${c.read}/${c.files} read, ${c.links} links (the peer: ${c.peerLinks})`,
          corpusRow.budget,
          judge(c.ratio, (v) => v <= budgets.mailRatio),
          { numeric: c.ratio },
        ),
  );
  if (r.corpusPostal !== null) {
    rows.push(
      row('mail.corpus.postal', '9 linksInMail / PostalMime.parse alone, corpus', ratioText(r.corpusPostal, 'postal-mime'), '-', 'info', {
        numeric: r.corpusPostal.ratio,
      }),
    );
  }
  const m = r.msg;
  rows.push(
    m === null
      ? row('mail.msg', '9 linksInMail on the .msg corpus', 'no .msg corpus (no test/fixtures/mail/msg/*.msg yet)', '-', 'info')
      : row(
          'mail.msg',
          `9 linksInMail on the .msg corpus (${m.files} .msg, ${(m.bytes / 1e6).toFixed(2)} MB)`,
          `${m.ms.median} ms = ${m.mbPerS} MB/s; ${m.read}/${m.files} read, ${m.links} links`,
          '-',
          'info',
          { numeric: m.ms.median },
        ),
  );
  if (typeof worker === 'string') {
    rows.push(row('mail.worker', workerRow.figure, `could not measure: ${worker}`, workerRow.budget, 'error'));
  } else {
    const w = workerCheck(worker.dir, worker.bundle);
    rows.push(
      row(
        'mail.worker',
        workerRow.figure,
        `${kB(w.gzip)} (raw ${kB(w.raw)}); ${w.mailCode.length === 0 ? `none of ${Object.keys(MARKERS).join(', ')} in it` : `MAIL CODE IN IT: ${w.mailCode.join(', ')}`}`,
        `${workerRow.budget}, no mail code (the issue; figure 1's budget: bench/README)`,
        judge(w.gzip, (v) => v <= budgets.mailWorkerGzip && w.mailCode.length === 0),
        { numeric: w.gzip, sizeBudget: true },
      ),
    );
  }
  return rows;
}
