/**
 * Hosts: labels of any script joined by dot forms (`.`, `[.]`, `(dot)`, `%2e`, lookalike
 * dots, ...), as a URL's host or bare in prose, where a host must end in a plausible
 * top-level domain or be an IPv4 address.
 */
import {
  asciiBreaksUrl,
  BACKSLASH,
  COLON,
  COMMA,
  DOT,
  GREATER,
  HASH,
  isAsciiAlpha,
  isAsciiDigit,
  isAsciiLabel,
  isBracket,
  isCloseBracket,
  isHexDigit,
  isJapaneseScript,
  isLookalikeDot,
  isOpenBracket,
  isZeroWidth,
  KATAKANA_MIDDLE_DOT,
  LESS,
  PERCENT,
  QUESTION,
  SLASH,
  SPACE,
  STAR,
} from './chars';
import {
  count,
  edit,
  failHost,
  hostFailEnd,
  hostFailStart,
  isPercentDot,
  KEEP,
  labelCharLength,
  lastEditStart,
  matchEnd,
  n,
  plainBrackets,
  plainEnd,
  plainStart,
  refanging,
  rememberPlainHost,
  rollback,
  text,
  TO_BRACKETED_DOT,
  TO_DOT,
  TO_NOTHING,
} from './state';
import { colonForm, schemeAhead, slashForm } from './schemes';

/** A second result of scanHost: whether a label follows a dot form that ends in an open bracket (`.[at]`: an at-form to findUserinfo). */
export let hostBracketLabel = false;

/** A second result of scanHost, read right after it returns: whether the host is acceptable. */
export let hostOk = false;

/**
 * A part of a plain host (see plainHostEnd): ASCII labels joined by plain dots, and the
 * bracketed dot after them when a label follows it. Sticky; case-insensitive for `dot`.
 */
const PLAIN_PART = /[\w-]+(?:\.[\w-]+)*(?:[([{](?:\.|dot)[)\]}](?=[\w-]))?/iy;

/** How many bracketed dots plainHostEnd's last match has (see plainBrackets). */
let plainBracketCount = 0;

/** Four numbers up to 255 of at most three digits, joined as a plain host joins labels (see plainHostEnd). Sticky. */
const DOTTED_QUAD = /(?:(?:25[0-5]|2[0-4]\d|[01]?\d?\d)(?:\.|[([{](?:\.|dot)[)\]}])){3}(?:25[0-5]|2[0-4]\d|[01]?\d?\d)/iy;

/** The words of a bracketed dot (`[dot]`, `(punkt)`); bare, they are ordinary words. Sticky. */
const DOT_WORD = /dot|punkt|punto/iy;

/**
 * Length of a dot form at j, or 0. Inside a URL (url) one-sided brackets, `%2e` and
 * U+30FB count; outside one a bracket must close on both sides, so `[.NET]` and
 * `array[0].length` stay prose. spaced: also ` [.] ` with a space on each side.
 */
export function dotForm(j: number, url: boolean, spaced: boolean): number {
  const c = text.charCodeAt(j);
  const d = text.charCodeAt(j + 1);
  if (c === DOT) return url && isBracket(d) ? 2 : 1;
  if (isLookalikeDot(c) || (url && c === KATAKANA_MIDDLE_DOT)) return 1;
  if (url && isPercentDot(j)) return 3;
  if (c === BACKSLASH) return d === DOT ? 2 : 0;
  if (c === LESS || isBracket(c)) {
    // `<` closes with `>`, a bracket with any bracket; `[,]` and `[dot]` as `[.]`.
    const k = d === DOT || (d === COMMA && c !== LESS) ? j + 2 : matchEnd(DOT_WORD, j + 1);
    const e = text.charCodeAt(k);
    if (k > j + 1 && (c === LESS ? e === GREATER : isBracket(e))) return k + 1 - j;
    // A one-sided bracket (`[.`, `(.`) inside a URL.
    return url && d === DOT && c !== LESS ? 2 : 0;
  }
  return spaced &&
    c === SPACE &&
    isOpenBracket(d) &&
    text.charCodeAt(j + 2) === DOT &&
    isCloseBracket(text.charCodeAt(j + 3)) &&
    text.charCodeAt(j + 4) === SPACE
    ? 5
    : 0;
}

/** A dot that a URL parser reads as a label separator. */
function isLiveDot(j: number, length: number): boolean {
  const c = text.charCodeAt(j);
  return (length === 1 && (c === DOT || isLookalikeDot(c))) || (length === 3 && isPercentDot(j));
}

function dotEdit(j: number, length: number): void {
  if (isLiveDot(j, length)) edit(j, j + length, text.charCodeAt(j) === DOT ? KEEP : TO_DOT, TO_BRACKETED_DOT);
  else edit(j, j + length, TO_DOT, KEEP);
}

