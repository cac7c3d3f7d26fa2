/**
 * `linksInMail`: every link of a reported mail (.eml or Outlook .msg), or of a file saved
 * from one (an HTML page, an SVG), with the text it pretended to be, where it was found,
 * and what Isolink would isolate for it. Reading a mail fetches nothing and runs nothing:
 * the HTML and SVG are only tokenized (./html, ./svg), no document made, their scripts read
 * as text (./script); the walk over the mail's tree is ./walk. Nothing of the mail is kept
 * after the call.
 */
import { fillTemplate } from '../net/template';
import type { UnwrapMode } from '../resolve';

import type { MailAttachment } from './files';
import { LinkList, type MailLink } from './found';
import { MAIL_FAILURES } from './mail-codes';
import type { ImageDecoder } from './image';
import { claimedKinds, detectKind } from './kinds';
import { isCompoundFile, type Letter } from './letter';
import { MAIL_LIMITS } from './limits';
import { readMime } from './mime';
import { readMsg } from './msg';
import type { ImageFormat } from './picture';
import { compoundDocument, officeKindOf } from './office';
import type { PdfReader } from './pdf';
import { fromAddress, senderStory, type MailAddress, type SenderStory } from './sender';
import { problem, TOP_PLACES, visit, type MailProblem, type Reading } from './walk';
import { isOfficeArchive, readZipDirectory } from './zip';

/**
 * What was read: a mail, MIME (`.eml`, what "Report phishing" attaches) or Outlook's
 * compound file (`.msg`); or a file saved from one and given on its own, an HTML page
 * (`html`), an SVG image (`svg`), a PDF (`pdf`), a zip archive (`zip`), an Office document
 * (`docx`, `xlsx`, `pptx`, their macro-enabled forms too), an RTF document (`rtf`) or an
 * image (`png`, `jpeg`, `gif`, `webp`, `bmp`: its codes), read as a mail holding it would be.
 */
export type MailFormat = 'eml' | 'msg' | 'html' | 'svg' | 'pdf' | 'zip' | 'docx' | 'xlsx' | 'pptx' | 'rtf' | ImageFormat;

/** The formats of a file given on its own, and the type a mail would declare for it. */
const ALONE_TYPES = {
  html: 'text/html',
  svg: 'image/svg+xml',
  pdf: 'application/pdf',
  zip: 'application/zip',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  rtf: 'application/rtf',
  png: 'image/png',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  bmp: 'image/bmp',
} as const satisfies Record<Exclude<MailFormat, 'eml' | 'msg'>, string>;

type AloneFormat = keyof typeof ALONE_TYPES;

/** The kinds (./kinds) that are a format given on its own as they are; a zip is told apart from an Office document. */
const ALONE_KINDS: ReadonlySet<string> = new Set<string>(['html', 'svg', 'pdf', 'rtf', 'png', 'jpeg', 'gif', 'webp', 'bmp']);

/** How linksInMail reads the bytes it is given. */
export interface MailOptions {
  /**
   * How to read the bytes: `auto` (the default) tells them by their first bytes (an
   * Outlook .msg, a MIME mail, an HTML page, an SVG, a PDF, a zip or an Office document, an
   * RTF document, an image) and by `name`; the other formats read a saved attachment as the
   * one file of a mail.
   */
  readonly format?: 'auto' | MailFormat;
  /**
   * The file's name: a file given on its own is found at `attachment:<name>`, as
   * in a mail holding it, and `auto` looks at its extension when the content says nothing.
   */
  readonly name?: string;
  /** Wrapped links: isolate the real target (`unwrap`, the default) or the wrapper as written (`keep`). */
  readonly unwrap?: Exclude<UnwrapMode, 'ask'>;
  /**
   * Scans the mail's images (inline and attached) for QR and other codes with this
   * decoder; their links join the list with `where: qr:<image name>`. Without one, images
   * are not read. The package's `linksInMail` gives its own.
   */
  readonly decoder?: ImageDecoder;
  /**
   * Reads the mail's PDFs (link annotations, text, scripts as text, codes drawn on their
   * pages) with this reader, pdf.js where it may run; their links join the list at
   * `attachment:<name>` and `qr:<name>`. Without one, a PDF is listed with its hash, not
   * read. The package's `linksInMail` gives its own.
   */
  readonly pdf?: PdfReader;
}

