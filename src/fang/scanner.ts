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
 * The scanner is a set of functions over module state (one scan runs at a time and calls
 * out to nothing that scans), which keeps it small once minified.
 */

// ---- character classes ---------------------------------------------------------------
// On UTF-16 code units; an index past either end reads as NaN, which no class accepts.

const DOT = 0x2e;
const COLON = 0x3a;
const SLASH = 0x2f;
const AT = 0x40;
const PERCENT = 0x25;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const SEMICOLON = 0x3b;
const UNDERSCORE = 0x5f;
const HYPHEN = 0x2d;
const PLUS = 0x2b;
const STAR = 0x2a;
const SPACE = 0x20;
const TAB = 0x09;
const QUESTION = 0x3f;
const HASH = 0x23;
const LESS = 0x3c;
const GREATER = 0x3e;
const LEFT_PAREN = 0x28;
const RIGHT_PAREN = 0x29;
const LEFT_SQUARE = 0x5b;
const RIGHT_SQUARE = 0x5d;
const LEFT_CURLY = 0x7b;
const RIGHT_CURLY = 0x7d;
const KATAKANA_MIDDLE_DOT = 0x30fb;

function isAsciiDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function isAsciiAlpha(c: number): boolean {
  const lower = c | 0x20;
  return lower >= 0x61 && lower <= 0x7a;
}

function isAsciiAlnum(c: number): boolean {
  return isAsciiDigit(c) || isAsciiAlpha(c);
}

/** Continues an ASCII host label or e-mail local part: letter, digit, `-`, `_`. */
function isAsciiLabel(c: number): boolean {
  return isAsciiAlnum(c) || c === HYPHEN || c === UNDERSCORE;
}

function isHexDigit(c: number): boolean {
  const lower = c | 0x20;
  return isAsciiDigit(c) || (lower >= 0x61 && lower <= 0x66);
}

/** Characters that render as nothing; a host can hide them between its letters. */
function isZeroWidth(c: number): boolean {
  return c === 0x200b || c === 0x200c || c === 0x200d || c === 0x2060 || c === 0xfeff || c === 0x00ad;
}

/** Ideographic, fullwidth and halfwidth full stops: URL parsers map them to `.` in hosts. */
function isLookalikeDot(c: number): boolean {
  return c === 0x3002 || c === 0xff0e || c === 0xff61;
}

function isOpenBracket(c: number): boolean {
  return c === LEFT_SQUARE || c === LEFT_PAREN || c === LEFT_CURLY;
}

function isCloseBracket(c: number): boolean {
  return c === RIGHT_SQUARE || c === RIGHT_PAREN || c === RIGHT_CURLY;
}

function isBracket(c: number): boolean {
  return isOpenBracket(c) || isCloseBracket(c);
}

function isBlank(c: number): boolean {
  return c === SPACE || c === TAB;
}

function isWhitespace(c: number): boolean {
  // Most characters fail the first test.
  return c <= SPACE && (isBlank(c) || c === 0x0a || c === 0x0d);
}

