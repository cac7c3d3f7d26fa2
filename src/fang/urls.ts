/**
 * URLs: scheme and separator (schemes.ts), userinfo, host and port (scanAuthority), then
 * path, query and fragment (scanRest), with any URL nested in them.
 */
import {
  asciiBreaksUrl,
  BACKSLASH,
  BREAKS_URL,
  COLON,
  COMMA,
  DOT,
  HASH,
  isAsciiAlnum,
  isAsciiDigit,
  isBidiOverride,
  isBlank,
  isBracket,
  isCloseBracket,
  isLookalikeDot,
  isOpenBracket,
  isSchemeLetter,
  isZeroWidth,
  KATAKANA_MIDDLE_DOT,
  LEFT_CURLY,
  LEFT_PAREN,
  LEFT_SQUARE,
  LESS,
  PERCENT,
  QUESTION,
  RIGHT_CURLY,
  RIGHT_PAREN,
  RIGHT_SQUARE,
  SEMICOLON,
  SLASH,
} from './chars';
import {
  codePointLength,
  count,
  edit,
  isWordCharAt,
  KEEP,
  lastEditStart,
  matchEnd,
  n,
  nextChunk,
  rollback,
  setSuppressDefang,
  settled,
  suppressDefang,
  text,
  TO_AT,
  TO_COLON,
  TO_DEFANGED_SCHEME,
  TO_DOT,
  TO_MAILTO,
  TO_NOTHING,
  TO_SCHEME,
  TO_SEPARATOR,
  TO_SLASH,
  urls,
} from './state';
import { atForm, colonForm, FTP, MAILTO, matchScheme, schemeAhead, type SchemeMatch, slashForm } from './schemes';
import { dotForm, hostBracketLabel, hostOk, labelAhead, scanHost } from './hosts';
import { scanIpv6Literal } from './ipv6';

/** A second result of findUserinfo: length of the `@` form found. */
let atLength = 0;

/** A second result of urlHead: whether the URL has a host. */
let urlHasHost = false;

/** A second result of delimiterForm: what the form stands for (TO_DOT, TO_COLON, TO_SLASH or TO_AT). */
let delimiter = KEEP;

export function tryUrl(i: number): number {
  const s = matchScheme(i, true);
  if (s === null) return -1;
  if (s.scheme === MAILTO) {
    if (!s.live || !s.sepLive) edit(i, s.sepEnd, TO_MAILTO, KEEP);
    return s.sepEnd;
  }
  if (s.loose && !(isWordCharAt(s.sepEnd) && probeHost(s.sepEnd))) return -1;
  const authorityEnd = urlHead(i, s);
  if (!urlHasHost) return authorityEnd;
  let end = authorityEnd;
  if (urls === null) {
    // Without URLs to collect, the path needs no scan when no trigger lies in it, that is
    // when the next trigger's chunk starts after it: the scan goes on from there.
    const k = nextChunk(end);
    if (k >= n || (k > end && settled(k))) return k;
  }
  if (pathAhead(end)) end = scanRest(end, true);
  if (s.scheme < FTP) urls?.push({ start: i, authorityEnd, end });
  return end;
}

/** Where the invisible characters from p end. */
function afterHidden(p: number): number {
  let k = p;
  // Within the text: a read past its end gives NaN, which the character classes are kept
  // from seeing (the engine would compile them for any number, slower).
  while (k < n && isZeroWidth(text.charCodeAt(k))) k++;
  return k;
}

/** Whether a path, query or fragment starts at p, after any invisible characters. */
function pathAhead(p: number): boolean {
  const c0 = text.charCodeAt(p);
  if (p >= n) return false;
  if (c0 === SLASH || c0 === QUESTION || c0 === HASH) return true;
  // Else only an escaped or bracketed slash, or invisible characters, may start one.
  if (c0 < 0x80 && c0 !== BACKSLASH && !isOpenBracket(c0)) return false;
  const k = afterHidden(p);
  const c = text.charCodeAt(k);
  return c === QUESTION || c === HASH || slashForm(k) > 0;
}

/** Whether a bare host starts at p; records nothing. */
function probeHost(p: number): boolean {
  const mark = count;
  scanHost(p, false);
  rollback(mark);
  return hostOk;
}

/**
 * Scheme, separator, userinfo, host and port of a URL whose scheme matched at i.
 * Returns where the authority ends; urlHasHost says whether there was a host (if not,
 * the end of the separator is returned and only a live scheme word is defanged).
 */
