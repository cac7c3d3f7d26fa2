/**
 * The single-pass scanner behind defang, refang and extractUrls.
 *
 * It recognises tokens that are (possibly defanged) URLs, bare hosts and IP addresses,
 * e-mail addresses and IPv6 addresses. For each obfuscation or live character inside such
 * a token it records an edit that says what the span becomes in the rendering asked for
 * (refanged or defanged). Text outside tokens never gets an edit, which is what keeps
 * prose, code and markdown intact.
 *
 * Linear time: every attempt either consumes what it scanned or, when it fails, is never
 * retried inside the stretch it covered (the `*FailEnd` marks and the jump over failed
 * host runs). Lookaheads that do not consume are bounded to a few characters.
 *
 * Speed: every edit, and every URL, holds a trigger character of the scan (see TRIGGERS),
 * and tokens do not run across whitespace except in `:// host` and ` [.] `, whose chunks
 * hold triggers too. So one regular-expression search goes from trigger to trigger and
 * the scanner looks only at the whitespace-delimited chunks around them; most prose is
 * never read character by character.
 *
 * The modules, each with what it recognises: chars.ts (character classes), state.ts (the
 * text, the edits, the trigger search and the failed runs), schemes.ts (scheme words and
 * separators), hosts.ts (labels and dot forms), ipv6.ts, urls.ts (authority, path, nested
 * URLs), and this one: the main loop, bare hosts, e-mail addresses and `[/]` runs.
 */
import { AT, BACKSLASH, DOT, isAsciiAlnum, isAsciiDigit, isBracket, isOpenBracket, isSchemeLetter, LEFT_SQUARE, LESS, PLUS } from './chars';
import {
  begin,
  codePointLength,
  count,
  edit,
  failLocal,
  finish,
  isWordCharAt,
  isWordCharBefore,
  KEEP,
  labelCharLength,
  localFailEnd,
  matchEnd,
  n,
  nextChunk,
  type Rendering,
  rollback,
  type ScanResult,
  settled,
  text,
  TO_AT,
  TO_COLON,
  TO_DOT,
  TO_SLASH,
  triggerAt,
} from './state';
import { atForm, colonForm, isSquareSlash, slashForm } from './schemes';
import { dotForm, hostOk, plainHostEnd, scanHost } from './hosts';
import { ipv6Start, tryBareIpv6 } from './ipv6';
import { scanRest, tryUrl } from './urls';

/**
 * Triggers, one character per match (lookarounds read at most eight more). Refanging: a
 * bracket, `<`, `\`, `%`, `*`, `_` (of `__`), an invisible character (zero-width or
 * bidirectional), a lookalike dot or U+30FB (the only characters outside ASCII that
 * refanging changes), or the first `/` of a `//` that refanging edits or that follows a
 * word it edits: after an `x` less than five letters before `://` (the defanged scheme
 * words without `*` or brackets: `hxxp`, `fxp`, `httpx`, ...), in `://` before a blank or
 * a third `/` (which refanging drops), and in the broken separators: `//` after the last
 * letter of a scheme word (`https//`) and `://` after a blank (the scan starts at the
 * chunk before, see nextChunk). Defanging, which edits live scheme words and dots: `:`,
 * `%` (of `%2e`), a lookalike dot, or a `.` before anything but whitespace (a dot before
 * whitespace ends no host). URLs: `:`, `_` (of `hxxp__`), `https//`, or the bracket of a
 * spaced dot (` [.] `, which may join a host before it to a word that would otherwise
 * start a URL). Global; case-insensitive for A-Z (outside Unicode mode that folds no
 * other character into ASCII). The first characters they can start with are few and rare
 * in prose (no letter, no space, no `:`; a lookbehind comes after its character): the
 * search skips between them fast. Each of those it stops at and drops costs about as much
 * as reading twenty characters, so the `//` forms are one alternative from `/` (about one
 * character in fifty in prose with URLs) rather than one from each of `x`, `:` and `/`.
 */
const TRIGGERS = {
  refanged:
    /[%()*<[\\\]_{}\u00ad\u061c\u200b-\u200f\u202a-\u202e\u2060\u2066-\u2069\u3002\u30fb\ufeff\uff0e\uff61]|\/(?=\/)(?:(?<=[psx]\/|(?:[\t ]|x[a-z]{0,4}):\/)|(?<=:\/)(?=\/[\t /]))/gi,
  defanged: /[%:\u3002\uff0e\uff61]|\.(?![\t\n\r ]|$)/g,
  urls: /[:_]|\/(?<=[psx]\/)(?=\/)|[([{](?=\.[)\]}] )/gi,
};

// V8 compiles a search to machine code once, on the first text of 1,000 characters or more
// or on the second text it runs on, and weighs its skips (Boyer-Moore) by the frequencies
// of characters in that text. A short first text thick with URL punctuation
// (`hxxp://example[.]com`, 10% slashes) leaves the refanging search slower for good, about
// 1.6 times on prose. A long text of plain words first makes the compiled code the same
// whatever the first scan. It matches nothing, which leaves lastIndex at 0.
const PRIMER = 'lorem ipsum dolor sit amet '.repeat(40);
for (const search of Object.values(TRIGGERS)) search.test(PRIMER);

