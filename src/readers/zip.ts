/**
 * Zip archives, opened without trusting them: the central directory is read with every
 * offset and length checked against the file, and an entry is inflated (fflate's streaming
 * inflater, fed a few kilobytes at a time) only while its output stays within ZIP_LIMITS,
 * counted as it is made, never taken from the sizes the archive declares. A zip bomb stops
 * at the limit with a code that says which one; an encrypted entry is said, never guessed
 * at. Entry names are text to show, never paths: nothing is written anywhere.
 *
 * The format is PKWARE's APPNOTE: the end of central directory record (found from the end,
 * after at most 64 KiB of comment), then one central directory header per entry naming its
 * local header, after which its data starts. Zip64 archives (over 4 GiB or 65,535 entries)
 * are refused: a mail carries none.
 */
import { Inflate } from 'fflate';

import { ZIP_LIMITS } from './limits';

/** One entry as the central directory declares it (sizes as declared: hostile, checked when read). */
export interface ZipEntry {
  /** The name as written (UTF-8 when flagged or valid, else Latin-1); a path-like text, never used as one. */
  readonly name: string;
  /** A directory entry (its name ends with `/`): nothing to read. */
  readonly directory: boolean;
  /** Encrypted (ZipCrypto or WinZip AES): its content cannot be read without the password. */
  readonly encrypted: boolean;
  /** Compression method: 0 stored, 8 deflated; others are not read. */
  readonly method: number;
  readonly compressedSize: number;
  readonly declaredSize: number;
  /** Offset of its local header in the archive. */
  readonly headerOffset: number;
}

/** An archive's directory: its entries up to ZIP_LIMITS.entries, and how many more it declares. */
export interface ZipDirectory {
  readonly ok: true;
  readonly entries: readonly ZipEntry[];
  /** Entries declared beyond ZIP_LIMITS.entries, not read. */
  readonly more: number;
}

/** Why an archive or an entry could not be read (English for the reason, a code for the caller). */
export interface ZipFailure {
  readonly ok: false;
  readonly code: 'damaged' | 'encrypted' | 'method' | 'entryTooLarge' | 'ratio' | 'budget';
  readonly reason: string;
}

/** Bytes expanded so far for one mail, all its archives and documents together: ZIP_LIMITS.totalBytes. */
export interface ZipBudget {
  used: number;
}

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_HEADER = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
const END_RECORD_SIZE = 22;
const DIRECTORY_HEADER_SIZE = 46;
const LOCAL_HEADER_SIZE = 30;
const MAX_COMMENT = 0xffff;
/** Compressed bytes given to the inflater at once: deflate expands at most ~1,032 times, so one step makes at most ~4 MiB. */
const STEP = 4096;
/** WinZip AES marks its entries with this method; the real one is in an extra field. */
const AES_METHOD = 99;

function damaged(reason: string): ZipFailure {
  return { ok: false, code: 'damaged', reason };
}

function u16(bytes: Uint8Array, at: number): number {
  return (bytes[at] ?? 0) | ((bytes[at + 1] ?? 0) << 8);
}

function u32(bytes: Uint8Array, at: number): number {
  return (u16(bytes, at) | (u16(bytes, at + 2) << 16)) >>> 0;
}

/** Where the end of central directory record starts, searched back over a comment of at most 64 KiB; -1 when none. */
function endRecordAt(bytes: Uint8Array): number {
  const last = bytes.length - END_RECORD_SIZE;
  const first = Math.max(0, last - MAX_COMMENT);
  for (let at = last; at >= first; at--) {
    // The record's comment must reach the end exactly: a signature inside a comment is not the record.
    if (u32(bytes, at) === END_OF_DIRECTORY && at + END_RECORD_SIZE + u16(bytes, at + 20) === bytes.length) return at;
  }
  for (let at = last; at >= first; at--) if (u32(bytes, at) === END_OF_DIRECTORY) return at;
  return -1;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });
const LATIN1 = new TextDecoder('latin1');

/** An entry's name: UTF-8 when flagged (bit 11) or valid, else Latin-1 (DOS code page 437 differs only in symbols). */
function nameOf(raw: Uint8Array): string {
  try {
    return UTF8.decode(raw);
  } catch {
    return LATIN1.decode(raw);
  }
}

/**
 * Reads an archive's central directory: every entry's name, flags, method, sizes and where
 * its data is, each checked to lie inside the file. Never throws.
 */
export function readZipDirectory(bytes: Uint8Array): ZipDirectory | ZipFailure {
  const end = endRecordAt(bytes);
  if (end === -1) return damaged('it has no zip directory (the end of the archive is missing)');
  const declared = u16(bytes, end + 10);
  const size = u32(bytes, end + 12);
  const offset = u32(bytes, end + 16);
  if (declared === 0xffff || offset === 0xffffffff || size === 0xffffffff) return damaged('it is a Zip64 archive, which Isolink does not read');
  if (u16(bytes, end + 4) !== 0 || u16(bytes, end + 6) !== 0) return damaged('it is one part of a split archive');
  if (offset + size > end) return damaged('its directory lies outside the file');
  const entries: ZipEntry[] = [];
  let at = offset;
  for (let index = 0; index < declared; index++) {
    if (index >= ZIP_LIMITS.entries) return { ok: true, entries, more: declared - index };
    if (at + DIRECTORY_HEADER_SIZE > end || u32(bytes, at) !== DIRECTORY_HEADER) return damaged(`its directory breaks off at entry ${index + 1}`);
    const flags = u16(bytes, at + 8);
    const method = u16(bytes, at + 10);
    const nameLength = u16(bytes, at + 28);
    const next = at + DIRECTORY_HEADER_SIZE + nameLength + u16(bytes, at + 30) + u16(bytes, at + 32);
    if (next > end) return damaged(`its directory breaks off at entry ${index + 1}`);
    const name = nameOf(bytes.subarray(at + DIRECTORY_HEADER_SIZE, at + DIRECTORY_HEADER_SIZE + nameLength));
    entries.push({
      name,
      directory: name.endsWith('/') || name.endsWith('\\'),
      encrypted: (flags & 1) !== 0 || method === AES_METHOD,
      method,
      compressedSize: u32(bytes, at + 20),
      declaredSize: u32(bytes, at + 24),
      headerOffset: u32(bytes, at + 42),
    });
    at = next;
  }
  return { ok: true, entries, more: 0 };
}

