/**
 * A quick, conservative test for the common shape of an extracted URL, so that most
 * candidates need no trip through the URL parser (which costs more than finding them).
 */

function isAsciiAlpha(c: number): boolean {
  const lower = c | 0x20;
  return lower >= 0x61 && lower <= 0x7a;
}

function isHostLabelChar(c: number): boolean {
  return isAsciiAlpha(c) || (c >= 0x30 && c <= 0x39) || c === 0x2d;
}

/** Length of `http://` or `https://` (any case) at the start of s, or 0. */
function httpPrefixLength(s: string): number {
  if ((s.charCodeAt(0) | 0x20) !== 0x68 || (s.charCodeAt(1) | 0x20) !== 0x74 || (s.charCodeAt(2) | 0x20) !== 0x74 || (s.charCodeAt(3) | 0x20) !== 0x70) return 0;
  const secure = (s.charCodeAt(4) | 0x20) === 0x73 ? 1 : 0;
  const colon = 4 + secure;
  return s.charCodeAt(colon) === 0x3a && s.charCodeAt(colon + 1) === 0x2f && s.charCodeAt(colon + 2) === 0x2f ? colon + 3 : 0;
}

/**
 * True only when the WHATWG URL parser certainly reads s as an http(s) URL with a
 * non-empty host: `http://` or `https://` (any case), then a host of non-empty labels of
 * ASCII letters, digits and `-` joined by `.`, then the end of s or `/`, `?`, `#` (after
 * the host the parser rejects nothing). Excluded, because the parser may reject them: a
 * label starting `xn--` (IDNA decodes and checks it), a last label that does not start
 * with a letter (the host may then be read as an IPv4 address), a port, userinfo, and
 * anything else. False means "ask the parser", not "invalid".
 *
 * @example
 * isPlainHttpUrl('https://evil.example.com/a.php?x=1'); // true
 * isPlainHttpUrl('http://1.2.3.999/'); // false: the parser decides
 */
export function isPlainHttpUrl(s: string): boolean {
  let i = httpPrefixLength(s);
  if (i === 0) return false;
  let labelStart = i;
  for (;; i++) {
    const c = s.charCodeAt(i);
    if (isHostLabelChar(c)) continue;
    if (i === labelStart) return false;
    const xn = (s.charCodeAt(labelStart) | 0x20) === 0x78 && (s.charCodeAt(labelStart + 1) | 0x20) === 0x6e && s.charCodeAt(labelStart + 2) === 0x2d && s.charCodeAt(labelStart + 3) === 0x2d;
    if (xn) return false;
    if (c === 0x2e) {
      labelStart = i + 1;
      continue;
    }
    const hostEnds = i === s.length || c === 0x2f || c === 0x3f || c === 0x23;
    return hostEnds && isAsciiAlpha(s.charCodeAt(labelStart));
  }
}
