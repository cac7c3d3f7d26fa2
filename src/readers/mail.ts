/**
 * `linksInMail`: every link of a reported mail (.eml or Outlook .msg), with the text it
 * pretended to be, where it was found, and what Isolink would isolate for it. Reading a
 * mail fetches nothing and runs nothing: the HTML is only tokenized (./html), no document made,
 * and nothing of the mail is kept after the call.
 */
import { extractUrls } from '../fang';
import { fillTemplate } from '../net/template';
import type { UnwrapMode } from '../resolve';

import { decodeText } from './charset';
import { describeFile, type MailAttachment } from './files';
import { LinkList, type MailLink } from './found';
import { collapse, readHtml } from './html';
import { linksInImage, type ImageDecoder } from './image';
import { isCompoundFile, type Attached, type Letter } from './letter';
import { IMAGE_LIMITS, MAIL_LIMITS } from './limits';
import { readMime } from './mime';
import { readMsg } from './msg';
import { fromAddress, senderStory, type MailAddress, type SenderStory } from './sender';

/** A mail's format: MIME (`.eml`, what "Report phishing" attaches) or Outlook's compound file (`.msg`). */
export type MailFormat = 'eml' | 'msg';

/** How linksInMail reads the bytes it is given. */
export interface MailOptions {
  /** How to read the bytes: `auto` (the default) tells an Outlook .msg from a MIME mail by its first bytes. */
  readonly format?: 'auto' | MailFormat;
  /** Wrapped links: isolate the real target (`unwrap`, the default) or the wrapper as written (`keep`). */
  readonly unwrap?: Exclude<UnwrapMode, 'ask'>;
  /**
   * Scans the mail's images (inline and attached) for QR and other codes with this
   * decoder; their links join the list with `where: qr:<image name>`. Without one, images
   * are not read. The package's `linksInMail` gives its own.
   */
  readonly decoder?: ImageDecoder;
}

/** Why a mail could not be read at all, in English with `$1` for its params. */
export const MAIL_FAILURES = {
  mailEmpty: 'is empty',
  mailTooLarge: 'is larger than the limit of $1 MiB',
  notMail: 'is not a mail: neither a MIME message (.eml) nor an Outlook message (.msg)',
  notCompoundFile: 'is not an Outlook .msg: it is not an OLE compound file',
  mailUnreadable: 'could not be read as a mail: $1',
} as const satisfies Record<string, string>;

/** What could not be read inside a mail that was read, in English with `$1`… for its params. */
export const MAIL_PROBLEMS = {
  messageTooDeep: 'holds messages nested more than $1 deep; the deeper ones were not read',
  tooManyAttachments: 'has more than $1 attachments to read; the rest were not read',
  tooManyLinks: 'has more than $1 links; $2 more were not listed',
  attachmentUnreadable: 'could not be read: $1',
  tooManyImages: 'has more than $1 images; the rest were not scanned for codes',
  imageUnreadable: 'could not be scanned for codes: $1',
  tooManyFiles: 'has more than $1 files attached; the rest were not listed',
  unknownCharset: 'is written in charset $1, which Isolink does not know; it was read as $2',
} as const satisfies Record<string, string>;

/** The stable code of a MailFailure (`notMail`, `mailTooLarge`, …). */
export type MailFailureCode = keyof typeof MAIL_FAILURES;
/** The stable code of a MailProblem (`messageTooDeep`, `tooManyLinks`, …). */
export type MailProblemCode = keyof typeof MAIL_PROBLEMS;

/** A mail that could not be read: nothing of it is listed. */
export interface MailFailure {
  readonly ok: false;
  readonly code: MailFailureCode;
  readonly params: readonly string[];
  /** English, for developers and the command: "is not a mail: …". */
  readonly reason: string;
}

/** Something inside the mail that was left unread; the rest of the mail was read. */
export interface MailProblem {
  readonly code: MailProblemCode;
  readonly params: readonly string[];
  readonly reason: string;
  /** Where it happened (`attachment:<file name>`, `message:<subject>`); absent for the mail as a whole. */
  readonly where?: string;
}