const MIB = 1024 * 1024;

/** Thrown from the inflater's callback to stop it at a limit. */
class Stop extends Error {
  constructor(readonly failure: ZipFailure) {
    super(failure.reason);
  }
}

/** The entry's compressed bytes, located through its local header; a failure when they lie outside the file. */
function compressedData(bytes: Uint8Array, entry: ZipEntry): Uint8Array | ZipFailure {
  const at = entry.headerOffset;
  if (at + LOCAL_HEADER_SIZE > bytes.length || u32(bytes, at) !== LOCAL_HEADER) return damaged('its local header is missing');
  const start = at + LOCAL_HEADER_SIZE + u16(bytes, at + 26) + u16(bytes, at + 28);
  const stop = start + entry.compressedSize;
  if (stop > bytes.length) return damaged('its data runs past the end of the archive');
  return bytes.subarray(start, stop);
}

/** The first limit `size` bytes made from `consumed` compressed bytes would pass, or null. */
function overLimit(size: number, consumed: number, budget: ZipBudget): ZipFailure | null {
  if (size > ZIP_LIMITS.entryBytes) return { ok: false, code: 'entryTooLarge', reason: `it expands beyond ${ZIP_LIMITS.entryBytes / MIB} MiB` };
  if (budget.used + size > ZIP_LIMITS.totalBytes) return { ok: false, code: 'budget', reason: `the archives expand beyond ${ZIP_LIMITS.totalBytes / MIB} MiB` };
  if (size > ZIP_LIMITS.ratioFrom && size > consumed * ZIP_LIMITS.ratio)
    return { ok: false, code: 'ratio', reason: `it expands more than ${ZIP_LIMITS.ratio} times, as a zip bomb does` };
  return null;
}

/** Deflated data inflated a step at a time, stopped at the first limit passed. */
function inflateBounded(data: Uint8Array, budget: ZipBudget): Uint8Array | ZipFailure {
  const chunks: Uint8Array[] = [];
  let size = 0;
  let consumed = 0;
  const state = { ended: false };
  const inflater = new Inflate((chunk, final) => {
    size += chunk.length;
    const over = overLimit(size, consumed, budget);
    if (over !== null) throw new Stop(over);
    chunks.push(chunk);
    if (final) state.ended = true;
  });
  try {
    for (let at = 0; at < data.length && !state.ended; at += STEP) {
      consumed = Math.min(data.length, at + STEP);
      inflater.push(data.subarray(at, consumed), consumed === data.length);
    }
    if (data.length === 0) inflater.push(data, true);
  } catch (error) {
    if (error instanceof Stop) return error.failure;
    return damaged(`its data is not valid deflate (${error instanceof Error ? error.message : String(error)})`);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

/**
 * One entry's content, stored or deflated, within ZIP_LIMITS: its size and the mail's total
 * counted as it is inflated (and added to `budget` when read). Never throws.
 */
export function expandEntry(bytes: Uint8Array, entry: ZipEntry, budget: ZipBudget): Uint8Array | ZipFailure {
  if (entry.encrypted) return { ok: false, code: 'encrypted', reason: 'it is encrypted' };
  if (entry.method !== 0 && entry.method !== 8)
    return { ok: false, code: 'method', reason: `it is compressed by method ${entry.method}, which Isolink does not read (stored and deflated are read)` };
  const data = compressedData(bytes, entry);
  if (!(data instanceof Uint8Array)) return data;
  let out: Uint8Array | ZipFailure;
  if (entry.method === 0) {
    const over = overLimit(data.length, data.length, budget);
    out = over ?? data.slice();
  } else {
    out = inflateBounded(data, budget);
  }
  if (out instanceof Uint8Array) budget.used += out.length;
  return out;
}

/** Whether the archive is an Office Open XML document: it holds `[Content_Types].xml` (told by content, not name). */
export function isOfficeArchive(directory: ZipDirectory): boolean {
  return directory.entries.some((entry) => entry.name === '[Content_Types].xml');
}

/** Longest entry name shown; a longer one keeps its start and its end (where the real extension is). */
const NAME_SHOWN = 100;

/**
 * An entry's name as Isolink shows it, never as a path: control, bidirectional and
 * invisible characters (which hide an `.exe` behind a `.pdf`) made visible as U+FFFD,
 * white space collapsed, backslashes written as slashes, and a long name cut in its
 * middle. `../` and a leading `/` stay visible: they are what the archive says.
 */
export function entryLabel(name: string): string {
  const shown = name
    // eslint-disable-next-line no-control-regex -- exactly the characters that hide or reorder text
    .replace(/[\u0000-\u0008\u000e-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g, '\uFFFD')
    .replace(/\s+/g, ' ')
    .replaceAll('\\', '/')
    .trim();
  if (shown.length <= NAME_SHOWN) return shown === '' ? '(no name)' : shown;
  return `${shown.slice(0, 40)}…${shown.slice(-(NAME_SHOWN - 41))}`;
}
