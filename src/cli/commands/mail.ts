/**
 * `isolink mail <file>`: the links of a reported mail (.eml or .msg), each with the text it
 * showed, the real target, where it was found and a mark where the text lies. Reading
 * needs no configuration and sends nothing; `--open` isolates the targets as `bulk` does.
 */
import { WRAPPER_NAMES } from '../../fang';
import { linkRecord, type MailFormat, type MailLink, type MailReport } from '../../readers';
import { countFlag, stringFlag, type Command } from '../command';
import { batchExit, isMany, printReport, readMany } from '../mail-batch';
import { defaultThreads } from '../mail-pool';
import { loadSettings } from '../config';
import { readInput } from '../input';
import { printable, readMail } from '../mails';
import type { Output } from '../output';
import { storyLines } from '../story';
import { CliError, EXIT } from '../problems';
import { CREATE_FLAGS, CREATE_HELP, createLinks, unwrapModeOf } from './isolate';

/** The row numbers `--only` names ("1,3,5-7"), checked against how many rows there are. */
function onlyRows(value: string, count: number): Set<number> {
  const rows = new Set<number>();
  for (const part of value.split(',')) {
    const range = /^\s*(\d{1,6})\s*(?:-\s*(\d{1,6})\s*)?$/.exec(part);
    const first = Number(range?.[1]);
    const last = range?.[2] === undefined ? first : Number(range[2]);
    if (range === null || first < 1 || last < first || last > count)
      throw new CliError('badFlag', `--only takes row numbers from 1 to ${count} ("1,3" or "2-4"), not "${printable(part.trim())}"`, 'mail');
    for (let row = first; row <= last; row++) rows.add(row);
  }
  return rows;
}

/** One link as `--json` prints it: the mail it is in (its file; an mbox's `<file>#<n>`), then the library's fields, exactly. */
function record(link: MailLink, mail: string): Record<string, unknown> {
  return { mail, ...linkRecord(link) };
}

/** From, Subject, Date and the sender's story, on stderr: with or without links, they are what a ticket starts with. */
function printFacts(out: Output, mail: MailReport): void {
  out.note(`From: ${printable(mail.from ?? '(none)')}`);
  out.note(`Subject: ${printable(mail.subject ?? '(none)')}`);
  if (mail.date !== null) out.note(`Date: ${printable(mail.date)}`);
  for (const line of storyLines(mail)) out.note(line);
}

/** One link as a row: its number, the text it showed, the target (or why refused), where found, MISMATCH. */
function linkRow(link: MailLink, index: number): string[] {
  const wrapped =
    link.wrappedBy.length === 0 ? '' : ` (wrapped by ${link.wrappedBy.map((id) => WRAPPER_NAMES[id]).join(', ')}${link.opaque ? ', not decodable' : ''})`;
  return [
    String(index + 1),
    printable(link.shown ?? ''),
    link.target === null ? `refused: ${printable(link.url)} ${link.refused?.reason ?? ''}`.trimEnd() : `${link.target}${wrapped}`,
    printable(link.where.join(', ')),
    [link.mismatch ? 'MISMATCH' : '', link.scriptOnly ? 'SCRIPT' : ''].filter((mark) => mark !== '').join(' '),
  ];
}

function printLinks(out: Output, mail: MailReport, name: string): void {
  if (out.json) {
    for (const link of mail.links) out.record(record(link, name));
    return;
  }
  out.table(mail.links.map(linkRow), ['#', 'SHOWN', 'TARGET', 'WHERE', '']);
  const lying = mail.links.filter((link) => link.mismatch).length;
  out.note(
    `isolink: ${mail.links.length} link(s)${lying > 0 ? `, ${lying} whose text names another site (MISMATCH)` : ''}; ${mail.remoteContent} remote resource(s) the mail would load if shown (none was loaded).`,
  );
}

/** What --format takes: auto, a mail's format, or a saved attachment's. */
const FORMATS = [
  'auto',
  'eml',
  'msg',
  'html',
  'svg',
  'pdf',
  'zip',
  'docx',
  'xlsx',
  'pptx',
  'rtf',
  'png',
  'jpeg',
  'gif',
  'webp',
  'bmp',
] as const satisfies readonly ('auto' | MailFormat)[];

function isFormat(value: string): value is (typeof FORMATS)[number] {
  return (FORMATS as readonly string[]).includes(value);
}

