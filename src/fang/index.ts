/**
 * Defanging, refanging and URL extraction for indicators in free text.
 *
 * All three share one linear scanner (./scanner) that only touches text it recognises
 * as a URL, host, IP address or e-mail address; everything else is returned unchanged.
 */

import { scan } from './scanner';
import { REPLACEMENTS, type ScanResult } from './state';

/**
 * text[start, end) with the scan's edits from index first on that lie inside it applied.
 * Built by concatenation: V8 makes that a rope of the untouched slices and the
 * replacements and copies it once when it is read, which is cheaper than collecting the
 * pieces in an array and joining them.
 */
function render(text: string, { count, edits }: ScanResult, first = 0, start = 0, end = text.length): string {
  let out = '';
  let pos = start;
  for (let at = 3 * first; at < 3 * count; at += 3) {
    const editStart = edits[at] ?? end;
    if (editStart >= end) break;
    if (editStart < start) continue;
    out += text.slice(pos, editStart) + (REPLACEMENTS[edits[at + 2] ?? 0] ?? '');
    pos = edits[at + 1] ?? pos;
  }
  return out + text.slice(pos, end);
}

/**
 * Makes URLs and hosts in text safe to show: `http` becomes `hxxp`, `https` becomes
 * `hxxps` (`ftp`, `ftps`, `sftp` become `fxp`, `fxps`, `sfxp`) and every dot of a host
 * becomes `[.]`, including the dots a URL parser would still honour (`。`, `．`, `｡`,
 * `%2e`). A scheme a browser still reads through `:///` or `:\/\/` is defanged too. Paths, queries,
 * fragments, ports and userinfo are left as they are, as is text that is not a URL or
 * host. Already defanged text is kept: `defang(defang(x)) === defang(x)`.
 *
 * @example
 * defang('see https://evil.example.com/a.php and 8.8.8.8');
 * // 'see hxxps://evil[.]example[.]com/a.php and 8[.]8[.]8[.]8'
 */
export function defang(text: string): string {
  return render(text, scan(text, 'defanged'));
}

/**
 * Restores defanged URLs, hosts, IP addresses and e-mail addresses: scheme forms
 * (`hxxp`, `hXXps`, `h**p`, `[http]`, `fxp`, `fxps`, `sfxp`), separators (`[:]//`,
 * `[://]`, `:\/\/`, and the broken `https//`, `http:///`, `http ://` before a host),
 * dot forms (`[.]`, `(.)`, `{.}`, `[dot]`, `<.>`, `\.`, one-sided brackets inside a URL),
 * and the bracketed `:`, `/` and `@` (`[:]`, `(/)`, `{@}`, `[at]`) anywhere in a URL:
 * userinfo, host, port, path, query and fragment. Escaped slashes (`\/`) and invisible
 * characters (zero-width, soft hyphen, bidirectional controls) inside a URL are dropped;
 * a bidirectional override inside a scheme or host makes it no URL (the host shown is not
 * the host read). Only text that is recognisably a URL, host, IP or e-mail address is
 * changed; prose such as `Meet me (at) noon`, `[.NET]`, `a(/)b` or `C:\/x` is returned
 * byte for byte. `refang(defang(url)) === url` for any http(s) or ftp(s) URL without
 * defang markers.
 *
 * @example
 * refang('hxxps[:]//evil[.]example/login?to=bob[@]mail[.]example and https//evil2.example(/)x');
 * // 'https://evil.example/login?to=bob@mail.example and https://evil2.example/x'
 */
export function refang(text: string): string {
  return render(text, scan(text, 'refanged'));
}

/** `**bold**` markdown, sentence punctuation and quotes that end a URL in prose. */
function isTrailing(c: number): boolean {
  // . , ; : ! ? ' " *
  return c === 0x2e || c === 0x2c || c === 0x3b || c === 0x3a || c === 0x21 || c === 0x3f || c === 0x27 || c === 0x22 || c === 0x2a;
}

/** Where s[from, end) ends without its trailing punctuation. */
function withoutTrailing(s: string, from: number, end: number): number {
  let cut = end;
  while (cut > from && isTrailing(s.charCodeAt(cut - 1))) cut--;
  return cut;
}

/**
 * The common shape of an extracted URL, which the WHATWG URL parser certainly reads as
 * http(s) with a host: `http://` or `https://` (any case), ASCII labels joined by `.`,
 * none starting `xn--` (IDNA decodes and checks those) and the last starting with a
 * letter (else the host may be read as an IPv4 address), then the end or `/ ? #`.
 */
const PLAIN_HTTP_URL = /^https?:\/\/(?:(?!xn--)[\da-z-]+\.)*(?!xn--)[a-z][\da-z-]*(?:[#/?]|$)/i;

function isHttpUrl(candidate: string): boolean {
  // Most candidates have the plain shape; it is slow to ask the parser.
  if (PLAIN_HTTP_URL.test(candidate)) return true;
  try {
    const url = new URL(candidate);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/**
 * Finds the http(s) URLs in text, defanged or not, and returns them refanged, each once,
 * in order of first appearance. Trailing punctuation, quotes, `**` and unbalanced closing
 * brackets are not part of a URL; balanced parentheses are (`/wiki/Foo_(bar)`). Bare
 * hosts without a scheme and other schemes (`ftp://`) are not returned; every result
 * parses as a WHATWG URL. The text of each URL is kept as written (no normalisation)
 * but for what refang restores and drops in it (see refang).
 *
 * @example
 * extractUrls('Payload at hxxp://evil[.]com/a.exe, mirror hxxps[://]evil2[.]net/b.');
 * // ['http://evil.com/a.exe', 'https://evil2.net/b']
 */
export function extractUrls(text: string): string[] {
  const result = scan(text, 'refanged', true);
  const found: string[] = [];
  const seen = new Set<string>();
  let first = 0;
  for (const { start, authorityEnd, end } of result.urls) {
    while (first < result.count && (result.edits[3 * first] ?? Infinity) < start) first++;
    // Trailing punctuation is cut after the authority only. A URL without edits is one
    // slice of the text (no string to build).
    let candidate: string;
    if (first < result.count && (result.edits[3 * first] ?? end) < end) {
      const tail = render(text, result, first, authorityEnd, end);
      candidate = render(text, result, first, start, authorityEnd) + tail.slice(0, withoutTrailing(tail, 0, tail.length));
    } else {
      candidate = text.slice(start, withoutTrailing(text, authorityEnd, end));
    }
    // Adding first and validating after: a string seen before was dropped or kept already.
    const known = seen.size;
    seen.add(candidate);
    if (seen.size > known && isHttpUrl(candidate)) found.push(candidate);
  }
  return found;
}

export { unwrap, unwrapText, MAX_UNWRAP_DEPTH, WRAPPER_IDS, WRAPPER_NAMES, type Unwrapped, type WrapperId } from './unwrap';
