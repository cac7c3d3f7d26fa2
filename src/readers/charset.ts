/**
 * Bytes to text where the mail's own parser does not: an attached HTML page, an Outlook
 * HTML body. Unknown or wrong charsets fall back to UTF-8 with replacement characters,
 * never an error: a link is ASCII in any of them.
 */

/** Windows code pages as Outlook records them, to the labels TextDecoder knows. */
const CODE_PAGES: Readonly<Record<number, string>> = {
  874: 'windows-874', 932: 'shift_jis', 936: 'gbk', 949: 'euc-kr', 950: 'big5', 1200: 'utf-16le', 1201: 'utf-16be',
  1250: 'windows-1250', 1251: 'windows-1251', 1252: 'windows-1252', 1253: 'windows-1253', 1254: 'windows-1254',
  1255: 'windows-1255', 1256: 'windows-1256', 1257: 'windows-1257', 1258: 'windows-1258', 20127: 'utf-8', 20866: 'koi8-r',
  21866: 'koi8-u', 28591: 'iso-8859-1', 28592: 'iso-8859-2', 28595: 'iso-8859-5', 28597: 'iso-8859-7', 28605: 'iso-8859-15',
  50220: 'iso-2022-jp', 50221: 'iso-2022-jp', 50222: 'iso-2022-jp', 51932: 'euc-jp', 54936: 'gb18030', 65001: 'utf-8',
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

/** `<meta charset=…>` or `<meta http-equiv=Content-Type content="…; charset=…">` in an HTML page's first kilobyte. */
const META_CHARSET = /<meta[^>]{0,200}?charset\s*=\s*["']?([\w.:-]{1,40})/i;

function decoder(label: string | undefined): TextDecoder | undefined {
  if (label === undefined) return undefined;
  try {
    return new TextDecoder(label);
  } catch {
    return undefined;
  }
}

/**
 * Text of bytes: a byte-order mark wins, then the code page given, then an HTML page's own
 * `<meta charset>`, then UTF-8.
 */
export function decodeText(bytes: Uint8Array, codePage?: number): string {
  const bom =
    bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf
      ? 'utf-8'
      : bytes[0] === 0xff && bytes[1] === 0xfe
        ? 'utf-16le'
        : bytes[0] === 0xfe && bytes[1] === 0xff
          ? 'utf-16be'
          : undefined;
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 1024));
  const chosen =
    decoder(bom) ?? decoder(codePage === undefined ? undefined : CODE_PAGES[codePage]) ?? decoder(META_CHARSET.exec(head)?.[1]) ?? new TextDecoder('utf-8');
  return chosen.decode(bytes);
}
