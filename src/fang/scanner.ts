/**
 * The single-pass scanner behind defang, refang and extractUrls.
 *
 * It walks the text once and recognises tokens that are (possibly defanged) URLs, bare
 * hosts and IP addresses, e-mail addresses and IPv6 addresses. For each obfuscation or
 * live character inside such a token it records an edit that says what the span becomes
 * in the requested rendering (refanged or defanged). Text outside tokens never gets an
 * edit, which is what keeps prose, code and markdown intact.
 *
 * Linear time: every attempt either consumes what it scanned or, when it fails, is never
 * retried inside the stretch it covered (the `*FailEnd` marks and the main loop's jump
 * over failed host runs). Lookaheads that do not consume are bounded to a few characters.
 *
 * Speed: most text is prose that no token can start in, so a fast path (skipPlainProse)
 * steps over plain words and spaces with a table lookup per character and hands only
 * the rest to the full scanner. The full scanner works on char codes with ASCII class
 * tables, allocates nothing per character or per failed attempt (results that do not
 * fit a return value go to fields, edits go to parallel arrays that a failed attempt
 * truncates by resetting a count), and records only the edits of the one rendering
 * asked for.
 */

// ---- character classes ---------------------------------------------------------------
// On UTF-16 code units; an index past either end reads as NaN, which no class accepts.
// Kept in this module: calls across module boundaries are slow under some loaders.

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
const LINE_FEED = 0x0a;
const CARRIAGE_RETURN = 0x0d;
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

// Lowercase letters of the scheme words.
const LOWER_A = 0x61;
const LOWER_F = 0x66;
const LOWER_H = 0x68;
const LOWER_I = 0x69;
const LOWER_L = 0x6c;
const LOWER_M = 0x6d;
const LOWER_O = 0x6f;
const LOWER_P = 0x70;
const LOWER_S = 0x73;
const LOWER_T = 0x74;
const LOWER_X = 0x78;

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
  return c <= SPACE && (c === SPACE || c === TAB || c === LINE_FEED || c === CARRIAGE_RETURN);
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
  return lower === LOWER_H || lower === LOWER_X || lower === LOWER_F || lower === LOWER_M;
}

/** What matchScheme reads as a scheme word: letters and the `*` of `h**p`. */
function isSchemeWordChar(c: number): boolean {
  return isAsciiAlpha(c) || c === STAR;
}

// ---- ASCII class table -------------------------------------------------------------------
// One lookup answers what would otherwise be a chain of comparisons in the hot loops.
// Index only with a code below 0x80.

/** An ASCII letter or digit: a word character. */
const WORD = 1;
/** Continues an ASCII host label or e-mail local part: letter, digit, `-`, `_`. */
const LABEL = 2;
/** step() only steps over it: ASCII that is no letter or digit and starts no token (not `(`, `[`, `{`, `:`). */
const PASS = 4;
/**
 * After a word, continues no host, e-mail, IPv6 address or scheme: not a label character,
 * the first character of a dot form (`.`, `\`, `<`, brackets), `@`, `+`, `*`, `%` or `:`.
 * A space qualifies only when no open bracket follows it (` [.] `).
 */
const CLOSES_WORD = 8;
/**
 * Ordinary prose for plainStretchEnd: ASCII letters, digits, `-`, whitespace and the
 * punctuation `! " # $ & ' , / ; = > ? ^ \` | ~` (and `.`, `:` before whitespace, which the
 * search allows for itself).
 */
const PROSE = 64;
/**
 * scanRest steps over it and nothing else: it ends no URL, is no bracket (counted, or a
 * `[.]`/`[/]` form), no `,`/`;` (which end a URL before another one) and no scheme
 * letter (which may start a nested URL).
 */
const PATH = 16;
/**
 * findUserinfo steps over it and nothing else: it is no `@`, bracket or character that
 * ends the authority.
 */
const AUTHORITY = 32;

const ASCII_CLASS = buildAsciiClasses();

/** A host of ASCII labels (letters, digits, `-`, `_`) joined by plain dots. Sticky. */
const DOTTED_HOST = /[\w-]+(?:\.[\w-]+)*/y;

/**
 * A host of ASCII labels (letters, digits, `-`, `_`) joined by `.` or by `[.]` or `[dot]`
 * with any brackets (see plainHostEnd, plainBareHost). Sticky; case-insensitive for `dot`.
 */
const PLAIN_HOST = /[\w-]+(?:(?:\.|[([{](?:\.|dot)[)\]}])[\w-]+)*/iy;

/**
 * What scanRest steps over without a look (see there): ASCII letters and digits, and the
 * punctuation it steps over (PATH) when no scheme letter follows, which might start a
 * nested URL. Sticky; case-insensitive for A-Z as OUTSIDE_PROSE is.
 */