/** Scripts that make U+30FB a legitimate part of an IDN label (IDNA CONTEXTO rule). */
function isJapaneseScript(c: number): boolean {
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

/** The first letter of a scheme word (`http`, `hxxp`, `xxxx`, `ftp`, `fxp`, `mailto`), either case. */
function isSchemeLetter(c: number): boolean {
  const lower = c | 0x20;
  return lower === 0x68 || lower === 0x78 || lower === 0x66 || lower === 0x6d;
}

/** ASCII characters that end a URL outright. */
function asciiBreaksUrl(c: number): boolean {
  return c <= SPACE || c === 0x7f || c === 0x22 || c === LESS || c === GREATER || c === 0x60;
}

// Sticky and single-character: each test inspects exactly one code point.
const LETTER_OR_NUMBER = /[\p{L}\p{M}\p{N}]/uy;
const BREAKS_URL = /[\p{P}\p{Z}\p{Cc}]/uy;

/** Where a sticky regular expression matched at j ends, or j when it does not match. */
function matchEnd(re: RegExp, j: number): number {
  re.lastIndex = j;
  return re.test(text) ? re.lastIndex : j;
}

/** Length (1 or 2 code units) of the host label character at i, or 0. */
function labelCharLength(i: number): number {
  const c = text.charCodeAt(i);
  if (c < 0x80) return isAsciiLabel(c) ? 1 : 0;
  return c >= 0x80 ? matchEnd(LETTER_OR_NUMBER, i) - i : 0;
}

/** A letter or digit of any script at i (no hyphen or underscore). */
function isWordCharAt(i: number): boolean {
  const c = text.charCodeAt(i);
  return c < 0x80 ? isAsciiAlnum(c) : labelCharLength(i) > 0;
}

/** Whether the code point that ends just before i is a letter or digit of any script. */
function isWordCharBefore(i: number): boolean {
  const c = text.charCodeAt(i - 1);
  const high = text.charCodeAt(i - 2);
  return c >= 0xdc00 && c <= 0xdfff && high >= 0xd800 && high <= 0xdbff ? isWordCharAt(i - 2) : isWordCharAt(i - 1);
}

/** Code units taken by the code point at i. */
function codePointLength(i: number): number {
  const c = text.charCodeAt(i);
  const d = text.charCodeAt(i + 1);
  return c >= 0xd800 && c <= 0xdbff && d >= 0xdc00 && d <= 0xdfff ? 2 : 1;
}

function isPercentDot(j: number): boolean {
  return text.charCodeAt(j) === PERCENT && text.charCodeAt(j + 1) === 0x32 && (text.charCodeAt(j + 2) | 0x20) === 0x65;
}

// ---- results -------------------------------------------------------------------------
// An edit names its replacement by an index into REPLACEMENTS, so that an edit is three
// integers in a typed array (see edit) rather than an object.

/** What an edit can put in place of a span, by id. Id 0 (KEEP) stands for no edit. */
export const REPLACEMENTS: readonly string[] = ['', '', '.', ':', '/', '@', '://', 'mailto:', '[.]', 'http', 'https', 'ftp', 'hxxp', 'hxxps', 'fxp'];
const KEEP = 0;
const TO_NOTHING = 1;
const TO_DOT = 2;
const TO_COLON = 3;
const TO_SLASH = 4;
const TO_AT = 5;
const TO_SEPARATOR = 6;
const TO_MAILTO = 7;
const TO_BRACKETED_DOT = 8;
/** Scheme s (below MAILTO) is REPLACEMENTS[TO_SCHEME + s] refanged, REPLACEMENTS[TO_DEFANGED_SCHEME + s] defanged. */
const TO_SCHEME = 9;
const TO_DEFANGED_SCHEME = 12;

/** Which text the edits of a scan give: what spans become when refanging or when defanging. */
export type Rendering = 'refanged' | 'defanged';

/** An http(s) URL with a host, as found in the input. */
interface UrlToken {
  readonly start: number;
  /** End of scheme, userinfo, host and port. */
  readonly authorityEnd: number;
  readonly end: number;
}

/**
 * What one pass over a text found: `count` edits, sorted by start and never overlapping.
 * Edit k replaces text[edits[3k], edits[3k + 1]) with REPLACEMENTS[edits[3k + 2]] in the
 * rendering the scan was asked for; the array may be longer than 3 × count.
 */
export interface ScanResult {
  readonly count: number;
  readonly edits: Int32Array;
  /** Top-level http(s) URL tokens in order (only when asked for). */
  readonly urls: readonly UrlToken[];
}

/**
 * Triggers, one character per match (lookaheads read at most eight more). Refanging: a
 * bracket, `<`, `\`, `%`, `*`, `_` (of `__`), a zero-width character, a lookalike dot or
 * U+30FB (the only characters outside ASCII that refanging changes), an `x` less than
 * five letters before `://` (the defanged scheme words without `*` or brackets: `hxxp`,
 * `fxp`, `httpx`, ...), or the `:` of `://` before a blank (which refanging drops).
 * Defanging, which edits live scheme words and dots: `:`, `%` (of `%2e`), a lookalike
 * dot, or a `.` before anything but whitespace (a dot before whitespace ends no host).
 * URLs: `:`, `_` (of `hxxp__`), or the bracket of a spaced dot (` [.] `, which may join
 * a host before it to a word that would otherwise start a URL). Global; case-insensitive
 * for A-Z (outside Unicode mode that folds no other character into ASCII).
 */
const TRIGGERS = {
  refanged: /[%()*<[\\\]_{}\u00ad\u200b-\u200d\u2060\u3002\u30fb\ufeff\uff0e\uff61]|x(?=[a-z]{0,4}:\/\/)|:(?=\/\/[\t ])/gi,
  defanged: /[%:\u3002\uff0e\uff61]|\.(?![\t\n\r ]|$)/g,
  urls: /[:_]|[([{](?=\.[)\]}] )/g,
};

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
  text = input;
  n = input.length;
  refanging = rendering === 'refanged';
  // Room for an edit per 64 characters to start with (prose has far fewer): growing costs copies.
  edits = new Int32Array(3 * Math.max(256, n >> 6));
  count = 0;
  const found: UrlToken[] = [];
  urls = collectUrls ? found : null;
  suppressDefang = false;
  hostFailStart = hostFailEnd = localFailEnd = ipv6FailEnd = plainStart = triggerAt = chunkTrigger = -1;
  trigger = collectUrls ? TRIGGERS.urls : TRIGGERS[rendering];
  run();
  const result = { count, edits, urls: found };
  // Hold on to nothing of the input between scans.
  text = '';
  edits = new Int32Array(0);
  urls = null;
  return result;
}