/** A mail read: who sent it, what it says it is, and its links. */
export interface MailReport {
  readonly ok: true;
  readonly format: MailFormat;
  /** "Name <address>" as the mail claims (a sender is easily forged); null when absent. */
  readonly from: string | null;
  readonly subject: string | null;
  /** ISO 8601 when the date could be read, else as written; null when absent. */
  readonly date: string | null;
  /** Every link, once per target, in the order first met. */
  readonly links: readonly MailLink[];
  /**
   * The sender's story (From, Reply-To, Return-Path, the verdicts at the boundary, the hop
   * it entered by): of the original when the mail is a user's report wrapping it (one
   * attached message, as "Report phishing" buttons send it), else of the mail itself.
   */
  readonly sender: SenderStory;
  /** Who reported it, when the mail wraps the original (its From); null otherwise. */
  readonly reportedBy: MailAddress | null;
  /** Every file the mail carries (attachments, inline parts, attached messages, theirs too), in order met, with its hash. */
  readonly attachments: readonly MailAttachment[];
  /** Distinct remote resources (images, stylesheets, fonts, frames) the mail would load if shown: how it phones home. */
  readonly remoteContent: number;
  readonly problems: readonly MailProblem[];
}

/** What linksInMail answers: the mail read (`ok: true`), or why it could not be (`ok: false`). */
export type MailReading = MailReport | MailFailure;

function failure(code: MailFailureCode, ...params: string[]): MailFailure {
  return { ok: false, code, params, reason: fillTemplate(MAIL_FAILURES[code], params) };
}

/** A place name as `where` shows it: one line, no control characters, at most 100 characters. */
function placeName(name: string): string {
  // eslint-disable-next-line no-control-regex -- a header or file name may carry any control character
  return collapse(name.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' '), 100);
}

type AttachmentKind = 'html' | 'message' | 'image';

/** The names of image files (told by name where a mail declares no image type). */
const IMAGE_NAME = /\.(?:png|jpe?g|gif|webp|bmp)$/;

/** Which attachments hold links: HTML pages, messages (MIME or Outlook) and images (codes); the rest are left alone. */
function kindOf(attachment: Attached): AttachmentKind | null {
  const name = attachment.name.toLowerCase();
  const type = attachment.mimeType;
  if (type === 'text/html' || name.endsWith('.html') || name.endsWith('.htm')) return 'html';
  if (type === 'message/rfc822' || type === 'application/vnd.ms-outlook' || name.endsWith('.eml') || name.endsWith('.msg')) return 'message';
  if (type.startsWith('image/') || IMAGE_NAME.test(name)) return 'image';
  return null;
}

/** State of one reading: the list, the remote resources, the problems and how many attachments were opened. */
interface Reading {
  readonly links: LinkList;
  readonly remote: Set<string>;
  readonly problems: MailProblem[];
  readonly decoder: ImageDecoder | undefined;
  readonly unwrap: Exclude<UnwrapMode, 'ask'>;
  opened: number;
  scanned: number;
  readonly files: MailAttachment[];
  /** How many files were met, listed or not. */
  filesMet: number;
  /** The messages attached to the top message, read: one of them alone is the original a report wraps. */
  readonly attachedMessages: Letter[];
}

function problem(reading: Reading, code: MailProblemCode, params: readonly string[], where?: string): void {
  reading.problems.push({ code, params, reason: fillTemplate(MAIL_PROBLEMS[code], params), ...(where === undefined ? {} : { where }) });
}

function addHtml(reading: Reading, html: string, where: string): void {
  const found = readHtml(html, MAIL_LIMITS.shownLength);
  for (const link of found.links) reading.links.add(link.url, link.shown, where);
  for (const url of found.remote) reading.remote.add(url);
}

/** The links of an image's codes, each at `qr:<image name>`; Wi-Fi, contacts and text are not links and are left out. */
async function addImage(reading: Reading, attachment: Attached): Promise<void> {
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
}