/**
 * A run of characters that start no token: ASCII but letters, digits and `( [ { :`, and
 * open brackets before no letter, `*`, `:` or `/` (a bracketed scheme, `[:]` or `[/]`
 * needs one). Sticky; case-insensitive for A-Z.
 */
const STARTS_NOTHING = /(?:[^\d(:[{a-z\u0080-\uffff]|[([{](?![*/:a-z]))+/iy;

/**
 * Scans text once and returns the edits that give its refanged or defanged rendering,
 * and (with collectUrls) its http(s) URLs.
 *
 * @example
 * const { count, edits, urls } = scan('go to hxxp://a[.]com/x', 'refanged', true);
 * // 2 edits: `hxxp` at 6..10 -> 'http', `[.]` at 14..17 -> '.'; urls: one URL at 6..22
 */
export function scan(input: string, rendering: Rendering, collectUrls = false): ScanResult {
  begin(input, rendering, collectUrls ? TRIGGERS.urls : TRIGGERS[rendering], collectUrls);
  run();
  return finish();
}

/**
 * The main loop: when nothing is pending (no trigger passed over unscanned, no failed run
 * reaching on), it goes to the chunk of the next trigger.
 */
function run(): void {
  let i = 0;
  let next = -1;
  while (i < n) {
    if (i > next && settled(i)) {
      i = nextChunk(i);
      next = triggerAt;
      if (i >= n) return;
    }
    i = step(i);
  }
}

/**
 * Tries every token that can start at i and returns where to go on: the end of what it
 * found, past a failed run, or past the characters that start nothing.
 */
function step(i: number): number {
  const c = text.charCodeAt(i);
  let end = -1;
  if ((isSchemeLetter(c) || isOpenBracket(c)) && !isAsciiAlnum(text.charCodeAt(i - 1))) end = tryUrl(i);
  if (end < 0 && ipv6Start(i, c)) end = tryBareIpv6(i);
  if (end < 0 && c === LEFT_SQUARE) end = trySlashRun(i);
  if (end >= 0) return end;
  if (isWordCharAt(i) && !isWordCharBefore(i)) {
    end = tryEmail(i);
    // A failed run is left exactly as it is, including any host-like tail inside it.
    return end >= 0 ? end : Math.max(tryBareHost(i), i + codePointLength(i));
  }
  return Math.max(matchEnd(STARTS_NOTHING, i), i + codePointLength(i));
}

/** A bare host with optional port and path; returns the end, or how far a failed run reached. */
function tryBareHost(i: number): number {
  let end = scanHost(i, false);
  if (!hostOk) return end;
  const colon = colonForm(end);
  if (colon > 0 && isAsciiDigit(text.charCodeAt(end + colon))) {
    let k = end + colon;
    while (isAsciiDigit(text.charCodeAt(k))) k++;
    if (labelCharLength(k) === 0) {
      if (colon > 1) edit(end, end + colon, TO_COLON, KEEP);
      end = k;
    }
  }
  if (slashForm(end) > 0) end = scanRest(end, false);
  return end;
}

/** `local@host` with `@` or an at-form (`[at]`, `(@)`, ...) written right against both parts. */
function tryEmail(i: number): number {
  if (i < localFailEnd) return -1;
  // Most words are no local part. A plain host (see plainHostEnd) is one, and when the
  // character after it continues no local part (a label character, `+`, a dot form before
  // either) and starts no at-form, the word fails at once.
  const plain = plainHostEnd(i);
  const c = text.charCodeAt(plain);
  const d = text.charCodeAt(plain + 1);
  const continues = c >= 0x80 || c === AT || c === PLUS || c === BACKSLASH || c === LESS || isBracket(c) || (c === DOT && (d >= 0x80 || d === PLUS));
  if (plain > i && !continues) {
    failLocal(plain);
    return -1;
  }
  const mark = count;
  // The local part: parts of label characters and `+` joined by dot forms.
  let j = i;
  let localEnd = i;
  for (;;) {
    const partStart = j;
    for (let length = 1; length > 0; j += length) length = text.charCodeAt(j) === PLUS ? 1 : labelCharLength(j);
    if (j === partStart) break;
    localEnd = j;
    const length = dotForm(j, false, false);
    if (length === 0 || !(labelCharLength(j + length) > 0 || text.charCodeAt(j + length) === PLUS)) break;
    if (!(length === 1 && text.charCodeAt(j) === DOT)) edit(j, j + length, TO_DOT, KEEP);
    j += length;
  }
  const at = atForm(localEnd);
  const hostStart = localEnd + at;
  if (at > 0 && isWordCharAt(hostStart)) {
    if (at > 1) edit(localEnd, hostStart, TO_AT, KEEP);
    const hostEnd = scanHost(hostStart, false);
    if (hostOk) return hostEnd;
  }
  rollback(mark);
  failLocal(localEnd);
  return -1;
}

/** Two or more `[/]` in a row are a defanged `//`; one alone may be anything. */
function trySlashRun(i: number): number {
  let j = i;
  while (isSquareSlash(j)) j += 3;
  if (j - i < 6) return -1;
  for (let k = i; k < j; k += 3) edit(k, k + 3, TO_SLASH, KEEP);
  return j;
}