// ---- scan state ------------------------------------------------------------------------

let text = '';
let n = 0;
/** Records refanged replacements (true) or defanged ones (false). */
let refanging = false;
/** The scan's trigger search (see TRIGGERS), and where it last found a trigger. */
let trigger = TRIGGERS.refanged;
let triggerAt = -1;
/** nextChunk: the trigger it last answered for, and where that trigger's chunk starts. */
let chunkTrigger = -1;
let chunkStart = 0;
/** Edits as (start, end, replacement id) triples; triples at and past `count` are stale. */
let edits = new Int32Array(0);
let count = 0;
/** Where URL tokens go, when they are collected. */
let urls: UrlToken[] | null = null;
/** Inside a URL nested in another URL's query: defang leaves it as it is. */
let suppressDefang = false;
let hostFailStart = -1;
let hostFailEnd = -1;
let localFailEnd = -1;
let ipv6FailEnd = -1;
// Second results of the function named, read right after it returns.
/** scanHost: whether the host is acceptable. */
let hostOk = false;
/** urlHead: whether the URL has a host. */
let urlHasHost = false;
/** separatorEnd: whether the separator is live. */
let separatorLive = false;
/** scanHost: whether a label follows a dot form that ends in an open bracket (`.[at]`: an at-form to findUserinfo). */
let hostBracketLabel = false;
/** plainHostEnd: the last match, from plainStart to plainEnd. */
let plainStart = -1;
let plainEnd = -1;
/** findUserinfo: length of the `@` form found. */
let atLength = 0;
/** scanIpv6Run: colons in the run, and whether one of them is bracketed (`[:]`). */
let ipv6Colons = 0;
let ipv6Marked = false;

/** Records what text[start, end) becomes in this scan's rendering (ids into REPLACEMENTS; KEEP: nothing). */
function edit(start: number, end: number, refanged: number, defanged: number): void {
  const replacement = refanging ? refanged : suppressDefang ? KEEP : defanged;
  if (replacement === KEEP) return;
  const at = 3 * count;
  if (at + 3 > edits.length) {
    const grown = new Int32Array(2 * edits.length);
    grown.set(edits);
    edits = grown;
  }
  edits[at] = start;
  edits[at + 1] = end;
  edits[at + 2] = replacement;
  count++;
}

