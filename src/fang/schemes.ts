/**
 * Scheme words (`http`, `hxxps`, `h**p`, `[https]`, `fxp`, `mailto`, ...) with their
 * separators (`://`, `[:]//`, `:[//]`, `__`, ...), and the bracketed forms of `:`, `/`
 * and `@` that URLs, hosts and e-mail addresses share.
 */
import { AT, COLON, isAsciiAlpha, isCloseBracket, isOpenBracket, isSchemeLetter, SLASH, STAR, UNDERSCORE } from './chars';
import { text } from './state';

/** A second result of separatorEnd, read right after it returns: whether the separator is live. */
let separatorLive = false;

/** Schemes by index: the index is what a scheme match and the replacement ids use. */
const HTTP = 0;
const HTTPS = 1;
export const FTP = 2;
export const MAILTO = 3;

const MAX_SCHEME_WORD = 6;

/** In a schemeOf answer: the word is the scheme's own name (any case), not a defanged one. */
const LIVE = 4;

/** Whether text at start spells word (lowercase), in any case. */
function spells(start: number, word: string): boolean {
  for (let k = 0; k < word.length; k++) if ((text.charCodeAt(start + k) | 0x20) !== word.charCodeAt(k)) return false;
  return true;
}

/** Whether a lowercased code stands for a `t` in an obfuscated `http`. */
function obscuresT(c: number): boolean {
  return c === 0x74 || c === 0x78 || c === STAR;
}

/**
 * The scheme that the scheme word text[start, start + length) (letters and `*`, any case)
 * stands for, plus LIVE when it spells the scheme's own name, or -1: `ftp`, `fxp`;
 * `mailto`; `http`, `hxxp`, `h**p` (`h`, two of `t`/`x`/`*`, `p`), `hxp` or `xxxx`, each
 * with an optional `s` for https; `httpx`. Read from char codes, for speed. (`| 0x20`
 * lowercases a letter and keeps `*` as it is.)
 */
function schemeOf(start: number, length: number): number {
  const c0 = text.charCodeAt(start) | 0x20;
  const c1 = text.charCodeAt(start + 1) | 0x20;
  const c2 = text.charCodeAt(start + 2) | 0x20;
  const c3 = text.charCodeAt(start + 3) | 0x20;
  if (c0 === 0x66) return length === 3 && (c1 === 0x74 || c1 === 0x78) && c2 === 0x70 ? (c1 === 0x74 ? FTP | LIVE : FTP) : -1;
  if (c0 === 0x6d) return length === 6 && spells(start, 'mailto') ? MAILTO | LIVE : -1;
  const base = c0 === 0x68 && obscuresT(c1) && obscuresT(c2) && c3 === 0x70 ? 4 : c0 === 0x68 && c1 === 0x78 && c2 === 0x70 ? 3 : spells(start, 'xxxx') ? 4 : 0;
  // `http` itself: base 4 from `h`, `t`, `t`, `p`.
  const live = base === 4 && c1 === 0x74 && c2 === 0x74 ? LIVE : 0;
  if (base === 0 || length > base + 1) return -1;
  if (length === base) return HTTP | live;
  const last = text.charCodeAt(start + base) | 0x20;
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
  readonly underscore: boolean;
}

/** A scheme word (optionally bracketed) and its separator at i, or null. */
export function matchScheme(i: number, allowUnderscore: boolean): SchemeMatch | null {
  let j = i;
  const bracketed = isOpenBracket(text.charCodeAt(j));
  if (bracketed) j++;
  const wordStart = j;
  let c = text.charCodeAt(j);
  while (j - wordStart <= MAX_SCHEME_WORD && (isAsciiAlpha(c) || c === STAR)) c = text.charCodeAt(++j);
  const length = j - wordStart;
  if (length < 3 || length > MAX_SCHEME_WORD) return null;
  if (bracketed) {
    if (!isCloseBracket(c)) return null;
    c = text.charCodeAt(++j);
  }
  // Every separator starts with `:`, `_` or an open bracket: most words stop here.
  const code = c === COLON || c === UNDERSCORE || isOpenBracket(c) ? schemeOf(wordStart, length) : -1;
  if (code < 0) return null;
  const scheme = code & 3;
  const live = !bracketed && code >= LIVE;
  const sepEnd = separatorEnd(j, c, scheme, allowUnderscore && !live);
  return sepEnd < 0 ? null : { scheme, live, wordEnd: j, sepEnd, sepLive: separatorLive, underscore: c === UNDERSCORE };
}

/**
 * The end of a scheme's separator at j, where the text holds c (`://`, `[:]//`, `:[//]`,
 * `[://]`, ...; `:` alone after `mailto`; `__` when underscore), or -1; separatorLive says
 * whether it is a live `://` (or `:`).
 */
function separatorEnd(j: number, c: number, scheme: number, underscore: boolean): number {
  // The usual separator first (the general forms read it the same).
  separatorLive = c === COLON && text.charCodeAt(j + 1) === SLASH && text.charCodeAt(j + 2) === SLASH && scheme !== MAILTO;
  if (separatorLive) return j + 3;
  const colon = colonForm(j);
  if (scheme === MAILTO) {
    separatorLive = colon === 1;
    return colon > 0 ? j + colon : -1;
  }
  if (isOpenBracket(c) && text.startsWith('://', j + 1) && isCloseBracket(text.charCodeAt(j + 4))) return j + 5;
  if (colon > 0) {
    const k = j + colon;
    if (isOpenBracket(text.charCodeAt(k)) && text.startsWith('//', k + 1) && isCloseBracket(text.charCodeAt(k + 3))) return k + 4;
    const slash = slashForm(k);
    const second = slash > 0 ? slashForm(k + slash) : 0;
    separatorLive = colon === 1 && slash === 1 && second === 1;
    return second > 0 ? k + slash + second : -1;
  }
  // `hxxp__example[.]com`: only for a word that is already defanged, never `http__x`.
  return underscore && c === UNDERSCORE && text.charCodeAt(j + 1) === UNDERSCORE ? j + 2 : -1;
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

/** Length of `/` or a bracketed `[/]` at j, or 0. */
function slashForm(j: number): number {
  return bracketedForm(j, SLASH);
}

function bracketedForm(j: number, c: number): number {
  if (text.charCodeAt(j) === c) return 1;
  return isOpenBracket(text.charCodeAt(j)) && text.charCodeAt(j + 1) === c && isCloseBracket(text.charCodeAt(j + 2)) ? 3 : 0;
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
