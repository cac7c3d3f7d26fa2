/**
 * The links of many mails as one list of distinct targets, each with how many mails hold
 * it, which, the first and last date among them, and the flags seen (a lying text, a
 * wrapper). A campaign's hundred reports become its few targets. Shared by `isolink mail
 * --by-target` and the reported mail page's view of several mails.
 */
import type { MailLink } from './found';
import type { MailReport } from './mail';

/** A flag seen on a target in any mail: `mismatch` (its text named another site), `wrapped` (a gateway rewrote it). */
type TargetFlag = 'mismatch' | 'wrapped';

/** One distinct target as `--by-target --json` prints it. */
export interface TargetRow {
  readonly target: string;
  /** How many mails hold it. */
  readonly mails: number;
  /** Which: the mails' names, in the order read (the first MAX_TARGET_FILES of them). */
  readonly files: readonly string[];
  /** The earliest and latest date of those mails (ISO 8601), null when none gave one. */
  readonly first: string | null;
  readonly last: string | null;
  /** Flags seen on it in any mail. */
  readonly flags: readonly TargetFlag[];
}

/** A row with the link that stands for it: the first whose text lied, else the first seen. */
export interface TargetEntry {
  readonly row: TargetRow;
  readonly link: MailLink & { readonly target: string };
}

interface Tally {
  link: MailLink & { readonly target: string };
  count: number;
  files: string[];
  first: string | null;
  last: string | null;
  mismatch: boolean;
  wrapped: boolean;
}

/** Most mail names kept for one target (the count goes on). */
export const MAX_TARGET_FILES = 1000;

/** The mail's date as ISO 8601, null when it gave none or none that parses. */
function isoDate(date: string | null): string | null {
  if (date === null) return null;
  const ms = Date.parse(date);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Targets gathered mail by mail; only what the rows need is kept, never the mails. */
export class TargetTally {
  readonly #targets = new Map<string, Tally>();

  /** Counts each target of the mail once (the reader lists a target once per mail). */
  add(name: string, mail: Pick<MailReport, 'date' | 'links'>): void {
    const date = isoDate(mail.date);
    const seen = new Set<string>();
    for (const link of mail.links) {
      const { target } = link;
      if (target === null) continue;
      let tally = this.#targets.get(target);
      if (tally === undefined) {
        tally = { link: { ...link, target }, count: 0, files: [], first: null, last: null, mismatch: false, wrapped: false };
        this.#targets.set(target, tally);
      } else if (link.mismatch && !tally.link.mismatch) {
        tally.link = { ...link, target };
      }
      tally.mismatch ||= link.mismatch;
      tally.wrapped ||= link.wrappedBy.length > 0;
      if (seen.has(target)) continue;
      seen.add(target);
      tally.count++;
      if (tally.files.length < MAX_TARGET_FILES) tally.files.push(name);
      if (date !== null) {
        if (tally.first === null || date < tally.first) tally.first = date;
        if (tally.last === null || date > tally.last) tally.last = date;
      }
    }
  }

  /** The rows with their links, most reported first (ties by target), the first `top` of them when given. */
  entries(top?: number): TargetEntry[] {
    const entries = [...this.#targets].map(([target, tally]) => ({
      row: {
        target,
        mails: tally.count,
        files: tally.files,
        first: tally.first,
        last: tally.last,
        flags: [...(tally.mismatch ? (['mismatch'] as const) : []), ...(tally.wrapped ? (['wrapped'] as const) : [])],
      },
      link: tally.link,
    }));
    entries.sort((a, b) => b.row.mails - a.row.mails || compareText(a.row.target, b.row.target));
    return top === undefined ? entries : entries.slice(0, top);
  }

  /** The rows, most reported first (ties by target), the first `top` of them when given. */
  rows(top?: number): TargetRow[] {
    return this.entries(top).map((entry) => entry.row);
  }
}
