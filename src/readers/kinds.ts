/**
 * What a file in a mail is, told from its first bytes, and what its name and declared type
 * claim it is. Attackers name an HTML page `invoice.pdf` and declare it `application/pdf`
 * because a mail filter and an analyst both believe the label: the content is what a
 * program opening it would see, so it is read first, the label after.
 */
import { isCompoundFile, mailFormatOf } from './letter';

/** The kinds of file told apart: the formats phishing mails carry and the ones worth a flag. */
export type FileKind =
  | 'pdf'
  | 'zip'
  | 'ole'
  | 'rtf'
  | 'html'
  | 'svg'
  | 'mail'
  | 'png'
  | 'jpeg'
  | 'gif'
  | 'webp'
  | 'bmp'
  | 'gzip'
  | 'rar'
  | '7z'
  | 'iso'
  | 'cab'
  | 'exe'
  | 'elf'
  | 'lnk'
  | 'onenote'
  | 'text';

/** The MIME type said for each kind ("ole" covers .doc, .xls, .ppt and Outlook .msg alike). */
export const KIND_TYPES: Readonly<Record<FileKind, string>> = {
  pdf: 'application/pdf',
  zip: 'application/zip',
  ole: 'application/x-ole-storage',
  rtf: 'application/rtf',
  html: 'text/html',
  svg: 'image/svg+xml',
  mail: 'message/rfc822',
  png: 'image/png',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  bmp: 'image/bmp',
  gzip: 'application/gzip',
  rar: 'application/vnd.rar',
  '7z': 'application/x-7z-compressed',
  iso: 'application/x-iso9660-image',
  cab: 'application/vnd.ms-cab-compressed',
  exe: 'application/x-msdownload',
  elf: 'application/x-executable',
  lnk: 'application/x-ms-shortcut',
  onenote: 'application/onenote',
  text: 'text/plain',
};

function startsWith(bytes: Uint8Array, at: number, signature: readonly number[]): boolean {
  return signature.every((byte, i) => bytes[at + i] === byte);
}

function ascii(text: string): number[] {
  return [...text].map((char) => char.charCodeAt(0));
}

/** Signatures at the start of the file (ISO 9660's is further in, below). */
const SIGNATURES: readonly (readonly [FileKind, readonly number[]])[] = [
  ['pdf', ascii('%PDF-')],
  ['zip', [0x50, 0x4b, 0x03, 0x04]],
  ['zip', [0x50, 0x4b, 0x05, 0x06]],
  ['rtf', ascii('{\\rtf')],
  ['png', [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]],
  ['jpeg', [0xff, 0xd8, 0xff]],
  ['gif', ascii('GIF8')],
  ['bmp', ascii('BM')],
  ['gzip', [0x1f, 0x8b]],
  ['rar', ascii('Rar!\u001a\u0007')],
  ['7z', [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c]],
  ['cab', ascii('MSCF')],
  ['exe', ascii('MZ')],
  ['elf', [0x7f, 0x45, 0x4c, 0x46]],
  ['lnk', [0x4c, 0x00, 0x00, 0x00, 0x01, 0x14, 0x02, 0x00]],
  ['onenote', [0xe4, 0x52, 0x5c, 0x7b, 0x8c, 0xd8, 0xa7, 0x4d]],
];

/** Where ISO 9660 writes "CD001": the first volume descriptor, at sector 16. */
const ISO_AT = 0x8001;

/** How much of a text file is looked at to tell HTML and SVG apart from other text. */
const TEXT_HEAD = 1024;

/** Tags an HTML page starts with, or holds near its start when it opens with a comment. */
const HTML_START = /^<(?:!doctype\s+html|html|head|body|script|meta|title|iframe|form|div|a\s|table|style|base|link|img)/;
const HTML_NEAR = /<(?:!doctype\s+html|html|head|body|script)[\s>]/;

/** The text a file starts with, lower case, without a UTF-8 byte order mark and leading white space. */
function textHead(bytes: Uint8Array): string {
  const bom = startsWith(bytes, 0, [0xef, 0xbb, 0xbf]) ? 3 : 0;
  return new TextDecoder('latin1')
    .decode(bytes.subarray(bom, bom + TEXT_HEAD))
    .trimStart()
    .toLowerCase();
}

function markupKind(head: string): FileKind | null {
  if (!head.startsWith('<')) return null;
  const svg = head.indexOf('<svg');
  const html = head.search(HTML_NEAR);
  if (
    svg !== -1 &&
    (html === -1 || svg < html) &&
    (head.startsWith('<?xml') || head.startsWith('<svg') || head.startsWith('<!doctype svg') || head.startsWith('<!--'))
  ) {
    return 'svg';
  }
  if (HTML_START.test(head) || html !== -1) return 'html';
  return null;
}

/**
 * What the file is by its content, or null when its first bytes say nothing Isolink tells
 * apart (plain text, a format not listed). WebP is RIFF with its own tag; a mail is told
 * by a header field on its first line; HTML and SVG by their first tags.
 */
