/**
 * Charsets: a label as mail writes it to a decoder (TextDecoder's WHATWG labels, the
 * aliases mail clients write, and UTF-7), and bytes to text with it, where the mail's own
 * parser does not decode them or not as Isolink does (./mime's hook, ./words, an attached
 * HTML page, an Outlook HTML body). A label no table knows is never an error and never a
 * dropped part: the bytes are read as UTF-8 when they are valid UTF-8, else as
 * windows-1252, and the caller is told which, to say it in the report.
 */
import { decodeUtf7 } from './utf7';

/** Windows code pages as Outlook records them, to the labels TextDecoder knows. */
const CODE_PAGES: Readonly<Record<number, string>> = {
  874: 'windows-874', 932: 'shift_jis', 936: 'gbk', 949: 'euc-kr', 950: 'big5', 1200: 'utf-16le', 1201: 'utf-16be',
  1250: 'windows-1250', 1251: 'windows-1251', 1252: 'windows-1252', 1253: 'windows-1253', 1254: 'windows-1254',
  1255: 'windows-1255', 1256: 'windows-1256', 1257: 'windows-1257', 1258: 'windows-1258', 20127: 'utf-8', 20866: 'koi8-r',
  21866: 'koi8-u', 28591: 'iso-8859-1', 28592: 'iso-8859-2', 28595: 'iso-8859-5', 28597: 'iso-8859-7', 28605: 'iso-8859-15',
  50220: 'iso-2022-jp', 50221: 'iso-2022-jp', 50222: 'iso-2022-jp', 51932: 'euc-jp', 54936: 'gb18030', 65000: 'utf-7', 65001: 'utf-8',
}; // prettier-ignore

/** The TextDecoder label of a Windows code page, if known. */
export function codePageLabel(codePage: number | undefined): string | undefined {
  return codePage === undefined ? undefined : CODE_PAGES[codePage];
}

/** What windows-1252 (which the Encoding standard also uses for iso-8859-1 and us-ascii) makes of bytes 0x80 to 0x9F. */
const WINDOWS_1252_HIGH =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

/**
 * Text with the C1 controls U+0080 to U+009F read as windows-1252 reads those bytes
 * (smart quotes, dashes, €). Some Node versions' TextDecoder gives the controls for
 * windows-1252 and iso-8859-1 where browsers give the characters; a mail never means a C1
 * control, so the same words come out in the command and in the page. Applied to the
 * words shown (sender, subject, shown texts, place names), not to whole bodies: a link is
 * ASCII, and a C1 control ends a URL in text as the character would.
 */
export function fixC1<T extends string | null>(text: T): T {
  if (text === null || !/[\u0080-\u009f]/.test(text)) return text;
  return text.replace(/[\u0080-\u009f]/g, (c) => WINDOWS_1252_HIGH.charAt(c.charCodeAt(0) - 0x80)) as T;
}

/**
 * Labels mail clients write that TextDecoder refuses, normalised (lower case, no `x-` or
 * `cs` prefix, no separators), to a label it accepts or to `utf-7`. Outlook and Windows
 * write code page names (`cp932`, `ks_c_5601-1987`), Java and old Netscape
 * `unicode-1-1-utf-7` and `x-unicode20utf7`, Python `shift_jis_2004` and `iso2022_jp_2`.
 */