export const mail: Command = {
  summary: 'List the links of reported mails (.eml, .msg, folders, mboxes) or saved attachments; --open isolates them',
  usage: '<file|folder|mbox…>',
  help: [
    'Prints one row per link: its number, the text it showed, the real target (refanged,',
    'unwrapped, checked as by open), where it was found (html, text, attachment:<name>,',
    'message:<subject>), MISMATCH where the text names another site, and SCRIPT where only a',
    'script of an attached page or SVG names it (read as text, never run). Tab-separated on a',
    "pipe, aligned on a terminal; for one mail, From, Subject, Date and the sender's story",
    '(the checks at receipt, the hop it came in by, replies or bounces sent elsewhere) go to',
    'stderr. --json prints one object per link: mail (the file; for an mbox <file>#<n>), url,',
    'target, shown, mismatch, where, scriptOnly (true when only scripts named it), wrappedBy,',
    'opaque (and refused when target is null).',
    'A saved attachment (.html, .htm, .svg, .zip, .docx, .xlsx, .pptx and their macro forms,',
    '.rtf) given on its own reads as a mail holding it: its links are found at',
    "attachment:<file name> (a zip entry's at attachment:<entry name>). In Office documents",
    'what the document would load by itself (a remote template, an OLE object) is a row',
    'shown as "the document would load: <relationship>".',
    'Reading sends nothing and needs no configuration.',
    "--report      the case note for a ticket instead of rows: Markdown with the sender's",
    '              story, the links (defanged, with their flags and where found), the links',
    '              in QR codes and the files with their SHA-256; nothing in it is a live link.',
    '              With --json one object per mail: mail, subject, date, from, replyTo,',
    '              returnPath, auth, received, reportedBy, attachments, links, problems',
    'Several files, a folder (every .eml/.msg in it and its subfolders: a Maildir works; other',
    'files are skipped and counted) or an mbox (mboxo or mboxrd) are read on every core, one',
    'row per link with the mail first; a mail that cannot be read is named on stderr and the',
    'rest are read (exit status 1 when any failed).',
    '--by-target   one row (or --json object) per distinct target: target, mails (how many',
    '              hold it), files (which), first and last date, flags (mismatch, wrapped)',
    '--top N       with --by-target: the N most reported targets',
    '--jobs N      threads to read on (default: one per core)',
    '--format F    how to read one file: auto (by its first bytes and name), eml, msg, or',
    '              a saved attachment: html, svg, pdf, zip, docx, xlsx, pptx, rtf, png, jpeg,',
    '              gif, webp, bmp',
    '--open        create a context for every link that can be isolated, as bulk does; for',
    '              several mails, each distinct target once, in one batched request',
    '--only 1,3-4  with --open and one mail: only these rows',
    ...CREATE_HELP,
    'Exit status 2 for one file that cannot be read, is not a mail, or is over 25 MiB.',
    'Example: isolink mail reported.eml --json | jq -r "select(.mismatch) | .target"',
    'Example: isolink mail ~/abuse-mailbox/ --by-target --top 10',
    'Example: isolink mail reported.eml --report > ticket.md',
  ],
  flags: {
    ...CREATE_FLAGS,
    open: { type: 'boolean' },
    only: { type: 'string' },
    format: { type: 'string' },
    'by-target': { type: 'boolean' },
    report: { type: 'boolean' },
    top: { type: 'string' },
    jobs: { type: 'string' },
  },
  args: { min: 1, max: Number.MAX_SAFE_INTEGER, missing: '<file|folder|mbox>' },
  offline: true,
  async run(context) {
    const format = stringFlag(context, 'format') ?? 'auto';
    if (!isFormat(format)) throw new CliError('badFlag', `--format takes ${FORMATS.join(', ')}`, 'mail');
    const open = context.flags['open'] === true;
    const only = stringFlag(context, 'only');
    if (only !== undefined && !open) throw new CliError('badFlag', '--only goes with --open', 'mail');
    const byTarget = context.flags['by-target'] === true;
    const top = countFlag(context, 'top');
    if (top !== undefined && !byTarget) throw new CliError('badFlag', '--top goes with --by-target', 'mail');
    const threads = countFlag(context, 'jobs') ?? defaultThreads();
    const report = context.flags['report'] === true;
    if (report && (open || byTarget))
      throw new CliError('badFlag', `--report writes each mail's case note; drop ${open ? '--open' : '--by-target'} (or run it on its own)`, 'mail');
    if (byTarget || (await isMany(context, context.args))) {
      if (only !== undefined)
        throw new CliError('badFlag', '--only takes the rows of one mail; for several, --by-target --top N takes the most reported', 'mail');
      if (format !== 'auto') throw new CliError('badFlag', '--format reads one mail; several are each told by their first bytes', 'mail');
      const settings = open ? await loadSettings(context.io) : context.settings;
      const unwrap = unwrapModeOf({ flags: context.flags, settings }) === 'keep' ? 'keep' : 'unwrap';
      const result = await readMany({ ...context, settings }, context.args, { threads, unwrap, byTarget, top, report, record, row: linkRow }, open);
      if (!open) return batchExit(result);
      if (result.targets.length === 0) throw new CliError('noUrls', 'the mails given');
      const created = await createLinks(
        { ...context, settings },
        result.targets.map((row) => row.target),
      );
      return result.failed > 0 ? EXIT.failed : created;
    }
    // Only --open reads the configuration: reading a mail works with none, even a broken one.
    const settings = open ? await loadSettings(context.io) : context.settings;
    const input = await readInput(context.io, context.out, context.args[0] ?? '-');
    const found = await readMail(input, format, unwrapModeOf({ flags: context.flags, settings }));
    if (report) {
      printReport(context.out, found, input.source);
      return EXIT.ok;
    }
    for (const problem of found.problems)
      context.out.note(`isolink: ${problem.where === undefined ? 'the mail' : printable(problem.where)} ${problem.reason}.`);
    if (!open) printFacts(context.out, found);
    if (found.links.length === 0) {
      context.io.stderr.write(`isolink: no links found in ${printable(input.source)}.\n`);
      return EXIT.ok;
    }
    if (!open) {
      printLinks(context.out, found, input.source);
      return EXIT.ok;
    }
    const rows = only === undefined ? undefined : onlyRows(only, found.links.length);
    const chosen = found.links.filter((link, index) => link.target !== null && (rows === undefined || rows.has(index + 1)));
    if (chosen.length === 0) throw new CliError('noUrls', `the chosen rows of ${input.source}`);
    return createLinks(
      { ...context, settings },
      chosen.map((link) => link.url),
    );
  },
};