/** Where the last edit recorded starts, or -1. */
function lastEditStart(): number {
  return count > 0 ? (edits[3 * count - 3] ?? -1) : -1;
}

/**
 * The first trigger at or after i (n if there is none). Remembered: the scan asks with
 * positions that only grow, so searches never overlap and all of them read the text once.
 */
function nextTrigger(i: number): number {
  if (triggerAt < i) {
    trigger.lastIndex = i;
    triggerAt = trigger.test(text) ? trigger.lastIndex - 1 : n;
  }
  return triggerAt;
}

/**
 * Where the scan goes on for the next trigger from i (n when there is none): the start of
 * the trigger's chunk, or of the chunk before when the trigger's chunk opens with a
 * bracket (` [.] ` joins a host across a space), never before i. Remembered for the
 * trigger, which a URL's path (see tryUrl) and the main loop both ask about.
 */
function nextChunk(i: number): number {
  const t = nextTrigger(i);
  if (t >= n) return n;
  if (t !== chunkTrigger) {
    let k = t;
    while (k > i && !isWhitespace(text.charCodeAt(k - 1))) k--;
    if (k > i && isOpenBracket(text.charCodeAt(k))) {
      while (k > i && isWhitespace(text.charCodeAt(k - 1))) k--;
      while (k > i && !isWhitespace(text.charCodeAt(k - 1))) k--;
    }
    chunkTrigger = t;
    chunkStart = k;
  }
  return Math.max(i, chunkStart);
}

