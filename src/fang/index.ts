/**
 * Defanging, refanging and URL extraction for indicators in free text.
 *
 * All three share one linear scanner (./scanner) that only touches text it recognises
 * as a URL, host, IP address or e-mail address; everything else is returned unchanged.
 */

import { scan, type Edit } from './scanner';

type Rendering = 'refanged' | 'defanged';

function render(text: string, edits: readonly Edit[], rendering: Rendering): string {
  const parts: string[] = [];
  let pos = 0;
  for (const edit of edits) {
    const replacement = edit[rendering];
    if (replacement === null) continue;
    parts.push(text.slice(pos, edit.start), replacement);
    pos = edit.end;
  }
  parts.push(text.slice(pos));
  return parts.join('');
}

/**
 * Makes URLs and hosts in text safe to show: `http` becomes `hxxp`, `https` becomes
 * `hxxps` (`ftp` becomes `fxp`) and every dot of a host becomes `[.]`, including the
 * dots a URL parser would still honour (`。`, `．`, `｡`, `%2e`). Paths, queries,
 * fragments, ports and userinfo are left as they are, as is text that is not a URL or
 * host. Already defanged text is kept: `defang(defang(x)) === defang(x)`.
 *
 * @example
 * defang('see https://evil.example.com/a.php and 8.8.8.8');
 * // 'see hxxps://evil[.]example[.]com/a.php and 8[.]8[.]8[.]8'
 */
export function defang(text: string): string {
  return render(text, scan(text).edits, 'defanged');
}

/**
 * Restores defanged URLs, hosts, IP addresses and e-mail addresses: scheme forms
 * (`hxxp`, `hXXps`, `h**p`, `[http]`, `http[:]//`, `[://]`, `fxp`), dot forms (`[.]`,
 * `(.)`, `{.}`, `[dot]`, `<.>`, `\.`, one-sided brackets inside a URL), `[:]`, `[/]`,
 * at-forms (`[@]`, `(at)`) and zero-width characters inside a host. Only text that is
 * recognisably a URL, host, IP or e-mail address is changed; prose such as
 * `Meet me (at) noon`, `[.NET]` or `array[0].length` is returned byte for byte.
 * `refang(defang(url)) === url` for any http(s) URL without defang markers.
 *
 * @example
 * refang('hxxps[:]//evil[.]example/login and user[at]mail[.]example');
 * // 'https://evil.example/login and user@mail.example'
 */
export function refang(text: string): string {
  return render(text, scan(text).edits, 'refanged');
}

// `**bold**` markdown, sentence punctuation and quotes that end a URL in prose.
const TRAILING = new Set(['.', ',', ';', ':', '!', '?', "'", '"', '*']);

function renderRange(text: string, edits: readonly Edit[], first: number, start: number, end: number): string {
  let out = '';
  let pos = start;
  for (let k = first; k < edits.length; k++) {
    const edit = edits[k];
    if (edit === undefined || edit.start >= end) break;
    if (edit.start < start || edit.refanged === null) continue;
    out += text.slice(pos, edit.start) + edit.refanged;
    pos = edit.end;
  }
  return out + text.slice(pos, end);
}

function isHttpUrl(candidate: string): boolean {
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
 * parses as a WHATWG URL. The text of each URL is kept as written (no normalisation).
 *
 * @example
 * extractUrls('Payload at hxxp://evil[.]com/a.exe, mirror hxxps[://]evil2[.]net/b.');
 * // ['http://evil.com/a.exe', 'https://evil2.net/b']
 */
export function extractUrls(text: string): string[] {
  const { edits, urls } = scan(text);
  const found: string[] = [];
  const seen = new Set<string>();
  let first = 0;
  for (const token of urls) {
    if (token.scheme !== 'http' && token.scheme !== 'https') continue;
    while (first < edits.length && (edits[first]?.start ?? Infinity) < token.start) first++;
    const head = renderRange(text, edits, first, token.start, token.authorityEnd);
    let tail = renderRange(text, edits, first, token.authorityEnd, token.end);
    let cut = tail.length;
    while (cut > 0 && TRAILING.has(tail.charAt(cut - 1))) cut--;
    tail = tail.slice(0, cut);
    const candidate = head + tail;
    if (seen.has(candidate) || !isHttpUrl(candidate)) continue;
    seen.add(candidate);
    found.push(candidate);
  }
  return found;
}