const ALIASES: Readonly<Record<string, string>> = {
  utf7: 'utf-7', unicode11utf7: 'utf-7', unicode20utf7: 'utf-7', unicodeutf7: 'utf-7', cp65000: 'utf-7',
  utf8: 'utf-8', unicode11utf8: 'utf-8', unicode20utf8: 'utf-8', cp65001: 'utf-8', utf8mb4: 'utf-8',
  shiftjis: 'shift_jis', sjis: 'shift_jis', mskanji: 'shift_jis', windows31j: 'shift_jis', cp932: 'shift_jis', ms932: 'shift_jis',
  windows932: 'shift_jis', shiftjis2004: 'shift_jis', shiftjisx0213: 'shift_jis', eucjp: 'euc-jp', ujis: 'euc-jp', cp51932: 'euc-jp',
  iso2022jp: 'iso-2022-jp', iso2022jp1: 'iso-2022-jp', iso2022jp2: 'iso-2022-jp', iso2022jp3: 'iso-2022-jp', cp50220: 'iso-2022-jp',
  cp50221: 'iso-2022-jp', cp50222: 'iso-2022-jp', euckr: 'euc-kr', ksc56011987: 'euc-kr', ksc5601: 'euc-kr', uhc: 'euc-kr',
  cp949: 'euc-kr', ms949: 'euc-kr', windows949: 'euc-kr', gb2312: 'gbk', gbk: 'gbk', cp936: 'gbk', ms936: 'gbk', windows936: 'gbk',
  euccn: 'gbk', gb18030: 'gb18030', big5: 'big5', big5hkscs: 'big5', cp950: 'big5', ms950: 'big5', windows950: 'big5',
  tis620: 'windows-874', cp874: 'windows-874', iso885911: 'windows-874', iso88598i: 'iso-8859-8-i', iso88598e: 'iso-8859-8',
  latin1: 'windows-1252', usascii: 'windows-1252', ascii: 'windows-1252', cp20127: 'windows-1252', cp28591: 'windows-1252',
  koi8r: 'koi8-r', cp20866: 'koi8-r', koi8u: 'koi8-u', cp21866: 'koi8-u', macroman: 'macintosh', ucs2: 'utf-16le', utf16: 'utf-16le',
}; // prettier-ignore

/** How a known label is read: with TextDecoder (its label), or with ./utf7. */
export type Charset = { readonly kind: 'utf-7' } | { readonly kind: 'decoder'; readonly decoder: TextDecoder };

/** Labels as TextDecoder, then the aliases, then the normalised form (`iso_8859_2`, `cp1251`) name them. */
function normalised(label: string): string {
  return label.replace(/^(?:x-|cs)/, '').replace(/[\s_.:-]+/g, '');
}

function textDecoder(label: string): TextDecoder | undefined {
  try {
    return new TextDecoder(label);
  } catch {
    return undefined;
  }
}

/** A label no longer than any real one; a longer one is unknown without a look. */
const LONGEST_LABEL = 40;

/**
 * The charset a label names: TextDecoder's own labels first, then the aliases mail clients
 * write (`unicode-1-1-utf-7`, `cp932`, `iso2022_jp_2`…), then the label with its `x-`,
 * `cs` and separators taken off (`x-cp1251`, `iso_8859_2`, `windows_1250`), then a Windows
 * code page name of a label TextDecoder knows (`cp1254`, `ms1252`). Null when none of them
 * knows it.
 */
export function charsetOf(label: string): Charset | null {
  const lower = label
    .trim()
    .replace(/^["']|["']$/g, '')
    .toLowerCase();
  if (lower === '' || lower.length > LONGEST_LABEL) return null;
  const bare = normalised(lower);
  const alias = ALIASES[bare] ?? ALIASES[`cp${/^(?:cp|ms|windows|ibm)(\d+)$/.exec(bare)?.[1] ?? ''}`];
  if (alias === 'utf-7') return { kind: 'utf-7' };
  const codePage = /^(?:cp|ms)(125\d)$/.exec(bare)?.[1];
  const decoder =
    textDecoder(lower) ??
    (alias === undefined ? undefined : textDecoder(alias)) ??
    (codePage === undefined ? undefined : textDecoder(`windows-${codePage}`)) ??
    (/^iso8859\d{1,2}$/.test(bare) ? textDecoder(`iso-8859-${bare.slice(7)}`) : undefined) ??
    textDecoder(bare);
  return decoder === undefined ? null : { kind: 'decoder', decoder };
}

/** Whether TextDecoder takes the label as written (postal-mime then decodes it as Isolink would). */
export function isDecoderLabel(label: string): boolean {
  return textDecoder(label.trim().toLowerCase()) !== undefined;
}

/** A label no table knows, and what its bytes were read as instead. */
export interface UnknownCharset {
  readonly label: string;
  /**
   * The charset used instead: `utf-8` (the bytes were valid UTF-8), `windows-1252` (they
   * were not: every byte is a character, none dropped), or for an HTML page the one its
   * own `<meta charset>` names.
   */
  readonly readAs: string;
}

/** Text read from bytes, and the label that could not be used when there was one. */
export interface Decoded {
  readonly text: string;
  readonly unknown: UnknownCharset | null;
}

function withCharset(charset: Charset, bytes: Uint8Array): string {
  return charset.kind === 'utf-7' ? decodeUtf7(bytes) : charset.decoder.decode(bytes);
}

/**
 * Bytes in an unknown charset. UTF-8 when they are valid UTF-8 (the commonest unknown
 * label is a misspelt or private name on UTF-8 text, and ASCII is valid UTF-8), else
 * windows-1252: every byte is a character, so nothing is dropped, and ASCII, so every
 * link, reads as it would in any ASCII-based charset. A UTF-16 or UTF-32 text under an
 * unknown label reads as noise either way; the report says so.
 */
function fallback(bytes: Uint8Array, label: string): Decoded {
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), unknown: { label, readAs: 'utf-8' } };
  } catch {
    return { text: new TextDecoder('windows-1252').decode(bytes), unknown: { label, readAs: 'windows-1252' } };
  }
}

