/**
 * Scheme words (`http`, `hxxps`, `h**p`, `[https]`, `fxp`, `sfxp`, `mailto`, ...) with their
 * separators (`://`, `[:]//`, `:[//]`, `:\/\/`, `__`, and broken ones: `https//`, `http:///`,
 * `http ://`), and the bracketed forms of `:`, `/` and `@` that URLs, hosts and e-mail
 * addresses share.
 */
import { AT, BACKSLASH, COLON, isAsciiAlpha, isBlank, isCloseBracket, isOpenBracket, isSchemeLetter, isZeroWidth, SLASH, STAR, UNDERSCORE } from './chars';
import { text } from './state';

/** Second results of separatorEnd, read right after it returns: whether the separator is live, and whether it is loose. */
let separatorLive = false;
let separatorLoose = false;

/** Schemes by index: the index is what a scheme match and the replacement ids use. */
const HTTP = 0;
const HTTPS = 1;
export const FTP = 2;
/** ftps and sftp follow ftp; a defanged word writes their first `t` as `x`. */
const FTPS = 3;
const SFTP = 4;
export const MAILTO = 5;

const MAX_SCHEME_WORD = 6;
/** How far a scheme word reaches with the invisible characters inside it. */
const MAX_SCHEME_SPAN = 16;

/** In a schemeOf answer: the word is the scheme's own name (any case), not a defanged one. */
const LIVE = 8;

/** Whether word at start spells name (lowercase), in any case. */
function spells(word: string, start: number, name: string): boolean {
  for (let k = 0; k < name.length; k++) if ((word.charCodeAt(start + k) | 0x20) !== name.charCodeAt(k)) return false;
  return true;
}

/** Whether a lowercased code stands for a `t` in an obfuscated `http`. */
function obscuresT(c: number): boolean {
  return c === 0x74 || c === 0x78 || c === STAR;
}

/**
 * The scheme that the scheme word word[start, start + length) (letters and `*`, any case)
 * stands for, plus LIVE when it spells the scheme's own name, or -1: `ftp`, `ftps`, `sftp`
 * and their `fxp`, `fxps`, `sfxp`; `mailto`; `http`, `hxxp`, `h**p` (`h`, two of
 * `t`/`x`/`*`, `p`), `hxp` or `xxxx`, each with an optional `s` for https; `httpx`. Read
 * from char codes, for speed. (`| 0x20` lowercases a letter and keeps `*` as it is.)
 */
function schemeOf(word: string, start: number, length: number): number {
  const c0 = word.charCodeAt(start) | 0x20;
  const c1 = word.charCodeAt(start + 1) | 0x20;
  const c2 = word.charCodeAt(start + 2) | 0x20;
  const c3 = word.charCodeAt(start + 3) | 0x20;
  if (c0 === 0x6d) return length === 6 && spells(word, start, 'mailto') ? MAILTO | LIVE : -1;
  if (c0 === 0x73) {
    // `sftp`, `sfxp`.
    return length === 4 && c1 === 0x66 && (c2 === 0x74 || c2 === 0x78) && c3 === 0x70 ? SFTP | (c2 === 0x74 ? LIVE : 0) : -1;
  }
  if (c0 === 0x66) {
    // `ftp`, `fxp`, `ftps`, `fxps`.
    const scheme = length === 3 ? FTP : length === 4 && c3 === 0x73 ? FTPS : -1;
    return scheme >= 0 && (c1 === 0x74 || c1 === 0x78) && c2 === 0x70 ? scheme | (c1 === 0x74 ? LIVE : 0) : -1;
  }
  const base =
    c0 === 0x68 && obscuresT(c1) && obscuresT(c2) && c3 === 0x70 ? 4 : c0 === 0x68 && c1 === 0x78 && c2 === 0x70 ? 3 : spells(word, start, 'xxxx') ? 4 : 0;
  // `http` itself: base 4 from `h`, `t`, `t`, `p`.
  const live = base === 4 && c1 === 0x74 && c2 === 0x74 ? LIVE : 0;
  if (base === 0 || length > base + 1) return -1;
  if (length === base) return HTTP | live;
  const last = word.charCodeAt(start + base) | 0x20;
  // `https` (or a defanged form with `s`), or `httpx`.
  return last === 0x73 ? HTTPS | live : live !== 0 && last === 0x78 ? HTTPS : -1;
}

