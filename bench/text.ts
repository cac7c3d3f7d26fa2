/**
 * Figure 6: text. Throughput of Isolink's refang and extractUrls against ioc-extractor's
 * `refang` and `extractURLs(refang(text))` on a seeded text of prose with indicators,
 * the shared conformance corpus for refang, and adversarial floods against ordinary text
 * of the same size. Everything runs in this Node process, one function at a time, on
 * Isolink's functions as they ship (bundled and minified: see shipped.ts).
 *
 * The two ratios are medians of many short interleaved pairs (one 1 MiB chunk of the text,
 * each side once, order alternating), with a seeded bootstrap interval: a few long runs
 * of each side let one slow stretch of the process (suspected: the major GCs that both
 * libraries' full-size output strings bring) decide the figure (README, figure 6).
 *
 * The corpus is judged as the corpus test judges it: every consensus, majority and
 * judgement case must pass, and a minority case may differ only as an argued deviation
 * (test/fixtures/fang-deviations.ts) that gives exactly its argued answer.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { extractURLs as peerExtractUrls, refang as peerRefang } from 'ioc-extractor';
import { FANG_DEVIATIONS } from '../test/fixtures/fang-deviations';
import { median, medianRatio, round, type MedianRatio } from './stats';
import { shippedFang } from './shipped';
import { generateText, type TextStats } from './textgen';

const { defang, extractUrls, refang } = await shippedFang();

const CORPUS = resolve(import.meta.dirname, '../test/fixtures/fang-cases.json');

export interface TextOptions {
  /** Characters of generated text for the throughput figures. */
  readonly size: number;
  /** Characters of each flood (and of the ordinary text it is compared with). */
  readonly floodSize: number;
  /** Timed runs of each flood and its ordinary text (at least; the median is reported). */
  readonly repeats: number;
  /** Characters of each chunk a pair times (the text is cut into chunks, taken in turn). */
  readonly chunkSize: number;
  /** Untimed pairs before the timed ones, per function. */
  readonly warmupPairs: number;
  /** Timed pairs for refang and for extractUrls. */
  readonly refangPairs: number;
  readonly extractPairs: number;
}

export interface Throughput {
  readonly medianMs: number;
  readonly runsMs: number[];
  readonly mbPerS: number;
}

/** One side of a paired figure: its median time for a chunk, and that as MB/s. */
export interface PairSide {
  readonly medianMs: number;
  readonly mbPerS: number;
}

/** Isolink against the peer over interleaved pairs: the median of per-pair speed ratios. */
export interface PairedFigure extends MedianRatio {
  readonly isolink: PairSide;
  readonly peer: PairSide;
  readonly pairs: number;
  /** Median UTF-8 bytes of the chunks the pairs timed. */
  readonly chunkBytes: number;
}

export interface FloodResult {
  readonly flood: string;
  readonly chars: number;
  readonly fn: 'refang' | 'extractUrls' | 'defang' | 'unwrap';
  readonly floodMs: number;
  readonly ordinaryMs: number;
  readonly ratio: number;
  /** Set when the full-size run was skipped because a smaller one was already too slow. */
  readonly extrapolatedFrom?: number;
}

export interface TextResult {
  readonly text: TextStats & { bytes: number; seed: string; generateMs: number };
  readonly corpus: CorpusResult;
  readonly refang: PairedFigure;
  readonly extract: PairedFigure & { isolinkFound: number; peerFound: number };
  readonly floods: FloodResult[];
}

export interface CorpusResult {
  readonly refangCases: number;
  readonly isolinkPasses: number;
  readonly peerPasses: number;
  /** Refang cases whose expected text Isolink does not return. */
  readonly isolinkFailures: string[];
  /** Of those, the argued minority deviations that give their argued answer. */
  readonly arguedDeviations: string[];
  /** Isolink's passes by confidence, as `passed/cases`. */
  readonly byConfidence: Readonly<Record<string, string>>;
  /** Every failure is an argued deviation. */
  readonly ok: boolean;
  /** The row's value: both libraries' passes, and what Isolink's failures are. */
  readonly summary: string;
}

interface Case {
  readonly id: string;
  readonly op: string;
  readonly input: string;
  readonly expected: unknown;
  readonly confidence: string;
}

