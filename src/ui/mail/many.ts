/**
 * Several reported mails at once (chosen together, dropped, or a folder): which of the files
 * are read, within the limits of one drop, and their reading one after another with the
 * page told how far it got. The targets of the mails read are gathered by
 * src/readers/targets, as `isolink mail --by-target` gathers them.
 */
import type { MailFailure, MailReading, MailReport } from '../../readers';
import { MAIL_LIMITS } from '../../readers/limits';
import type { TargetEntry } from '../../readers/targets';
import type { MailFile } from './deps';

/** The bounds of one drop or choice of several files; a file beyond one is named and never read. */
export const MANY_LIMITS = {
  /** Most mails read from one drop (the rest are named, not read). */
  files: 500,
  /** Most bytes read from one drop, every mail together (200 MiB). */
  bytes: 200 * 1024 * 1024,
  /** Most entries of dropped folders looked at (files and folders): a folder of millions is cut short. */
  entries: 10_000,
} as const;

/** A file of a drop or a choice: `name` is its path within a folder given (text only, never a path opened). */
export interface BatchFile {
  readonly name: string;
  readonly file: MailFile;
  /** Found in a folder: only its .eml and .msg files are read. */
  readonly inFolder: boolean;
}

const MAIL_NAME = /\.(?:eml|msg)$/i;

/** A file of a folder the page reads: a saved mail by its name. */
export function isMailName(name: string): boolean {
  return MAIL_NAME.test(name);
}

/** Which files are read, and which are not and why. */
export interface BatchPlan {
  /** To read, in the order of their names. */
  readonly read: readonly BatchFile[];
  /** Each over MAIL_LIMITS.bytes. */
  readonly tooLarge: readonly { readonly name: string; readonly size: number }[];
  /** Beyond MANY_LIMITS.files. */
  readonly overCount: readonly string[];
  /** Beyond MANY_LIMITS.bytes, all read before them together. */
  readonly overBytes: readonly string[];
  /** Files of a folder that are not mails. */
  readonly others: number;
}

function byName(a: BatchFile, b: BatchFile): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/** What of the files is read: never a file over a limit, never more than the limits together. */
export function planBatch(files: readonly BatchFile[], extraOthers = 0): BatchPlan {
  const read: BatchFile[] = [];
  const tooLarge: { name: string; size: number }[] = [];
  const overCount: string[] = [];
  const overBytes: string[] = [];
  let others = extraOthers;
  let bytes = 0;
  for (const item of [...files].sort(byName)) {
    if (item.inFolder && !isMailName(item.name)) others++;
    else if (item.file.size > MAIL_LIMITS.bytes) tooLarge.push({ name: item.name, size: item.file.size });
    else if (read.length >= MANY_LIMITS.files) overCount.push(item.name);
    else if (bytes + item.file.size > MANY_LIMITS.bytes) overBytes.push(item.name);
    else {
      bytes += item.file.size;
      read.push(item);
    }
  }
  return { read, tooLarge, overCount, overBytes, others };
}

/** A mail read among several. */
export interface ManyRead {
  readonly name: string;
  readonly report: MailReport;
}

/** A file among several that could not be read: its bytes could not be had, or the reader said why. */
type ManyFailure = { readonly kind: 'unopened'; readonly name: string } | { readonly kind: 'failed'; readonly name: string; readonly failure: MailFailure };

/** The several files as far as they were read, and their targets gathered. */
export interface Batch {
  readonly plan: BatchPlan;
  readonly reads: readonly ManyRead[];
  readonly failures: readonly ManyFailure[];
  readonly targets: readonly TargetEntry[];
}

/** The page gets its turn between two mails: it paints the progress and answers clicks. */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

export interface BatchReading {
  /** Reads one mail's bytes (the reader's failures as data). */
  readonly read: (bytes: Uint8Array, name: string) => Promise<MailReading>;
  /** Told before each file: its place (from 1), how many, its name. */
  readonly progress: (place: number, total: number, name: string) => void;
  /** False once a newer file or drop replaced this one: the reading stops. */
  readonly current: () => boolean;
}

/** Reads the plan's files one after another; null when it was replaced before the end. */
export async function readBatch(plan: BatchPlan, how: BatchReading): Promise<Batch | null> {
  const reads: ManyRead[] = [];
  const failures: ManyFailure[] = [];
  // Loaded with the first batch, as the reader is: the page's first script stays as it was.
  const { TargetTally } = await import('../../readers/targets');
  const tally = new TargetTally();
  for (const [index, item] of plan.read.entries()) {
    if (!how.current()) return null;
    how.progress(index + 1, plan.read.length, item.name);
    await nextTurn();
    if (!how.current()) return null;
    let bytes: Uint8Array;
    try {
      bytes = new Uint8Array(await item.file.arrayBuffer());
    } catch {
      failures.push({ kind: 'unopened', name: item.name });
      continue;
    }
    const reading = await how.read(bytes, item.name);
    if (reading.ok) {
      reads.push({ name: item.name, report: reading });
      tally.add(item.name, reading);
    } else {
      failures.push({ kind: 'failed', name: item.name, failure: reading });
    }
  }
  return how.current() ? { plan, reads, failures, targets: tally.entries() } : null;
}
