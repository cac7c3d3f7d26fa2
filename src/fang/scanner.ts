/**
 * The single-pass scanner behind defang, refang and extractUrls.
 *
 * It walks the text once and recognises tokens that are (possibly defanged) URLs, bare
 * hosts and IP addresses, e-mail addresses and IPv6 addresses. For each obfuscation or
 * live character inside such a token it records an edit that says what the span becomes
 * when refanging and when defanging. Text outside tokens never gets an edit, which is
 * what keeps prose, code and markdown intact.
 *
 * Linear time: every attempt either consumes what it scanned or, when it fails, is never
 * retried inside the stretch it covered (the `*FailEnd` marks and the main loop's jump
 * over failed host runs). Lookaheads that do not consume are bounded to a few characters.
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

/** ASCII characters that may appear in a host label. */
function isAsciiLabel(c: number): boolean {
  return isAsciiAlnum(c) || c === HYPHEN || c === UNDERSCORE;
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
  if (c < 0x80) return isAsciiLabel(c) ? 1 : 0;
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

// ---- tokens ----------------------------------------------------------------------------

/** The scheme a live or defanged scheme word stands for. */
export type Scheme = 'http' | 'https' | 'ftp' | 'mailto';

/** A span of the input and what it becomes; null keeps the source text. */
export interface Edit {
  readonly start: number;
  readonly end: number;
  refanged: string | null;
  defanged: string | null;
}

/** A URL with a scheme and a host, as found in the input. */
export interface UrlToken {
  readonly start: number;
  /** End of scheme, userinfo, host and port. */
  readonly authorityEnd: number;
  readonly end: number;
  readonly scheme: Scheme;
}

/** What one pass over a text found. */
export interface ScanResult {
  /** Sorted by start, never overlapping. */
  readonly edits: readonly Edit[];
  /** Top-level URL tokens in order. */
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

interface HostScan {
  readonly end: number;
  readonly ok: boolean;
}

const DEFANGED_SCHEME: Readonly<Record<Scheme, string | null>> = {
  http: 'hxxp',
  https: 'hxxps',
  ftp: 'fxp',
  mailto: null,
};

const MAX_SCHEME_WORD = 6;

/** Whether a lowercased letter stands for a `t` in an obfuscated `http`. */
function obscuresT(ch: string | undefined): boolean {
  return ch === 't' || ch === 'x' || ch === '*';
}

/** The scheme a (lowercased) scheme word stands for, live or defanged. */
function canonicalScheme(word: string): Scheme | null {
  switch (word) {
    case 'http':
    case 'https':
    case 'ftp':
    case 'mailto':
      return word;
    case 'fxp':
      return 'ftp';
    case 'hxp':
    case 'xxxx':
      return 'http';
    case 'hxps':
    case 'xxxxs':
    case 'httpx':
      return 'https';
    default:
      break;
  }
  const https = word.length === 5 && word[4] === 's';
  if ((word.length === 4 || https) && word[0] === 'h' && word[3] === 'p' && obscuresT(word[1]) && obscuresT(word[2])) {
    return https ? 'https' : 'http';
  }
  return null;
}

function isPercentDot(text: string, j: number): boolean {
  return text.charCodeAt(j) === PERCENT && text.charCodeAt(j + 1) === 0x32 && (text.charCodeAt(j + 2) | 0x20) === 0x65;
}

// Only ever inside brackets (`[dot]`, `(punkt)`): bare, these are ordinary words.
const DOT_WORDS = ['dot', 'punkt', 'punto'] as const;

/**
 * Scans text once and returns the edits that refang or defang it, and its URLs.
 *
 * @example
 * const { edits, urls } = scan('go to hxxp://a[.]com/x');
 * // edits: `hxxp` -> 'http' (refanged), `[.]` -> '.' (refanged); urls: one http URL at 6..22
 */
export function scan(text: string): ScanResult {
  const scanner = new Scanner(text);
  scanner.run();
  return { edits: scanner.edits, urls: scanner.urls };
}

class Scanner {
  readonly edits: Edit[] = [];
  readonly urls: UrlToken[] = [];
  private readonly text: string;
  private readonly n: number;
  /** Inside a URL nested in another URL's query: defang leaves it as it is. */
  private suppressDefang = false;
  private hostFailStart = -1;
  private hostFailEnd = -1;
  private localFailEnd = -1;
  private ipv6FailEnd = -1;

  constructor(text: string) {
    this.text = text;
    this.n = text.length;
  }

  private c(i: number): number {
    return this.text.charCodeAt(i);
  }

  /** Code units taken by the code point at i. */
  private cpLen(i: number): number {
    const c = this.c(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = this.c(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) return 2;
    }
    return 1;
  }

  /** Drops edits of an attempt that failed (setting length is slow even as a no-op). */
  private truncate(mark: number): void {
    if (this.edits.length > mark) this.edits.length = mark;
  }

  private edit(start: number, end: number, refanged: string | null, defanged: string | null): void {
    const d = this.suppressDefang ? null : defanged;
    if (refanged === null && d === null) return;
    this.edits.push({ start, end, refanged, defanged: d });
  }

  run(): void {
    const text = this.text;
    let i = 0;
    while (i < this.n) {
      const c = this.c(i);
      if (this.isSchemeChar(c) && !isAsciiAlnum(this.c(i - 1))) {
        const end = this.tryUrl(i);
        if (end >= 0) {
          i = end;
          continue;
        }
      }
      if (this.ipv6Start(i, c)) {
        const end = this.tryBareIpv6(i);
        if (end >= 0) {
          i = end;
          continue;
        }
      }
      if (c === LEFT_SQUARE) {
        const end = this.trySlashRun(i);
        if (end >= 0) {
          i = end;
          continue;
        }
      }
      if (isWordCharAt(text, i) && !isWordCharBefore(text, i)) {
        const end = this.tryEmail(i);
        if (end >= 0) {
          i = end;
          continue;
        }
        // A failed run is left exactly as it is, including any host-like tail inside it.
        i = Math.max(this.tryBareHost(i), i + this.cpLen(i));
        continue;
      }
      i += this.cpLen(i);
    }
  }

  // ---- schemes ----------------------------------------------------------------------

  private isSchemeChar(c: number): boolean {
    const lower = c | 0x20;
    return lower === 0x68 || lower === 0x78 || lower === 0x66 || lower === 0x6d || isOpenBracket(c);
  }

  /** A scheme word (optionally bracketed) and its separator at i. */
  private matchScheme(i: number, allowUnderscore: boolean): SchemeMatch | null {
    let j = i;
    const bracketed = isOpenBracket(this.c(j));
    if (bracketed) j++;
    const wordStart = j;
    while (j - wordStart <= MAX_SCHEME_WORD && (isAsciiAlpha(this.c(j)) || this.c(j) === STAR)) j++;
    const length = j - wordStart;
    if (length < 3 || length > MAX_SCHEME_WORD) return null;
    const word = this.text.slice(wordStart, j).toLowerCase();
    const canonical = canonicalScheme(word);
    if (canonical === null) return null;
    if (bracketed) {
      if (!isCloseBracket(this.c(j))) return null;
      j++;
    }
    const live = !bracketed && word === canonical;
    const wordEnd = j;
    const colon = this.colonForm(j);
    if (canonical === 'mailto') {
      return colon > 0
        ? { canonical, live, wordEnd, sepEnd: j + colon, sepLive: colon === 1, underscore: false }
        : null;
    }
    const c = this.c(j);
    if (
      isOpenBracket(c) &&
      this.c(j + 1) === COLON &&
      this.c(j + 2) === SLASH &&
      this.c(j + 3) === SLASH &&
      isCloseBracket(this.c(j + 4))
    ) {
      return { canonical, live, wordEnd, sepEnd: j + 5, sepLive: false, underscore: false };
    }
    if (colon > 0) {
      const k = j + colon;
      if (
        isOpenBracket(this.c(k)) &&
        this.c(k + 1) === SLASH &&
        this.c(k + 2) === SLASH &&
        isCloseBracket(this.c(k + 3))
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
    if (allowUnderscore && !live && c === UNDERSCORE && this.c(j + 1) === UNDERSCORE) {
      return { canonical, live, wordEnd, sepEnd: j + 2, sepLive: false, underscore: true };
    }
    return null;
  }

  /** Whether a URL scheme with a `://`-like separator starts at p. */
  private schemeAhead(p: number): boolean {
    if (!this.isSchemeChar(this.c(p))) return false;
    const s = this.matchScheme(p, false);
    return s !== null && s.canonical !== 'mailto';
  }

  private colonForm(j: number): number {
    const c = this.c(j);
    if (c === COLON) return 1;
    return isOpenBracket(c) && this.c(j + 1) === COLON && isCloseBracket(this.c(j + 2)) ? 3 : 0;
  }

  private slashForm(j: number): number {
    const c = this.c(j);
    if (c === SLASH) return 1;
    return isOpenBracket(c) && this.c(j + 1) === SLASH && isCloseBracket(this.c(j + 2)) ? 3 : 0;
  }

  private isSquareSlash(j: number): boolean {
    return this.c(j) === LEFT_SQUARE && this.c(j + 1) === SLASH && this.c(j + 2) === RIGHT_SQUARE;
  }

  // ---- URLs ----------------------------------------------------------------------------

  private tryUrl(i: number): number {
    const s = this.matchScheme(i, true);
    if (s === null) return -1;
    if (s.canonical === 'mailto') {
      if (!s.live || !s.sepLive) this.edit(i, s.sepEnd, 'mailto:', null);
      return s.sepEnd;
    }
    if (s.underscore) {
      if (!isWordCharAt(this.text, s.sepEnd)) return -1;
      const mark = this.edits.length;
      const probe = this.scanHost(s.sepEnd, false);
      this.truncate(mark);
      if (!probe.ok) return -1;
    }
    const head = this.urlHead(i, s);
    if (!head.hasHost) return head.authorityEnd;
    let end = head.authorityEnd;
    const c = this.c(end);
    if (c === SLASH || c === QUESTION || c === HASH || this.isSquareSlash(end)) end = this.scanRest(end, true);
    this.urls.push({ start: i, authorityEnd: head.authorityEnd, end, scheme: s.canonical });
    return end;
  }

  /** Scheme, separator, userinfo, host and port of a URL whose scheme matched at i. */
  private urlHead(i: number, s: SchemeMatch): { hasHost: boolean; authorityEnd: number } {
    const word: Edit = { start: i, end: s.wordEnd, refanged: null, defanged: null };
    const sep: Edit = { start: s.wordEnd, end: s.sepEnd, refanged: null, defanged: null };
    if (s.live && !this.suppressDefang) word.defanged = DEFANGED_SCHEME[s.canonical];
    const mark = this.edits.length;
    this.edits.push(word, sep);
    let p = s.sepEnd;
    if (!s.underscore && isBlank(this.c(p))) {
      // `http:// example.com`: a space typed after the scheme, joined only before a real host.
      let q = p;
      while (isBlank(this.c(q))) q++;
      if (isWordCharAt(this.text, q) && !this.schemeAhead(q)) {
        const probeMark = this.edits.length;
        const probe = this.scanHost(q, false);
        this.truncate(probeMark);
        if (probe.ok) {
          this.edit(p, q, '', null);
          p = q;
        }
      }
    }
    const authority = this.scanAuthority(p);
    if (!authority.hasHost) {
      this.truncate(mark);
      if (word.defanged !== null) this.edits.push(word);
      return { hasHost: false, authorityEnd: s.sepEnd };
    }
    if (!s.live) word.refanged = s.canonical;
    if (!s.sepLive) sep.refanged = '://';
    return { hasHost: true, authorityEnd: authority.end };
  }

  private scanAuthority(p: number): { hasHost: boolean; end: number } {
    const mark = this.edits.length;
    let h = p;
    const userinfo = this.findUserinfo(p);
    if (userinfo !== null) {
      this.userinfoEdits(p, userinfo.at);
      if (userinfo.length > 1) this.edit(userinfo.at, userinfo.at + userinfo.length, '@', null);
      h = userinfo.at + userinfo.length;
    }
    let hostEnd = -1;
    if (this.c(h) === LEFT_SQUARE) {
      hostEnd = this.scanIpv6Literal(h);
    } else if (this.labelAhead(h, true) && !this.schemeAhead(h)) {
      const host = this.scanHost(h, true);
      if (host.ok) hostEnd = host.end;
    }
    if (hostEnd < 0) {
      this.truncate(mark);
      return { hasHost: false, end: p };
    }
    let end = hostEnd;
    const colon = this.colonForm(end);
    if (colon > 0 && isAsciiDigit(this.c(end + colon))) {
      if (colon > 1) this.edit(end, end + colon, ':', null);
      end += colon;
      while (isAsciiDigit(this.c(end))) end++;
    }
    return { hasHost: true, end };
  }

  /** The last `@` (or at-form) before the authority ends, as WHATWG URL reads userinfo. */
  private findUserinfo(p: number): { at: number; length: number } | null {
    let j = p;
    let at = -1;
    let length = 0;
    while (j < this.n) {
      const c = this.c(j);
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
        const d = this.c(j + 1);
        if (isOpenBracket(c) && (d === DOT || d === COLON) && isCloseBracket(this.c(j + 2))) {
          j += 3;
          continue;
        }
        break;
      }
      if (c === SLASH || c === QUESTION || c === HASH || c === BACKSLASH || asciiBreaksUrl(c)) break;
      if (c >= 0x80 && !isZeroWidth(c) && !isLookalikeDot(c) && c !== KATAKANA_MIDDLE_DOT) {
        if (nonAsciiBreaksUrl(this.text, j)) break;
      }
      j += this.cpLen(j);
    }
    return at >= 0 ? { at, length } : null;
  }

  /** In userinfo only brackets that a URL cannot contain are markers: `[.]`, `{.}`, `[:]`. */
  private userinfoEdits(start: number, end: number): void {
    for (let j = start; j + 2 < end; j++) {
      const c = this.c(j);
      if (c !== LEFT_SQUARE && c !== LEFT_CURLY) continue;
      const close = c === LEFT_SQUARE ? RIGHT_SQUARE : RIGHT_CURLY;
      const d = this.c(j + 1);
      if ((d === DOT || d === COLON) && this.c(j + 2) === close) {
        this.edit(j, j + 3, d === DOT ? '.' : ':', null);
        j += 2;
      }
    }
  }

  private atForm(j: number): number {
    const c = this.c(j);
    if (c === AT) return 1;
    if (!isOpenBracket(c)) return 0;
    if (this.c(j + 1) === AT && isCloseBracket(this.c(j + 2))) return 3;
    if ((this.c(j + 1) | 0x20) === 0x61 && (this.c(j + 2) | 0x20) === 0x74 && isCloseBracket(this.c(j + 3))) return 4;
    return 0;
  }

  /**
   * Path, query and fragment. Ends at whitespace, a character that cannot be in a URL,
   * punctuation outside ASCII, an unbalanced closing bracket, or `,`/`;` before another
   * URL. A URL nested in it is refanged as part of it (url) or ends it (bare host).
   */
  private scanRest(start: number, url: boolean): number {
    let j = start;
    let paren = 0;
    let square = 0;
    let curly = 0;
    while (j < this.n) {
      const c = this.c(j);
      if (c >= 0x80) {
        if (!isZeroWidth(c) && nonAsciiBreaksUrl(this.text, j)) break;
        j += this.cpLen(j);
        continue;
      }
      if (asciiBreaksUrl(c)) break;
      if (c === LEFT_SQUARE || c === LEFT_CURLY) {
        const d = this.c(j + 1);
        const e = this.c(j + 2);
        if (d === DOT && e === (c === LEFT_SQUARE ? RIGHT_SQUARE : RIGHT_CURLY)) {
          this.edit(j, j + 3, '.', null);
          j += 3;
          continue;
        }
        if (c === LEFT_SQUARE && d === SLASH && e === RIGHT_SQUARE) {
          this.edit(j, j + 3, '/', null);
          j += 3;
          continue;
        }
      }
      if ((c === COMMA || c === SEMICOLON) && this.schemeAhead(j + 1)) break;
      if (this.isSchemeChar(c) && !isAsciiAlnum(this.c(j - 1))) {
        const s = this.matchScheme(j, false);
        if (s !== null && s.canonical !== 'mailto') {
          if (!url) break;
          const saved = this.suppressDefang;
          this.suppressDefang = true;
          j = this.urlHead(j, s).authorityEnd;
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
    for (const word of DOT_WORDS) {
      let k = 0;
      while (k < word.length && (this.c(j + k) | 0x20) === word.charCodeAt(k)) k++;
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
    const c = this.c(j);
    if (c === DOT) return url && isBracket(this.c(j + 1)) ? 2 : 1;
    if (isLookalikeDot(c)) return 1;
    if (url && c === KATAKANA_MIDDLE_DOT) return 1;
    if (url && isPercentDot(this.text, j)) return 3;
    if (c === BACKSLASH) return this.c(j + 1) === DOT ? 2 : 0;
    if (c === LESS) {
      if (this.c(j + 1) === DOT && this.c(j + 2) === GREATER) return 3;
      const word = this.dotWord(j + 1);
      return word > 0 && this.c(j + 1 + word) === GREATER ? word + 2 : 0;
    }
    if (isBracket(c)) {
      const d = this.c(j + 1);
      if (d === DOT) return isBracket(this.c(j + 2)) ? 3 : url ? 2 : 0;
      if (d === COMMA) return isBracket(this.c(j + 2)) ? 3 : 0;
      const word = this.dotWord(j + 1);
      return word > 0 && isBracket(this.c(j + 1 + word)) ? word + 2 : 0;
    }
    if (
      spaced &&
      c === SPACE &&
      isOpenBracket(this.c(j + 1)) &&
      this.c(j + 2) === DOT &&
      isCloseBracket(this.c(j + 3)) &&
      this.c(j + 4) === SPACE
    ) {
      return 5;
    }
    return 0;
  }

  /** A dot that a URL parser reads as a label separator. */
  private isLiveDot(j: number, length: number): boolean {
    const c = this.c(j);
    return (length === 1 && (c === DOT || isLookalikeDot(c))) || (length === 3 && isPercentDot(this.text, j));
  }

  private dotEdit(j: number, length: number): void {
    if (this.isLiveDot(j, length)) {
      this.edit(j, j + length, this.c(j) === DOT ? null : '.', '[.]');
    } else {
      this.edit(j, j + length, '.', null);
    }
  }

  /** Whether a label starts at p (after any zero-width characters). */
  private labelAhead(p: number, url: boolean): boolean {
    let k = p;
    while (isZeroWidth(this.c(k))) k++;
    if (labelCharLength(this.text, k) > 0) return true;
    return (
      url &&
      this.c(k) === PERCENT &&
      isHexDigit(this.c(k + 1)) &&
      isHexDigit(this.c(k + 2)) &&
      !isPercentDot(this.text, k)
    );
  }

  /** A dot after the last label: only a plain or `[.]` dot right before `/ ? # :`. */
  private trailingDotOk(j: number, length: number): boolean {
    const exact =
      this.isLiveDot(j, length) ||
      (length === 3 && this.c(j) === LEFT_SQUARE && this.c(j + 1) === DOT && this.c(j + 2) === RIGHT_SQUARE);
    if (!exact) return false;
    const k = j + length;
    const c = this.c(k);
    return c === SLASH || c === QUESTION || c === HASH || c === COLON || this.isSquareSlash(k) || this.colonForm(k) === 3;
  }

  private japaneseBefore(end: number): boolean {
    const c = this.c(end - 1);
    if (c >= 0xdc00 && c <= 0xdfff) return isJapaneseScript(this.c(end - 2));
    return isJapaneseScript(c);
  }

  /**
   * Labels joined by dot forms from start. url: the host of a URL, where any non-empty
   * host is accepted; otherwise a bare host must have two labels and end in a plausible
   * top-level domain, or be a dotted-quad IPv4 address.
   */
  private scanHost(start: number, url: boolean): HostScan {
    if (!url && start >= this.hostFailStart && start < this.hostFailEnd) return { end: this.hostFailEnd, ok: false };
    const mark = this.edits.length;
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
      const zeroWidthMark = this.edits.length;
      let realEnd = -1;
      let numeric = true;
      let digits = 0;
      let value = 0;
      while (j < this.n) {
        const c = this.c(j);
        if (isZeroWidth(c)) {
          this.edit(j, j + 1, '', null);
          j++;
          continue;
        }
        if (url && c === PERCENT && isHexDigit(this.c(j + 1)) && isHexDigit(this.c(j + 2)) && !isPercentDot(this.text, j)) {
          j += 3;
          realEnd = j;
          numeric = false;
          continue;
        }
        if (
          url &&
          c === KATAKANA_MIDDLE_DOT &&
          ((realEnd >= 0 && this.japaneseBefore(realEnd)) || isJapaneseScript(this.c(j + 1)))
        ) {
          j++;
          realEnd = j;
          numeric = false;
          allAscii = false;
          continue;
        }
        const length = labelCharLength(this.text, j);
        if (length === 0) break;
        if (isAsciiDigit(c)) {
          value = value * 10 + (c - 0x30);
          digits++;
        } else {
          numeric = false;
        }
        if (c >= 0x80) allAscii = false;
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
      let length = this.dotForm(j, url, !url);
      if (length === 2 && this.c(j) === DOT && !this.labelAhead(j + 2, url)) length = 1;
      if (length > 0 && this.labelAhead(j + length, url) && !this.schemeAhead(j + length)) {
        if (isLookalikeDot(this.c(j))) lookalike = true;
        this.dotEdit(j, length);
        j += length;
        continue;
      }
      if (length > 0 && url && realEnd === j && this.trailingDotOk(j, length)) {
        this.dotEdit(j, length);
        end = j + length;
        break;
      }
      while (this.edits.length > zeroWidthMark && (this.edits.at(-1)?.start ?? -1) >= realEnd) this.edits.pop();
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
    return { end, ok };
  }

  /** Letters only (2+), an `xn--` label, or a label wholly outside ASCII. */
  private isTopLevelDomain(start: number, end: number): boolean {
    let length = 0;
    let letters = 0;
    let ascii = 0;
    for (let k = start; k < end; k++) {
      const c = this.c(k);
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
    const label = this.text.slice(start, end).toLowerCase();
    if (!label.startsWith('xn--') || label.length < 5) return false;
    for (let k = 4; k < label.length; k++) {
      const c = label.charCodeAt(k);
      if (!isAsciiAlnum(c) && c !== HYPHEN) return false;
    }
    return true;
  }

  /** A bare host with optional port and path; returns the end, or how far a failed run reached. */
  private tryBareHost(i: number): number {
    const host = this.scanHost(i, false);
    if (!host.ok) return host.end;
    let end = host.end;
    const colon = this.colonForm(end);
    if (colon > 0 && isAsciiDigit(this.c(end + colon))) {
      let k = end + colon;
      while (isAsciiDigit(this.c(k))) k++;
      if (labelCharLength(this.text, k) === 0) {
        if (colon > 1) this.edit(end, end + colon, ':', null);
        end = k;
      }
    }
    if (this.c(end) === SLASH || this.isSquareSlash(end)) end = this.scanRest(end, false);
    return end;
  }

  /** `local@host` with `@` or an at-form (`[at]`, `(@)`, ...) written right against both parts. */
  private tryEmail(i: number): number {
    if (i < this.localFailEnd) return -1;
    const mark = this.edits.length;
    let j = i;
    let localEnd = i;
    for (;;) {
      const partStart = j;
      while (j < this.n) {
        const length = labelCharLength(this.text, j);
        if (length > 0) j += length;
        else if (this.c(j) === PLUS) j++;
        else break;
      }
      if (j === partStart) break;
      localEnd = j;
      const length = this.dotForm(j, false, false);
      if (length > 0 && (labelCharLength(this.text, j + length) > 0 || this.c(j + length) === PLUS)) {
        if (!(length === 1 && this.c(j) === DOT)) this.edit(j, j + length, '.', null);
        j += length;
        continue;
      }
      break;
    }
    const at = this.atForm(localEnd);
    if (at > 0) {
      const hostStart = localEnd + at;
      if (isWordCharAt(this.text, hostStart)) {
        if (at > 1) this.edit(localEnd, hostStart, '@', null);
        const host = this.scanHost(hostStart, false);
        if (host.ok) return host.end;
      }
    }
    this.truncate(mark);
    this.localFailEnd = localEnd;
    return -1;
  }

  // ---- IPv6 and lone separators --------------------------------------------------------

  private ipv6Start(i: number, c: number): boolean {
    if (i < this.ipv6FailEnd) return false;
    if (!(isHexDigit(c) || c === COLON || (isOpenBracket(c) && this.c(i + 1) === COLON))) return false;
    const p = this.c(i - 1);
    if (p === COLON || p === DOT || p === HYPHEN || p === UNDERSCORE || isCloseBracket(p)) return false;
    return !isWordCharBefore(this.text, i);
  }

  /** Hex digits, colons, dots and their bracketed forms. */
  private scanIpv6Run(start: number): { end: number; colons: number; marked: boolean } {
    let j = start;
    let colons = 0;
    let marked = false;
    while (j < this.n) {
      const c = this.c(j);
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
        this.edit(j, j + 1, null, '[.]');
        j++;
        continue;
      }
      if (isOpenBracket(c) && isCloseBracket(this.c(j + 2))) {
        const d = this.c(j + 1);
        if (d === COLON) {
          colons++;
          marked = true;
          this.edit(j, j + 3, ':', null);
          j += 3;
          continue;
        }
        if (d === DOT) {
          this.edit(j, j + 3, '.', null);
          j += 3;
          continue;
        }
      }
      break;
    }
    return { end: j, colons, marked };
  }

  /** `[` IPv6 `]` as a URL host; returns the end or -1. */
  private scanIpv6Literal(h: number): number {
    const mark = this.edits.length;
    const run = this.scanIpv6Run(h + 1);
    if (run.colons >= 2 && this.c(run.end) === RIGHT_SQUARE) return run.end + 1;
    this.truncate(mark);
    return -1;
  }

  /** A defanged IPv6 address in prose (`2001[:]db8[:][:]1`); must be a valid address once refanged. */
  private tryBareIpv6(i: number): number {
    const mark = this.edits.length;
    const run = this.scanIpv6Run(i);
    let end = run.end;
    if (end > i && this.c(end - 1) === DOT) {
      end--;
      if ((this.edits.at(-1)?.start ?? -1) === end) this.edits.pop();
    }
    if (run.colons >= 2 && run.marked && labelCharLength(this.text, run.end) === 0) {
      const address = this.renderRefanged(mark, i, end);
      if (isIpv6(address)) return end;
    }
    this.truncate(mark);
    this.ipv6FailEnd = run.end;
    return -1;
  }

  /** Two or more `[/]` in a row are a defanged `//`; one alone may be anything. */
  private trySlashRun(i: number): number {
    let j = i;
    while (this.isSquareSlash(j)) j += 3;
    if (j - i < 6) return -1;
    for (let k = i; k < j; k += 3) this.edit(k, k + 3, '/', null);
    return j;
  }

  private renderRefanged(fromEdit: number, start: number, end: number): string {
    let out = '';
    let pos = start;
    for (let k = fromEdit; k < this.edits.length; k++) {
      const e = this.edits[k];
      if (e === undefined || e.refanged === null) continue;
      out += this.text.slice(pos, e.start) + e.refanged;
      pos = e.end;
    }
    return out + this.text.slice(pos, end);
  }
}

function isIpv6(address: string): boolean {
  try {
    new URL(`http://[${address}]/`);
    return true;
  } catch {
    return false;
  }
}
