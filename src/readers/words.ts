/**
 * RFC 2047 encoded words (`=?charset?B|Q?…?=`) in charsets postal-mime cannot decode.
 * postal-mime decodes a word through TextDecoder and reads a label TextDecoder refuses
 * (`utf-7`, `unicode-1-1-utf-7`, `cp850`) as windows-1252, silently: a UTF-7 subject comes
 * out as `+AFA-ay+AFA-al`. Before its `decodeWords` and `addressParser` read a header,
 * each such word is decoded here (./charset: UTF-7 and the aliases mail clients write) and
 * written again as a UTF-8 word, which postal-mime then decodes like any other. A label
 * nothing knows is read as ./charset's fallback reads it, and said.
 */
import { decodeBytes, isDecoderLabel, type UnknownCharset } from './charset';

/** The grammar postal-mime reads a word with: the charset up to `?`, no white space. */
const WORD = /=\?([^?\s]+)\?([bq])\?([^?]*)\?=/gi;

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

function base64Bytes(text: string): number[] {
  const bytes: number[] = [];
  let bits = 0;
  let count = 0;
  for (const char of text) {
    const value = BASE64.indexOf(char);
    if (value < 0) continue;
    bits = ((bits << 6) | value) & 0xffffff;
    count += 6;
    if (count >= 8) {
      count -= 8;
      bytes.push((bits >> count) & 0xff);
    }
  }
  return bytes;
}

/** RFC 2047's Q: `_` is a space, `=XX` a byte, the rest as written. */
function qBytes(text: string): number[] {
  const bytes: number[] = [];
  for (let index = 0; index < text.length; index++) {
    const char = text.charAt(index);
    const hex = char === '=' ? /^[\da-f]{2}$/i.exec(text.slice(index + 1, index + 3))?.[0] : undefined;
    if (hex !== undefined) {
      bytes.push(Number.parseInt(hex, 16));
      index += 2;
    } else bytes.push(char === '_' ? 0x20 : char.charCodeAt(0) & 0xff);
  }
  return bytes;
}

/** Text as one UTF-8 Q word, every byte but letters and digits as `=XX`. */
function utf8Word(text: string): string {
  let out = '';
  for (const byte of new TextEncoder().encode(text))
    out +=
      (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a)
        ? String.fromCharCode(byte)
        : `=${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  return `=?utf-8?Q?${out}?=`;
}

/** A header value with its encoded words rewritten, and the labels no table knew. */
export interface Rewritten {
  readonly value: string;
  readonly unknown: readonly UnknownCharset[];
}

/**
 * A header value with every encoded word in a charset TextDecoder refuses decoded here and
 * written again in UTF-8; the rest as it was. Adjacent words of one such charset, with only
 * white space between them, are decoded together, as RFC 2047 allows a character (and a
 * UTF-7 run) to be split across them.
 */
export function rewriteWords(value: string): Rewritten {
  if (!value.includes('=?')) return { value, unknown: [] };
  const unknown: UnknownCharset[] = [];
  let out = '';
  let last = 0;
  let pending: { label: string; bytes: number[] } | null = null;
  const flush = (): void => {
    if (pending === null) return;
    const decoded = decodeBytes(Uint8Array.from(pending.bytes), pending.label);
    if (decoded.unknown !== null && !unknown.some((seen) => seen.label === decoded.unknown?.label)) unknown.push(decoded.unknown);
    out += utf8Word(decoded.text);
    pending = null;
  };
  for (const match of value.matchAll(WORD)) {
    const [word, charset = '', encoding = '', encoded = ''] = match;
    const label = charset.split('*')[0] ?? '';
    const between = value.slice(last, match.index);
    if (isDecoderLabel(label)) {
      flush();
      out += between + word;
    } else {
      const bytes = encoding.toUpperCase() === 'B' ? base64Bytes(encoded) : qBytes(encoded);
      if (pending !== null && pending.label.toLowerCase() === label.toLowerCase() && /^[ \t\r\n]*$/.test(between)) {
        for (const byte of bytes) pending.bytes.push(byte);
      } else {
        flush();
        out += between;
        pending = { label, bytes };
      }
    }
    last = match.index + word.length;
  }
  flush();
  return { value: out + value.slice(last), unknown };
}