/** Whether a label starts at p (after any zero-width characters). */
export function labelAhead(p: number, url: boolean): boolean {
  let k = p;
  while (isZeroWidth(text.charCodeAt(k))) k++;
  return labelCharLength(k) > 0 || (url && isPercentLabel(k));
}

/** `%` and two hex digits, not `%2e`: a label character of a URL's host. */
function isPercentLabel(k: number): boolean {
  return text.charCodeAt(k) === PERCENT && isHexDigit(text.charCodeAt(k + 1)) && isHexDigit(text.charCodeAt(k + 2)) && !isPercentDot(k);
}

/** A dot after the last label: only a plain or `[.]` dot right before `/ ? # :` (or a slash or colon form). */
function trailingDotOk(j: number, length: number): boolean {
  if (!isLiveDot(j, length) && !(length === 3 && text.startsWith('[.]', j))) return false;
  const k = j + length;
  const c = text.charCodeAt(k);
  return c === QUESTION || c === HASH || c === COLON || slashForm(k) > 0 || colonForm(k) === 3;
}

function japaneseBefore(end: number): boolean {
  const c = text.charCodeAt(end - 1);
  return isJapaneseScript(c >= 0xdc00 && c <= 0xdfff ? text.charCodeAt(end - 2) : c);
}

/**
 * Labels joined by dot forms from start, with their edits. url: the host of a URL, where
 * any non-empty host is accepted; otherwise a bare host must have two labels and end in a
 * plausible top-level domain, or be a dotted-quad IPv4 address. Returns where the host
 * (or the failed run) ends; hostOk says whether it is acceptable (if not, it left no edits).
 */
export function scanHost(start: number, url: boolean): number {
  if (!url && start >= hostFailStart && start < hostFailEnd) {
    hostOk = false;
    return hostFailEnd;
  }
  hostBracketLabel = false;
  // The usual host, in one match. A bare one needs two labels or more; when the last one
  // starts with a digit, it is no top-level domain and the host must be an IPv4 address.
  const plain = plainHostEnd(start);
  if (plain > start && endsPlainHost(start, plain, url)) {
    const last = url ? start : lastLabel(start, plain);
    const ok = url || (last > start && (isAsciiDigit(text.charCodeAt(last)) ? matchEnd(DOTTED_QUAD, start) === plain : isTopLevelDomain(last, plain)));
    return plainHost(start, plain, ok);
  }
  return scanLabels(start, url);
}

/** scanHost for any host: labels of any script joined by any dot form. */
function scanLabels(start: number, url: boolean): number {
  const mark = count;
  let j = start;
  let end = start;
  let labels = 0;
  let allNumeric = true;
  let ipv4 = true;
  let allAscii = true;
  let lookalike = false;
  let lastStart = start;
  let lastEnd = start;
  for (;;) {
    const labelStart = j;
    const zeroWidthMark = count;
    let realEnd = -1;
    let numeric = true;
    let digits = 0;
    let value = 0;
    while (j < n) {
      const c = text.charCodeAt(j);
      if (isAsciiDigit(c)) {
        value = value * 10 + (c - 0x30);
        digits++;
      } else if (isAsciiLabel(c)) {
        numeric = false;
      } else if (isZeroWidth(c)) {
        edit(j, j + 1, TO_NOTHING, KEEP);
        j++;
        continue;
      } else if (url && c === PERCENT) {
        if (!isPercentLabel(j)) break;
        j += 2;
        numeric = false;
      } else if (url && c === KATAKANA_MIDDLE_DOT && ((realEnd >= 0 && japaneseBefore(realEnd)) || isJapaneseScript(text.charCodeAt(j + 1)))) {
        numeric = false;
        allAscii = false;
      } else {
        const length = labelCharLength(j);
        if (length === 0) break;
        numeric = false;
        allAscii = false;
        j += length - 1;
      }
      realEnd = ++j;
    }
    if (realEnd < 0) {
      rollback(zeroWidthMark);
      break;
    }
    labels++;
    if (!numeric || digits > 3 || value > 255) ipv4 = false;
    if (!numeric) allNumeric = false;
    lastStart = labelStart;
    lastEnd = realEnd;
    end = realEnd;
    // The common separator, a plain `.` before an ASCII label character, without the
    // general dotForm and labelAhead (which give length 1 and true for it).
    if (text.charCodeAt(j) === DOT && isAsciiLabel(text.charCodeAt(j + 1)) && !schemeAhead(j + 1)) {
      edit(j, j + 1, KEEP, TO_BRACKETED_DOT);
      j++;
      continue;
    }
    let length = dotForm(j, url, !url);
    if (length === 2 && text.charCodeAt(j) === DOT && !labelAhead(j + 2, url)) length = 1;
    if (length > 0 && labelAhead(j + length, url) && !schemeAhead(j + length)) {
      if (isLookalikeDot(text.charCodeAt(j))) lookalike = true;
      if (isOpenBracket(text.charCodeAt(j + length - 1))) hostBracketLabel = true;
      dotEdit(j, length);
      j += length;
      continue;
    }
    if (length > 0 && url && realEnd === j && trailingDotOk(j, length)) {
      dotEdit(j, length);
      end = j + length;
      break;
    }
    // Zero-width characters after the last letter are not part of the host.
    while (count > zeroWidthMark && lastEditStart() >= realEnd) rollback(count - 1);
    break;
  }
  let ok: boolean;
  if (url) ok = labels > 0;
  else if (labels < 2 || (lookalike && !allAscii)) ok = false;
  else if (allNumeric) ok = labels === 4 && ipv4;
  else ok = isTopLevelDomain(lastStart, lastEnd);
  if (!ok) {
    rollback(mark);
    if (!url) failHost(start, Math.max(end, start + 1));
  }
  hostOk = ok;
  return end;
}