function corpusCounts(): CorpusResult {
  const { cases } = JSON.parse(readFileSync(CORPUS, 'utf8')) as { cases: Case[] };
  const refangCases = cases.filter((c) => c.op === 'refang');
  const failed = refangCases.filter((c) => refang(c.input) !== c.expected);
  const argued = failed.filter((c) => c.confidence === 'minority' && FANG_DEVIATIONS[c.id]?.actual === refang(c.input));
  const byConfidence: Record<string, string> = {};
  for (const confidence of ['consensus', 'majority', 'judgement', 'minority']) {
    const all = refangCases.filter((c) => c.confidence === confidence).length;
    byConfidence[confidence] = `${all - failed.filter((c) => c.confidence === confidence).length}/${all}`;
  }
  const peerPasses = refangCases.filter((c) => {
    try {
      return peerRefang(c.input) === c.expected;
    } catch {
      return false;
    }
  }).length;
  const isolinkPasses = refangCases.length - failed.length;
  const unargued = failed.filter((c) => !argued.includes(c)).map((c) => c.id);
  const deviations = argued.length > 0 ? ` + ${argued.length} argued minority deviations` : '';
  const detail = Object.entries(byConfidence).map(([confidence, passed]) => `${confidence} ${passed}`);
  if (unargued.length > 0) detail.push(`unargued failures: ${unargued.join(' ')}`);
  return {
    refangCases: refangCases.length,
    isolinkPasses,
    peerPasses,
    isolinkFailures: failed.map((c) => c.id),
    arguedDeviations: argued.map((c) => c.id),
    byConfidence,
    ok: unargued.length === 0,
    summary: `Isolink ${isolinkPasses}/${refangCases.length}${deviations} (${detail.join(', ')}), ioc-extractor ${peerPasses}/${refangCases.length}`,
  };
}

/** Sink for results, so no engine can drop a call whose value is unused. */
let sink = 0;

function runOnce(fn: (text: string) => unknown, text: string): number {
  const start = performance.now();
  const out = fn(text);
  const ms = performance.now() - start;
  sink += typeof out === 'string' ? out.length : Array.isArray(out) ? out.length : 1;
  return ms;
}

/**
 * Isolink's `a` against the peer's `b`, pair by pair: each pair runs both on one chunk of the
 * text (the chunks taken in turn), in an order that alternates with the pair, and gives the
 * ratio of their times (b / a: how many times faster Isolink is). `warmup` untimed pairs
 * first, so that both sides are measured compiled by the JIT. The figure is the median of
 * the per-pair ratios with its seeded bootstrap interval: a slow stretch of the process (GC,
 * the machine) falls on both sides of the pairs it lasts, and on the
 * median not at all while it lasts under half the pairs.
 */
function pairwise(a: (text: string) => unknown, b: (text: string) => unknown, chunks: readonly string[], warmup: number, pairs: number): PairedFigure {
  const chunk = (i: number): string => chunks[i % chunks.length] ?? '';
  for (let i = 0; i < warmup; i++) {
    runOnce(a, chunk(i));
    runOnce(b, chunk(i));
  }
  const runsA: number[] = [];
  const runsB: number[] = [];
  const ratios: number[] = [];
  for (let i = 0; i < pairs; i++) {
    const text = chunk(i);
    let msA: number;
    let msB: number;
    if (i % 2 === 0) {
      msA = runOnce(a, text);
      msB = runOnce(b, text);
    } else {
      msB = runOnce(b, text);
      msA = runOnce(a, text);
    }
    runsA.push(msA);
    runsB.push(msB);
    ratios.push(msB / msA);
  }
  const bytes = median(chunks.map((c) => Buffer.byteLength(c)));
  const side = (runs: number[]): PairSide => {
    const m = median(runs);
    return { medianMs: round(m, 2), mbPerS: round(bytes / 1e6 / (m / 1000), 2) };
  };
  return { ...medianRatio(ratios), isolink: side(runsA), peer: side(runsB), pairs, chunkBytes: bytes };
}

export function floodInputs(size: number): Record<string, string> {
  return {
    '[ x N': '['.repeat(size),
    'a. x N/2': 'a.'.repeat(Math.floor(size / 2)),
    'space x N': ' '.repeat(size),
    'A x N + .': `${'A'.repeat(size)}.`,
  };
}

