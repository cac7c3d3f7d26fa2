/** The rows of the bench's table and how they are printed. */

export type Verdict = 'pass' | 'fail' | 'info' | 'error';

export interface Row {
  /** Stable key, e.g. `size.background.gzip`. */
  readonly id: string;
  readonly figure: string;
  /** As printed. */
  readonly value: string;
  /** As printed; `-` when the figure has no budget. */
  readonly budget: string;
  readonly verdict: Verdict;
  /** The number behind `value`, for results.json. */
  readonly numeric?: number | undefined;
  /** A bundle-size budget: quick mode fails only on these. */
  readonly sizeBudget?: boolean | undefined;
}

export function row(
  id: string,
  figure: string,
  value: string,
  budget: string,
  verdict: Verdict,
  extra: { numeric?: number | undefined; sizeBudget?: boolean | undefined } = {},
): Row {
  return { id, figure, value, budget, verdict, ...extra };
}

/** pass/fail of a measured value against a budget; `error` when the value is not a number. */
export function judge(value: number, ok: (v: number) => boolean): Verdict {
  if (!Number.isFinite(value)) return 'error';
  return ok(value) ? 'pass' : 'fail';
}

/**
 * The table. `judged` says which rows decide the run; the others (the quick mode's timings,
 * taken on fewer samples) show their verdict in brackets, as an indication only.
 */
export function formatTable(rows: readonly Row[], judged: (r: Row) => boolean = () => true): string {
  const header = ['figure', 'value', 'budget', 'pass/fail'];
  const verdictText = (r: Row): string => {
    if (r.verdict === 'info') return '-';
    return judged(r) ? r.verdict.toUpperCase() : `(${r.verdict}, not judged)`;
  };
  const cells = rows.map((r) => [r.figure, r.value, r.budget, verdictText(r)]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => (c[i] ?? '').length)));
  const line = (c: readonly string[]): string =>
    c
      .map((cell, i) => cell.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.map(line)].join('\n');
}
