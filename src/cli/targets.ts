/**
 * `isolink mail --by-target`: the links of many mails as one list of distinct targets, each
 * with how many mails hold it, which, the first and last date among them, and the flags seen
 * (a lying text, a wrapper). A campaign's hundred reports become its few targets.
 */
import type { MailReport } from '../readers';

/** One distinct target as `--by-target --json` prints it. */
export interface TargetRow {
  readonly target: string;
  /** How many mails hold it. */
  readonly mails: number;
  /** Which: the mails' names, in the order read. */
  readonly files: readonly string[];
  /** The earliest and latest date of those mails (ISO 8601), null when none gave one. */
  readonly first: string | null;
  readonly last: string | null;
  /** Flags seen on it in any mail: `mismatch` (its text named another site), `wrapped` (a gateway rewrote it). */
  readonly flags: readonly ('mismatch' | 'wrapped')[];
}

interface Tally {
  files: string[];
  first: string | null;
  last: string | null;
  mismatch: boolean;
  wrapped: boolean;
}

/** Most mail names kept for one target (the count goes on). */
const MAX_FILES = 1000;

/** Targets gathered mail by mail; only what the rows need is kept, never the mails. */
export class TargetTally {
  readonly #targets = new Map<string, Tally & { count: number }>();

  add(name: string, mail: MailReport): void {
    const date = mail.date !== null && !Number.isNaN(Date.parse(mail.date)) ? new Date(mail.date).toISOString() : null;
    for (const link of mail.links) {
      if (link.target === null) continue;
      let tally = this.#targets.get(link.target);
      if (tally === undefined) {
        tally = { count: 0, files: [], first: null, last: null, mismatch: false, wrapped: false };
        this.#targets.set(link.target, tally);
      }
      tally.count++;
      if (tally.files.length < MAX_FILES) tally.files.push(name);
      if (date !== null) {
        if (tally.first === null || date < tally.first) tally.first = date;
        if (tally.last === null || date > tally.last) tally.last = date;
      }
      tally.mismatch ||= link.mismatch;
      tally.wrapped ||= link.wrappedBy.length > 0;
    }
  }

  /** The rows, most reported first (ties by target), the first `top` of them when given. */
  rows(top?: number): TargetRow[] {
    const rows = [...this.#targets].map(([target, tally]) => ({
      target,
      mails: tally.count,
      files: tally.files,
      first: tally.first,
      last: tally.last,
      flags: [...(tally.mismatch ? (['mismatch'] as const) : []), ...(tally.wrapped ? (['wrapped'] as const) : [])],
    }));
    rows.sort((a, b) => b.mails - a.mails || (a.target < b.target ? -1 : a.target > b.target ? 1 : 0));
    return top === undefined ? rows : rows.slice(0, top);
  }
}
