/**
 * The scan's state and what reads it: the text, the edits recorded so far, the trigger
 * search and the failed runs no attempt retries (see scanner.ts). One scan runs at a time
 * and calls out to nothing that scans, so the state is module variables: the other modules
 * read them through their live import bindings (plain variables once bundled, which keeps
 * the scanner fast and small) and change them only through the functions here.
 */
import { COLON, isAsciiAlnum, isAsciiLabel, isOpenBracket, isWhitespace, LETTER_OR_NUMBER, PERCENT } from './chars';

// ---- results -------------------------------------------------------------------------
// An edit names its replacement by an index into REPLACEMENTS, so that an edit is three
// integers in a typed array (see edit) rather than an object.

/** What an edit can put in place of a span, by id. Id 0 (KEEP) stands for no edit. */
export const REPLACEMENTS: readonly string[] = [
  ...['', '', '.', ':', '/', '@', '://', 'mailto:', '[.]'],
  ...['http', 'https', 'ftp', 'ftps', 'sftp'],
  ...['hxxp', 'hxxps', 'fxp', 'fxps', 'sfxp'],
];
export const KEEP = 0;
export const TO_NOTHING = 1;
export const TO_DOT = 2;
export const TO_COLON = 3;
export const TO_SLASH = 4;
export const TO_AT = 5;
export const TO_SEPARATOR = 6;
export const TO_MAILTO = 7;
export const TO_BRACKETED_DOT = 8;
/** Scheme s (below MAILTO) is REPLACEMENTS[TO_SCHEME + s] refanged, REPLACEMENTS[TO_DEFANGED_SCHEME + s] defanged. */
export const TO_SCHEME = 9;
export const TO_DEFANGED_SCHEME = 14;

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

// ---- scan state ------------------------------------------------------------------------
// Only this module assigns these; the others read them (ES module bindings are live) and
// change them through the functions below. Everything that outlives one call is here and
// is reset by begin, so no scan sees what an earlier one left.

export let text = '';
export let n = 0;
/** Records refanged replacements (true) or defanged ones (false). */
export let refanging = false;
/** Inside a URL nested in another URL's query: defang leaves it as it is. */
export let suppressDefang = false;
/** The scan's trigger search (see TRIGGERS in scanner.ts), and where it last found a trigger. */
let trigger = /$^/g;
export let triggerAt = -1;
/** nextChunk: the trigger it last answered for, and where that trigger's chunk starts. */
let chunkTrigger = -1;
let chunkStart = 0;
/** Edits as (start, end, replacement id) triples; triples at and past `count` are stale. */
let edits = new Int32Array(0);
export let count = 0;
/** Where URL tokens go, when they are collected. */
export let urls: UrlToken[] | null = null;
/** Failed runs: a bare host tried in [hostFailStart, hostFailEnd), and how far a local part and an IPv6 run reached. */
export let hostFailStart = -1;
export let hostFailEnd = -1;
export let localFailEnd = -1;
export let ipv6FailEnd = -1;
/**
 * plainHostEnd (hosts.ts): its last match, from plainStart to plainEnd, and where its
 * bracketed dots start (the first of plainBrackets, which it fills; a new array for each
 * scan, so that a flood's positions are not kept).
 */
export let plainStart = -1;
export let plainEnd = -1;
export let plainBrackets: number[] = [];

/** Starts a scan of input: edits in the rendering asked for, triggers found by search (global). */
export function begin(input: string, rendering: Rendering, search: RegExp, collectUrls: boolean): void {
  text = input;
  n = input.length;
  refanging = rendering === 'refanged';
  suppressDefang = false;
  trigger = search;
  // Room for an edit per 64 characters to start with (prose has far fewer): growing costs copies.
  edits = new Int32Array(3 * Math.max(256, n >> 6));
  count = 0;
  urls = collectUrls ? [] : null;
  hostFailStart = hostFailEnd = localFailEnd = ipv6FailEnd = plainStart = triggerAt = chunkTrigger = -1;
}