export interface SchemeMatch {
  readonly scheme: number;
  /** The word is a plain scheme name as browsers know it (`http`, `HTTPS`, ...). */
  readonly live: boolean;
  readonly wordEnd: number;
  readonly sepEnd: number;
  readonly sepLive: boolean;
  /** The separator is `__`, `//` without a colon or has a blank before its colon: a host must follow it at once. */
  readonly loose: boolean;
}

/**
 * A scheme word (optionally bracketed, with any invisible characters inside it) and its
 * separator at i, or null. top: at the top level of the text, where the loose separators
 * count (`hxxp__`, `https//`, `http ://`); inside a URL's path they are its text.
 */
export function matchScheme(i: number, top: boolean): SchemeMatch | null {
  let j = i;
  const bracketed = isOpenBracket(text.charCodeAt(j));
  if (bracketed) j++;
  const wordStart = j;
  let c = text.charCodeAt(j);
  // A word from `s` is `sftp` or `sfxp` (maybe with invisible characters): most words from
  // `s` end here, before the letters are counted.
  if ((c | 0x20) === 0x73 && (text.charCodeAt(j + 1) | 0x20) !== 0x66 && text.charCodeAt(j + 1) < 0x80) return null;
  // The letters first; a word goes on past them only when an invisible character follows.
  while (j - wordStart <= MAX_SCHEME_WORD && (isAsciiAlpha(c) || c === STAR)) c = text.charCodeAt(++j);
  let letters = j - wordStart;
  let hidden = false;
  if (c >= 0x80 && letters > 0) {
    for (; letters <= MAX_SCHEME_WORD && j - wordStart < MAX_SCHEME_SPAN; c = text.charCodeAt(++j)) {
      if (isAsciiAlpha(c) || c === STAR) letters++;
      else if (c >= 0x80 && isZeroWidth(c)) hidden = true;
      else break;
    }
  }
  if (letters < 3 || letters > MAX_SCHEME_WORD) return null;
  if (bracketed) {
    if (!isCloseBracket(c)) return null;
    c = text.charCodeAt(++j);
  }
  // Every separator starts with `:`, `_`, an open bracket or (at the top) `/`, or a blank
  // before `:`, an open bracket or an invisible character: most words stop here.
  if (!(c === COLON || c === UNDERSCORE || isOpenBracket(c) || (top && (c === SLASH || (c >= 0 && isBlank(c) && colonAhead(j + 1)))))) return null;
  const word = hidden ? text.slice(wordStart, j).replace(/[^*a-z]/gi, '') : text;
  const code = schemeOf(word, hidden ? 0 : wordStart, letters);
  if (code < 0) return null;
  const scheme = code & 7;
  const live = !bracketed && !hidden && code >= LIVE;
  const sepEnd = separatorEnd(j, scheme, top, top && !live);
  return sepEnd < 0 ? null : { scheme, live, wordEnd: j, sepEnd, sepLive: separatorLive, loose: separatorLoose };
}

/** Whether what follows the blank of `http ://` may start a colon form: `:`, an open bracket or an invisible character. */
function colonAhead(k: number): boolean {
  const c = text.charCodeAt(k);
  return c === COLON || isOpenBracket(c) || (c >= 0x80 && isZeroWidth(c));
}

/**
 * The end of a scheme's separator at j, or -1: `:` (or `[:]`) alone after `mailto`, `__`
 * when underscore, else delimiter forms (see separatorToken) that spell `://` or `:///`
 * (a browser reads it as `://`), or at the top `//`, or a blank and then `://` or
 * `:///`. separatorLive says whether it is a live `://` (or `:`), separatorLoose whether
 * it is loose (see SchemeMatch).
 */