export { MAIL_FAILURES };

/** The stable code of a MailFailure (`notMail`, `mailTooLarge`, …). */
export type MailFailureCode = keyof typeof MAIL_FAILURES;

/** A mail that could not be read: nothing of it is listed. */
export interface MailFailure {
  readonly ok: false;
  readonly code: MailFailureCode;
  readonly params: readonly string[];
  /** English, for developers and the command: "is not a mail: …". */
  readonly reason: string;
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

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A zip given on its own: an Office document's application when it is one (told by its parts), else `zip`. */
function zipFormat(bytes: Uint8Array): AloneFormat {
  const directory = readZipDirectory(bytes);
  if (!directory.ok || !isOfficeArchive(directory)) return 'zip';
  return officeKindOf(directory.entries.map((entry) => entry.name)) ?? 'zip';
}

/** A saved file given on its own: told by `format`, else by its content, else (a text) by its name's extension; null for a mail. */
function aloneFormat(bytes: Uint8Array, format: 'auto' | MailFormat, name: string): AloneFormat | null {
  if (format !== 'auto') return format === 'eml' || format === 'msg' ? null : format;
  const detected = detectKind(bytes);
  if (detected === 'zip') return zipFormat(bytes);
  if (detected !== null && ALONE_KINDS.has(detected)) return detected as AloneFormat;
  if (detected !== null) return null;
  // Only text formats are told by their name: a PDF, a zip or an image is one by its first bytes or not at all.
  const [named] = claimedKinds(name, '');
  return named === 'html' || named === 'svg' || named === 'rtf' ? named : null;
}

/** The mail that holds nothing but the file: no headers, no bodies, the file as its attachment. */
function holding(format: AloneFormat, bytes: Uint8Array, name: string): Letter {
  return {
    headers: [],
    from: null,
    subject: null,
    date: null,
    html: null,
    text: null,
    attachments: [{ name, mimeType: ALONE_TYPES[format], bytes }],
  };
}

/** A compound file that is no message: a legacy or encrypted Office document said as such, else not a mail. */
function compoundFailure(bytes: Uint8Array): MailFailure {
  const document = compoundDocument(bytes);
  return failure(document === 'legacy' ? 'legacyOffice' : document === 'encrypted' ? 'encryptedDocument' : 'notMail');
}

/**
 * Every link of a reported mail, with what it showed and what Isolink would isolate.
 *
 * Reads MIME (.eml, with postal-mime) and Outlook .msg (with @kenjiuno/msgreader), told
 * apart by their first bytes unless `options.format` says. Links come from the HTML body
 * (`<a>`, `<area>`, `<form action>`, `<meta http-equiv=refresh>`, `<base>` applied, and
 * URLs in its text), the text body (defanged URLs too), attached HTML pages and SVG images
 * (told by their content first, their name and type after), the scripts of both read as
 * text (`scriptOnly` marks a link found nowhere else), and attached or forwarded messages
 * (to a bounded depth), and with `options.decoder` the codes in its images (`where:
 * qr:<image name>`), zip attachments' entries (two archives deep, within ZIP_LIMITS),
 * Office documents (hyperlinks, HYPERLINK fields, what they would load, codes in their
 * images) and RTF documents. A file given on its own (a page, an SVG, a zip, an Office or
 * RTF document) is read as the one file of a mail (`where: attachment:<options.name>`). Each is resolved as the extension
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
    pdf: options.pdf,
    unwrap,
    opened: 0,
    scanned: 0,
    files: [],
    filesMet: 0,
    attachedMessages: [],
    archiveBytes: { used: 0 },
  };
  const name = options.name ?? '';
  const alone = compound ? null : aloneFormat(bytes, format, name);
  try {
    const letter = alone !== null ? holding(alone, bytes, name) : compound && format !== 'eml' ? readMsg(bytes) : await readMime(bytes);
    if (letter === null) return compound ? compoundFailure(bytes) : failure('notMail');
    await visit(reading, letter, 0, TOP_PLACES);
    if (reading.links.dropped > 0) problem(reading, 'tooManyLinks', [String(MAIL_LIMITS.links), String(reading.links.dropped)]);
    const [original, ...others] = reading.attachedMessages;
    const wraps = original !== undefined && others.length === 0;
    return {
      ok: true,
      format: alone ?? (compound && format !== 'eml' ? 'msg' : 'eml'),
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