function urlHead(i: number, s: SchemeMatch): number {
  const wordDefanged = s.live && !suppressDefang ? TO_DEFANGED_SCHEME + s.scheme : KEEP;
  const mark = count;
  edit(i, s.wordEnd, s.live ? KEEP : TO_SCHEME + s.scheme, wordDefanged);
  edit(s.wordEnd, s.sepEnd, s.sepLive ? KEEP : TO_SEPARATOR, KEEP);
  let p = s.sepEnd;
  if (!s.loose && isBlank(text.charCodeAt(p))) {
    // `http:// example.com`: a space typed after the scheme, joined only before a real host.
    let q = p;
    while (isBlank(text.charCodeAt(q))) q++;
    if (isWordCharAt(q) && !schemeAhead(q) && probeHost(q)) {
      edit(p, q, TO_NOTHING, KEEP);
      p = q;
    }
  }
  const authorityEnd = scanAuthority(p);
  urlHasHost = authorityEnd >= 0;
  if (urlHasHost) return authorityEnd;
  rollback(mark);
  edit(i, s.wordEnd, KEEP, wordDefanged);
  return s.sepEnd;
}

/** Userinfo, host and port from p; the end, or -1 (and no edits) when there is no host. */
function scanAuthority(p: number): number {
  const mark = count;
  // Most authorities have no userinfo, which a host scanned from p proves without a pass
  // of findUserinfo: when the host ends where findUserinfo stops for certain (`/ ? # \ ] }`,
  // a character that ends a URL, the end of the text) and no label in it follows an open
  // bracket, it holds no `@` and every open bracket in it starts a dot form, no at-form.
  let end = hostAt(p);
  const c = text.charCodeAt(end);
  const stops =
    c < 0x80 ? c === SLASH || c === QUESTION || c === HASH || c === BACKSLASH || c === RIGHT_SQUARE || c === RIGHT_CURLY || asciiBreaksUrl(c) : !(c >= 0);
  if (end < 0 || hostBracketLabel || !stops) {
    // Without userinfo the host is the one scanned from p, or an IPv6 literal there.
    const at = findUserinfo(p);
    let h = p;
    if (at >= 0) {
      rollback(mark);
      userinfoEdits(p, at);
      if (atLength > 1) edit(at, at + atLength, TO_AT, KEEP);
      h = at + atLength;
      end = hostAt(h);
    }
    if (text.charCodeAt(h) === LEFT_SQUARE) end = scanIpv6Literal(h);
  }
  if (end < 0) {
    rollback(mark);
    return -1;
  }
  const colon = colonForm(end);
  if (colon > 0 && isAsciiDigit(text.charCodeAt(end + colon))) {
    if (colon > 1) edit(end, end + colon, TO_COLON, KEEP);
    end += colon;
    while (isAsciiDigit(text.charCodeAt(end))) end++;
  }
  return end;
}

/** The host of a URL at h (not an IPv6 literal), with its edits: its end, or -1. */
function hostAt(h: number): number {
  if (!labelAhead(h, true) || schemeAhead(h)) return -1;
  const end = scanHost(h, true);
  return hostOk && !overrideAfter(end) ? end : -1;
}

/**
 * Whether a bidirectional override follows a host that ends at end (after a dot that ends
 * it, invisible characters around): it shows what follows turned around, so that the host
 * read is not the host seen, and there is no URL.
 */
function overrideAfter(end: number): boolean {
  if (end >= n) return false;
  const c = text.charCodeAt(end);
  // The usual end of a host (`/`, `:`, a blank, ...) starts no dot form and hides nothing.
  if (c < 0x80 && c !== DOT && c !== PERCENT && c !== BACKSLASH && c !== LESS && !isBracket(c)) return false;
  const k = afterHidden(end);
  const e = afterHidden(k + dotForm(k, true, false));
  return e < n && isBidiOverride(text.charCodeAt(e));
}

/**
 * The last `@` (or at-form) before the authority ends, as WHATWG URL reads userinfo:
 * its position, or -1; atLength says how long the form is.
 */
function findUserinfo(p: number): number {
  let j = p;
  let at = -1;
  while (j < n) {
    const c = text.charCodeAt(j);
    const form = atForm(j);
    if (form > 0) {
      at = j;
      atLength = form;
      j += form;
      continue;
    }
    if (isBracket(c)) {
      const d = text.charCodeAt(j + 1);
      if (c === LEFT_PAREN || c === RIGHT_PAREN) j++;
      else if (isOpenBracket(c) && (d === DOT || d === COLON) && isCloseBracket(text.charCodeAt(j + 2))) j += 3;
      else break;
      continue;
    }
    if (c === SLASH || c === QUESTION || c === HASH || c === BACKSLASH || asciiBreaksUrl(c)) break;
    if (c >= 0x80 && !isZeroWidth(c) && !isLookalikeDot(c) && c !== KATAKANA_MIDDLE_DOT && matchEnd(BREAKS_URL, j) > j) break;
    j += codePointLength(j);
  }
  return at;
}