/**
 * Where the usual host, ASCII labels (letters, digits, `-`, `_`) joined by `.`, `[.]` or
 * `[dot]` (any brackets, `dot` in any case), ends at p (p if there is none). Remembered:
 * an e-mail's local part and a bare host are tried at the same word. One match per
 * bracketed dot and one more, which note where the bracketed dots are for plainHost: the
 * engine reads the host many times faster than a loop of charCodeAt would.
 */
export function plainHostEnd(p: number): number {
  if (p === plainStart) return plainEnd;
  plainBracketCount = 0;
  let end = p;
  // A part that ends in a bracketed dot has another after it.
  for (let next = matchEnd(PLAIN_PART, p); next > end; next = matchEnd(PLAIN_PART, end)) {
    end = next;
    if (!isCloseBracket(text.charCodeAt(end - 1))) break;
    plainBrackets[plainBracketCount++] = text.charCodeAt(end - 2) === DOT ? end - 3 : end - 5;
  }
  rememberPlainHost(p, end);
  return end;
}

/** Where the last label of a plain match text[start, end) starts (start when it is the only one). */
function lastLabel(start: number, end: number): number {
  let last = end;
  while (last > start && isAsciiLabel(text.charCodeAt(last - 1))) last--;
  return last;
}

/**
 * Whether scanHost ends a host at the end of its plain match text[start, end) (see
 * plainHostEnd): when the character there continues no label, dot form or scheme. In a
 * URL that is `/ ? #`, a character that ends a URL but `<` (of `<.>`), or the end of the
 * text; for a bare host anything in ASCII but `\`, `<`, a bracket, ` [`, `.` before a
 * character outside ASCII, and `:` or `*` after a last label that starts a scheme (which
 * the general scan does not join). The labels inside the match start no scheme: a scheme
 * word needs `:`, `_` or an open bracket next.
 */
function endsPlainHost(start: number, end: number, url: boolean): boolean {
  const c = text.charCodeAt(end);
  if (!(c >= 0)) return true;
  if (url) return c === SLASH || c === QUESTION || c === HASH || (asciiBreaksUrl(c) && c !== LESS);
  const d = text.charCodeAt(end + 1);
  if (c >= 0x80 || c === BACKSLASH || c === LESS || isBracket(c) || (c === DOT && d >= 0x80) || (c === SPACE && isOpenBracket(d))) return false;
  return !((c === COLON || c === STAR) && schemeAhead(lastLabel(start, end)));
}

/**
 * What scanHost gives for a host that is plainHostEnd's last match text[start, end): the edits
 * (a bracketed dot is a dot refanged, a live dot `[.]` defanged) when ok, else a failed
 * run.
 */
function plainHost(start: number, end: number, ok: boolean): number {
  if (ok) {
    // The bracketed dots plainHostEnd noted and, when defanging, the plain dots around
    // them (refanging keeps those, so it reads none of the labels again).
    let j = start;
    for (let k = 0; k <= plainBracketCount; k++) {
      const bracket = k < plainBracketCount ? (plainBrackets[k] ?? end) : end;
      if (!refanging) for (; j < bracket; j++) if (text.charCodeAt(j) === DOT) edit(j, j + 1, KEEP, TO_BRACKETED_DOT);
      j = bracket + (text.charCodeAt(bracket + 1) === DOT ? 3 : 5);
      if (bracket < end) edit(bracket, j, TO_DOT, KEEP);
    }
  } else {
    failHost(start, end);
  }
  hostOk = ok;
  return end;
}

/** Letters only (2+), an `xn--` label, or a label wholly outside ASCII. */
function isTopLevelDomain(start: number, end: number): boolean {
  let length = 0;
  let letters = 0;
  let ascii = 0;
  for (let k = start; k < end; k++) {
    const c = text.charCodeAt(k);
    if (isZeroWidth(c)) continue;
    length++;
    if (c < 0x80) {
      ascii++;
      if (isAsciiAlpha(c)) letters++;
    }
  }
  if (length < 2) return false;
  if (ascii === 0 || letters === length) return true;
  return ascii === length && /^xn--[\da-z-]+$/i.test(text.slice(start, end));
}