/** Longest single run allowed for a flood: beyond it, the full size is extrapolated, not run. */
const FLOOD_RUN_CAP_MS = 3_000;

/** Timed runs of `fn` on `text`: at least `minRuns`, and more (up to 50) until 250 ms were measured, so small inputs are not one timer tick. */
function timedRuns(fn: (text: string) => unknown, text: string, minRuns: number): number[] {
  const runs: number[] = [];
  let total = 0;
  while (runs.length < minRuns || (total < 250 && runs.length < 50)) {
    const ms = runOnce(fn, text);
    runs.push(ms);
    total += ms;
  }
  return runs;
}

export function floodRatio(
  fnName: FloodResult['fn'],
  fn: (text: string) => unknown,
  name: string,
  flood: string,
  ordinary: string,
  repeats: number,
): FloodResult {
  // Guard against super-linear behaviour: time a 1/16 slice first and extrapolate linearly.
  const probeSize = Math.max(1, Math.floor(flood.length / 16));
  const probe = runOnce(fn, flood.slice(0, probeSize));
  runOnce(fn, ordinary);
  if (probe * 16 > FLOOD_RUN_CAP_MS) {
    // Too slow already at 1/16: report the (at least linear) extrapolation as the time.
    const ordinaryMs = median(timedRuns(fn, ordinary, repeats));
    const floodMs = probe * 16;
    return {
      flood: name,
      chars: flood.length,
      fn: fnName,
      floodMs: round(floodMs, 2),
      ordinaryMs: round(ordinaryMs, 2),
      ratio: round(floodMs / ordinaryMs, 2),
      extrapolatedFrom: probeSize,
    };
  }
  runOnce(fn, flood);
  // Alternate ordinary and flood runs so drift (GC, JIT, the machine) falls on both.
  const ordinaryRuns: number[] = [];
  const floodRuns: number[] = [];
  let total = 0;
  while (ordinaryRuns.length < repeats || (total < 500 && ordinaryRuns.length < 50)) {
    const a = runOnce(fn, ordinary);
    const b = runOnce(fn, flood);
    ordinaryRuns.push(a);
    floodRuns.push(b);
    total += a + b;
  }
  const ordinaryMs = median(ordinaryRuns);
  const floodMs = median(floodRuns);
  return { flood: name, chars: flood.length, fn: fnName, floodMs: round(floodMs, 2), ordinaryMs: round(ordinaryMs, 2), ratio: round(floodMs / ordinaryMs, 2) };
}

export function textBench(options: TextOptions): TextResult {
  const seed = 0x15011ec;
  const genStart = performance.now();
  const { text, stats } = generateText(options.size, seed);
  const generateMs = performance.now() - genStart;
  const bytes = Buffer.byteLength(text);
  const corpus = corpusCounts();

  const chunks: string[] = [];
  for (let at = 0; at < text.length; at += options.chunkSize) chunks.push(text.slice(at, at + options.chunkSize));
  const refangFigure = pairwise(refang, peerRefang, chunks, options.warmupPairs, options.refangPairs);
  const peerExtract = (t: string): string[] => peerExtractUrls(peerRefang(t));
  const extractFigure = pairwise(extractUrls, peerExtract, chunks, options.warmupPairs, options.extractPairs);

  const floods: FloodResult[] = [];
  const fns: [FloodResult['fn'], (t: string) => unknown][] = [
    ['refang', refang],
    ['extractUrls', extractUrls],
    ['defang', defang],
  ];
  const ordinarySource = generateText(options.floodSize + 1, seed + 1).text;
  for (const [name, flood] of Object.entries(floodInputs(options.floodSize))) {
    const ordinary = ordinarySource.slice(0, flood.length);
    for (const [fnName, fn] of fns) floods.push(floodRatio(fnName, fn, name, flood, ordinary, options.repeats));
  }
  if (sink < 0) console.log(sink);
  return {
    text: { ...stats, bytes, seed: `0x${seed.toString(16)}`, generateMs: round(generateMs, 1) },
    corpus,
    refang: refangFigure,
    extract: {
      ...extractFigure,
      isolinkFound: extractUrls(text).length,
      peerFound: peerExtract(text).length,
    },
    floods,
  };
}
