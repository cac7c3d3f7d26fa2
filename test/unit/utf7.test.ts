/**
 * The UTF-7 decoder (src/readers/utf7.ts): RFC 2152's own examples, the forms phishing
 * uses, malformed input (never a throw, one U+FFFD per fault), and a round trip against an
 * encoder written here from the RFC's rules, which chooses at random which optional
 * characters to shift and where to end a run with `-`.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { decodeUtf7 } from '../../src/readers/utf7';

const ascii = (text: string): Uint8Array => Uint8Array.from(text, (char) => char.charCodeAt(0));
const decode = (text: string): string => decodeUtf7(ascii(text));

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
/** RFC 2152's Set D (always direct) and the white space it allows direct. */
const DIRECT = /^[\d'(),\-./:?a-z \t\r\n]$/i;
/** Set O: direct if the encoder wishes. */
const OPTIONAL = /^[!"#$%&*;<=>@[\]^_`{|}]$/;

/** A run of UTF-16 code units as modified base64, without padding. */
function shifted(units: readonly number[]): string {
  let bits = 0;
  let count = 0;
  let out = '';
  for (const unit of units) {
    bits = (bits << 16) | unit;
    count += 16;
    while (count >= 6) {
      count -= 6;
      out += BASE64.charAt((bits >> count) & 63);
    }
    bits &= (1 << count) - 1;
  }
  if (count > 0) out += BASE64.charAt((bits << (6 - count)) & 63);
  return out;
}

/** UTF-7 as RFC 2152 allows it: `shiftOptional(i)` says whether the i-th Set O character is shifted, `dash(i)` whether the i-th run ends with `-` where it may leave it out. */
function encodeUtf7(text: string, shiftOptional: (i: number) => boolean, dash: (i: number) => boolean): string {
  let out = '';
  let run: number[] = [];
  let optional = 0;
  let runs = 0;
  const close = (next: string): void => {
    if (run.length === 0) return;
    out += `+${shifted(run)}`;
    // The `-` is needed when the next character is base64 or `-`, or at the end (a reader may not see the end).
    const needed = next === '' || next === '-' || BASE64.includes(next);
    if (needed || dash(runs)) out += '-';
    runs++;
    run = [];
  };
  for (let index = 0; index < text.length; index++) {
    const char = text.charAt(index);
    const direct = DIRECT.test(char) || (OPTIONAL.test(char) && !shiftOptional(optional++));
    if (direct) {
      close(char);
      out += char;
    } else if (char === '+' && run.length === 0) out += '+-';
    else run.push(char.charCodeAt(0));
  }
  close('');
  return out;
}

describe('decodeUtf7', () => {
  it.each([
    ['A+ImIDkQ.', 'A\u2262\u0391.'],
    ['Hi Mom -+Jjo--!', 'Hi Mom -\u263a-!'],
    ['+ZeVnLIqe-', '\u65e5\u672c\u8a9e'],
    ['Item 3 is +AKM-1.', 'Item 3 is \u00a31.'],
  ])('RFC 2152: %s', (input, text) => {
    expect(decode(input)).toBe(text);
  });

  it('reads the markup of a UTF-7 phish, quotes and all', () => {
    expect(decode('+ADw-a href+AD0AIg-https://evil.example/login+ACI-+AD4-Sign in+ADw-/a+AD4-')).toBe('<a href="https://evil.example/login">Sign in</a>');
  });

  it('reads +- as a plus sign, and a run ended by a character that is not base64', () => {
    expect(decode('1 +- 1 = 2')).toBe('1 + 1 = 2');
    expect(decode('a+AOk.b')).toBe('a\u00e9.b');
    expect(decode('+AOkA6Q')).toBe('\u00e9\u00e9');
  });

  it('reads a character beyond the BMP from its surrogate pair', () => {
    expect(decode('+2D3eAA-')).toBe('\u{1f600}');
  });

  it.each([
    ['a byte above 0x7F', new Uint8Array([0x61, 0xe9, 0x62]), 'a\ufffdb'],
    ['a + that shifts into nothing', ascii('a+!b'), 'a\ufffd!b'],
    ['a + at the end', ascii('a+'), 'a\ufffd'],
    ['a cut code unit', ascii('+AG-x'), '\ufffdx'],
    ['leftover bits that are not zero', ascii('+AGF-x'), 'a\ufffdx'],
    ['a high surrogate alone', ascii('+2D0-x'), '\ufffdx'],
    ['a high surrogate then a letter', ascii('+2D0AYQ-'), '\ufffda'],
    ['a low surrogate alone', ascii('+3gA-'), '\ufffd'],
    ['a pair split over two runs', ascii('+2D0-+3gA-'), '\ufffd\ufffd'],
  ])('gives U+FFFD for %s', (_name, bytes, text) => {
    expect(decodeUtf7(bytes)).toBe(text);
  });

  it('reads a long run without running out of stack', () => {
    const text = '\u00e9'.repeat(100_000);
    expect(
      decode(
        encodeUtf7(
          text,
          () => true,
          () => true,
        ),
      ),
    ).toBe(text);
  });

  it('decodes what an RFC 2152 encoder writes, whichever optional characters it shifts', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), fc.func(fc.boolean()), fc.func(fc.boolean()), (text, shiftOptional, dash) => {
        expect(decode(encodeUtf7(text, shiftOptional, dash))).toBe(text);
      }),
      { numRuns: 500 },
    );
  });

  it('never throws, and gives only well-formed text, whatever the bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        const text = decodeUtf7(bytes);
        expect(text.isWellFormed()).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });
});
