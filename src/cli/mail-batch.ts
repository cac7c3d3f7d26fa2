/**
 * `isolink mail` over many mails: every mail of the files, folders and mboxes given, read on
 * the machine's cores and printed as each is read (rows with the mail's name; `--json`
 * objects with `mail`), or gathered into distinct targets (`--by-target`). A mail that
 * cannot be read is named on stderr with why and the rest go on; the exit status says
 * some failed.
 */
import { open, stat } from 'node:fs/promises';
import { resolve } from 'node:path';

import { caseNote, caseRecord, type MailLink, type MailReport } from '../readers';
import { TargetTally, type TargetRow } from '../readers/targets';
import type { CommandContext } from './command';
import { readAll } from './mail-pool';
import { mailsIn, type Passed } from './mailbox';
import { printable } from './mails';
import type { Output } from './output';
import { EXIT } from './problems';

/** How a run over many mails prints. */
export interface BatchOptions {
  readonly threads: number;
  readonly unwrap: 'unwrap' | 'keep';
  readonly byTarget: boolean;
  /** The rows of `--by-target` to keep (the most reported), all when absent. */
  readonly top: number | undefined;
  /** `--report`: each mail's case note (or its record with `--json`) instead of its rows. */
  readonly report: boolean;
  /** One link as `--json` prints it. */
  readonly record: (link: MailLink, mail: string) => Record<string, unknown>;
  /** One link as a table row (without the mail's name). */
  readonly row: (link: MailLink, index: number) => string[];
}

/** What a run read: the distinct targets (when gathered) and how many mails failed. */
export interface BatchResult {
  readonly targets: readonly TargetRow[];
  readonly failed: number;
}

/** A mail's case note on stdout: the Markdown, or (`--json`) its record on one line. */
export function printReport(out: Output, mail: MailReport, name: string): void {
  if (out.json) out.record(caseRecord(mail, name));
  else out.line(caseNote(mail, name).trimEnd());
}

/** Whether `isolink mail` reads many: several paths, a folder, or an mbox (a file that starts with a `From ` line). */
export async function isMany(context: CommandContext, paths: readonly string[]): Promise<boolean> {
  const [only] = paths;
  if (paths.length !== 1 || only === undefined || only === '-') return paths.length > 1;
  try {
    const full = resolve(context.io.cwd ?? process.cwd(), only);
    if ((await stat(full)).isDirectory()) return true;
    const file = await open(full, 'r');
    try {
      const head = Buffer.alloc(5);
      await file.read(head, 0, 5, 0);
      return head.toString('latin1') === 'From ';
    } finally {
      await file.close();
    }
  } catch {
    // Unreadable: the one-mail path says why.
    return false;
  }
}

function printTargets(context: CommandContext, rows: readonly TargetRow[]): void {
  if (context.out.json) {
    for (const row of rows) context.out.record(row);
    return;
  }
  context.out.table(
    rows.map((row) => [String(row.mails), row.target, row.flags.join(','), row.first ?? '', row.last ?? '', printable(row.files.join(', '))]),
    ['MAILS', 'TARGET', 'FLAGS', 'FIRST', 'LAST', 'FILES'],
  );
}

/**
 * Reads every mail of the paths and prints as it goes, or (`--by-target`) prints the
 * distinct targets at the end; `open` gathers them for opening instead of printing them.
 */
export async function readMany(context: CommandContext, paths: readonly string[], options: BatchOptions, gather: boolean): Promise<BatchResult> {
  const { out } = context;
  const passed: Passed = { otherFiles: 0, loops: 0 };
  const tally = new TargetTally();
  const progress = out.counter('Reading mails');
  let read = 0;
  let failed = 0;
  let header = true;
  for await (const outcome of readAll(mailsIn(paths, context.io.cwd ?? process.cwd(), passed), options.threads, options.unwrap)) {
    progress.update(read + failed + 1);
    if (!outcome.reading.ok) {
      failed++;
      out.error(`${printable(outcome.name)} ${outcome.reading.reason}; the other mails are read.`);
      continue;
    }
    read++;
    const mail: MailReport = outcome.reading;
    if (gather || options.byTarget) {
      tally.add(outcome.name, mail);
      continue;
    }
    if (options.report) {
      // A blank line between two notes, so each mail's heading starts its own block.
      if (!header && !out.json) out.line('');
      printReport(out, mail, outcome.name);
      header = false;
    } else if (out.json) for (const link of mail.links) out.record(options.record(link, outcome.name));
    else if (mail.links.length > 0) {
      out.table(
        mail.links.map((link, index) => [printable(outcome.name), ...options.row(link, index)]),
        header ? ['MAIL', '#', 'SHOWN', 'TARGET', 'WHERE', ''] : undefined,
      );
      header = false;
    }
  }
  progress.end();
  const targets = tally.rows(options.top);
  if (options.byTarget && !gather) printTargets(context, targets);
  const skipped = [
    passed.otherFiles > 0 ? `${passed.otherFiles} other file(s) skipped` : '',
    passed.loops > 0 ? `${passed.loops} folder(s) met again through a link passed over` : '',
  ].filter((part) => part !== '');
  out.note(`isolink: ${read} mail(s) read, ${failed} could not be${skipped.length > 0 ? `; ${skipped.join(', ')}` : ''}.`);
  return { targets, failed };
}

/** The exit status of a run that read without opening. */
export function batchExit(result: BatchResult): number {
  return result.failed > 0 ? EXIT.failed : EXIT.ok;
}
