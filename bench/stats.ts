/** Small statistics and formatting helpers for the bench. */

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] ?? Number.NaN) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

/** The q-quantile (0..1), linear between the two nearest ranks. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const pos = (sorted.length - 1) * q;
  const low = Math.floor(pos);
  const high = Math.ceil(pos);
  const a = sorted[low] ?? Number.NaN;
  const b = sorted[high] ?? Number.NaN;
  return a + (b - a) * (pos - low);
}

/** Median, quartiles and extremes, rounded for the report. */
export function summary(values: readonly number[], digits = 3): { n: number; median: number; p25: number; p75: number; min: number; max: number } {
  return {
    n: values.length,
    median: round(median(values), digits),
    p25: round(quantile(values, 0.25), digits),
    p75: round(quantile(values, 0.75), digits),
    min: round(Math.min(...values), digits),
    max: round(Math.max(...values), digits),
  };
}

export function round(value: number, digits = 3): number {
  if (!Number.isFinite(value)) return value;
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

export function kB(bytes: number): string {
  return `${(bytes / 1000).toFixed(1)} kB`;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Runs `fn` and returns its result with the elapsed milliseconds (Node's monotonic clock). */
export function timed<T>(fn: () => T): { value: T; ms: number } {
  const start = performance.now();
  const value = fn();
  return { value, ms: performance.now() - start };
}

/** xorshift32 from `seed`: the bootstrap's resampling, the same on every machine. */
function xorshift(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state / 4294967296;
  };
}

/** A seeded 95% bootstrap interval of the median (percentile method, 2000 resamples), rounded to `digits`. */
export function bootstrapMedian(values: readonly number[], digits = 3, seed = 1): { low: number; high: number } {
  if (values.length === 0) return { low: Number.NaN, high: Number.NaN };
  const random = xorshift(seed);
  const medians: number[] = [];
  for (let i = 0; i < 2000; i++) {
    const sample = values.map(() => values[Math.floor(random() * values.length)] ?? 0);
    medians.push(median(sample));
  }
  return { low: round(quantile(medians, 0.025), digits), high: round(quantile(medians, 0.975), digits) };
}

/** A median of per-pair (or per-round) ratios, with its seeded 95% bootstrap interval. */
export interface MedianRatio {
  readonly ratio: number;
  readonly interval: { readonly low: number; readonly high: number };
}

/** The median of `ratios` and its interval, both to 3 digits. */
export function medianRatio(ratios: readonly number[]): MedianRatio {
  return { ratio: round(median(ratios), 3), interval: bootstrapMedian(ratios) };
}

/** Paired timings (a[i] and b[i] taken one after the other), as a figure reports them. */
export interface PairedRatios {
  /** The per-pair ratios a[i] / b[i]. */
  readonly ratios: ReturnType<typeof summary>;
  readonly medianRatio: number;
  /** Seeded 95% bootstrap interval of the median ratio: how far the verdict is from noise. */
  readonly medianRatioInterval: MedianRatio['interval'];
  readonly ratioOfMedians: number;
}

export function pairedRatios(a: readonly number[], b: readonly number[]): PairedRatios {
  const ratios = a.map((x, i) => x / (b[i] ?? Number.NaN));
  const perPair = medianRatio(ratios);
  return { ratios: summary(ratios), medianRatio: perPair.ratio, medianRatioInterval: perPair.interval, ratioOfMedians: round(median(a) / median(b), 3) };
}

/**
 * median(a) / median(b) of paired runs (a[i] and b[i] taken one after the other), with a
 * seeded 95% bootstrap interval that resamples whole pairs (percentile method, 2000
 * resamples), so a slow moment of the machine weighs on both sides of the ratio at once.
 */
export function ratioOfMedians(a: readonly number[], b: readonly number[], digits = 3, seed = 1): MedianRatio {
  if (a.length === 0 || a.length !== b.length) return { ratio: Number.NaN, interval: { low: Number.NaN, high: Number.NaN } };
  const random = xorshift(seed);
  const ratios: number[] = [];
  for (let i = 0; i < 2000; i++) {
    const picks = a.map(() => Math.floor(random() * a.length));
    ratios.push(median(picks.map((p) => a[p] ?? 0)) / median(picks.map((p) => b[p] ?? 0)));
  }
  return {
    ratio: round(median(a) / median(b), digits),
    interval: { low: round(quantile(ratios, 0.025), digits), high: round(quantile(ratios, 0.975), digits) },
  };
}

/**
 * One pair of samples, A's and B's (Isolink's and the floor's), in an order that alternates
 * with the round (even rounds: A first), so that drift and after-effects fall on both equally.
 */
export async function inTurn<A, B>(round: number, a: () => Promise<A>, b: () => Promise<B>): Promise<[A, B]> {
  if (round % 2 === 0) {
    const first = await a();
    return [first, await b()];
  }
  const second = await b();
  return [await a(), second];
}

/** Every order of `n` items (n! of them, the same on every run). */
function orders(n: number): number[][] {
  if (n <= 1) return [Array.from({ length: n }, (_, i) => i)];
  return orders(n - 1).flatMap((rest) => Array.from({ length: n }, (_, at) => [...rest.slice(0, at), n - 1, ...rest.slice(at)]));
}

/**
 * One sample of each of `runs`, taken in the round's order among all their orders, so that
 * over any whole cycle of rounds (3 runs: 6) each runs before each other as often as after.
 * The results in the order of `runs`.
 */
export async function inRotation<T>(round: number, runs: readonly (() => Promise<T>)[]): Promise<T[]> {
  const all = orders(runs.length);
  const order = all[round % all.length] ?? [];
  const results = new Array<T>(runs.length);
  for (const i of order) results[i] = await (runs[i] as () => Promise<T>)();
  return results;
}

/** `1.103 [95% 1.085-1.271]`: a ratio as the report prints it. */
export function withInterval(ratio: number, interval: MedianRatio['interval']): string {
  return `${ratio} [95% ${interval.low}-${interval.high}]`;
}
