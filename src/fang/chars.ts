/**
 * Character classes of the scanner (see scanner.ts): code-unit constants and predicates,
 * on UTF-16 code units. An index past either end of the text reads as NaN, which no class
 * accepts.
 */

export const DOT = 0x2e;
export const COLON = 0x3a;
export const SLASH = 0x2f;
export const AT = 0x40;
export const PERCENT = 0x25;
export const BACKSLASH = 0x5c;
export const COMMA = 0x2c;
export const SEMICOLON = 0x3b;
export const UNDERSCORE = 0x5f;
export const HYPHEN = 0x2d;
export const PLUS = 0x2b;
export const STAR = 0x2a;
export const SPACE = 0x20;
const TAB = 0x09;
export const QUESTION = 0x3f;
export const HASH = 0x23;
export const LESS = 0x3c;
export const GREATER = 0x3e;
export const LEFT_PAREN = 0x28;
export const RIGHT_PAREN = 0x29;
export const LEFT_SQUARE = 0x5b;
export const RIGHT_SQUARE = 0x5d;
export const LEFT_CURLY = 0x7b;
export const RIGHT_CURLY = 0x7d;
export const KATAKANA_MIDDLE_DOT = 0x30fb;

export function isAsciiDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

export function isAsciiAlpha(c: number): boolean {
  const lower = c | 0x20;
  return lower >= 0x61 && lower <= 0x7a;
}

export function isAsciiAlnum(c: number): boolean {
  return isAsciiDigit(c) || isAsciiAlpha(c);
}

/** Continues an ASCII host label or e-mail local part: letter, digit, `-`, `_`. */
export function isAsciiLabel(c: number): boolean {
  return isAsciiAlnum(c) || c === HYPHEN || c === UNDERSCORE;
}

export function isHexDigit(c: number): boolean {
  const lower = c | 0x20;
  return isAsciiDigit(c) || (lower >= 0x61 && lower <= 0x66);
}

/**
 * Characters that render as nothing and move nothing around them: zero-width characters,
 * the soft hyphen, and the bidirectional marks, embeddings and isolates (for Latin letters
 * they change no order). A URL can hide them anywhere, its scheme included.
 */
export function isZeroWidth(c: number): boolean {
  // Most characters are below the first of them: one test.
  return (
    c >= 0x00ad &&
    (c === 0x00ad ||
      c === 0x061c ||
      (c >= 0x200b && c <= 0x200f) ||
      (c >= 0x202a && c <= 0x202c) ||
      c === 0x2060 ||
      (c >= 0x2066 && c <= 0x2069) ||
      c === 0xfeff)
  );
}

/**
 * The bidirectional overrides (U+202D, U+202E): they show the text after them in the
 * order they force, so that `ev\u202Elic.com` reads `evmoc.cil` on screen.
 */
export function isBidiOverride(c: number): boolean {
  return c === 0x202d || c === 0x202e;
}

/** Ideographic, fullwidth and halfwidth full stops: URL parsers map them to `.` in hosts. */
export function isLookalikeDot(c: number): boolean {
  return c === 0x3002 || c === 0xff0e || c === 0xff61;
}

export function isOpenBracket(c: number): boolean {
  return c === LEFT_SQUARE || c === LEFT_PAREN || c === LEFT_CURLY;
}

export function isCloseBracket(c: number): boolean {
  return c === RIGHT_SQUARE || c === RIGHT_PAREN || c === RIGHT_CURLY;
}

export function isBracket(c: number): boolean {
  return isOpenBracket(c) || isCloseBracket(c);
}

export function isBlank(c: number): boolean {
  return c === SPACE || c === TAB;
}

export function isWhitespace(c: number): boolean {
  // Most characters fail the first test.
  return c <= SPACE && (isBlank(c) || c === 0x0a || c === 0x0d);
}

/** Scripts that make U+30FB a legitimate part of an IDN label (IDNA CONTEXTO rule). */
export function isJapaneseScript(c: number): boolean {
  return (
    (c >= 0x3040 && c <= 0x30ff && c !== KATAKANA_MIDDLE_DOT) ||
    (c >= 0x31f0 && c <= 0x31ff) ||
    (c >= 0x3400 && c <= 0x4dbf) ||
    (c >= 0x4e00 && c <= 0x9fff) ||
    (c >= 0xf900 && c <= 0xfaff) ||
    (c >= 0xff66 && c <= 0xff9f) ||
    (c >= 0xd840 && c <= 0xd87f)
  );
}

/** The first letter of a scheme word (`http`, `hxxp`, `xxxx`, `ftp`, `fxp`, `sftp`, `mailto`), either case. */
export function isSchemeLetter(c: number): boolean {
  const lower = c | 0x20;
  return lower === 0x68 || lower === 0x78 || lower === 0x66 || lower === 0x73 || lower === 0x6d;
}

/** ASCII characters that end a URL outright. */
export function asciiBreaksUrl(c: number): boolean {
  return c <= SPACE || c === 0x7f || c === 0x22 || c === LESS || c === GREATER || c === 0x60;
}

// Sticky and single-character: each test inspects exactly one code point.
export const LETTER_OR_NUMBER = /[\p{L}\p{M}\p{N}]/uy;
/** Punctuation, spaces, controls and the bidirectional overrides (see isBidiOverride). */
export const BREAKS_URL = /[\p{P}\p{Z}\p{Cc}\u202d\u202e]/uy;
