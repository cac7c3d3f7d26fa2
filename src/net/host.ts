import { parseIpv4 } from './ip';

/** Longest DNS name, in ASCII (punycode) form, without the trailing dot. */
const MAX_HOSTNAME_LENGTH = 253;

const FORBIDDEN_IN_HOST = new Set([...'/\\?#@:%[] \t\r\n<>^|"\'`{}']);

function isLdhLabel(label: string): boolean {
  if (label.length === 0 || label.length > 63) return false;
  if (label.startsWith('-') || label.endsWith('-')) return false;
  for (const ch of label) {
    const code = ch.charCodeAt(0);
    const ok = (code >= 97 && code <= 122) || (code >= 48 && code <= 57) || code === 45;
    if (!ok) return false;
  }
  return true;
}

/**
 * Normalises a DNS host name or IPv4 address as a browser would see it: lower case,
 * IDN labels in punycode (`пример.рф` -> `xn--e1afmkfd.xn--p1ai`), no trailing dot.
 * Returns null for anything that is not a plain host name (a URL, userinfo, a port,
 * spaces, an empty label, a label over 63 or a name over 253 characters).
 */
export function normalizeHostname(input: string): string | null {
  if (input.length === 0 || input.length > 1024) return null;
  for (const ch of input) {
    if (FORBIDDEN_IN_HOST.has(ch) || ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f) return null;
  }
  let hostname: string;
  try {
    hostname = new URL(`http://${input}/`).hostname;
  } catch {
    return null;
  }
  if (hostname.endsWith('.')) hostname = hostname.slice(0, -1);
  if (hostname.length === 0 || hostname.length > MAX_HOSTNAME_LENGTH) return null;
  if (parseIpv4(hostname)) return hostname;
  return hostname.split('.').every(isLdhLabel) ? hostname : null;
}

/** True for a fully qualified domain name: a valid host name with at least two labels, not an IP. */
export function isFqdn(input: string): boolean {
  const host = normalizeHostname(input);
  return host !== null && host.includes('.') && parseIpv4(host) === null;
}
