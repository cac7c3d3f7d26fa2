/**
 * UTF-7 (RFC 2152) to text. No browser decodes it (the Encoding standard leaves it out, so
 * TextDecoder refuses the label), but Outlook renders a mail part in `charset=utf-7`, and a
 * phish written in it (`+ADw-a href+AD0AIg-https://…+ACI-+AD4-`) hides its markup from a
 * filter that does not decode it. The IMAP modified form (RFC 3501, `&…-`) is not a mail
 * charset and is not read here.
 *
 * The rules, from RFC 2152:
 * - a byte other than `+` stands for itself (the direct and optionally direct characters,
 *   space, tab, CR, LF; the RFC excludes `\` and `~`, which are read as themselves anyway);
 * - `+-` is `+`;
 * - `+` followed by base64 characters (RFC 2045's alphabet, no padding) is UTF-16BE, 16
 *   bits per code unit, surrogate pairs for characters beyond the BMP; the run ends at the
 *   first character that is not base64, and a `-` ending it is absorbed.
 *
 * Malformed input never throws: each fault gives one U+FFFD, as TextDecoder does for bytes
 * that are not its encoding, and reading goes on. The faults are a byte above 0x7F, a `+`
 * followed by neither base64 nor `-`, a run whose leftover bits are six or more or not
 * zero (a cut code unit), and a surrogate without its other half.
 */

const REPLACEMENT = 0xfffd;

/** The value of each base64 character, -1 for every other byte. */
const BASE64 = new Int8Array(256).fill(-1);
for (const [index, char] of [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'].entries()) BASE64[char.charCodeAt(0)] = index;

const PLUS = 0x2b;
const MINUS = 0x2d;

/** Code units to text, a chunk at a time (String.fromCharCode's arguments are bounded). */
class Units {
  private readonly parts: string[] = [];
  private chunk: number[] = [];
  /** A high surrogate waiting for its low half. */
  private high = -1;

  /** One UTF-16 code unit; a surrogate without its other half becomes U+FFFD. */
  unit(code: number): void {
    if (this.high >= 0) {
      const high = this.high;
      this.high = -1;
      if (code >= 0xdc00 && code <= 0xdfff) {
        this.push(high);
        this.push(code);
        return;
      }
      this.push(REPLACEMENT);
    }
    if (code >= 0xd800 && code <= 0xdbff) this.high = code;
    else if (code >= 0xdc00 && code <= 0xdfff) this.push(REPLACEMENT);
    else this.push(code);
  }

  /** The end of a shifted run: a pair never spans two runs (RFC 2152 encodes a character within one). */
  endRun(): void {
    if (this.high < 0) return;
    this.high = -1;
    this.push(REPLACEMENT);
  }

  private push(code: number): void {
    this.chunk.push(code);
    if (this.chunk.length === 4096) {
      this.parts.push(String.fromCharCode(...this.chunk));
      this.chunk = [];
    }
  }

  text(): string {
    this.endRun();
    this.parts.push(String.fromCharCode(...this.chunk));
    this.chunk = [];
    return this.parts.join('');
  }
}

/** UTF-7 bytes to text (see the module's comment for the rules and the faults). */
export function decodeUtf7(bytes: Uint8Array): string {
  const out = new Units();
  let index = 0;
  while (index < bytes.length) {
    const byte = bytes[index++] ?? 0;
    if (byte !== PLUS) {
      out.unit(byte < 0x80 ? byte : REPLACEMENT);
      continue;
    }
    if (bytes[index] === MINUS) {
      out.unit(PLUS);
      index++;
      continue;
    }
    let bits = 0;
    let count = 0;
    let read = 0;
    while (index < bytes.length) {
      const value = BASE64[bytes[index] ?? 0] ?? -1;
      if (value < 0) break;
      index++;
      read++;
      bits = ((bits << 6) | value) & 0x3fffff;
      count += 6;
      if (count >= 16) {
        count -= 16;
        out.unit((bits >> count) & 0xffff);
      }
    }
    // A `+` that shifts into nothing, or leftover bits that are a cut code unit rather than padding.
    if (read === 0 || count >= 6 || (bits & ((1 << count) - 1)) !== 0) out.unit(REPLACEMENT);
    out.endRun();
    if (bytes[index] === MINUS) index++;
  }
  return out.text();
}