export function detectKind(bytes: Uint8Array): FileKind | null {
  if (isCompoundFile(bytes)) return 'ole';
  for (const [kind, signature] of SIGNATURES) if (startsWith(bytes, 0, signature)) return kind;
  if (startsWith(bytes, 0, ascii('RIFF')) && startsWith(bytes, 8, ascii('WEBP'))) return 'webp';
  if (startsWith(bytes, ISO_AT, ascii('CD001'))) return 'iso';
  const markup = markupKind(textHead(bytes));
  if (markup !== null) return markup;
  return mailFormatOf(bytes) === 'eml' ? 'mail' : null;
}

/** The kind a file name's extension claims. */
const EXTENSIONS: Readonly<Record<string, FileKind>> = {
  pdf: 'pdf',
  zip: 'zip',
  docx: 'zip',
  docm: 'zip',
  dotx: 'zip',
  dotm: 'zip',
  xlsx: 'zip',
  xlsm: 'zip',
  pptx: 'zip',
  pptm: 'zip',
  odt: 'zip',
  ods: 'zip',
  jar: 'zip',
  doc: 'ole',
  dot: 'ole',
  xls: 'ole',
  ppt: 'ole',
  msg: 'ole',
  rtf: 'rtf',
  htm: 'html',
  html: 'html',
  shtml: 'html',
  xhtml: 'html',
  svg: 'svg',
  eml: 'mail',
  png: 'png',
  jpg: 'jpeg',
  jpeg: 'jpeg',
  jpe: 'jpeg',
  gif: 'gif',
  webp: 'webp',
  bmp: 'bmp',
  gz: 'gzip',
  tgz: 'gzip',
  rar: 'rar',
  '7z': '7z',
  iso: 'iso',
  img: 'iso',
  cab: 'cab',
  exe: 'exe',
  dll: 'exe',
  scr: 'exe',
  cpl: 'exe',
  lnk: 'lnk',
  one: 'onenote',
  txt: 'text',
  csv: 'text',
};

/** The kind a declared MIME type claims; `application/octet-stream` and unknown types claim nothing. */
const DECLARED: Readonly<Record<string, FileKind>> = {
  'application/pdf': 'pdf',
  'application/x-pdf': 'pdf',
  'application/zip': 'zip',
  'application/x-zip-compressed': 'zip',
  'application/msword': 'ole',
  'application/vnd.ms-excel': 'ole',
  'application/vnd.ms-powerpoint': 'ole',
  'application/vnd.ms-outlook': 'ole',
  'application/rtf': 'rtf',
  'text/rtf': 'rtf',
  'text/html': 'html',
  'application/xhtml+xml': 'html',
  'image/svg+xml': 'svg',
  'message/rfc822': 'mail',
  'image/png': 'png',
  'image/jpeg': 'jpeg',
  'image/jpg': 'jpeg',
  'image/pjpeg': 'jpeg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/bmp': 'bmp',
  'application/gzip': 'gzip',
  'application/x-gzip': 'gzip',
  'application/vnd.rar': 'rar',
  'application/x-rar-compressed': 'rar',
  'application/x-7z-compressed': '7z',
  'application/x-iso9660-image': 'iso',
  'application/vnd.ms-cab-compressed': 'cab',
  'application/x-msdownload': 'exe',
  'application/x-msdos-program': 'exe',
  'application/x-dosexec': 'exe',
  'application/onenote': 'onenote',
  'text/plain': 'text',
};

/** Office Open XML and OpenDocument types are zip archives, whatever their long names. */
const ZIP_FAMILY = /^application\/vnd\.(?:openxmlformats-officedocument\.|ms-[\w.-]+\.macroenabled\.|oasis\.opendocument\.)/;

/** What the name's extension and the declared type claim, each (null when it claims nothing). */
export function claimedKinds(name: string, declared: string): readonly [FileKind | null, FileKind | null] {
  const dot = name.lastIndexOf('.');
  const extension =
    dot === -1
      ? ''
      : name
          .slice(dot + 1)
          .trim()
          .toLowerCase();
  const type = declared.trim().toLowerCase();
  return [EXTENSIONS[extension] ?? null, DECLARED[type] ?? (ZIP_FAMILY.test(type) ? 'zip' : null)];
}

/** A file's kind by content and whether its label lies about it. */
export interface FileType {
  /** The kind told by the content; null when its first bytes say nothing known. */
  readonly detected: FileKind | null;
  /** True when the name's extension or the declared type claims a kind the content is not. */
  readonly disguised: boolean;
}

/** The file's kind and whether its name or declared type claims another one (a `.pdf` that is an HTML page). */
export function fileType(bytes: Uint8Array, name: string, declared: string): FileType {
  const detected = detectKind(bytes);
  if (detected === null) return { detected, disguised: false };
  const disguised = claimedKinds(name, declared).some((claim) => claim !== null && claim !== detected);
  return { detected, disguised };
}
