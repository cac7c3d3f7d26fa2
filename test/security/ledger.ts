/**
 * What the suite proved, written as it goes: one JSON file per property under
 * test-results/security/ledger/, read by ./report.ts. A property is recorded as held only
 * when its test reached the end of its assertions; a throw records it as failed.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CATALOG_IDS } from './catalog';

export const RESULTS_DIR = resolve(import.meta.dirname, '../../test-results/security');
export const LEDGER_DIR = join(RESULTS_DIR, 'ledger');

export type Outcome = 'held' | 'FAILED' | 'skipped';

export interface Entry {
  readonly id: string;
  /** A property proved in several files records one part per file. */
  readonly part?: string;
  readonly outcome: Outcome;
  /** Cases tried (inputs, runs, flows × entry points, …). */
  readonly cases: number;
  /** What was counted, e.g. "24 inputs × 9 entry points". */
  readonly detail: string;
  /** Requests whose URL, headers and body were scanned (Chromium runs). */
  readonly requestsScanned: number;
  /** Failure or skip reason. */
  readonly note?: string;
  readonly at: string;
}

export interface Tally {
  cases: number;
  detail: string;
  requestsScanned?: number;
}

function fileOf(id: string, part: string | undefined): string {
  return join(LEDGER_DIR, `${id}${part === undefined ? '' : `--${part}`}.json`);
}

export function clearLedger(): void {
  rmSync(LEDGER_DIR, { recursive: true, force: true });
  mkdirSync(LEDGER_DIR, { recursive: true });
}

export function record(entry: Omit<Entry, 'at'>): void {
  if (!CATALOG_IDS.has(entry.id)) throw new Error(`unknown property ${entry.id}`);
  mkdirSync(LEDGER_DIR, { recursive: true });
  writeFileSync(fileOf(entry.id, entry.part), `${JSON.stringify({ ...entry, at: new Date().toISOString() }, null, 2)}\n`);
}

/**
 * Runs the assertions of one property; records it as held with the tally the body
 * returns, or as failed with the error's first line (and rethrows).
 */
/** A failure in a few words for the table: the problems listed, or the first line and the counterexample. */
function noteOf(error: unknown): string {
  const e = error as { message?: unknown; actual?: unknown; cause?: unknown };
  if (Array.isArray(e.actual) && e.actual.length > 0 && e.actual.every((item) => typeof item === 'string')) return e.actual.join('; ');
  const message = typeof e.message === 'string' ? e.message : String(error);
  const counterexample = /^Counterexample: (.*)$/m.exec(message)?.[1];
  const first = message.split('\n')[0] ?? '';
  if (counterexample !== undefined) {
    const cause = e.cause === undefined ? first : noteOf(e.cause);
    return `${cause} — counterexample: ${counterexample.slice(0, 160)}`;
  }
  return first;
}

export async function prove(id: string, body: () => Promise<Tally> | Tally, part?: string): Promise<void> {
  const where = part === undefined ? {} : { part };
  try {
    const tally = await body();
    record({ id, ...where, outcome: 'held', cases: tally.cases, detail: tally.detail, requestsScanned: tally.requestsScanned ?? 0 });
  } catch (error) {
    const note = noteOf(error).slice(0, 400);
    record({ id, ...where, outcome: 'FAILED', cases: 0, detail: '', requestsScanned: 0, note });
    throw error;
  }
}

/** Records a property that could not be run here, and why (shown in the table). */
export function skip(id: string, note: string, part?: string): void {
  record({ id, ...(part === undefined ? {} : { part }), outcome: 'skipped', cases: 0, detail: '', requestsScanned: 0, note });
}

function merge(parts: readonly Entry[]): Entry {
  const first = parts[0];
  if (!first) throw new Error('no parts');
  if (parts.length === 1) return first;
  const outcome: Outcome = parts.some((p) => p.outcome === 'FAILED') ? 'FAILED' : parts.every((p) => p.outcome === 'skipped') ? 'skipped' : 'held';
  const notes = parts.flatMap((p) => (p.note === undefined ? [] : [`${p.part ?? ''}: ${p.note}`]));
  return {
    id: first.id,
    outcome,
    cases: parts.reduce((sum, p) => sum + p.cases, 0),
    detail: parts
      .filter((p) => p.detail !== '')
      .map((p) => `${p.part ?? ''}: ${p.detail}`)
      .join('; '),
    requestsScanned: parts.reduce((sum, p) => sum + p.requestsScanned, 0),
    ...(notes.length > 0 ? { note: notes.join('; ') } : {}),
    at:
      parts
        .map((p) => p.at)
        .sort()
        .at(-1) ?? first.at,
  };
}

export function readLedger(): Map<string, Entry> {
  const out = new Map<string, Entry>();
  let names: string[];
  try {
    names = readdirSync(LEDGER_DIR);
  } catch {
    return out;
  }
  const parts = new Map<string, Entry[]>();
  for (const name of names.sort()) {
    if (!name.endsWith('.json')) continue;
    const entry = JSON.parse(readFileSync(join(LEDGER_DIR, name), 'utf8')) as Entry;
    parts.set(entry.id, [...(parts.get(entry.id) ?? []), entry]);
  }
  for (const [id, list] of parts) out.set(id, merge(list));
  return out;
}