/** The defanged delimiters and the invisible characters of the userinfo text[start, end). */
function userinfoEdits(start: number, end: number): void {
  for (let j = start; j < end; j++) {
    const length = delimiterForm(j);
    if (length > 0) {
      edit(j, j + length, delimiter, KEEP);
      j += length - 1;
    } else if (isZeroWidth(text.charCodeAt(j))) {
      edit(j, j + 1, TO_NOTHING, KEEP);
    }
  }
}

/**
 * Length of a defanged delimiter at j in a URL's userinfo, path, query or fragment, or 0;
 * delimiter says what it stands for. The bracketed `.`, `:`, `/` and `@` (any brackets),
 * `[dot]`, `\.`, escaped slashes (`\/`), and `[at]` between letters or digits (in
 * `?filter[at]=1` it is the query's own text). `[,]`, a dot in a bare host, is a list here.
 */
function delimiterForm(j: number): number {
  const c = text.charCodeAt(j);
  if (c !== BACKSLASH && !isOpenBracket(c)) return 0;
  let length = slashForm(j);
  delimiter = TO_SLASH;
  if (length === 0 && text.charCodeAt(j + 1) !== COMMA) {
    length = dotForm(j, false, false);
    delimiter = TO_DOT;
  }
  if (length === 0) {
    length = colonForm(j);
    delimiter = TO_COLON;
  }
  if (length === 0) {
    length = atForm(j);
    delimiter = TO_AT;
    if (length === 4 && !(isAsciiAlnum(text.charCodeAt(j - 1)) && isAsciiAlnum(text.charCodeAt(j + 4)))) length = 0;
  }
  return length;
}

/** What a URL's path drops: the invisible characters and the bidirectional overrides. */
function isHidden(c: number): boolean {
  return isZeroWidth(c) || isBidiOverride(c);
}

/**
 * What scanRest steps over without a look: ASCII letters and digits, and the punctuation
 * it steps over (no bracket, no `\`, no `,` or `;`, nothing that ends a URL) when no scheme
 * letter follows, which may start a nested URL. Sticky; case-insensitive for A-Z.
 */
const PATH_RUN = /(?:[\da-z]|[!#$%&'*+\-./:=?@^_|~](?![fhmx]))*/iy;

/**
 * Path, query and fragment. Ends at whitespace, a character that cannot be in a URL,
 * punctuation outside ASCII, an unbalanced closing bracket, or `,`/`;` before another
 * URL. A URL nested in it is refanged as part of it (url) or ends it (bare host).
 * Invisible characters in it are dropped; those after its last visible one are not its.
 */
export function scanRest(start: number, url: boolean): number {
  let j = start;
  let paren = 0;
  let square = 0;
  let curly = 0;
  while (j < n) {
    // Letters, digits and punctuation that need nothing but stepping over, in one match;
    // not from a scheme letter that starts a word, which may start a nested URL.
    if (!isSchemeLetter(text.charCodeAt(j)) || isAsciiAlnum(text.charCodeAt(j - 1))) j = matchEnd(PATH_RUN, j);
    if (j >= n) break;
    const c = text.charCodeAt(j);
    if (c >= 0x80) {
      if (isHidden(c)) edit(j, j + 1, TO_NOTHING, KEEP);
      else if (matchEnd(BREAKS_URL, j) > j) break;
      j += codePointLength(j);
      continue;
    }
    if (asciiBreaksUrl(c)) break;
    const length = delimiterForm(j);
    if (length > 0) {
      edit(j, j + length, delimiter, KEEP);
      j += length;
      continue;
    }
    if ((c === COMMA || c === SEMICOLON) && schemeAhead(j + 1)) break;
    if ((isSchemeLetter(c) || isOpenBracket(c)) && !isAsciiAlnum(text.charCodeAt(j - 1))) {
      const s = matchScheme(j, false);
      if (s !== null && s.scheme !== MAILTO) {
        if (!url) break;
        const saved = suppressDefang;
        setSuppressDefang(true);
        j = urlHead(j, s);
        setSuppressDefang(saved);
        continue;
      }
    }
    if (c === LEFT_PAREN) paren++;
    else if (c === LEFT_SQUARE) square++;
    else if (c === LEFT_CURLY) curly++;
    // An unbalanced closing bracket ends the URL.
    else if (c === RIGHT_PAREN ? paren-- === 0 : c === RIGHT_SQUARE ? square-- === 0 : c === RIGHT_CURLY && curly-- === 0) break;
    j++;
  }
  while (j > start && isHidden(text.charCodeAt(j - 1))) j--;
  while (lastEditStart() >= j) rollback(count - 1);
  return j;
}
