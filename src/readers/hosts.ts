/**
 * Whether a link's shown text lies about where it goes: the hosts the text names and the
 * registrable domain of each (the Public Suffix List, through tldts), against the target's.
 */
import { parse } from 'tldts';

import { extractUrls, refang } from '../fang';

/** Top-level names reserved for documentation and tests (RFC 2606, RFC 6761): domains all the same. */
const RESERVED_TLDS = new Set(['example', 'test', 'invalid', 'localhost']);

/**
 * A domain-like word: labels of letters, digits and hyphens joined by dots, ending in a
 * label that starts with a letter. Unicode letters count (IDN shown as written).
 */
const DOMAIN_WORD = /(?<![\p{L}\p{N}_.-])(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,62}[\p{L}\p{N}])?\.)+\p{L}[\p{L}\p{N}-]{0,62}(?![\p{L}\p{N}_-])/gu;

/** DOMAIN_WORD for ASCII text, which most shown text is: the same words, without Unicode classes' cost. */
const ASCII_DOMAIN_WORD = /(?<![\w.-])(?:[\da-z](?:[\da-z-]{0,62}[\da-z])?\.)+[a-z][\da-z-]{0,62}(?![\w-])/gi;

/** An IPv4 address written as a word. */
const IPV4_WORD = /(?<![\d.])(?:\d{1,3}\.){3}\d{1,3}(?![\d.])/g;

/** The host as a URL parser reads it (lower case, IDN as punycode), or null when it is none. */
function asHost(word: string): string | null {
  try {
    const { hostname } = new URL(`http://${word}/`);
    return hostname === '' ? null : hostname;
  } catch {
    return null;
  }
}

/**
 * What a host is judged by: its registrable domain ("a.b.co.uk" -> "b.co.uk"), or the host
 * itself for an IP address or a name the list cannot split.
 */
export function registrableDomain(host: string): string {
  const parsed = parse(host, { extractHostname: false });
  return parsed.domain ?? host;
}

/** Whether a word the text shows is a domain name: its suffix is a public one (or reserved for examples). */
function isDomainName(host: string): boolean {
  const parsed = parse(host, { extractHostname: false });
  if (parsed.isIp === true) return true;
  if (parsed.domain === null || parsed.publicSuffix === null) return false;
  return parsed.isIcann === true || parsed.isPrivate === true || RESERVED_TLDS.has(parsed.publicSuffix);
}

/**
 * The hosts a link's shown text names: those of the URLs in it (defanged too), and the
 * words that are domain names ("www.paypal.com", "paypal.com/signin") or IPv4 addresses.
 * Prose ("Review invoice") names none.
 */
export function hostsNamed(shown: string): string[] {
  // A host has a dot, written or defanged ("[.]", "[dot]", "。"); most shown texts have none.
  if (!/[.\u3002\uff0e\uff61]|dot/i.test(shown)) return [];
  const text = refang(shown);
  const hosts = new Set<string>();
  for (const url of extractUrls(text)) {
    const host = asHost(new URL(url).host);
    if (host !== null) hosts.add(host);
  }
  // eslint-disable-next-line no-control-regex -- ASCII is exactly U+0000 to U+007F
  const words = /^[\u0000-\u007f]*$/.test(text) ? ASCII_DOMAIN_WORD : DOMAIN_WORD;
  for (const pattern of [words, IPV4_WORD]) {
    for (const match of text.matchAll(pattern)) {
      const host = asHost(match[0]);
      if (host !== null && isDomainName(host)) hosts.add(host);
    }
  }
  return [...hosts];
}

/**
 * Whether `shown` names a host and none of the hosts it names shares the target's
 * registrable domain: "www.paypal.com" over `https://paypa1-login.example/` is a mismatch,
 * "login.acme.example" over `https://acme.example/` is not, "Click here" never is.
 */
export function isMismatch(shown: string | null, targetHost: string | null): boolean {
  if (shown === null || targetHost === null) return false;
  const named = hostsNamed(shown);
  if (named.length === 0) return false;
  const target = registrableDomain(targetHost);
  return !named.some((host) => registrableDomain(host) === target);
}