/** What the scan found; holds on to nothing of the input afterwards. */
export function finish(): ScanResult {
  const result = { count, edits, urls: urls ?? [] };
  text = '';
  edits = new Int32Array(0);
  plainBrackets = [];
  urls = null;
  return result;
}

/** Drops the edits recorded since count was mark. */
export function rollback(mark: number): void {
  count = mark;
}

/** Sets whether defang leaves what is scanned next as it is (a URL nested in a URL). */
export function setSuppressDefang(on: boolean): void {
  suppressDefang = on;
}

export function failHost(start: number, end: number): void {
  hostFailStart = start;
  hostFailEnd = end;
}

export function failLocal(end: number): void {
  localFailEnd = end;
}

export function failIpv6(end: number): void {
  ipv6FailEnd = end;
}

export function rememberPlainHost(start: number, end: number): void {
  plainStart = start;
  plainEnd = end;
}

// ---- reading the text ------------------------------------------------------------------

/** Where a sticky regular expression matched at j ends, or j when it does not match. */
export function matchEnd(re: RegExp, j: number): number {
  re.lastIndex = j;
  return re.test(text) ? re.lastIndex : j;
}

/** Length (1 or 2 code units) of the host label character at i, or 0. */
export function labelCharLength(i: number): number {
  const c = text.charCodeAt(i);
  if (c < 0x80) return isAsciiLabel(c) ? 1 : 0;
  return c >= 0x80 ? matchEnd(LETTER_OR_NUMBER, i) - i : 0;
}

/** A letter or digit of any script at i (no hyphen or underscore). */
export function isWordCharAt(i: number): boolean {
  const c = text.charCodeAt(i);
  return c < 0x80 ? isAsciiAlnum(c) : labelCharLength(i) > 0;
}

/** Whether the code point that ends just before i is a letter or digit of any script. */
export function isWordCharBefore(i: number): boolean {
  const c = text.charCodeAt(i - 1);
  const high = text.charCodeAt(i - 2);
  return c >= 0xdc00 && c <= 0xdfff && high >= 0xd800 && high <= 0xdbff ? isWordCharAt(i - 2) : isWordCharAt(i - 1);
}

/** Code units taken by the code point at i. */
export function codePointLength(i: number): number {
  const c = text.charCodeAt(i);
  const d = text.charCodeAt(i + 1);
  return c >= 0xd800 && c <= 0xdbff && d >= 0xdc00 && d <= 0xdfff ? 2 : 1;
}

export function isPercentDot(j: number): boolean {
  return text.charCodeAt(j) === PERCENT && text.charCodeAt(j + 1) === 0x32 && (text.charCodeAt(j + 2) | 0x20) === 0x65;
}

// ---- edits and triggers ---------------------------------------------------------------

/** Records what text[start, end) becomes in this scan's rendering (ids into REPLACEMENTS; KEEP: nothing). */
export function edit(start: number, end: number, refanged: number, defanged: number): void {
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
export function lastEditStart(): number {
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
 * bracket (` [.] ` joins a host across a space) or a colon (`http ://`), never before i.
 * Remembered for the trigger, which a URL's path (see tryUrl) and the main loop both ask
 * about.
 */
export function nextChunk(i: number): number {
  const t = nextTrigger(i);
  if (t >= n) return n;
  if (t !== chunkTrigger) {
    let k = t;
    while (k > i && !isWhitespace(text.charCodeAt(k - 1))) k--;
    const c = text.charCodeAt(k);
    if (k > i && (isOpenBracket(c) || c === COLON)) {
      while (k > i && isWhitespace(text.charCodeAt(k - 1))) k--;
      while (k > i && !isWhitespace(text.charCodeAt(k - 1))) k--;
    }
    chunkTrigger = t;
    chunkStart = k;
  }
  return Math.max(i, chunkStart);
}

/** Whether no failed run reaches past i. */
export function settled(i: number): boolean {
  return hostFailEnd <= i && localFailEnd <= i && ipv6FailEnd <= i;
}