function separatorEnd(j: number, scheme: number, top: boolean, underscore: boolean): number {
  const c = text.charCodeAt(j);
  separatorLoose = false;
  if (scheme === MAILTO) {
    const colon = colonForm(j);
    separatorLive = colon === 1;
    return colon > 0 ? j + colon : -1;
  }
  // `hxxp__example[.]com`: only for a word that is already defanged, never `http__x`.
  if (underscore && c === UNDERSCORE && text.charCodeAt(j + 1) === UNDERSCORE) {
    separatorLive = false;
    separatorLoose = true;
    return j + 2;
  }
  // The usual separator first: `://` before a character that starts no separator form
  // (see separatorToken), which is most of them.
  const d = text.charCodeAt(j + 3);
  separatorLive =
    c === COLON &&
    text.charCodeAt(j + 1) === SLASH &&
    text.charCodeAt(j + 2) === SLASH &&
    (d < 0x80 ? d !== SLASH && d !== BACKSLASH && d !== COLON && !isOpenBracket(d) : !(d >= 0x80 && isZeroWidth(d)));
  if (separatorLive) return j + 3;
  const blank = top && isBlank(c);
  let k = blank ? j + 1 : j;
  // What the forms spell, as a prefix of `:///` or of `//`: a colon first, then slashes.
  let colon = false;
  let slashes = 0;
  // Forms are taken while they spell the start of a separator, `:` before `/`.
  while (k - j < MAX_SCHEME_SPAN) {
    const token = separatorToken(k);
    if (tokenLength === 0) break;
    if (token === COLON_TOKEN) {
      if (colon || slashes > 0) break;
      colon = true;
    } else if (token !== NO_TOKEN) {
      // Slashes, one or two: at most three after a colon, two without one.
      const total = slashes + token;
      if (total > (colon ? 3 : 2) || (token === 2 && tokenColon && (colon || slashes > 0))) break;
      if (tokenColon) colon = true;
      slashes = total;
    }
    k += tokenLength;
  }
  separatorLive = colon && slashes === 2 && k === j + 3;
  separatorLoose = blank || (!colon && slashes === 2);
  return colon ? (slashes >= 2 ? k : -1) : top && slashes === 2 && !blank ? k : -1;
}

/** Second results of separatorToken: the length of the form (0 when there is none), and whether a group of slashes has a colon before them (`[://]`). */
let tokenLength = 0;
let tokenColon = false;

/** What separatorToken finds: no delimiter (an invisible character or nothing), or `:`; else the number of slashes. */
const NO_TOKEN = 0;
const COLON_TOKEN = -1;

/**
 * What the delimiter form at k spells in a separator: one slash (see slashForm), `:` or
 * `[:]` (COLON_TOKEN), two slashes for `[//]` or `[://]` (any brackets, tokenColon set for
 * the second), or NO_TOKEN: tokenLength 1 for an invisible character, else 0.
 */
function separatorToken(k: number): number {
  tokenColon = false;
  tokenLength = slashForm(k);
  if (tokenLength > 0) return 1;
  tokenLength = colonForm(k);
  if (tokenLength > 0) return COLON_TOKEN;
  const c = text.charCodeAt(k);
  tokenLength = c >= 0x80 && isZeroWidth(c) ? 1 : 0;
  if (!isOpenBracket(c)) return NO_TOKEN;
  tokenColon = text.charCodeAt(k + 1) === COLON;
  const at = tokenColon ? k + 2 : k + 1;
  tokenLength = text.charCodeAt(at) === SLASH && text.charCodeAt(at + 1) === SLASH && isCloseBracket(text.charCodeAt(at + 2)) ? at + 3 - k : 0;
  return 2;
}

/** Whether a URL scheme with a `://`-like separator starts at p. */
export function schemeAhead(p: number): boolean {
  const c = text.charCodeAt(p);
  return (isSchemeLetter(c) || isOpenBracket(c)) && (matchScheme(p, false)?.scheme ?? MAILTO) !== MAILTO;
}

/** Length of `:` or a bracketed `[:]` at j, or 0. */
export function colonForm(j: number): number {
  return bracketedForm(j, COLON);
}

/**
 * Length of a slash at j, or 0: `/`, a bracketed `[/]` (any brackets), or `/` escaped by
 * one to three backslashes (`\/` in JSON, `\\\/` escaped twice).
 */
export function slashForm(j: number): number {
  let k = j;
  while (text.charCodeAt(k) === BACKSLASH && k - j < 3) k++;
  if (k > j) return text.charCodeAt(k) === SLASH ? k + 1 - j : 0;
  return bracketedForm(j, SLASH);
}

function bracketedForm(j: number, c: number): number {
  const b = text.charCodeAt(j);
  if (b === c) return 1;
  return isOpenBracket(b) && text.charCodeAt(j + 1) === c && isCloseBracket(text.charCodeAt(j + 2)) ? 3 : 0;
}

export function isSquareSlash(j: number): boolean {
  return text.startsWith('[/]', j);
}

/** Length of `@` or an at-form (`[@]`, `(at)`, any brackets, any case) at j, or 0. */
export function atForm(j: number): number {
  const c = text.charCodeAt(j);
  if (c === AT) return 1;
  if (!isOpenBracket(c)) return 0;
  if (text.charCodeAt(j + 1) === AT && isCloseBracket(text.charCodeAt(j + 2))) return 3;
  return (text.charCodeAt(j + 1) | 0x20) === 0x61 && (text.charCodeAt(j + 2) | 0x20) === 0x74 && isCloseBracket(text.charCodeAt(j + 3)) ? 4 : 0;
}
