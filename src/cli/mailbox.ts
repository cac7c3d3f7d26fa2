/**
 * The mails in what `isolink mail` is given: a mail file, a folder of them (with its
 * subfolders, so a Maildir works), or an mbox (the mboxo and mboxrd forms Thunderbird and
 * Google Takeout write). Streamed: a folder is walked as it is read, an mbox is split as
 * its bytes arrive, and no more than one mail is held here at a time, so memory stays flat
 * however many there are. A bad mail, an unreadable file or a loop of links is named and
 * passed over; it never stops the rest.
 */
import { createReadStream } from 'node:fs';
import { open, readdir, readFile, realpath, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';

import { MAIL_LIMITS, mailFormatOf } from '../readers';
import { errnoOf } from './problems';

/** One mail found: its name as `mail` reports it (a path; for an mbox, `<path>#<number>`), and its bytes or why it could not be had. */
export type FoundMail =
  { readonly name: string; readonly bytes: Uint8Array; readonly size: number } | { readonly name: string; readonly error: string; readonly size: number };

/** What the walk passed over: files that are no mail, links that loop. */
export interface Passed {
  otherFiles: number;
  loops: number;
}

/** How many bytes of a file tell what it is. */
const HEAD_BYTES = 4096;
const FROM_LINE = Buffer.from('From ');

async function headOf(path: string): Promise<Buffer> {
  const file = await open(path, 'r');
  try {
    const head = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await file.read(head, 0, HEAD_BYTES, 0);
    return head.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
}

/** An mbox starts with its first message's `From ` separator line. */
function isMbox(head: Uint8Array): boolean {
  return head.length > FROM_LINE.length && FROM_LINE.every((byte, index) => head[index] === byte);
}

function isBlank(line: Buffer): boolean {
  return line.length === 0 || (line.length === 1 && line[0] === 0x0a) || (line.length === 2 && line[0] === 0x0d && line[1] === 0x0a);
}

/**
 * A separator line as mail programs write it: `From <sender> <date>`, the date with its
 * time of day. A body line an mboxo writer failed to escape ("From the desk of…") has none,
 * so it stays in its message instead of cutting it in two.
 */
const SEPARATOR = /^From \S*[ \t].*\b\d{1,2}:\d{2}\b/;

function isSeparator(line: Buffer): boolean {
  return isMbox(line) && SEPARATOR.test(line.subarray(0, 200).toString('latin1'));
}

/** `>From `, `>>From `…: a body line an mbox escaped; mboxrd takes one `>` off each. */
function escapedFrom(line: Buffer): boolean {
  let index = 0;
  while (line[index] === 0x3e) index++;
  return index > 0 && FROM_LINE.every((byte, offset) => line[index + offset] === byte);
}

/** The state of one mbox split: the message being gathered and the line being read. */
class MboxSplit {
  #parts: Buffer[] = [];
  #size = 0;
  #oversize = false;
  #started = false;
  #afterBlank = true;
  /** The next bytes continue a line cut short (beyond the limit), not a new one. */
  #midLine = false;
  count = 0;
  readonly done: FoundMail[] = [];

  constructor(readonly name: string) {}

  #finish(): void {
    if (!this.#started) return;
    // The blank line before the next separator belongs to the mbox, not to the message.
    const last = this.#parts.at(-1);
    if (last !== undefined && isBlank(last)) {
      this.#parts.pop();
      this.#size -= last.length;
    }
    this.count++;
    const name = `${this.name}#${String(this.count)}`;
    if (this.#oversize) this.done.push({ name, error: `is larger than the limit of ${MAIL_LIMITS.bytes / 1024 / 1024} MiB`, size: this.#size });
    else this.done.push({ name, bytes: Buffer.concat(this.#parts, this.#size), size: this.#size });
    this.#parts = [];
    this.#size = 0;
    this.#oversize = false;
  }

  #append(bytes: Buffer): void {
    this.#size += bytes.length;
    if (this.#oversize) return;
    if (this.#size > MAIL_LIMITS.bytes) {
      this.#oversize = true;
      this.#parts = [];
      return;
    }
    this.#parts.push(Buffer.from(bytes));
  }

  /** One whole line, its line end included. */
  line(line: Buffer): void {
    const lineStart = !this.#midLine;
    this.#midLine = false;
    // The file's first line opens the first message whatever it says; later ones must look like separators.
    if (lineStart && (this.#started ? this.#afterBlank && isSeparator(line) : isMbox(line))) {
      this.#finish();
      this.#started = true;
      this.#afterBlank = false;
      return;
    }
    this.#afterBlank = lineStart && isBlank(line);
    if (!this.#started) return;
    this.#append(lineStart && escapedFrom(line) ? line.subarray(1) : line);
  }

  /** A piece of a line longer than the limit: kept (or counted) without waiting for its end. */
  piece(bytes: Buffer): void {
    if (this.#started) this.#append(bytes);
    this.#midLine = true;
    this.#afterBlank = false;
  }

  end(rest: Buffer): void {
    if (rest.length > 0) this.line(rest);
    this.#finish();
  }
}

/** The messages of an mbox, split as the file is read: a separator line opens a message only after a blank line (or at the start). */
async function* mboxMails(path: string, name: string): AsyncGenerator<FoundMail> {
  const split = new MboxSplit(name);
  let carry: Buffer = Buffer.alloc(0);
  for await (const chunk of createReadStream(path, { highWaterMark: 1024 * 1024 }) as AsyncIterable<Buffer>) {
    const data = carry.length === 0 ? chunk : Buffer.concat([carry, chunk]);
    let start = 0;
    for (let end = data.indexOf(0x0a, start); end >= 0; end = data.indexOf(0x0a, start)) {
      split.line(data.subarray(start, end + 1));
      start = end + 1;
    }
    carry = data.subarray(start);
    if (carry.length > MAIL_LIMITS.bytes) {
      split.piece(carry);
      carry = Buffer.alloc(0);
    } else carry = Buffer.from(carry);
    yield* split.done.splice(0);
  }
  split.end(carry);
  yield* split.done.splice(0);
}

/** The mails of one file: itself, or an mbox's messages. */
async function* fileMails(path: string, name: string, inFolder: boolean, passed: Passed): AsyncGenerator<FoundMail> {
  let head: Buffer;
  let size: number;
  try {
    size = (await stat(path)).size;
    head = await headOf(path);
  } catch (error) {
    yield { name, error: `cannot be read (${errnoOf(error)})`, size: 0 };
    return;
  }
  if (isMbox(head)) {
    try {
      yield* mboxMails(path, name);
    } catch (error) {
      yield { name, error: `could not be read to its end (${errnoOf(error)})`, size };
    }
    return;
  }
  // In a folder, only mails are read (Maildir's files have no extension: told by their first bytes).
  if (inFolder && mailFormatOf(head, name) === null) {
    passed.otherFiles++;
    return;
  }
  if (size > MAIL_LIMITS.bytes) {
    yield { name, error: `is larger than the limit of ${MAIL_LIMITS.bytes / 1024 / 1024} MiB`, size };
    return;
  }
  try {
    yield { name, bytes: await readFile(path), size };
  } catch (error) {
    yield { name, error: `cannot be read (${errnoOf(error)})`, size };
  }
}

/** A folder's files and subfolders, in name order; a folder met again through a link is passed over. */
async function* folderMails(path: string, name: string, seen: Set<string>, passed: Passed): AsyncGenerator<FoundMail> {
  let entries;
  try {
    const real = await realpath(path);
    if (seen.has(real)) {
      passed.loops++;
      return;
    }
    seen.add(real);
    entries = await readdir(path, { withFileTypes: true });
  } catch (error) {
    yield { name, error: `cannot be read (${errnoOf(error)})`, size: 0 };
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const full = join(path, entry.name);
    const shown = join(name, entry.name);
    let directory = entry.isDirectory();
    if (entry.isSymbolicLink()) {
      try {
        directory = (await stat(full)).isDirectory();
      } catch (error) {
        yield { name: shown, error: `is a link to nothing that can be read (${errnoOf(error)})`, size: 0 };
        continue;
      }
    } else if (!directory && !entry.isFile()) continue;
    if (directory) yield* folderMails(full, shown, seen, passed);
    else yield* fileMails(full, shown, true, passed);
  }
}

/**
 * Every mail in the paths given, in order: a file is a mail (or an mbox of them), a folder
 * is walked with its subfolders. `passed` counts what was not a mail.
 */
export async function* mailsIn(paths: readonly string[], cwd: string, passed: Passed): AsyncGenerator<FoundMail> {
  const seen = new Set<string>();
  for (const path of paths) {
    const full = resolve(cwd, path);
    let directory: boolean;
    try {
      directory = (await stat(full)).isDirectory();
    } catch (error) {
      yield { name: path, error: `cannot be read (${errnoOf(error)})`, size: 0 };
      continue;
    }
    if (directory) yield* folderMails(full, path, seen, passed);
    else yield* fileMails(full, path, false, passed);
  }
}
