/**
 * defang, refang, extractUrls and unwrap in linear time on adversarial floods. The one timing
 * check of the suite, and a ratio so that it holds on any machine: the time on a 1 MiB
 * flood over the time on a 256 KiB one is ~4 for a linear pass and ~16 for a quadratic
 * one. Each time is the median of three runs (a fast pass is repeated until a run takes
 * 20 ms, so the timer's resolution does not decide); the bound is 10. A pair at or over the
 * bound is measured three more times, twice at most, and judged by the medians of all its
 * runs: a load spike of a busy machine (CI runs the browser tests beside this one) moves
 * one run, a quadratic pass moves them all. A quadratic control proves the check still
 * fails one.
 */
import { describe, expect, it } from 'vitest';
import { defang, extractUrls, refang, unwrap } from '../../src/fang';
import { wrapperFloods } from '../support/wrap';
import { prove } from './ledger';

const KIB = 1024;
const SMALL = 256 * KIB;
const LARGE = 1024 * KIB;
const RUNS = 3;
const BOUND = 10;
/** Rounds of RUNS runs a pair gets at most, while the ratio of all its runs' medians stays at or over the bound. */
const ROUNDS = 3;

/** `unit` repeated to `size` code units; a flood of one character and a tail is a function. */
type Flood = readonly [name: string, make: (size: number) => string];

const repeat = (unit: string) => (size: number) => unit.repeat(Math.ceil(size / unit.length)).slice(0, size);

const FLOODS: readonly Flood[] = [
  ['[', repeat('[')],
  ['a.', repeat('a.')],
  ['spaces', repeat(' ')],
  ['A…A.', (size) => `${'A'.repeat(size - 1)}.`],
  ['hxxp://', repeat('hxxp://')],
  ['[.]', repeat('[.]')],
  ['a@', repeat('a@')],
  ['1.', repeat('1.')],
  // The forms of issue 26: broken separators, escaped slashes, invisible characters in a
  // scheme word, and a path of delimiter forms.
  ['https//', repeat('https//')],
  ['ht U+200B tp ://', repeat('ht\u200btp ://')],
  ['a:\\/', repeat('a:\\/')],
  ['path of (/) [@] U+202E', (size) => `http://a.com/${'(/)[@]\u202e'.repeat(Math.ceil(size / 7))}`.slice(0, size)],
];

/** Hostile wrapped links for unwrap, each a function of the size. */
const WRAPPER_FLOODS: readonly Flood[] = [
  ...Object.keys(wrapperFloods(0)).map((name): Flood => [name, (size) => wrapperFloods(size)[name] ?? '']),
  [
    'nesting',
    (size) => Array.from({ length: 9 }).reduce<string>((inner) => `https://slack-redir.net/link?url=${inner}`, `https://e.example/${'b'.repeat(size)}`),
  ],
];

const FUNCTIONS: readonly [string, (text: string) => unknown][] = [
  ['defang', defang],
  ['refang', refang],
  ['extractUrls', extractUrls],
];

/**
 * Time of one call, in ms: calls repeated (doubling) until they take 20 ms, so that a
 * fast pass is not measured at the timer's resolution. Some floods are scanned at memory
 * speed (a 256 KiB run of spaces in about 0.01 ms), so the cap is high: 65536 calls.
 */
function perCall(fn: (text: string) => unknown, input: string): number {
  for (let reps = 1; ; reps *= 2) {
    const start = performance.now();
    for (let i = 0; i < reps; i += 1) fn(input);
    const elapsed = performance.now() - start;
    if (elapsed >= 20 || reps >= 65_536) return elapsed / reps;
  }
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

interface Measured {
  readonly ratio: number;
  readonly smallMs: number;
  readonly largeMs: number;
  readonly runs: number;
}

/** The large / small time ratio of fn, the medians of all runs: RUNS more while it is at or over the bound, ROUNDS rounds at most. */
function measure(fn: (text: string) => unknown, small: string, large: string): Measured {
  fn(small); // warm-up
  const smallTimes: number[] = [];
  const largeTimes: number[] = [];
  let ratio = Number.POSITIVE_INFINITY;
  for (let round = 0; round < ROUNDS && ratio >= BOUND; round += 1) {
    for (let run = 0; run < RUNS; run += 1) {
      smallTimes.push(perCall(fn, small));
      largeTimes.push(perCall(fn, large));
    }
    ratio = median(largeTimes) / Math.max(median(smallTimes), 0.001);
  }
  return { ratio, smallMs: median(smallTimes), largeMs: median(largeTimes), runs: smallTimes.length };
}

/** The control: a pass that is quadratic in its input's length (about 16 times for 4 times the text). */
function quadratic(text: string): number {
  const steps = text.length >> 7;
  let count = 0;
  for (let i = 0; i < steps; i += 1) for (let j = 0; j < i; j += 1) count += j & 1;
  return count;
}

describe('text processing stays linear', () => {
  it(`the 1 MiB / 256 KiB time ratio stays under ${BOUND} for every flood and function`, async () => {
    await prove('linear-fang', () => {
      const ratios: string[] = [];
      const over: string[] = [];
      const pairs = [
        ...FLOODS.flatMap((flood) => FUNCTIONS.map((fn) => [flood, fn] as const)),
        ...WRAPPER_FLOODS.map((flood) => [flood, ['unwrap', unwrap]] as const),
      ];
      for (const [[floodName, make], [fnName, fn]] of pairs) {
        const { ratio, smallMs, largeMs, runs } = measure(fn, make(SMALL), make(LARGE));
        ratios.push(`${fnName}(${floodName}) ${ratio.toFixed(1)}${runs > RUNS ? ` (${runs} runs)` : ''}`);
        if (ratio >= BOUND) over.push(`${fnName} on ${floodName}: ${ratio.toFixed(1)}× (${smallMs.toFixed(3)} ms → ${largeMs.toFixed(3)} ms)`);
      }
      console.log(`fang time ratios (1 MiB / 256 KiB, linear ≈ 4): ${ratios.join(', ')}`);
      expect(over).toEqual([]);
      // The control: the same check, its further rounds included, fails a quadratic pass.
      const control = measure(quadratic, repeat('a')(SMALL), repeat('a')(LARGE));
      console.log(`quadratic control: ${control.ratio.toFixed(1)} (${control.runs} runs)`);
      expect(control.ratio).toBeGreaterThanOrEqual(BOUND);
      const worst = Math.max(...ratios.map((r) => Number(/ (\d+\.\d)(?: \(|$)/u.exec(r)?.[1])));
      return {
        cases: pairs.length,
        detail: `${FLOODS.length} floods × 3 functions and ${WRAPPER_FLOODS.length} wrapped-link floods × unwrap, worst ratio ${worst.toFixed(1)}`,
      };
    });
  });
});
