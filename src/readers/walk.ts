/**
 * The one walk over a mail's tree: a message's bodies, then each of its files in order,
 * each read by the reader of what it is. What a file is comes from its content first (its
 * first bytes, ./kinds), its name and declared type after: an HTML page named
 * `invoice.pdf` is read as HTML, an SVG as an SVG whatever it is called. A kind with no
 * reader yet is listed with its hash and left unread; giving it one is one line of
 * PART_READERS. An archive holds entries, each a file read by this same walk (./zip); a
 * document holds images, scanned for codes as any image; a PDF is read by the PDF reader
 * the caller gives (./pdf), where pdf.js runs.
 */
import { extractUrls } from '../fang';
import { fillTemplate } from '../net/template';
import type { UnwrapMode } from '../resolve';

import { decodeText } from './charset';
import { describeFile, type MailAttachment } from './files';
import { MAIL_PROBLEMS } from './mail-codes';
import type { LinkList } from './found';
import { collapse, readHtml, type HtmlReading } from './html';
import { meaningOf } from './codes';
import { linksInImage, type ImageDecoder } from './image';
import { claimedKinds, detectKind, type FileKind } from './kinds';
import { isCompoundFile, type Attached, type Letter } from './letter';
import { IMAGE_LIMITS, MAIL_LIMITS, SCRIPT_LIMITS, ZIP_LIMITS } from './limits';
import { readMime } from './mime';
import { readMsg } from './msg';
import { compoundDocument, readOffice, type OfficeLink, type OfficePart } from './office';
import { readRtf } from './rtf';
import type { PdfReader, PdfReading } from './pdf';
import { readSvg } from './svg';
import { entryLabel, expandEntry, isOfficeArchive, readZipDirectory, type ZipBudget, type ZipDirectory, type ZipFailure } from './zip';

export { MAIL_PROBLEMS };

/** The stable code of a MailProblem (`messageTooDeep`, `tooManyLinks`, …). */
export type MailProblemCode = keyof typeof MAIL_PROBLEMS;

/** Something inside the mail that was left unread; the rest of the mail was read. */
export interface MailProblem {
  readonly code: MailProblemCode;
  readonly params: readonly string[];
  readonly reason: string;
  /** Where it happened (`html`, `attachment:<file name>`, `message:<subject>`); absent for the mail as a whole. */
  readonly where?: string;
}

/** State of one reading: the list, the remote resources, the problems and how many attachments were opened. */
export interface Reading {
  readonly links: LinkList;
  readonly remote: Set<string>;
  readonly problems: MailProblem[];
  readonly decoder: ImageDecoder | undefined;
  /** What reads a PDF's links (pdf.js where it may run); without one a PDF is listed, not read. */
  readonly pdf?: PdfReader | undefined;
  readonly unwrap: Exclude<UnwrapMode, 'ask'>;
  opened: number;
  scanned: number;
  readonly files: MailAttachment[];
  /** How many files were met, listed or not. */
  filesMet: number;
  /** The messages attached to the top message, read: one of them alone is the original a report wraps. */
  readonly attachedMessages: Letter[];
  /** The bytes expanded from the mail's archives and documents so far, against ZIP_LIMITS.totalBytes. */
  readonly archiveBytes: ZipBudget;
}

/** Where a message's bodies and files are said to be: the top message's, or an attached one's. */
interface Places {
  readonly html: string;
  readonly text: string;
  readonly files: string;
}

/** The places of the top message's bodies and files. */
export const TOP_PLACES: Places = { html: 'html', text: 'text', files: 'mail' };

export function problem(reading: Reading, code: MailProblemCode, params: readonly string[], where?: string): void {
  reading.problems.push({ code, params, reason: fillTemplate(MAIL_PROBLEMS[code], params), ...(where === undefined ? {} : { where }) });
}

