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

/** A seeded 95% bootstrap interval of the median (percentile method, 2000 resamples), rounded to `digits`. */
export function bootstrapMedian(values: readonly number[], digits = 3, seed = 1): { low: number; high: number } {
  if (values.length === 0) return { low: Number.NaN, high: Number.NaN };
  let state = seed >>> 0;
  const random = (): number => {
    // xorshift32
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state / 4294967296;
  };
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

/** `1.103 [95% 1.085-1.271]`: a ratio as the report prints it. */
export function withInterval(ratio: number, interval: MedianRatio['interval']): string {
  return `${ratio} [95% ${interval.low}-${interval.high}]`;
}