/** Bytes in the charset a label names (UTF-8 without one), or as `fallback` says when the label is unknown. */
export function decodeBytes(bytes: Uint8Array, label: string | undefined): Decoded {
  if (label === undefined || label.trim() === '') return { text: new TextDecoder('utf-8').decode(bytes), unknown: null };
  const charset = charsetOf(label);
  return charset === null ? fallback(bytes, placeLabel(label)) : { text: withCharset(charset, bytes), unknown: null };
}

/** A label as the report shows it: printable ASCII, at most 40 characters. */
function placeLabel(label: string): string {
  const shown = label.trim().replace(/[^\x21-\x7e]/g, '?');
  return shown.length > LONGEST_LABEL ? `${shown.slice(0, LONGEST_LABEL)}…` : shown;
}

/** `<meta charset=…>` or `<meta http-equiv=Content-Type content="…; charset=…">` in an HTML page's first kilobyte. */
const META_CHARSET = /<meta[^>]{0,200}?charset\s*=\s*["']?([\w.:-]{1,40})/i;

/** The charset a byte-order mark names. */
function bomLabel(bytes: Uint8Array): string | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  return undefined;
}

/**
 * Text of a page's bytes: a byte-order mark wins, then the charset declared for it (the
 * part's `charset` parameter, a .msg's code page as `charsetOfCodePage` names it), then an
 * HTML page's own `<meta charset>` (`utf-7` included: Outlook honours it), then UTF-8. A
 * declared or meta label no table knows is reported in `unknown`, and the next source, or
 * the fallback, reads the bytes.
 */
export function decodeText(bytes: Uint8Array, declared?: string): Decoded {
  const bom = bomLabel(bytes);
  if (bom !== undefined) return { text: new TextDecoder(bom).decode(bytes), unknown: null };
  const given = declared === undefined || declared.trim() === '' ? undefined : declared;
  const charset = given === undefined ? null : charsetOf(given);
  if (charset !== null) return { text: withCharset(charset, bytes), unknown: null };
  const meta = META_CHARSET.exec(new TextDecoder('latin1').decode(bytes.subarray(0, 1024)))?.[1];
  const fromMeta = meta === undefined ? null : charsetOf(meta);
  const unknown = given ?? meta;
  if (fromMeta !== null) {
    const readAs = fromMeta.kind === 'utf-7' ? 'utf-7' : fromMeta.decoder.encoding;
    return { text: withCharset(fromMeta, bytes), unknown: given === undefined ? null : { label: placeLabel(given), readAs } };
  }
  return unknown === undefined ? { text: new TextDecoder('utf-8').decode(bytes), unknown: null } : fallback(bytes, placeLabel(unknown));
}

/** The charset label of a Windows code page (`cp<n>` for one no table knows, so the report can name it). */
export function charsetOfCodePage(codePage: number | undefined): string | undefined {
  return codePage === undefined ? undefined : (CODE_PAGES[codePage] ?? `cp${String(codePage)}`);
}