/** A place name as `where` shows it: one line, no control characters, at most 100 characters. */
function placeName(name: string): string {
  // eslint-disable-next-line no-control-regex -- a header or file name may carry any control character
  return collapse(name.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' '), 100);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A document read (HTML or SVG): its links at `where` (a script's marked so), its loads, a script cut short said. */
function addDocument(reading: Reading, found: HtmlReading, where: string): void {
  for (const link of found.links) reading.links.add(link.url, link.shown, where, link.script);
  for (const url of found.remote) reading.remote.add(url);
  if (found.scriptCut) problem(reading, 'scriptTooLong', [String(SCRIPT_LIMITS.characters), String(SCRIPT_LIMITS.literals)], where);
}

/** A file of the mail, with the message it is in and the depth of that message (the top one is 0). */
interface Part {
  readonly attachment: Attached;
  readonly depth: number;
  /** How many archives it is inside (0 for a file of a message). */
  readonly archives?: number;
}

type PartReader = (reading: Reading, part: Part) => Promise<void>;

/** Counts a file opened (a page, an SVG, a message); false past MAIL_LIMITS.attachments, said once. */
function open(reading: Reading): boolean {
  reading.opened++;
  if (reading.opened <= MAIL_LIMITS.attachments) return true;
  if (reading.opened === MAIL_LIMITS.attachments + 1) problem(reading, 'tooManyAttachments', [String(MAIL_LIMITS.attachments)]);
  return false;
}

function attachmentPlace(attachment: Attached): string {
  return `attachment:${placeName(attachment.name)}`;
}

/** A page's or an SVG's text in its charset (its part's, its byte order mark's, its own `<meta charset>`); an unknown one said. */
function textOf(reading: Reading, attachment: Attached, where: string): string {
  const page = decodeText(attachment.bytes, attachment.charset);
  if (page.unknown !== null) problem(reading, 'unknownCharset', [page.unknown.label, page.unknown.readAs], where);
  return page.text;
}

/** An HTML page: read by the tokenizer, never shown; its scripts read as text. */
const htmlPart: PartReader = (reading, { attachment }) => {
  const where = attachmentPlace(attachment);
  if (open(reading)) addDocument(reading, readHtml(textOf(reading, attachment, where), MAIL_LIMITS.shownLength), where);
  return Promise.resolve();
};

/** An SVG image: its links, its scripts as text, its foreignObject's HTML; never drawn. */
const svgPart: PartReader = (reading, { attachment }) => {
  const where = attachmentPlace(attachment);
  if (open(reading)) addDocument(reading, readSvg(textOf(reading, attachment, where), MAIL_LIMITS.shownLength), where);
  return Promise.resolve();
};

/** The links of an image's codes, each at `qr:<image name>`; Wi-Fi, contacts and text are not links and are left out. */
const imagePart: PartReader = async (reading, { attachment }) => {
  if (reading.decoder === undefined) return;
  reading.scanned++;
  if (reading.scanned > IMAGE_LIMITS.mailImages) {
    if (reading.scanned === IMAGE_LIMITS.mailImages + 1) problem(reading, 'tooManyImages', [String(IMAGE_LIMITS.mailImages)]);
    return;
  }
  const where = `qr:${placeName(attachment.name === '' ? attachment.mimeType : attachment.name)}`;
  const image = await linksInImage(attachment.bytes, { decoder: reading.decoder, unwrap: reading.unwrap });
  // A part that only says it is an image (a tracking pixel's placeholder) is no problem; one that cannot be decoded is.
  if (!image.ok) {
    if (image.code !== 'notImage' && image.code !== 'imageEmpty') problem(reading, 'imageUnreadable', [image.reason], where);
    return;
  }
  for (const code of image.codes) if (code.url !== null) reading.links.add(code.url, null, where);
};

/** A PDF, read where pdf.js runs: its links at `attachment:<name>`, the codes drawn on its pages at `qr:<name>`. */
const pdfPart: PartReader = async (reading, { attachment }) => {
  if (reading.pdf === undefined || !open(reading)) return;
  const where = attachmentPlace(attachment);
  let found: PdfReading;
  try {
    found = await reading.pdf(attachment.bytes);
  } catch (error) {
    // The readers given here answer failures as data; one that throws still costs only this file.
    problem(reading, 'attachmentUnreadable', [messageOf(error)], where);
    return;
  }
  if (!found.ok) {
    if (found.code === 'pdfUnreadable') problem(reading, 'attachmentUnreadable', found.params, where);
    else problem(reading, found.code, found.params, where);
    return;
  }
  for (const link of found.links) reading.links.add(link.url, link.shown, where, link.script);
  const drawn = `qr:${placeName(attachment.name === '' ? attachment.mimeType : attachment.name)}`;
  for (const code of found.codes) {
    const { url } = meaningOf(code.text, reading.unwrap);
    if (url !== null) reading.links.add(url, null, drawn);
  }
  for (const note of found.notes) {
    const params = note.code === 'scriptTooLong' ? [String(SCRIPT_LIMITS.characters), String(SCRIPT_LIMITS.literals)] : note.params;
    problem(reading, note.code, params, where);
  }
};

/** An attached or forwarded message (MIME or Outlook, told by its bytes), walked in turn to MAIL_LIMITS.messageDepth. */
const messagePart: PartReader = async (reading, { attachment, depth, archives }) => {
  if (!open(reading)) return;
  const where = attachmentPlace(attachment);
  if (depth + 1 > MAIL_LIMITS.messageDepth) {
    problem(reading, 'messageTooDeep', [String(MAIL_LIMITS.messageDepth)], where);
    return;
  }
  let inner: Letter | null;
  try {
    inner = isCompoundFile(attachment.bytes) ? readMsg(attachment.bytes) : await readMime(attachment.bytes);
  } catch (error) {
    problem(reading, 'attachmentUnreadable', [messageOf(error)], where);
    return;
  }
  if (inner === null) {
    problem(reading, 'attachmentUnreadable', ['not a mail'], where);
    return;
  }
  if (depth === 0) reading.attachedMessages.push(inner);
  const place = `message:${placeName(inner.subject ?? attachment.name)}`;
  await visit(reading, inner, depth + 1, { html: place, text: place, files: place }, archives);
};

/** An entry that could not be expanded, said at `where`; false when no further entry of the mail can be (its total reached). */
function entryFailed(reading: Reading, failure: ZipFailure, where: string): boolean {
  if (failure.code === 'encrypted') problem(reading, 'encrypted', [], where);
  else if (failure.code === 'entryTooLarge') problem(reading, 'entryTooLarge', [String(ZIP_LIMITS.entryBytes / 1024 / 1024)], where);
  else if (failure.code === 'ratio') problem(reading, 'archiveBomb', [String(ZIP_LIMITS.ratio)], where);
  else if (failure.code === 'budget') problem(reading, 'archivesTooLarge', [String(ZIP_LIMITS.totalBytes / 1024 / 1024)], where);
  else problem(reading, 'attachmentUnreadable', [failure.reason], where);
  return failure.code !== 'budget';
}

/** A document's links at `where`; what it would load counted as remote content too; its text cut short said. */
function addFound(reading: Reading, links: readonly OfficeLink[], textCut: boolean, where: string): void {
  for (const link of links) {
    reading.links.add(link.url, link.shown, where);
    if (link.loads) reading.remote.add(link.url);
  }
  if (textCut) problem(reading, 'documentTextTooLong', [String(ZIP_LIMITS.textCharacters)], where);
}

/** An Office Open XML document: its XML parts' links and loads at `attachment:<name>`, its images' codes at `qr:<name>`. */
async function readDocument(reading: Reading, part: Part, directory: ZipDirectory): Promise<void> {
  const { attachment } = part;
  const where = attachmentPlace(attachment);
  if (!open(reading)) return;
  const budget = reading.archiveBytes;
  const parts: OfficePart[] = [];
  const images: Uint8Array[] = [];
  for (const entry of directory.entries) {
    const name = entry.name.toLowerCase();
    const xml = name.endsWith('.xml') || name.endsWith('.rels');
    if (entry.directory || (!xml && !name.includes('/media/'))) continue;
    const bytes = expandEntry(attachment.bytes, entry, budget);
    if (!(bytes instanceof Uint8Array)) {
      if (!entryFailed(reading, bytes, `attachment:${placeName(`${attachment.name}/${entryLabel(entry.name)}`)}`)) break;
    } else if (xml) parts.push({ name: entry.name, bytes });
    else images.push(bytes);
  }
  const found = readOffice(parts);
  addFound(reading, found.links, found.textCut, where);
  for (const bytes of images) await imagePart(reading, { attachment: { name: attachment.name, mimeType: '', bytes }, depth: part.depth });
}

/**
 * A zip: an Office document when it holds `[Content_Types].xml`, else an archive whose
 * entries are each read as a file of the mail (listed at `attachment:<archive name>`,
 * their links at `attachment:<entry name>`), to ZIP_LIMITS.depth archives deep.
 */
const zipPart: PartReader = async (reading, part) => {
  const { attachment } = part;
  const where = attachmentPlace(attachment);
  const directory = readZipDirectory(attachment.bytes);
  if (!directory.ok) {
    problem(reading, 'attachmentUnreadable', [directory.reason], where);
    return;
  }
  if (isOfficeArchive(directory)) {
    await readDocument(reading, part, directory);
    return;
  }
  const archives = (part.archives ?? 0) + 1;
  if (archives > ZIP_LIMITS.depth) {
    problem(reading, 'archiveTooDeep', [String(ZIP_LIMITS.depth)], where);
    return;
  }
  if (!open(reading)) return;
  const files = directory.entries.filter((entry) => !entry.directory);
  if (files.length > 0 && files.every((entry) => entry.encrypted)) {
    problem(reading, 'encrypted', [], where);
    return;
  }
  const budget = reading.archiveBytes;
  for (const entry of files) {
    const name = entryLabel(entry.name);
    const bytes = expandEntry(attachment.bytes, entry, budget);
    if (!(bytes instanceof Uint8Array)) {
      if (!entryFailed(reading, bytes, `attachment:${placeName(name)}`)) break;
      continue;
    }
    await readPart(reading, { attachment: { name, mimeType: '', bytes }, depth: part.depth, archives }, { html: where, text: where, files: where });
  }
  if (directory.more > 0) problem(reading, 'tooManyEntries', [String(ZIP_LIMITS.entries)], where);
};

/** An RTF document: its HYPERLINK fields, the fields that load, the URLs of its text. */
const rtfPart: PartReader = (reading, { attachment }) => {
  const where = attachmentPlace(attachment);
  if (open(reading)) {
    const found = readRtf(new TextDecoder('latin1').decode(attachment.bytes));
    addFound(reading, found.links, found.textCut, where);
  }
  return Promise.resolve();
};

/** A compound file that is not a message: a legacy Office document, or an Office document encrypted with a password. */
const compoundPart: PartReader = (reading, { attachment }) => {
  const where = attachmentPlace(attachment);
  const [named, declared] = claimedKinds(attachment.name, attachment.mimeType);
  const document = compoundDocument(attachment.bytes);
  if (document === 'encrypted') problem(reading, 'encrypted', [], where);
  else if (document === 'legacy' || named === 'ole' || declared === 'ole') problem(reading, 'legacyOfficeNotRead', [], where);
  return Promise.resolve();
};

/** An archive of a format Isolink does not open, named in a problem with what would open it. */
function notOpened(format: string): PartReader {
  return (reading, { attachment }) => {
    problem(reading, 'archiveNotRead', [format], attachmentPlace(attachment));
    return Promise.resolve();
  };
}

/**
 * The reader of each kind of file. Kinds not here (programs, shortcuts, OneNote, text) are
 * listed, not read; archives Isolink does not open are named in a problem.
 */
const PART_READERS: Partial<Readonly<Record<FileKind, PartReader>>> = {
  html: htmlPart,
  svg: svgPart,
  mail: messagePart,
  pdf: pdfPart,
  png: imagePart,
  jpeg: imagePart,
  gif: imagePart,
  webp: imagePart,
  bmp: imagePart,
  zip: zipPart,
  rtf: rtfPart,
  ole: compoundPart,
  rar: notOpened('RAR'),
  '7z': notOpened('7z'),
  iso: notOpened('ISO 9660'),
  cab: notOpened('CAB'),
  gzip: notOpened('gzip'),
};

/** Outlook's own label for a .msg: a compound file is read as a message only when it says it is one. */
function saysOutlookMessage(attachment: Attached): boolean {
  return attachment.mimeType === 'application/vnd.ms-outlook' || attachment.name.toLowerCase().endsWith('.msg');
}

/**
 * What a file is read as: its content's kind (first bytes), else what its declared type or
 * its name claims (one with a reader first). A compound file is a message when labelled one (a
 * .doc is a compound file too).
 */
function readKindOf(attachment: Attached): FileKind | null {
  const detected = detectKind(attachment.bytes);
  if (detected === 'ole') return saysOutlookMessage(attachment) ? 'mail' : 'ole';
  if (detected !== null) return detected;
  // The content says nothing (text that starts with words): the label decides, a claim with a reader first.
  const [named, declared] = claimedKinds(attachment.name, attachment.mimeType);
  for (const claim of [declared, named]) if (claim !== null && PART_READERS[claim] !== undefined) return claim;
  return named ?? declared;
}

/** Lists a file of the mail with its hash, up to `MAIL_LIMITS.files`; `where` names the message holding it. */
async function listFile(reading: Reading, attachment: Attached, where: string): Promise<void> {
  reading.filesMet++;
  if (reading.filesMet > MAIL_LIMITS.files) {
    if (reading.filesMet === MAIL_LIMITS.files + 1) problem(reading, 'tooManyFiles', [String(MAIL_LIMITS.files)]);
    return;
  }
  reading.files.push(await describeFile(attachment, placeName(attachment.name), where));
}

/** One file: listed, then read by its kind's reader, if it has one. */
async function readPart(reading: Reading, part: Part, places: Places): Promise<void> {
  await listFile(reading, part.attachment, places.files);
  const kind = readKindOf(part.attachment);
  const reader = kind === null ? undefined : PART_READERS[kind];
  if (reader !== undefined) await reader(reading, part);
}

/** Reads a message's bodies, then its files in order (attached messages walked in turn); `archives`: how many archives hold the message. */
export async function visit(reading: Reading, letter: Letter, depth: number, places: Places, archives = 0): Promise<void> {
  for (const note of letter.unknownCharsets ?? []) {
    // A header's place is the header in the mail itself, the message it heads in an attached one.
    const where = note.part === 'html' ? places.html : note.part === 'text' ? places.text : depth === 0 ? `header:${note.part}` : places.html;
    problem(reading, 'unknownCharset', [note.label, note.readAs], where);
  }
  if (letter.html !== null) addDocument(reading, readHtml(letter.html, MAIL_LIMITS.shownLength), places.html);
  if (letter.text !== null) for (const url of extractUrls(letter.text)) reading.links.add(url, null, places.text);
  for (const attachment of letter.attachments) await readPart(reading, { attachment, depth, archives }, places);
}