/** A message inside the mail, of either format (told by its bytes); null when it is neither. */
async function readInner(bytes: Uint8Array): Promise<Letter | null> {
  return isCompoundFile(bytes) ? readMsg(bytes) : readMime(bytes);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
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

/** Where a message's bodies and files are said to be: the top message's, or an attached one's. */
interface Places {
  readonly html: string;
  readonly text: string;
  readonly files: string;
}

/** Reads a message's bodies, then its attachments in order (attached messages to `MAIL_LIMITS.messageDepth`). */
async function visit(reading: Reading, letter: Letter, depth: number, places: Places): Promise<void> {
  for (const note of letter.unknownCharsets ?? []) {
    // A header's place is the header in the mail itself, the message it heads in an attached one.
    const where = note.part === 'html' ? places.html : note.part === 'text' ? places.text : depth === 0 ? `header:${note.part}` : places.html;
    problem(reading, 'unknownCharset', [note.label, note.readAs], where);
  }
  if (letter.html !== null) addHtml(reading, letter.html, places.html);
  if (letter.text !== null) for (const url of extractUrls(letter.text)) reading.links.add(url, null, places.text);
  for (const attachment of letter.attachments) {
    await listFile(reading, attachment, places.files);
    const kind = kindOf(attachment);
    if (kind === null) continue;
    if (kind === 'image') {
      await addImage(reading, attachment);
      continue;
    }
    const where = `attachment:${placeName(attachment.name)}`;
    reading.opened++;
    if (reading.opened > MAIL_LIMITS.attachments) {
      if (reading.opened === MAIL_LIMITS.attachments + 1) problem(reading, 'tooManyAttachments', [String(MAIL_LIMITS.attachments)]);
      continue;
    }
    if (kind === 'html') {
      const page = decodeText(attachment.bytes, attachment.charset);
      if (page.unknown !== null) problem(reading, 'unknownCharset', [page.unknown.label, page.unknown.readAs], where);
      addHtml(reading, page.text, where);
      continue;
    }
    if (depth + 1 > MAIL_LIMITS.messageDepth) {
      problem(reading, 'messageTooDeep', [String(MAIL_LIMITS.messageDepth)], where);
      continue;
    }
    let inner: Letter | null;
    try {
      inner = await readInner(attachment.bytes);
    } catch (error) {
      problem(reading, 'attachmentUnreadable', [messageOf(error)], where);
      continue;
    }
    if (inner === null) {
      problem(reading, 'attachmentUnreadable', ['not a mail'], where);
      continue;
    }
    if (depth === 0) reading.attachedMessages.push(inner);
    const place = `message:${placeName(inner.subject ?? attachment.name)}`;
    await visit(reading, inner, depth + 1, { html: place, text: place, files: place });
  }
}

/**
 * Every link of a reported mail, with what it showed and what Isolink would isolate.
 *
 * Reads MIME (.eml, with postal-mime) and Outlook .msg (with @kenjiuno/msgreader), told
 * apart by their first bytes unless `options.format` says. Links come from the HTML body
 * (`<a>`, `<area>`, `<form action>`, `<meta http-equiv=refresh>`, `<base>` applied, and
 * URLs in its text), the text body (defanged URLs too), attached `.html` pages, and
 * attached or forwarded messages (to a bounded depth), and with `options.decoder` the codes
 * in its images (`where: qr:<image name>`). Each is resolved as the extension
 * and the command resolve any link (refang, unwrap, checks), listed once per target with
 * every place it was found. `mailto:` and `tel:` links are left out; remote images,
 * stylesheets and fonts are counted, not listed.
 *
 * Never throws and never fetches: a file that is not a mail, too large or damaged gives
 * `{ ok: false, code, reason }`; what could not be read inside a mail is in `problems`.
 *
 * @example
 * import { readFile } from 'node:fs/promises';
 * import { linksInMail } from 'isolink';
 * const mail = await linksInMail(await readFile('reported.eml'));
 * if (mail.ok) for (const link of mail.links) console.log(link.shown, '->', link.target, link.mismatch ? '(lies)' : '');
 */
export async function linksInMail(bytes: Uint8Array, options: MailOptions = {}): Promise<MailReading> {
  if (bytes.length === 0) return failure('mailEmpty');
  if (bytes.length > MAIL_LIMITS.bytes) return failure('mailTooLarge', String(MAIL_LIMITS.bytes / 1024 / 1024));
  const format = options.format ?? 'auto';
  const compound = isCompoundFile(bytes);
  if (format === 'msg' && !compound) return failure('notCompoundFile');
  const unwrap = options.unwrap ?? 'unwrap';
  const reading: Reading = {
    links: new LinkList(unwrap, MAIL_LIMITS.links),
    remote: new Set(),
    problems: [],
    decoder: options.decoder,
    unwrap,
    opened: 0,
    scanned: 0,
    files: [],
    filesMet: 0,
    attachedMessages: [],
  };
  try {
    const letter = compound && format !== 'eml' ? readMsg(bytes) : await readMime(bytes);
    if (letter === null) return failure('notMail');
    await visit(reading, letter, 0, { html: 'html', text: 'text', files: 'mail' });
    if (reading.links.dropped > 0) problem(reading, 'tooManyLinks', [String(MAIL_LIMITS.links), String(reading.links.dropped)]);
    const [original, ...others] = reading.attachedMessages;
    const wraps = original !== undefined && others.length === 0;
    return {
      ok: true,
      format: compound && format !== 'eml' ? 'msg' : 'eml',
      from: letter.from,
      subject: letter.subject,
      date: letter.date,
      sender: senderStory(wraps ? original : letter),
      reportedBy: wraps ? fromAddress(letter) : null,
      links: reading.links.list(),
      attachments: reading.files,
      remoteContent: reading.remote.size,
      problems: reading.problems,
    };
  } catch (error) {
    return failure('mailUnreadable', messageOf(error));
  }
}