const PATH_RUN = /(?:[0-9a-z]|[!#$%&'*+\-./:=?@\\^_|~](?![fhmx]))*/iy;

/** An e-mail local part's ASCII parts joined by plain dots (see scanLocalPart). Sticky. */
const LOCAL_RUN = /[\w+-]+(?:\.[\w+-]+)*/y;

/** The same joined by `.`, `[.]` or `[dot]` (any brackets), as dotForm reads them. Sticky. */
const LOCAL_RUN_BRACKETS = /[\w+-]+(?:(?:\.|[([{](?:\.|dot)[)\]}])[\w+-]+)*/iy;

/**
 * A run of hex digits, colons, dots and bracketed dots (see scanIpv6Run): an IPv6 run up
 * to its first bracketed colon, if any. Sticky.
 */
const IPV6_RUN_UNMARKED = /(?:[\d.:a-f]|[([{]\.[)\]}])*/iy;

/**
 * A run of characters that skipPlainProse steps over: PASS characters (ASCII but letters,
 * digits and `( [ { :`) and open brackets before no letter, `*`, `:` or `/`. Sticky.
 */
const STEP_OVER_RUN = /(?:[^\d(:[{a-z\u0080-\uffff]|[([{](?![*/:a-z]))+/iy;

/**
 * What every edit of the refanged rendering holds (see the refanging fast path): a
 * bracket, `<`, `\`, `%`, `*`, `_` (of `__`), a zero-width character, a lookalike dot or
 * U+30FB (the only characters outside ASCII that refanging changes), an `x` less than
 * five letters before `://` (the defanged scheme words without `*` or brackets: `hxxp`,
 * `fxp`, `httpx`, `xxxxs`, ...), or the `:` of `://` before a blank (which refanging
 * drops). A match is the marker's one character (lookaheads for the rest). Global; each
 * try reads at most eight characters.
 */
const REFANG_MARKER = /[%()*<[\\\]_{}\u00ad\u200b-\u200d\u2060\u3002\u30fb\ufeff\uff0e\uff61]|x(?=[a-z]{0,4}:\/\/)|:(?=\/\/[\t ])/gi;

/** ASCII whitespace, as the refanging fast path splits chunks (see isWhitespace). Global. */
const WHITESPACE = /[\t\n\r ]/g;

/** Fewer characters than this skipped by a search make skipPlainProse step a while (see there). */
const MIN_PROSE_SEARCH = 32;

/**
 * A character that is not ordinary prose (see plainStretchEnd): anything but ASCII
 * letters, digits, `-`, whitespace and `! " # $ & ' , / ; = > ? ^ \` | ~`, and `.`
 * or `:` not followed by whitespace or the end. Global, for lastIndex; case-insensitive
 * for A-Z (outside Unicode mode that folds no other character into ASCII).
 */
const OUTSIDE_PROSE = /[^\t\n\r !"#$&',\-./0-9:;=>?^`a-z|~]|[.:](?![\t\n\r ]|$)/gi;

function buildAsciiClasses(): Uint8Array {
  const classes = new Uint8Array(128);
  const startsToken = '([{:';
  const continuesWord = '-_.:@+*%\\<()[]{}';
  const pathSpecial = '()[]{},;';
  const authoritySpecial = '@()[]{}/?#\\';
  const proseSpecial = '-\t\n\r !"#$&\',/;=>?^`|~';
  for (let c = 0; c < 128; c++) {
    const ch = String.fromCharCode(c);
    let cls = 0;
    if (isAsciiAlnum(c)) cls |= WORD | LABEL;
    else if (!startsToken.includes(ch)) cls |= PASS;
    if (c === HYPHEN || c === UNDERSCORE) cls |= LABEL;
    if (!isAsciiAlnum(c) && !continuesWord.includes(ch)) cls |= CLOSES_WORD;
    if (!asciiBreaksUrl(c) && !pathSpecial.includes(ch) && !isSchemeLetter(c)) cls |= PATH;
    if (!asciiBreaksUrl(c) && !authoritySpecial.includes(ch)) cls |= AUTHORITY;
    if (isAsciiAlnum(c) || proseSpecial.includes(ch)) cls |= PROSE;
    classes[c] = cls;
  }
  return classes;
}

/** Whether ASCII code c (below 0x80) has all of the class bits in mask. */
function hasClass(c: number, mask: number): boolean {
  return ((ASCII_CLASS[c] ?? 0) & mask) === mask;
}

// Sticky and single-character: each test inspects exactly one code point.
const LETTER_OR_NUMBER = /[\p{L}\p{M}\p{N}]/uy;
const BREAKS_URL = /[\p{P}\p{Z}\p{Cc}]/uy;

function nonAsciiMatch(re: RegExp, text: string, i: number): number {
  re.lastIndex = i;
  return re.test(text) ? re.lastIndex - i : 0;
}

/** Length (1 or 2 code units) of the host label character at i, or 0. */
function labelCharLength(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c < 0x80) return hasClass(c, LABEL) ? 1 : 0;
  if (!(c >= 0x80)) return 0;
  return nonAsciiMatch(LETTER_OR_NUMBER, text, i);
}

/** A letter or digit of any script at i (no hyphen or underscore). */
function isWordCharAt(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  if (c < 0x80) return isAsciiAlnum(c);
  if (!(c >= 0x80)) return false;
  return nonAsciiMatch(LETTER_OR_NUMBER, text, i) > 0;
}

/** Whether the code point that ends just before i is a letter or digit of any script. */
function isWordCharBefore(text: string, i: number): boolean {
  const c = text.charCodeAt(i - 1);
  if (c >= 0xdc00 && c <= 0xdfff && i >= 2) {
    const high = text.charCodeAt(i - 2);
    if (high >= 0xd800 && high <= 0xdbff) return isWordCharAt(text, i - 2);
  }
  return isWordCharAt(text, i - 1);
}

/** Whether a non-ASCII character at i ends a URL (punctuation, separators, controls). */
function nonAsciiBreaksUrl(text: string, i: number): boolean {
  return nonAsciiMatch(BREAKS_URL, text, i) > 0;
}

/** ASCII characters that end a URL outright. */
function asciiBreaksUrl(c: number): boolean {
  return c <= SPACE || c === 0x7f || c === 0x22 || c === LESS || c === GREATER || c === 0x60;
}

/** Code units taken by the code point at i. */
function codePointLength(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c >= 0xd800 && c <= 0xdbff) {
    const d = text.charCodeAt(i + 1);
    if (d >= 0xdc00 && d <= 0xdfff) return 2;
  }
  return 1;
}

function isPercentDot(text: string, j: number): boolean {
  return text.charCodeAt(j) === PERCENT && text.charCodeAt(j + 1) === 0x32 && (text.charCodeAt(j + 2) | 0x20) === 0x65;
}

// ---- schemes -------------------------------------------------------------------------

/** The scheme a live or defanged scheme word stands for. */
export type Scheme = 'http' | 'https' | 'ftp' | 'mailto';

// ---- replacements ----------------------------------------------------------------------
// An edit names its replacement by an index into REPLACEMENTS, so that an edit is three
// integers in a typed array (see Scanner.edit) rather than an object.

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

const SCHEME_NAME: Readonly<Record<Scheme, number>> = { http: 9, https: 10, ftp: 11, mailto: KEEP };
const DEFANGED_SCHEME: Readonly<Record<Scheme, number>> = { http: 12, https: 13, ftp: 14, mailto: KEEP };

const MAX_SCHEME_WORD = 6;

/** Whether a lowercased code stands for a `t` in an obfuscated `http`. */
function obscuresT(c: number): boolean {
  return c === LOWER_T || c === LOWER_X || c === STAR;
}

/** The schemes by index, as schemeWordAt codes them. */
const SCHEMES: readonly Scheme[] = ['http', 'https', 'ftp', 'mailto'];

/** In a schemeWordAt code: the word is the scheme's own name (any case), not a defanged one. */
const LIVE_SCHEME = 4;

/**
 * The scheme that the scheme word text[start, end) (letters and `*`, any case) stands
 * for, live or defanged: `http`, `https`, `ftp`, `mailto`, `fxp`, `hxp`, `hxps`, `xxxx`,
 * `xxxxs`, `httpx`, and `h`, two of `t`/`x`/`*`, `p`, optionally `s`. Returns the index
 * into SCHEMES, plus LIVE_SCHEME when the word spells the scheme itself, or -1. Read from
 * char codes so that a word that is no scheme costs no string.
 */
export function schemeWordAt(text: string, start: number, end: number): number {
  const length = end - start;
  if (length < 3 || length > MAX_SCHEME_WORD) return -1;
  // `| 0x20` lowercases a letter and keeps `*` as it is.
  const c0 = text.charCodeAt(start) | 0x20;
  const c1 = text.charCodeAt(start + 1) | 0x20;
  const c2 = text.charCodeAt(start + 2) | 0x20;
  if (length === 3) {
    if (c0 === LOWER_F && (c1 === LOWER_T || c1 === LOWER_X) && c2 === LOWER_P) return c1 === LOWER_T ? 2 | LIVE_SCHEME : 2;
    return c0 === LOWER_H && c1 === LOWER_X && c2 === LOWER_P ? 0 : -1;
  }
  const c3 = text.charCodeAt(start + 3) | 0x20;
  if (length === 6) {
    const c4 = text.charCodeAt(start + 4) | 0x20;
    const c5 = text.charCodeAt(start + 5) | 0x20;
    const mailto = c0 === LOWER_M && c1 === LOWER_A && c2 === LOWER_I && c3 === LOWER_L && c4 === LOWER_T && c5 === LOWER_O;
    return mailto ? 3 | LIVE_SCHEME : -1;
  }
  const obscuredHttp = c0 === LOWER_H && obscuresT(c1) && obscuresT(c2) && c3 === LOWER_P;
  const live = obscuredHttp && c1 === LOWER_T && c2 === LOWER_T ? LIVE_SCHEME : 0;
  const xxxx = c0 === LOWER_X && c1 === LOWER_X && c2 === LOWER_X && c3 === LOWER_X;
  if (length === 4) {
    if (obscuredHttp || xxxx) return 0 | live;
    return c0 === LOWER_H && c1 === LOWER_X && c2 === LOWER_P && c3 === LOWER_S ? 1 : -1;
  }
  const c4 = text.charCodeAt(start + 4) | 0x20;
  if ((obscuredHttp || xxxx) && c4 === LOWER_S) return 1 | live;
  const httpx = c0 === LOWER_H && c1 === LOWER_T && c2 === LOWER_T && c3 === LOWER_P && c4 === LOWER_X;
  return httpx ? 1 : -1;
}

/** Up to 6 letters (or `*`) at i followed by `:`, `_` or a bracket: possibly a scheme for matchScheme. */
function mayStartScheme(text: string, i: number): boolean {
  if (!isSchemeLetter(text.charCodeAt(i))) return false;
  let a = i;
  while (a - i <= MAX_SCHEME_WORD && isSchemeWordChar(text.charCodeAt(a))) a++;
  const length = a - i;
  const next = text.charCodeAt(a);
  return length >= 3 && length <= MAX_SCHEME_WORD && (next === COLON || next === UNDERSCORE || isOpenBracket(next));
}

// ---- tokens ----------------------------------------------------------------------------

/** Which text the edits of a scan give: what spans become when refanging or when defanging. */
export type Rendering = 'refanged' | 'defanged';

/** A URL with a scheme and a host, as found in the input. */
export interface UrlToken {
  readonly start: number;
  /** End of scheme, userinfo, host and port. */
  readonly authorityEnd: number;
  readonly end: number;
  readonly scheme: Scheme;
}

/**
 * What one pass over a text found: `count` edits, sorted by start and never overlapping.
 * Edit k replaces text[edits[3k], edits[3k + 1]) with REPLACEMENTS[edits[3k + 2]] in the
 * rendering the scan was asked for; the array may be longer than 3 × count.
 */
export interface ScanResult {
  readonly count: number;
  readonly edits: Int32Array;
  /** Top-level URL tokens in order (only when asked for). */
  readonly urls: readonly UrlToken[];
}

interface SchemeMatch {
  readonly canonical: Scheme;
  /** The word is a plain scheme name as browsers know it (`http`, `HTTPS`, ...). */
  readonly live: boolean;
  readonly wordEnd: number;
  readonly sepEnd: number;
  readonly sepLive: boolean;
  readonly underscore: boolean;
}

// Only ever inside brackets (`[dot]`, `(punkt)`): bare, these are ordinary words.
const DOT_WORDS = ['dot', 'punkt', 'punto'] as const;

/**
 * Scans text once and returns the edits that give its refanged or defanged rendering,
 * and (with collectUrls) its URLs.
 *
 * @example
 * const { count, edits, urls } = scan('go to hxxp://a[.]com/x', 'refanged', true);
 * // 2 edits: `hxxp` at 6..10 -> 'http', `[.]` at 14..17 -> '.'; urls: one http URL at 6..22
 */
export function scan(text: string, rendering: Rendering, collectUrls = false): ScanResult {
  const scanner = new Scanner(text, rendering === 'refanged', collectUrls);
  scanner.run();
  return { count: scanner.count, edits: scanner.edits, urls: scanner.urls };
}

class Scanner {
  /** Edits as (start, end, replacement id) triples; triples at and past `count` are stale. */
  edits: Int32Array;
  count = 0;
  readonly urls: UrlToken[] = [];
  private readonly text: string;
  private readonly n: number;
  /** Records refanged replacements (true) or defanged ones (false). */
  private readonly refanging: boolean;
  private readonly collectUrls: boolean;
  /**
   * The scan goes straight to marked chunks (see the fast path for refanging and URLs):
   * when refanging without URLs to collect, or when collecting URLs (and only the URLs'
   * edits are read).
   */
  private readonly markerJumps: boolean;
  /** Inside a URL nested in another URL's query: defang leaves it as it is. */
  private suppressDefang = false;
  private hostFailStart = -1;
  private hostFailEnd = -1;
  private localFailEnd = -1;
  private ipv6FailEnd = -1;
  /**
   * plainHostMatch: the last match (start and end, -1 for none), whether it has a
   * bracketed dot, and where its plain-dotted start ends.
   */
  private plainHostStart = -1;
  private plainHostEnd_ = -1;
  private plainHostBrackets = false;
  private plainDotsEnd = 0;
  /** nextMarkedChunk: the last marker found (the scan passes it before searching again). */
  private lastMarker = -1;
  /** Searches for the markers (refanging: REFANG_MARKER; URLs: `:` and `_`) and for whitespace. */
  private readonly markers: NextMatch;
  private readonly underscores: NextMatch;
  private readonly whitespace: NextMatch;
  /** skipPlainProse searches for the end of plain prose only from here on. */
  private nextProseSearch = 0;
  // Second results of the last call of the method named, read right after it returns.
  /** scanHost: whether the host is acceptable. */
  private hostOk = false;
  /** scanHost: whether a label follows a dot form that ends in an open bracket (`.[at]`: an at-form to findUserinfo). */
  private hostBracketLabel = false;
  /** urlHead: whether the URL has a host. */
  private urlHasHost = false;
  /** findUserinfo: length of the `@` form found. */
  private atLength = 0;
  /** scanIpv6Run: colons in the run. */
  private ipv6Colons = 0;

  constructor(text: string, refanging: boolean, collectUrls: boolean) {
    this.text = text;
    this.n = text.length;
    // Room for an edit per 64 characters to start with (prose has far fewer): growing costs copies.
    this.edits = new Int32Array(3 * Math.max(256, text.length >> 6));
    this.refanging = refanging;
    this.collectUrls = collectUrls;
    this.markerJumps = refanging;
    this.markers = new NextMatch(text, collectUrls ? ':' : REFANG_MARKER);
    this.underscores = new NextMatch(text, '_');
    this.whitespace = new NextMatch(text, WHITESPACE);
  }

  /** Drops the edits of an attempt that failed. */
  private truncate(mark: number): void {
    if (this.count > mark) this.count = mark;
  }

  /** Records what text[start, end) becomes in this scan's rendering (ids into REPLACEMENTS; KEEP: nothing). */
  private edit(start: number, end: number, refanged: number, defanged: number): void {
    const replacement = this.refanging ? refanged : this.suppressDefang ? KEEP : defanged;
    if (replacement === KEEP) return;
    const at = 3 * this.count;
    if (at + 3 > this.edits.length) this.growEdits();
    const edits = this.edits;
    edits[at] = start;
    edits[at + 1] = end;
    edits[at + 2] = replacement;
    this.count++;
  }

  /** Doubles the room for edits (apart, to keep edit small). */
  private growEdits(): void {
    const grown = new Int32Array(2 * this.edits.length);
    grown.set(this.edits);
    this.edits = grown;
  }

  /** Where the last edit recorded starts, or -1. */
  private lastEditStart(): number {
    return this.count > 0 ? (this.edits[3 * this.count - 3] ?? -1) : -1;
  }

  run(): void {
    let i = 0;
    while (i < this.n) {
      if (this.markerJumps && i > this.lastMarker && this.atCleanBoundary(i)) {
        i = this.nextMarkedChunk(i);
        if (i >= this.n) break;
        // A marked chunk rarely starts with plain prose: straight to the full scanner.
        i = this.step(i);
        continue;
      }
      i = this.skipPlainProse(i);
      if (i < this.n) i = this.step(i);
    }
  }

  // ---- the fast path for refanging and for URLs ------------------------------------------
  // Every edit of the refanged rendering holds a marker (see REFANG_MARKER): a bracket, a
  // zero-width character, a defanged scheme word before `://`, ... Text between markers,
  // live URLs and hosts included, comes out as it went in. Likewise every URL holds a `:`
  // or, in `hxxp__host`, a `_` (its separator). Tokens do not run across whitespace except
  // after `:// ` and in ` [.] `, which the markers and nextMarkedChunk allow for. So from
  // a whitespace character where nothing is pending, the scanner can go straight to the
  // whitespace-delimited chunk of the next marker.

  /** The next marker at or after i, or n. */
  private markerFrom(i: number): number {
    const marker = this.markers.from(i);
    return this.collectUrls ? Math.min(marker, this.underscores.from(i)) : marker;
  }

  /**
   * After a URL's authority, at p: the whitespace that ends the chunk when nothing from p
   * to there holds a marker (so the path and whatever follows in the chunk keep their
   * text) and no ` [.] ` follows it; -1 otherwise. Saves scanning the path.
   */
  private unmarkedChunkEnd(p: number): number {
    const text = this.text;
    const end = this.whitespace.from(p);
    if (text.charCodeAt(end) === SPACE && isOpenBracket(text.charCodeAt(end + 1))) return -1;
    return this.markerFrom(p) < end || !this.atCleanBoundary(end) ? -1 : end;
  }

  /** Whether i is whitespace with no remembered failure reaching past it. */
  private atCleanBoundary(i: number): boolean {
    return isWhitespace(this.text.charCodeAt(i)) && this.hostFailEnd <= i && this.localFailEnd <= i && this.ipv6FailEnd <= i;
  }

  /**
   * Where to scan on from the clean boundary i: the start of the chunk that holds the next
   * marker, or of the chunk before it when the marked chunk opens with a bracket (` [.] `
   * joins a host across a space); n when no marker is left.
   */
  private nextMarkedChunk(i: number): number {
    const text = this.text;
    let k = this.markerFrom(i);
    this.lastMarker = k;
    if (k >= this.n) return this.n;
    // The chunk is rarely prose: no search for plain prose before the marker.
    this.nextProseSearch = k + 1;
    while (k > i && !isWhitespace(text.charCodeAt(k - 1))) k--;
    if (k > i && isOpenBracket(text.charCodeAt(k))) {
      k--;
      while (k > i && isWhitespace(text.charCodeAt(k - 1))) k--;
      while (k > i && !isWhitespace(text.charCodeAt(k - 1))) k--;
    }
    return k;
  }

  /**
   * The full scanner at i: tries every token that can start there and returns where to go
   * on (the end of what it found, past a failed run, or the next code point).
   */
  private step(i: number): number {
    const text = this.text;
    const c = text.charCodeAt(i);
    if ((isSchemeLetter(c) || isOpenBracket(c)) && !isAsciiAlnum(text.charCodeAt(i - 1))) {
      const end = this.tryUrl(i);
      if (end >= 0) return end;
    }
    if (this.ipv6Start(i, c)) {
      const end = this.tryBareIpv6(i);
      if (end >= 0) return end;
    }
    if (c === LEFT_SQUARE) {
      const end = this.trySlashRun(i);
      if (end >= 0) return end;
    }
    if (isWordCharAt(text, i) && !isWordCharBefore(text, i)) {
      const end = this.tryEmail(i);
      if (end >= 0) return end;
      // A failed run is left exactly as it is, including any host-like tail inside it.
      return Math.max(this.tryBareHost(i), i + codePointLength(text, i));
    }
    return i + codePointLength(text, i);
  }

  // ---- the plain-prose fast path ---------------------------------------------------------
  // For words and spaces, step() would either step over a character or, at a word, try an
  // e-mail, a host and an IPv6 address that all fail and jump past the word, each attempt
  // scanning it again. The fast path proves the same outcome from a glance at the word and
  // the character after it, and hands anything it cannot prove to step().

  /** The first position from start that step() has to look at (n when there is none). */
  private skipPlainProse(start: number): number {
    const text = this.text;
    const n = this.n;
    let i = start;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c >= 0x80) return i;
      const cls = ASCII_CLASS[c] ?? 0;
      if ((cls & PROSE) !== 0 && i >= this.nextProseSearch && this.hostFailEnd <= i && ((cls & WORD) === 0 || isAsciiNonWord(text.charCodeAt(i - 1)))) {
        const end = this.plainStretchEnd(i);
        // A search costs about as much as stepping over a few dozen characters: after a
        // short one, step for a while before the next, so that dense text costs no more.
        this.nextProseSearch = end - i >= MIN_PROSE_SEARCH ? end + 1 : i + 2 * MIN_PROSE_SEARCH;
        const w = this.lastWordStart(i, end);
        // The word found there is no plain word (plainWordEnd would say -1) unless the
        // character that ended the search is `_` (a label goes on) or a control character.
        if (w < end && hasClass(text.charCodeAt(w), WORD) && isNotPlainAfterWord(text.charCodeAt(end))) return w;
        if (w > i) {
          i = w;
          continue;
        }
      }
      // `(`, `[`, `{` start a bracketed scheme, an IPv6 `[:]` or `[/]`: all need a letter,
      // `*`, `:` or `/` next. Other open brackets are stepped over like PASS characters.
      if ((cls & PASS) !== 0 || (isOpenBracket(c) && !opensToken(text.charCodeAt(i + 1)))) {
        i = this.stepOver(i);
        continue;
      }
      if ((cls & WORD) !== 0) {
        // Inside the loop a word always follows a PASS character; at start it may not.
        if (i === start && i > 0 && !isAsciiNonWord(text.charCodeAt(i - 1))) return i;
        const end = this.plainWordEnd(i);
        if (end < 0) return i;
        i = end;
        continue;
      }
      return i;
    }
    return i;
  }

  /**
   * Past the character at i, which step() would step over, and past a run of such
   * characters (a flood of `[` or `*`) in one match when two more follow.
   */
  private stepOver(i: number): number {
    const text = this.text;
    if (!mayStepOver(text.charCodeAt(i + 1)) || !mayStepOver(text.charCodeAt(i + 2))) return i + 1;
    STEP_OVER_RUN.lastIndex = i;
    STEP_OVER_RUN.test(text);
    return Math.max(STEP_OVER_RUN.lastIndex, i + 1);
  }

  /**
   * The first character from i that is not ordinary prose (n when there is none), found
   * by one regular-expression search, which is much faster than a loop over char codes.
   * Ordinary prose is ASCII letters, digits, `-`, whitespace, the punctuation that closes
   * a word (CLOSES_WORD), and `.` or `:` followed by whitespace (sentence ends): in it
   * every word is plain as plainWordEnd defines it (`http: ` and `mailto: ` as well: with
   * no `//` after the colon they are no URL and add no edit) and every other character is
   * stepped over, except the last word before the character found, and a space before it
   * when it is an open bracket (` [.] `). lastWordStart backs up over those.
   */
  private plainStretchEnd(i: number): number {
    OUTSIDE_PROSE.lastIndex = i;
    return OUTSIDE_PROSE.test(this.text) ? OUTSIDE_PROSE.lastIndex - 1 : this.n;
  }

  /** Where the last word before end (and a space before an open bracket at end) starts, not before i. */
  private lastWordStart(i: number, end: number): number {
    const text = this.text;
    let w = end;
    if (w > i && isOpenBracket(text.charCodeAt(w)) && text.charCodeAt(w - 1) === SPACE) w--;
    // A stretch has no `_`, so its label characters are letters, digits and `-`.
    while (w > i && hasClass(text.charCodeAt(w - 1), LABEL)) w--;
    return w;
  }

  /**
   * Where step() goes on after the word that starts at i when the word is plain: ASCII
   * letters, digits, `-` and `_` that no scheme separator follows, closed by a character
   * that continues no host, e-mail or IPv6 address (or by `.`/`:` and whitespace, as at
   * the end of a sentence). -1 when that is not certain.
   */
  private plainWordEnd(i: number): number {
    // A failed host remembered from a probe ahead decides how far tryBareHost jumps.
    if (this.hostFailEnd > i) return -1;
    const text = this.text;
    let k = i + 1;
    let c = text.charCodeAt(k);
    while (c < 0x80 && hasClass(c, LABEL)) c = text.charCodeAt(++k);
    if (mayStartScheme(text, i)) return -1;
    if (c < 0x80 && hasClass(c, CLOSES_WORD)) {
      // ` [.] ` after a label is a spaced dot form.
      return c === SPACE && isOpenBracket(text.charCodeAt(k + 1)) ? -1 : k;
    }
    if (k >= this.n) return k;
    if (c === DOT || c === COLON) {
      if (k + 1 >= this.n || isWhitespace(text.charCodeAt(k + 1))) return k + 1;
    }
    return -1;
  }

  // ---- schemes ----------------------------------------------------------------------

  /** A scheme word (optionally bracketed) and its separator at i. */
  private matchScheme(i: number, allowUnderscore: boolean): SchemeMatch | null {
    const text = this.text;
    let j = i;
    const bracketed = isOpenBracket(text.charCodeAt(j));
    if (bracketed) j++;
    const wordStart = j;
    while (j - wordStart <= MAX_SCHEME_WORD && isSchemeWordChar(text.charCodeAt(j))) j++;
    const code = schemeWordAt(text, wordStart, j);
    if (code < 0) return null;
    const canonical = SCHEMES[code & 3] ?? 'http';
    const live = !bracketed && (code & LIVE_SCHEME) !== 0;
    if (bracketed) {
      if (!isCloseBracket(text.charCodeAt(j))) return null;
      j++;
    }
    const wordEnd = j;
    // The usual separator, `://`, before the general forms (which read it the same).
    if (text.charCodeAt(j) === COLON && text.charCodeAt(j + 1) === SLASH && text.charCodeAt(j + 2) === SLASH && canonical !== 'mailto') {
      return { canonical, live, wordEnd, sepEnd: j + 3, sepLive: true, underscore: false };
    }
    const colon = this.colonForm(j);
    if (canonical === 'mailto') {
      return colon > 0
        ? { canonical, live, wordEnd, sepEnd: j + colon, sepLive: colon === 1, underscore: false }
        : null;
    }
    const c = text.charCodeAt(j);
    if (
      isOpenBracket(c) &&
      text.charCodeAt(j + 1) === COLON &&
      text.charCodeAt(j + 2) === SLASH &&
      text.charCodeAt(j + 3) === SLASH &&
      isCloseBracket(text.charCodeAt(j + 4))
    ) {
      return { canonical, live, wordEnd, sepEnd: j + 5, sepLive: false, underscore: false };
    }
    if (colon > 0) {
      const k = j + colon;
      if (
        isOpenBracket(text.charCodeAt(k)) &&
        text.charCodeAt(k + 1) === SLASH &&
        text.charCodeAt(k + 2) === SLASH &&
        isCloseBracket(text.charCodeAt(k + 3))
      ) {
        return { canonical, live, wordEnd, sepEnd: k + 4, sepLive: false, underscore: false };
      }
      const first = this.slashForm(k);
      const second = first > 0 ? this.slashForm(k + first) : 0;
      if (second === 0) return null;
      const sepLive = colon === 1 && first === 1 && second === 1;
      return { canonical, live, wordEnd, sepEnd: k + first + second, sepLive, underscore: false };
    }
    // `hxxp__example[.]com`: only for a word that is already defanged, never `http__x`.
    if (allowUnderscore && !live && c === UNDERSCORE && text.charCodeAt(j + 1) === UNDERSCORE) {
      return { canonical, live, wordEnd, sepEnd: j + 2, sepLive: false, underscore: true };
    }
    return null;
  }

  /** Whether a URL scheme with a `://`-like separator starts at p. */
  private schemeAhead(p: number): boolean {
    const c = this.text.charCodeAt(p);
    if (!isSchemeLetter(c) && !isOpenBracket(c)) return false;
    const s = this.matchScheme(p, false);
    return s !== null && s.canonical !== 'mailto';
  }

  private colonForm(j: number): number {
    const text = this.text;
    const c = text.charCodeAt(j);
    if (c === COLON) return 1;
    return isOpenBracket(c) && text.charCodeAt(j + 1) === COLON && isCloseBracket(text.charCodeAt(j + 2)) ? 3 : 0;
  }

  private slashForm(j: number): number {
    const text = this.text;
    const c = text.charCodeAt(j);
    if (c === SLASH) return 1;
    return isOpenBracket(c) && text.charCodeAt(j + 1) === SLASH && isCloseBracket(text.charCodeAt(j + 2)) ? 3 : 0;
  }

  private isSquareSlash(j: number): boolean {
    const text = this.text;
    return text.charCodeAt(j) === LEFT_SQUARE && text.charCodeAt(j + 1) === SLASH && text.charCodeAt(j + 2) === RIGHT_SQUARE;
  }

  // ---- URLs ----------------------------------------------------------------------------

  private tryUrl(i: number): number {
    const s = this.matchScheme(i, true);
    if (s === null) return -1;
    if (s.canonical === 'mailto') {
      if (!s.live || !s.sepLive) this.edit(i, s.sepEnd, TO_MAILTO, KEEP);
      return s.sepEnd;
    }
    if (s.underscore) {
      if (!isWordCharAt(this.text, s.sepEnd)) return -1;
      const mark = this.count;
      this.scanHost(s.sepEnd, false, false);
      this.truncate(mark);
      if (!this.hostOk) return -1;
    }
    const authorityEnd = this.urlHead(i, s);
    if (!this.urlHasHost) return authorityEnd;
    if (this.markerJumps && !this.collectUrls) {
      const chunkEnd = this.unmarkedChunkEnd(authorityEnd);
      if (chunkEnd >= 0) return chunkEnd;
    }
    let end = authorityEnd;
    const c = this.text.charCodeAt(end);
    if (c === SLASH || c === QUESTION || c === HASH || this.isSquareSlash(end)) end = this.scanRest(end, true);
    if (this.collectUrls) this.urls.push({ start: i, authorityEnd, end, scheme: s.canonical });
    return end;
  }

  /**
   * Scheme, separator, userinfo, host and port of a URL whose scheme matched at i.
   * Returns where the authority ends; urlHasHost says whether there was a host (if not,
   * the end of the separator is returned and only a live scheme word is defanged).
   */
  private urlHead(i: number, s: SchemeMatch): number {
    const text = this.text;
    const wordDefanged = s.live && !this.suppressDefang ? DEFANGED_SCHEME[s.canonical] : KEEP;
    const mark = this.count;
    this.edit(i, s.wordEnd, s.live ? KEEP : SCHEME_NAME[s.canonical], wordDefanged);
    this.edit(s.wordEnd, s.sepEnd, s.sepLive ? KEEP : TO_SEPARATOR, KEEP);
    let p = s.sepEnd;
    if (!s.underscore && isBlank(text.charCodeAt(p))) {
      // `http:// example.com`: a space typed after the scheme, joined only before a real host.
      let q = p;
      while (isBlank(text.charCodeAt(q))) q++;
      if (isWordCharAt(text, q) && !this.schemeAhead(q)) {
        const probeMark = this.count;
        this.scanHost(q, false, false);
        this.truncate(probeMark);
        if (this.hostOk) {
          this.edit(p, q, TO_NOTHING, KEEP);
          p = q;
        }
      }
    }
    const authorityEnd = this.scanAuthority(p);
    if (authorityEnd < 0) {
      this.truncate(mark);
      this.edit(i, s.wordEnd, KEEP, wordDefanged);
      this.urlHasHost = false;
      return s.sepEnd;
    }
    this.urlHasHost = true;
    return authorityEnd;
  }

  /** Userinfo, host and port from p; the end, or -1 when there is no host. */
  private scanAuthority(p: number): number {
    const text = this.text;
    let hostEnd = this.hostWithoutUserinfo(p);
    if (hostEnd < 0) {
      const mark = this.count;
      let h = p;
      const at = this.findUserinfo(p);
      if (at >= 0) {
        const length = this.atLength;
        this.userinfoEdits(p, at);
        if (length > 1) this.edit(at, at + length, TO_AT, KEEP);
        h = at + length;
      }
      if (text.charCodeAt(h) === LEFT_SQUARE) {
        hostEnd = this.scanIpv6Literal(h);
      } else if (this.labelAhead(h, true) && !this.schemeAhead(h)) {
        const end = this.scanHost(h, true, true);
        if (this.hostOk) hostEnd = end;
      }
      if (hostEnd < 0) {
        this.truncate(mark);
        return -1;
      }
    }
    let end = hostEnd;
    const colon = this.colonForm(end);
    if (colon > 0 && isAsciiDigit(text.charCodeAt(end + colon))) {
      if (colon > 1) this.edit(end, end + colon, TO_COLON, KEEP);
      end += colon;
      while (isAsciiDigit(text.charCodeAt(end))) end++;
    }
    return end;
  }

  /**
   * The common case without a pass of findUserinfo: the host scanned from p, when it ends
   * where findUserinfo stops for certain (`/ ? # \ ] }`, a character that ends a URL, or
   * the end of the text) and no label in it follows an open bracket. Then the authority
   * has no userinfo: such a host holds no `@` and every open bracket in it starts a dot
   * form (`[.]`, `(dot)`, `[.`), no at-form (`[@]`, `(at)`), so findUserinfo finds none
   * before that point either. -1, with no edits recorded, when that is not certain.
   */
  private hostWithoutUserinfo(p: number): number {
    const plainEnd = this.plainHostEnd(p);
    if (plainEnd >= 0) return plainEnd;
    if (this.text.charCodeAt(p) === LEFT_SQUARE || !this.labelAhead(p, true) || this.schemeAhead(p)) return -1;
    const mark = this.count;
    const end = this.scanHost(p, true, true);
    if (this.hostOk && !this.hostBracketLabel && stopsUserinfoScan(this.text.charCodeAt(end))) return end;
    this.truncate(mark);
    return -1;
  }

  /**
   * The usual host, found with one regular-expression match (PLAIN_HOST): ASCII labels
   * joined by `.`, `[.]` or `[dot]` (any brackets), then `/ ? #`, a character that ends a
   * URL other than `<` (which may start `<.>`), or the end of the text. For it scanHost(p,
   * true) reaches the same end with the same edits (plainHostEdits) and the host passes
   * hostWithoutUserinfo's test: no label can start a scheme (a scheme word needs a colon,
   * a bracket or `*` right after it), no label follows an open bracket, and the end
   * character continues no host. -1 for any other host.
   */
  private plainHostEnd(p: number): number {
    const end = this.plainHostMatch(p);
    if (end < 0 || !endsPlainHost(this.text.charCodeAt(end))) return -1;
    this.plainHostEdits(p, end);
    return end;
  }

  /**
   * The end of a PLAIN_HOST match at p, or -1; plainHostBrackets says whether it holds a
   * bracketed form. Most hosts have only plain dots, so DOTTED_HOST is tried first.
   */
  private plainHostMatch(p: number): number {
    // A word is tried as an e-mail local part first and then as a host: the match is
    // remembered for the second time.
    if (p === this.plainHostStart) return this.plainHostEnd_;
    const text = this.text;
    this.plainHostStart = p;
    DOTTED_HOST.lastIndex = p;
    if (!DOTTED_HOST.test(text)) {
      this.plainHostEnd_ = -1;
      return -1;
    }
    const dottedEnd = DOTTED_HOST.lastIndex;
    this.plainHostBrackets = false;
    this.plainDotsEnd = dottedEnd;
    this.plainHostEnd_ = dottedEnd;
    if (isOpenBracket(text.charCodeAt(dottedEnd))) {
      PLAIN_HOST.lastIndex = p;
      PLAIN_HOST.test(text);
      this.plainHostBrackets = PLAIN_HOST.lastIndex > dottedEnd;
      this.plainHostEnd_ = PLAIN_HOST.lastIndex;
    }
    return this.plainHostEnd_;
  }

  /**
   * The edits of a PLAIN_HOST match, as scanHost records them: a `[.]`-like form is a dot
   * when refanging, a live `.` becomes `[.]` when defanging.
   */
  private plainHostEdits(start: number, end: number): void {
    const text = this.text;
    // Refanging, only the bracketed forms have edits, and the first is where the plain
    // dots end (plainHostMatch).
    const from = this.refanging ? (this.plainHostBrackets ? this.plainDotsEnd : end) : start;
    for (let j = from; j < end; j++) {
      const c = text.charCodeAt(j);
      if (c === DOT) {
        this.edit(j, j + 1, KEEP, TO_BRACKETED_DOT);
      } else if (isOpenBracket(c)) {
        const length = text.charCodeAt(j + 1) === DOT ? 3 : 5;
        this.edit(j, j + length, TO_DOT, KEEP);
        j += length - 1;
      }
    }
  }

  /**
   * The last `@` (or at-form) before the authority ends, as WHATWG URL reads userinfo:
   * its position, or -1; atLength says how long the form is.
   */
  private findUserinfo(p: number): number {
    const text = this.text;
    const n = this.n;
    let j = p;
    let at = -1;
    let length = 0;
    while (j < n) {
      const c = text.charCodeAt(j);
      if (c < 0x80 && hasClass(c, AUTHORITY)) {
        j++;
        continue;
      }
      if (c === AT) {
        at = j;
        length = 1;
        j++;
        continue;
      }
      if (isBracket(c)) {
        const form = this.atForm(j);
        if (form > 0) {
          at = j;
          length = form;
          j += form;
          continue;
        }
        if (c === LEFT_PAREN || c === RIGHT_PAREN) {
          j++;
          continue;
        }
        const d = text.charCodeAt(j + 1);
        if (isOpenBracket(c) && (d === DOT || d === COLON) && isCloseBracket(text.charCodeAt(j + 2))) {
          j += 3;
          continue;
        }
        break;
      }
      if (c === SLASH || c === QUESTION || c === HASH || c === BACKSLASH || asciiBreaksUrl(c)) break;
      if (c >= 0x80 && !isZeroWidth(c) && !isLookalikeDot(c) && c !== KATAKANA_MIDDLE_DOT) {
        if (nonAsciiBreaksUrl(text, j)) break;
      }
      j += codePointLength(text, j);
    }
    this.atLength = length;
    return at;
  }

  /** In userinfo only brackets that a URL cannot contain are markers: `[.]`, `{.}`, `[:]`. */
  private userinfoEdits(start: number, end: number): void {
    const text = this.text;
    for (let j = start; j + 2 < end; j++) {
      const c = text.charCodeAt(j);
      if (c !== LEFT_SQUARE && c !== LEFT_CURLY) continue;
      const close = c === LEFT_SQUARE ? RIGHT_SQUARE : RIGHT_CURLY;
      const d = text.charCodeAt(j + 1);
      if ((d === DOT || d === COLON) && text.charCodeAt(j + 2) === close) {
        this.edit(j, j + 3, d === DOT ? TO_DOT : TO_COLON, KEEP);
        j += 2;
      }
    }
  }

  private atForm(j: number): number {
    const text = this.text;
    const c = text.charCodeAt(j);
    if (c === AT) return 1;
    if (!isOpenBracket(c)) return 0;
    if (text.charCodeAt(j + 1) === AT && isCloseBracket(text.charCodeAt(j + 2))) return 3;
    if ((text.charCodeAt(j + 1) | 0x20) === 0x61 && (text.charCodeAt(j + 2) | 0x20) === 0x74 && isCloseBracket(text.charCodeAt(j + 3))) return 4;
    return 0;
  }

  /**
   * Path, query and fragment. Ends at whitespace, a character that cannot be in a URL,
   * punctuation outside ASCII, an unbalanced closing bracket, or `,`/`;` before another
   * URL. A URL nested in it is refanged as part of it (url) or ends it (bare host).
   */
  private scanRest(start: number, url: boolean): number {
    const text = this.text;
    const n = this.n;
    let j = start;
    let paren = 0;
    let square = 0;
    let curly = 0;
    while (j < n) {
      // Runs of characters that need nothing but stepping over, in one match (see PATH_RUN);
      // not from a scheme letter that starts a word, which may start a nested URL.
      if (!isSchemeLetter(text.charCodeAt(j)) || isAsciiAlnum(text.charCodeAt(j - 1))) {
        PATH_RUN.lastIndex = j;
        PATH_RUN.test(text);
        j = PATH_RUN.lastIndex;
        if (j >= n) break;
      }
      const c = text.charCodeAt(j);
      if (c < 0x80 && hasClass(c, PATH)) {
        j++;
        continue;
      }
      if (c >= 0x80) {
        if (!isZeroWidth(c) && nonAsciiBreaksUrl(text, j)) break;
        j += codePointLength(text, j);
        continue;
      }
      if (asciiBreaksUrl(c)) break;
      if (c === LEFT_SQUARE || c === LEFT_CURLY) {
        const d = text.charCodeAt(j + 1);
        const e = text.charCodeAt(j + 2);
        if (d === DOT && e === (c === LEFT_SQUARE ? RIGHT_SQUARE : RIGHT_CURLY)) {
          this.edit(j, j + 3, TO_DOT, KEEP);
          j += 3;
          continue;
        }
        if (c === LEFT_SQUARE && d === SLASH && e === RIGHT_SQUARE) {
          this.edit(j, j + 3, TO_SLASH, KEEP);
          j += 3;
          continue;
        }
      }
      if ((c === COMMA || c === SEMICOLON) && this.schemeAhead(j + 1)) break;
      if ((isSchemeLetter(c) || isOpenBracket(c)) && !isAsciiAlnum(text.charCodeAt(j - 1))) {
        const s = this.matchScheme(j, false);
        if (s !== null && s.canonical !== 'mailto') {
          if (!url) break;
          const saved = this.suppressDefang;
          this.suppressDefang = true;
          j = this.urlHead(j, s);
          this.suppressDefang = saved;
          continue;
        }
      }
      if (c === LEFT_PAREN) paren++;
      else if (c === LEFT_SQUARE) square++;
      else if (c === LEFT_CURLY) curly++;
      else if (c === RIGHT_PAREN) {
        if (paren === 0) break;
        paren--;
      } else if (c === RIGHT_SQUARE) {
        if (square === 0) break;
        square--;
      } else if (c === RIGHT_CURLY) {
        if (curly === 0) break;
        curly--;
      }
      j++;
    }
    return j;
  }

  // ---- hosts ---------------------------------------------------------------------------

  private dotWord(j: number): number {
    const text = this.text;
    for (const word of DOT_WORDS) {
      let k = 0;
      while (k < word.length && (text.charCodeAt(j + k) | 0x20) === word.charCodeAt(k)) k++;
      if (k === word.length) return k;
    }
    return 0;
  }

  /**
   * Length of a dot form at j, or 0. Inside a URL (url) one-sided brackets, `%2e` and
   * U+30FB count; outside one a bracket must close on both sides, so `[.NET]` and
   * `array[0].length` stay prose. spaced: also ` [.] ` with a space on each side.
   */
  private dotForm(j: number, url: boolean, spaced: boolean): number {
    const text = this.text;
    const c = text.charCodeAt(j);
    if (c === DOT) return url && isBracket(text.charCodeAt(j + 1)) ? 2 : 1;
    if (isLookalikeDot(c)) return 1;
    if (url && c === KATAKANA_MIDDLE_DOT) return 1;
    if (url && isPercentDot(text, j)) return 3;
    if (c === BACKSLASH) return text.charCodeAt(j + 1) === DOT ? 2 : 0;
    if (c === LESS) {
      if (text.charCodeAt(j + 1) === DOT && text.charCodeAt(j + 2) === GREATER) return 3;
      const word = this.dotWord(j + 1);
      return word > 0 && text.charCodeAt(j + 1 + word) === GREATER ? word + 2 : 0;
    }
    if (isBracket(c)) {
      const d = text.charCodeAt(j + 1);
      if (d === DOT) return isBracket(text.charCodeAt(j + 2)) ? 3 : url ? 2 : 0;
      if (d === COMMA) return isBracket(text.charCodeAt(j + 2)) ? 3 : 0;
      const word = this.dotWord(j + 1);
      return word > 0 && isBracket(text.charCodeAt(j + 1 + word)) ? word + 2 : 0;
    }
    if (
      spaced &&
      c === SPACE &&
      isOpenBracket(text.charCodeAt(j + 1)) &&
      text.charCodeAt(j + 2) === DOT &&
      isCloseBracket(text.charCodeAt(j + 3)) &&
      text.charCodeAt(j + 4) === SPACE
    ) {
      return 5;
    }
    return 0;
  }

  /** A dot that a URL parser reads as a label separator. */
  private isLiveDot(j: number, length: number): boolean {
    const c = this.text.charCodeAt(j);
    return (length === 1 && (c === DOT || isLookalikeDot(c))) || (length === 3 && isPercentDot(this.text, j));
  }

  private dotEdit(j: number, length: number): void {
    if (this.isLiveDot(j, length)) {
      this.edit(j, j + length, this.text.charCodeAt(j) === DOT ? KEEP : TO_DOT, TO_BRACKETED_DOT);
    } else {
      this.edit(j, j + length, TO_DOT, KEEP);
    }
  }

  /** Whether a label starts at p (after any zero-width characters). */
  private labelAhead(p: number, url: boolean): boolean {
    const text = this.text;
    let k = p;
    while (isZeroWidth(text.charCodeAt(k))) k++;
    if (labelCharLength(text, k) > 0) return true;
    return (
      url &&
      text.charCodeAt(k) === PERCENT &&
      isHexDigit(text.charCodeAt(k + 1)) &&
      isHexDigit(text.charCodeAt(k + 2)) &&
      !isPercentDot(text, k)
    );
  }

  /** A dot after the last label: only a plain or `[.]` dot right before `/ ? # :`. */
  private trailingDotOk(j: number, length: number): boolean {
    const text = this.text;
    const exact =
      this.isLiveDot(j, length) ||
      (length === 3 && text.charCodeAt(j) === LEFT_SQUARE && text.charCodeAt(j + 1) === DOT && text.charCodeAt(j + 2) === RIGHT_SQUARE);
    if (!exact) return false;
    const k = j + length;
    const c = text.charCodeAt(k);
    return c === SLASH || c === QUESTION || c === HASH || c === COLON || this.isSquareSlash(k) || this.colonForm(k) === 3;
  }

  private japaneseBefore(end: number): boolean {
    const c = this.text.charCodeAt(end - 1);
    if (c >= 0xdc00 && c <= 0xdfff) return isJapaneseScript(this.text.charCodeAt(end - 2));
    return isJapaneseScript(c);
  }

  /**
   * Labels joined by dot forms from start. url: the host of a URL, where any non-empty
   * host is accepted; otherwise a bare host must have two labels and end in a plausible
   * top-level domain, or be a dotted-quad IPv4 address. Returns where the host (or the
   * failed run) ends; hostOk says whether it is acceptable. record: record the edits.
   */
  private scanHost(start: number, url: boolean, record: boolean): number {
    if (!url && start >= this.hostFailStart && start < this.hostFailEnd) {
      this.hostOk = false;
      return this.hostFailEnd;
    }
    const text = this.text;
    const n = this.n;
    const mark = this.count;
    let j = start;
    let end = start;
    let labels = 0;
    let allNumeric = true;
    let ipv4 = true;
    let allAscii = true;
    let lookalike = false;
    let lastStart = start;
    let lastEnd = start;
    let bracketLabel = false;
    for (;;) {
      const labelStart = j;
      const zeroWidthMark = this.count;
      let realEnd = -1;
      let numeric = true;
      let digits = 0;
      let value = 0;
      while (j < n) {
        const c = text.charCodeAt(j);
        if (c < 0x80) {
          if (isAsciiDigit(c)) {
            value = value * 10 + (c - 0x30);
            digits++;
          } else if (hasClass(c, LABEL)) {
            numeric = false;
          } else if (url && c === PERCENT && isHexDigit(text.charCodeAt(j + 1)) && isHexDigit(text.charCodeAt(j + 2)) && !isPercentDot(text, j)) {
            j += 3;
            realEnd = j;
            numeric = false;
            continue;
          } else {
            break;
          }
          j++;
          realEnd = j;
          continue;
        }
        if (isZeroWidth(c)) {
          if (record) this.edit(j, j + 1, TO_NOTHING, KEEP);
          j++;
          continue;
        }
        if (url && c === KATAKANA_MIDDLE_DOT && ((realEnd >= 0 && this.japaneseBefore(realEnd)) || isJapaneseScript(text.charCodeAt(j + 1)))) {
          j++;
          realEnd = j;
          numeric = false;
          allAscii = false;
          continue;
        }
        const length = nonAsciiMatch(LETTER_OR_NUMBER, text, j);
        if (length === 0) break;
        numeric = false;
        allAscii = false;
        j += length;
        realEnd = j;
      }
      if (realEnd < 0) {
        this.truncate(zeroWidthMark);
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
      if (text.charCodeAt(j) === DOT) {
        const next = text.charCodeAt(j + 1);
        if (next < 0x80 && hasClass(next, LABEL) && !this.schemeAhead(j + 1)) {
          if (record) this.edit(j, j + 1, KEEP, TO_BRACKETED_DOT);
          j++;
          continue;
        }
      }
      let length = this.dotForm(j, url, !url);
      if (length === 2 && text.charCodeAt(j) === DOT && !this.labelAhead(j + 2, url)) length = 1;
      if (length > 0 && this.labelAhead(j + length, url) && !this.schemeAhead(j + length)) {
        if (isLookalikeDot(text.charCodeAt(j))) lookalike = true;
        if (record) this.dotEdit(j, length);
        if (isOpenBracket(text.charCodeAt(j + length - 1))) bracketLabel = true;
        j += length;
        continue;
      }
      if (length > 0 && url && realEnd === j && this.trailingDotOk(j, length)) {
        if (record) this.dotEdit(j, length);
        end = j + length;
        break;
      }
      // Zero-width characters after the last letter are not part of the host.
      while (this.count > zeroWidthMark && this.lastEditStart() >= realEnd) this.count--;
      break;
    }
    let ok: boolean;
    if (url) ok = labels > 0;
    else if (labels < 2 || (lookalike && !allAscii)) ok = false;
    else if (allNumeric) ok = labels === 4 && ipv4;
    else ok = this.isTopLevelDomain(lastStart, lastEnd);
    if (!ok) {
      this.truncate(mark);
      if (!url) {
        this.hostFailStart = start;
        this.hostFailEnd = Math.max(end, start + 1);
      }
    }
    this.hostOk = ok;
    this.hostBracketLabel = bracketLabel;
    return end;
  }

  /**
   * A host outside a URL (see scanHost) and its edits. Many such runs fail (`e.g.`,
   * `1.2.3`, a flood of `a.`), so the edits are recorded in a second pass over a host
   * that passed, rather than recorded and dropped.
   */
  private scanBareHost(start: number): number {
    const plainEnd = this.plainBareHost(start);
    if (plainEnd >= 0) return plainEnd;
    const end = this.scanHost(start, false, false);
    return this.hostOk ? this.scanHost(start, false, true) : end;
  }

  /**
   * scanHost(start, false, true) for the usual bare host, with one regular-expression
   * match (PLAIN_HOST: ASCII labels joined by `.`, `[.]` or `[dot]`) that ends where no
   * dot form, label or scheme goes on (see endsPlainBareHost). Returns the end with hostOk
   * set, and the edits recorded or the failure remembered as scanHost does; -1 when the
   * general scan has to decide. The rules are scanHost's: two labels or more, then a
   * dotted quad when all labels are numbers, else a top-level domain.
   */
  private plainBareHost(start: number): number {
    if (start >= this.hostFailStart && start < this.hostFailEnd) return -1;
    const text = this.text;
    const end = this.plainHostMatch(start);
    if (end < 0) return -1;
    let lastStart = end;
    while (lastStart > start && hasClass(text.charCodeAt(lastStart - 1), LABEL)) lastStart--;
    const oneLabel = lastStart === start;
    if (!this.endsPlainBareHost(end, oneLabel ? -1 : lastStart)) return -1;
    let ok = false;
    if (!oneLabel) {
      // A last label that starts with a digit is no top-level domain; after one that
      // does not, not all labels are numbers. A dotted quad is at most 27 characters
      // long (four times 3 digits, three `[dot]`).
      ok = isAsciiDigit(text.charCodeAt(lastStart)) ? end - start <= 27 && isDottedQuad(text, start, end) : this.isTopLevelDomain(lastStart, end);
    }
    if (ok) {
      this.plainHostEdits(start, end);
    } else {
      this.hostFailStart = start;
      this.hostFailEnd = Math.max(end, start + 1);
    }
    this.hostOk = ok;
    return end;
  }

  /**
   * Whether scanHost ends a bare host of ASCII labels and plain dots at end: at the end of
   * the text, or before an ASCII character that starts no dot form (`.` before no label,
   * not `\`, `<`, a bracket, ` [`) and, when lastStart (the last label, -1 if it is the
   * only one) may spell a scheme, no `:` or `*` that would make the last label one.
   */
  private endsPlainBareHost(end: number, lastStart: number): boolean {
    const text = this.text;
    const c = text.charCodeAt(end);
    if (!(c >= 0)) return true;
    if (c >= 0x80) return false;
    if (c === DOT) return !(text.charCodeAt(end + 1) >= 0x80);
    if (c === SPACE) return !isOpenBracket(text.charCodeAt(end + 1));
    if (c === BACKSLASH || c === LESS || isBracket(c)) return false;
    if ((c === COLON || c === STAR) && lastStart >= 0) return !this.schemeAhead(lastStart);
    return true;
  }

  /** Letters only (2+), an `xn--` label, or a label wholly outside ASCII. */
  private isTopLevelDomain(start: number, end: number): boolean {
    const text = this.text;
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
    if (ascii === 0) return true;
    if (ascii !== length) return false;
    if (letters === length) return true;
    const label = text.slice(start, end).toLowerCase();
    if (!label.startsWith('xn--') || label.length < 5) return false;
    for (let k = 4; k < label.length; k++) {
      const c = label.charCodeAt(k);
      if (!isAsciiAlnum(c) && c !== HYPHEN) return false;
    }
    return true;
  }

  /** A bare host with optional port and path; returns the end, or how far a failed run reached. */
  private tryBareHost(i: number): number {
    const text = this.text;
    let end = this.scanBareHost(i);
    if (!this.hostOk) return end;
    const colon = this.colonForm(end);
    if (colon > 0 && isAsciiDigit(text.charCodeAt(end + colon))) {
      let k = end + colon;
      while (isAsciiDigit(text.charCodeAt(k))) k++;
      if (labelCharLength(text, k) === 0) {
        if (colon > 1) this.edit(end, end + colon, TO_COLON, KEEP);
        end = k;
      }
    }
    if (text.charCodeAt(end) === SLASH || this.isSquareSlash(end)) end = this.scanRest(end, false);
    return end;
  }

  /** `local@host` with `@` or an at-form (`[at]`, `(@)`, ...) written right against both parts. */
  private tryEmail(i: number): number {
    if (i < this.localFailEnd) return -1;
    const text = this.text;
    // Most words are no local part: look for the at-form before recording anything.
    const localEnd = this.scanLocalPart(i, false);
    const at = this.atForm(localEnd);
    if (at > 0) {
      const hostStart = localEnd + at;
      if (isWordCharAt(text, hostStart)) {
        const mark = this.count;
        this.scanLocalPart(i, true);
        if (at > 1) this.edit(localEnd, hostStart, TO_AT, KEEP);
        const hostEnd = this.scanBareHost(hostStart);
        if (this.hostOk) return hostEnd;
        this.truncate(mark);
      }
    }
    this.localFailEnd = localEnd;
    return -1;
  }

  /**
   * Where LOCAL_RUN_BRACKETS matched at j ends (j if it does not match). It matches what
   * PLAIN_HOST does and more only with a `+`: without one right after the host match,
   * which plainHostMatch remembers for the host that is tried next, that match is it.
   */
  private localRunEnd(j: number): number {
    const hostEnd = this.plainHostMatch(j);
    if (hostEnd >= 0 && !hasPlusWithin(this.text, hostEnd, hostEnd + 6)) return hostEnd;
    return matchEnd(LOCAL_RUN_BRACKETS, this.text, j);
  }

  /**
   * The local part of an e-mail address from i: parts of label characters and `+` joined
   * by dot forms. Returns where it ends; record: also record the dot forms' edits.
   */
  private scanLocalPart(i: number, record: boolean): number {
    const text = this.text;
    const n = this.n;
    let j = i;
    let localEnd = i;
    for (;;) {
      const partStart = j;
      // ASCII parts joined by plain dots (which need no edit) in one match, and when not
      // recording by bracketed dots as well; the loop goes on with what the match leaves
      // (a letter outside ASCII, say).
      j = record ? matchEnd(LOCAL_RUN, text, j) : this.localRunEnd(j);
      while (j < n) {
        const c = text.charCodeAt(j);
        if (c < 0x80) {
          if (!hasClass(c, LABEL) && c !== PLUS) break;
          j++;
          continue;
        }
        const length = nonAsciiMatch(LETTER_OR_NUMBER, text, j);
        if (length === 0) break;
        j += length;
      }
      if (j === partStart) break;
      localEnd = j;
      const length = this.dotForm(j, false, false);
      if (length > 0 && (labelCharLength(text, j + length) > 0 || text.charCodeAt(j + length) === PLUS)) {
        if (record && !(length === 1 && text.charCodeAt(j) === DOT)) this.edit(j, j + length, TO_DOT, KEEP);
        j += length;
        continue;
      }
      break;
    }
    return localEnd;
  }

  // ---- IPv6 and lone separators --------------------------------------------------------

  private ipv6Start(i: number, c: number): boolean {
    if (i < this.ipv6FailEnd) return false;
    const text = this.text;
    if (!(isHexDigit(c) || c === COLON || (isOpenBracket(c) && text.charCodeAt(i + 1) === COLON))) return false;
    const p = text.charCodeAt(i - 1);
    if (p === COLON || p === DOT || p === HYPHEN || p === UNDERSCORE || isCloseBracket(p)) return false;
    return !isWordCharBefore(text, i);
  }

  /**
   * Hex digits, colons, dots and their bracketed forms from start; returns the end, with
   * the colons counted in ipv6Colons.
   * record: also record the edits of the run.
   */
  private scanIpv6Run(start: number, record: boolean): number {
    const text = this.text;
    const n = this.n;
    let j = start;
    let colons = 0;
    while (j < n) {
      const c = text.charCodeAt(j);
      if (isHexDigit(c)) {
        j++;
        continue;
      }
      if (c === COLON) {
        colons++;
        j++;
        continue;
      }
      if (c === DOT) {
        if (record) this.edit(j, j + 1, KEEP, TO_BRACKETED_DOT);
        j++;
        continue;
      }
      if (isOpenBracket(c) && isCloseBracket(text.charCodeAt(j + 2))) {
        const d = text.charCodeAt(j + 1);
        if (d === COLON) {
          colons++;
          if (record) this.edit(j, j + 3, TO_COLON, KEEP);
          j += 3;
          continue;
        }
        if (d === DOT) {
          if (record) this.edit(j, j + 3, TO_DOT, KEEP);
          j += 3;
          continue;
        }
      }
      break;
    }
    this.ipv6Colons = colons;
    return j;
  }

  /** `[` IPv6 `]` as a URL host; returns the end or -1. */
  private scanIpv6Literal(h: number): number {
    const mark = this.count;
    const end = this.scanIpv6Run(h + 1, true);
    if (this.ipv6Colons >= 2 && this.text.charCodeAt(end) === RIGHT_SQUARE) return end + 1;
    this.truncate(mark);
    return -1;
  }

  /** A defanged IPv6 address in prose (`2001[:]db8[:][:]1`); must be a valid address once refanged. */
  private tryBareIpv6(i: number): number {
    const text = this.text;
    // Most runs (hex words, dotted numbers) hold no `[:]`-like colon, which an address
    // needs: one match finds such a run and it fails. The others get the exact scan.
    IPV6_RUN_UNMARKED.lastIndex = i;
    IPV6_RUN_UNMARKED.test(text);
    let runEnd = IPV6_RUN_UNMARKED.lastIndex;
    if (!isBracketedColon(text, runEnd)) {
      this.ipv6FailEnd = runEnd;
      return -1;
    }
    runEnd = this.scanIpv6Run(i, false);
    if (this.ipv6Colons >= 2 && labelCharLength(text, runEnd) === 0) {
      // A dot at the end is the sentence's, not the address's.
      const end = runEnd > i && text.charCodeAt(runEnd - 1) === DOT ? runEnd - 1 : runEnd;
      if (isIpv6(refangedIpv6(text, i, end))) {
        const mark = this.count;
        this.scanIpv6Run(i, true);
        if (end < runEnd && this.count > mark && this.lastEditStart() === end) this.count--;
        return end;
      }
    }
    this.ipv6FailEnd = runEnd;
    return -1;
  }

  /** Two or more `[/]` in a row are a defanged `//`; one alone may be anything. */
  private trySlashRun(i: number): number {
    let j = i;
    while (this.isSquareSlash(j)) j += 3;
    if (j - i < 6) return -1;
    for (let k = i; k < j; k += 3) this.edit(k, k + 3, TO_SLASH, KEEP);
    return j;
  }
}

// ---- helpers outside the class ---------------------------------------------------------

/** text[start, end), a PLAIN_HOST match, is four numbers of 1 to 3 digits up to 255. */
function isDottedQuad(text: string, start: number, end: number): boolean {
  let labels = 1;
  let digits = 0;
  let value = 0;
  for (let k = start; k < end; k++) {
    const c = text.charCodeAt(k);
    if (isAsciiDigit(c)) {
      value = value * 10 + (c - 0x30);
      if (++digits > 3 || value > 255) return false;
      continue;
    }
    if (c !== DOT && !isOpenBracket(c)) return false;
    // A separator: `.`, or `[.]` or `[dot]` with any brackets.
    if (c !== DOT) k += text.charCodeAt(k + 1) === DOT ? 2 : 4;
    labels++;
    digits = 0;
    value = 0;
  }
  return labels === 4;
}

/** What may follow a host that plainHostEnd accepts (see there); NaN past the end. */
function endsPlainHost(c: number): boolean {
  return !(c >= 0) || c === SLASH || c === QUESTION || c === HASH || (asciiBreaksUrl(c) && c !== LESS);
}

/** Where findUserinfo certainly stops: `/ ? # \ ] }`, a character that ends a URL, or past the end (NaN). */
function stopsUserinfoScan(c: number): boolean {
  return !(c >= 0) || c === SLASH || c === QUESTION || c === HASH || c === BACKSLASH || c === RIGHT_SQUARE || c === RIGHT_CURLY || asciiBreaksUrl(c);
}

/** ASCII and not a letter or digit: what may come before a word start. */
function isAsciiNonWord(c: number): boolean {
  return c < 0x80 && !isAsciiAlnum(c);
}

/**
 * After a word that ends a plain stretch (see skipPlainProse), whether c, the character the
 * search stopped at, leaves the word not plain: anything but `_` (which continues the
 * label) and the control characters (which close it). Characters the search stops at
 * are no letter, digit or `-`; `.` and `:` it stops at have no whitespace after them.
 */
function isNotPlainAfterWord(c: number): boolean {
  return c !== UNDERSCORE && c > SPACE && c !== 0x7f;
}

/**
 * Where a string, or a global regular expression whose matches are one character, next
 * matches at or after a position (n when nowhere), remembered: the scan asks with
 * positions that only grow, so searches never overlap and all of them together read the
 * text once.
 */
class NextMatch {
  private readonly text: string;
  private readonly needle: string | RegExp;
  private at = -1;
  private searchedFrom = 0;

  constructor(text: string, needle: string | RegExp) {
    this.text = text;
    this.needle = needle;
  }

  from(i: number): number {
    if (this.at < i || i < this.searchedFrom) {
      this.searchedFrom = i;
      this.at = this.find(i);
    }
    return this.at;
  }

  private find(i: number): number {
    const { text, needle } = this;
    if (typeof needle === 'string') {
      const at = text.indexOf(needle, i);
      return at < 0 ? text.length : at;
    }
    needle.lastIndex = i;
    return needle.test(text) ? needle.lastIndex - 1 : text.length;
  }
}

/** Where a sticky regular expression matches at j ends, or j when it does not match. */
function matchEnd(re: RegExp, text: string, j: number): number {
  re.lastIndex = j;
  return re.test(text) ? re.lastIndex : j;
}

/** Whether text[from, to) holds a `+` (which continues an e-mail local part). */
function hasPlusWithin(text: string, from: number, to: number): boolean {
  for (let k = from; k < to; k++) if (text.charCodeAt(k) === PLUS) return true;
  return false;
}

/** A bracketed colon (`[:]`, `(:)`, any brackets) at j. */
function isBracketedColon(text: string, j: number): boolean {
  return isOpenBracket(text.charCodeAt(j)) && text.charCodeAt(j + 1) === COLON && isCloseBracket(text.charCodeAt(j + 2));
}

/** A PASS character or an open bracket: possibly stepped over by skipPlainProse (NaN: no). */
function mayStepOver(c: number): boolean {
  return c < 0x80 && (hasClass(c, PASS) || isOpenBracket(c));
}

/** After an open bracket: what a bracketed scheme, `[:]` or `[/]` needs next. */
function opensToken(c: number): boolean {
  return isAsciiAlpha(c) || c === STAR || c === COLON || c === SLASH;
}

/**
 * An IPv6 run text[start, end) refanged: each bracketed form (`[:]`, `(.)`, ...) becomes
 * the character inside it. In a run every bracket opens such a three-character form.
 */
function refangedIpv6(text: string, start: number, end: number): string {
  let out = '';
  let pos = start;
  for (let j = start; j < end; j++) {
    if (!isOpenBracket(text.charCodeAt(j))) continue;
    out += text.slice(pos, j) + text.charAt(j + 1);
    j += 2;
    pos = j + 1;
  }
  return out + text.slice(pos, end);
}

function isIpv6(address: string): boolean {
  try {
    new URL(`http://[${address}]/`);
    return true;
  } catch {
    return false;
  }
}
