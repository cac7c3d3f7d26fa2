/**
 * IPv6 addresses: in brackets as a URL's host, and defanged in prose
 * (`2001[:]db8[:][:]1`), where an address must be valid once refanged.
 */
import { COLON, DOT, HYPHEN, isCloseBracket, isHexDigit, isOpenBracket, RIGHT_SQUARE, UNDERSCORE } from './chars';
import {
  count,
  edit,
  failIpv6,
  ipv6FailEnd,
  isWordCharBefore,
  KEEP,
  labelCharLength,
  lastEditStart,
  n,
  rollback,
  text,
  TO_BRACKETED_DOT,
  TO_COLON,
  TO_DOT,
} from './state';

/** Second results of scanIpv6Run: colons in the run, and whether one of them is bracketed (`[:]`). */
let ipv6Colons = 0;
let ipv6Marked = false;

export function ipv6Start(i: number, c: number): boolean {
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
    // Dots are an IPv4 address's, which ends an IPv6 one and comes after two colons or
    // more: the run of a dotted number (`12.34.56[.]78`) ends at its first dot.
    if (ipv6Colons < 2 && (c === DOT || (d === DOT && isOpenBracket(c)))) break;
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
export function scanIpv6Literal(h: number): number {
  const mark = count;
  const end = scanIpv6Run(h + 1, true);
  if (ipv6Colons >= 2 && text.charCodeAt(end) === RIGHT_SQUARE) return end + 1;
  rollback(mark);
  return -1;
}

/** A defanged IPv6 address in prose (`2001[:]db8[:][:]1`); must be a valid address once refanged. */
export function tryBareIpv6(i: number): number {
  // Most runs (hex words, dotted numbers) fail: the edits are recorded for an address only.
  const runEnd = scanIpv6Run(i, false);
  // A dot at the end is the sentence's, not the address's.
  const end = runEnd > i && text.charCodeAt(runEnd - 1) === DOT ? runEnd - 1 : runEnd;
  if (ipv6Colons >= 2 && ipv6Marked && labelCharLength(runEnd) === 0 && isIpv6(text.slice(i, end).replace(/[([{]([.:])[)\]}]/g, '$1'))) {
    scanIpv6Run(i, true);
    if (end < runEnd && lastEditStart() === end) rollback(count - 1);
    return end;
  }
  failIpv6(runEnd);
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