/** Whether no failed run reaches past i. */
function settled(i: number): boolean {
  return hostFailEnd <= i && localFailEnd <= i && ipv6FailEnd <= i;
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

// ---- schemes ---------------------------------------------------------------------------

/** Schemes by index: the index is what a scheme match and the replacement ids use. */
const HTTP = 0;
const HTTPS = 1;
const FTP = 2;
const MAILTO = 3;

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

interface SchemeMatch {
  readonly scheme: number;
  /** The word is a plain scheme name as browsers know it (`http`, `HTTPS`, ...). */
  readonly live: boolean;
  readonly wordEnd: number;
  readonly sepEnd: number;
  readonly sepLive: boolean;
  readonly underscore: boolean;
}

/** A scheme word (optionally bracketed) and its separator at i, or null. */
function matchScheme(i: number, allowUnderscore: boolean): SchemeMatch | null {
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
function schemeAhead(p: number): boolean {
  const c = text.charCodeAt(p);
  return (isSchemeLetter(c) || isOpenBracket(c)) && (matchScheme(p, false)?.scheme ?? MAILTO) !== MAILTO;
}

/** Length of `:` or a bracketed `[:]` at j, or 0. */
function colonForm(j: number): number {
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

function isSquareSlash(j: number): boolean {
  return text.startsWith('[/]', j);
}

// ---- URLs ------------------------------------------------------------------------------

function tryUrl(i: number): number {
  const s = matchScheme(i, true);
  if (s === null) return -1;
  if (s.scheme === MAILTO) {
    if (!s.live || !s.sepLive) edit(i, s.sepEnd, TO_MAILTO, KEEP);
    return s.sepEnd;
  }
  if (s.underscore && !(isWordCharAt(s.sepEnd) && probeHost(s.sepEnd))) return -1;
  const authorityEnd = urlHead(i, s);
  if (!urlHasHost) return authorityEnd;
  let end = authorityEnd;
  if (urls === null) {
    // Without URLs to collect, the path needs no scan when no trigger lies in it, that is
    // when the next trigger's chunk starts after it: the scan goes on from there.
    const k = nextChunk(end);
    if (k >= n || (k > end && settled(k))) return k;
  }
  const c = text.charCodeAt(end);
  if (c === SLASH || c === QUESTION || c === HASH || isSquareSlash(end)) end = scanRest(end, true);
  if (s.scheme !== FTP) urls?.push({ start: i, authorityEnd, end });
  return end;
}

/** Whether a bare host starts at p; records nothing. */
function probeHost(p: number): boolean {
  const mark = count;
  scanHost(p, false);
  count = mark;
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
  if (!s.underscore && isBlank(text.charCodeAt(p))) {
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
  count = mark;
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
      count = mark;
      userinfoEdits(p, at);
      if (atLength > 1) edit(at, at + atLength, TO_AT, KEEP);
      h = at + atLength;
      end = hostAt(h);
    }
    if (text.charCodeAt(h) === LEFT_SQUARE) end = scanIpv6Literal(h);
  }
  if (end < 0) {
    count = mark;
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
  return hostOk ? end : -1;
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

/** In userinfo only brackets that a URL cannot contain are markers: `[.]`, `{.}`, `[:]`. */
function userinfoEdits(start: number, end: number): void {
  for (let j = start; j + 2 < end; j++) {
    const c = text.charCodeAt(j);
    const d = text.charCodeAt(j + 1);
    if ((c === LEFT_SQUARE || c === LEFT_CURLY) && (d === DOT || d === COLON) && text.charCodeAt(j + 2) === c + 2) {
      edit(j, j + 3, d === DOT ? TO_DOT : TO_COLON, KEEP);
      j += 2;
    }
  }
}

/** Length of `@` or an at-form (`[@]`, `(at)`, any brackets, any case) at j, or 0. */
function atForm(j: number): number {
  const c = text.charCodeAt(j);
  if (c === AT) return 1;
  if (!isOpenBracket(c)) return 0;
  if (text.charCodeAt(j + 1) === AT && isCloseBracket(text.charCodeAt(j + 2))) return 3;
  return (text.charCodeAt(j + 1) | 0x20) === 0x61 && (text.charCodeAt(j + 2) | 0x20) === 0x74 && isCloseBracket(text.charCodeAt(j + 3)) ? 4 : 0;
}

/**
 * What scanRest steps over without a look: ASCII letters and digits, and the punctuation
 * it steps over (no bracket, no `,` or `;`, nothing that ends a URL) when no scheme letter
 * follows, which may start a nested URL. Sticky; case-insensitive for A-Z.
 */
const PATH_RUN = /(?:[\da-z]|[!#$%&'*+\-./:=?@\\^_|~](?![fhmx]))*/iy;

/**
 * Path, query and fragment. Ends at whitespace, a character that cannot be in a URL,
 * punctuation outside ASCII, an unbalanced closing bracket, or `,`/`;` before another
 * URL. A URL nested in it is refanged as part of it (url) or ends it (bare host).
 */
function scanRest(start: number, url: boolean): number {
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
      if (!isZeroWidth(c) && matchEnd(BREAKS_URL, j) > j) break;
      j += codePointLength(j);
      continue;
    }
    if (asciiBreaksUrl(c)) break;
    const d = text.charCodeAt(j + 1);
    if ((c === LEFT_SQUARE || c === LEFT_CURLY) && text.charCodeAt(j + 2) === c + 2 && (d === DOT || (d === SLASH && c === LEFT_SQUARE))) {
      edit(j, j + 3, d === DOT ? TO_DOT : TO_SLASH, KEEP);
      j += 3;
      continue;
    }
    if ((c === COMMA || c === SEMICOLON) && schemeAhead(j + 1)) break;
    if ((isSchemeLetter(c) || isOpenBracket(c)) && !isAsciiAlnum(text.charCodeAt(j - 1))) {
      const s = matchScheme(j, false);
      if (s !== null && s.scheme !== MAILTO) {
        if (!url) break;
        const saved = suppressDefang;
        suppressDefang = true;
        j = urlHead(j, s);
        suppressDefang = saved;
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
  return j;
}

// ---- hosts -----------------------------------------------------------------------------

/** See plainHostEnd. Sticky; case-insensitive for `dot`. */
const PLAIN_HOST = /[\w-]+(?:(?:\.|[([{](?:\.|dot)[)\]}])[\w-]+)*/iy;

/** Four numbers up to 255 of at most three digits, joined as PLAIN_HOST joins labels. Sticky. */
const DOTTED_QUAD = /(?:(?:25[0-5]|2[0-4]\d|[01]?\d?\d)(?:\.|[([{](?:\.|dot)[)\]}])){3}(?:25[0-5]|2[0-4]\d|[01]?\d?\d)/iy;

/** The words of a bracketed dot (`[dot]`, `(punkt)`); bare, they are ordinary words. Sticky. */
const DOT_WORD = /dot|punkt|punto/iy;

/**
 * Length of a dot form at j, or 0. Inside a URL (url) one-sided brackets, `%2e` and
 * U+30FB count; outside one a bracket must close on both sides, so `[.NET]` and
 * `array[0].length` stay prose. spaced: also ` [.] ` with a space on each side.
 */
function dotForm(j: number, url: boolean, spaced: boolean): number {
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
function labelAhead(p: number, url: boolean): boolean {
  let k = p;
  while (isZeroWidth(text.charCodeAt(k))) k++;
  return labelCharLength(k) > 0 || (url && isPercentLabel(k));
}

/** `%` and two hex digits, not `%2e`: a label character of a URL's host. */
function isPercentLabel(k: number): boolean {
  return text.charCodeAt(k) === PERCENT && isHexDigit(text.charCodeAt(k + 1)) && isHexDigit(text.charCodeAt(k + 2)) && !isPercentDot(k);
}

/** A dot after the last label: only a plain or `[.]` dot right before `/ ? # :`. */
function trailingDotOk(j: number, length: number): boolean {
  if (!isLiveDot(j, length) && !(length === 3 && text.startsWith('[.]', j))) return false;
  const k = j + length;
  const c = text.charCodeAt(k);
  return c === SLASH || c === QUESTION || c === HASH || c === COLON || isSquareSlash(k) || colonForm(k) === 3;
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
function scanHost(start: number, url: boolean): number {
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
      count = zeroWidthMark;
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
    while (count > zeroWidthMark && lastEditStart() >= realEnd) count--;
    break;
  }
  let ok: boolean;
  if (url) ok = labels > 0;
  else if (labels < 2 || (lookalike && !allAscii)) ok = false;
  else if (allNumeric) ok = labels === 4 && ipv4;
  else ok = isTopLevelDomain(lastStart, lastEnd);
  if (!ok) {
    count = mark;
    if (!url) {
      hostFailStart = start;
      hostFailEnd = Math.max(end, start + 1);
    }
  }
  hostOk = ok;
  return end;
}

/**
 * Where the usual host, ASCII labels joined by `.`, `[.]` or `[dot]` (any brackets), ends
 * at p (p if there is none). One match, remembered: an e-mail's local part and a bare host
 * are tried at the same word.
 */
function plainHostEnd(p: number): number {
  if (p !== plainStart) {
    plainStart = p;
    plainEnd = matchEnd(PLAIN_HOST, p);
  }
  return plainEnd;
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
  const d = text.charCodeAt(end + 1);
  if (!(c >= 0)) return true;
  if (url) return c === SLASH || c === QUESTION || c === HASH || (asciiBreaksUrl(c) && c !== LESS);
  if (c >= 0x80 || c === BACKSLASH || c === LESS || isBracket(c) || (c === DOT && d >= 0x80) || (c === SPACE && isOpenBracket(d))) return false;
  return !((c === COLON || c === STAR) && schemeAhead(lastLabel(start, end)));
}

/**
 * What scanHost gives for a host that is its plain match text[start, end): the edits
 * (a bracketed dot is a dot refanged, a live dot `[.]` defanged) when ok, else a failed
 * run.
 */
function plainHost(start: number, end: number, ok: boolean): number {
  if (ok) {
    for (let j = start; j < end; j++) {
      const c = text.charCodeAt(j);
      if (c === DOT) {
        edit(j, j + 1, KEEP, TO_BRACKETED_DOT);
      } else if (isOpenBracket(c)) {
        const length = text.charCodeAt(j + 1) === DOT ? 3 : 5;
        edit(j, j + length, TO_DOT, KEEP);
        j += length - 1;
      }
    }
  } else {
    hostFailStart = start;
    hostFailEnd = end;
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
  if (text.charCodeAt(end) === SLASH || isSquareSlash(end)) end = scanRest(end, false);
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
    localFailEnd = plain;
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
  count = mark;
  localFailEnd = localEnd;
  return -1;
}

// ---- IPv6 and lone separators ----------------------------------------------------------

function ipv6Start(i: number, c: number): boolean {
  if (i < ipv6FailEnd || !(isHexDigit(c) || c === COLON || (isOpenBracket(c) && text.charCodeAt(i + 1) === COLON))) return false;
  const p = text.charCodeAt(i - 1);
  return !(p === COLON || p === DOT || p === HYPHEN || p === UNDERSCORE || isCloseBracket(p) || isWordCharBefore(i));
}

/**
 * Hex digits, colons, dots and their bracketed forms from start; returns the end
 * (ipv6Colons and ipv6Marked describe the run). record: also record the run's edits.
 */
function scanIpv6Run(start: number, record: boolean): number {
  let j = start;
  ipv6Colons = 0;
  ipv6Marked = false;
  while (j < n) {
    const c = text.charCodeAt(j);
    const d = text.charCodeAt(j + 1);
    if (isHexDigit(c)) {
      j++;
    } else if (c === COLON) {
      ipv6Colons++;
      j++;
    } else if (c === DOT) {
      if (record) edit(j, j + 1, KEEP, TO_BRACKETED_DOT);
      j++;
    } else if (isOpenBracket(c) && (d === COLON || d === DOT) && isCloseBracket(text.charCodeAt(j + 2))) {
      if (d === COLON) {
        ipv6Colons++;
        ipv6Marked = true;
      }
      if (record) edit(j, j + 3, d === COLON ? TO_COLON : TO_DOT, KEEP);
      j += 3;
    } else {
      break;
    }
  }
  return j;
}

/** `[` IPv6 `]` as a URL host; returns the end or -1. */
function scanIpv6Literal(h: number): number {
  const mark = count;
  const end = scanIpv6Run(h + 1, true);
  if (ipv6Colons >= 2 && text.charCodeAt(end) === RIGHT_SQUARE) return end + 1;
  count = mark;
  return -1;
}

/** A defanged IPv6 address in prose (`2001[:]db8[:][:]1`); must be a valid address once refanged. */
function tryBareIpv6(i: number): number {
  // Most runs (hex words, dotted numbers) fail: the edits are recorded for an address only.
  const runEnd = scanIpv6Run(i, false);
  // A dot at the end is the sentence's, not the address's.
  const end = runEnd > i && text.charCodeAt(runEnd - 1) === DOT ? runEnd - 1 : runEnd;
  if (ipv6Colons >= 2 && ipv6Marked && labelCharLength(runEnd) === 0 && isIpv6(text.slice(i, end).replace(/[([{]([.:])[)\]}]/g, '$1'))) {
    scanIpv6Run(i, true);
    if (end < runEnd && lastEditStart() === end) count--;
    return end;
  }
  ipv6FailEnd = runEnd;
  return -1;
}

function isIpv6(address: string): boolean {
  try {
    new URL(`http://[${address}]/`);
    return true;
  } catch {
    return false;
  }
}

/** Two or more `[/]` in a row are a defanged `//`; one alone may be anything. */
function trySlashRun(i: number): number {
  let j = i;
  while (isSquareSlash(j)) j += 3;
  if (j - i < 6) return -1;
  for (let k = i; k < j; k += 3) edit(k, k + 3, TO_SLASH, KEEP);
  return j;
}
