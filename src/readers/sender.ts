/**
 * The sender's story of a reported mail, read from its headers: who it claims to be from
 * (and whether the display name claims another address or domain), where replies and
 * bounces would go, what the receiving side's checks said (SPF, DKIM, DMARC and Microsoft's
 * compauth, from the topmost Authentication-Results), and the hop where the mail entered
 * the receiving side. A sender writes most headers: the verdicts and the Received hops above
 * the boundary are the receiver's word, the rest is the sender's claim.
 */
import { addressParser } from 'postal-mime';

import { parseCidr, cidrContains, parseIp, unmapIpv4 } from '../net/ip';
import { unicodeHost } from '../net/punycode';

import { fixC1 } from './charset';
import { hostsNamed, registrableDomain } from './hosts';
import type { Letter, MailHeader } from './letter';
import { AUTH_METHODS, type AuthMethod, type AuthVerdicts } from './auth-methods';
import { rewriteWords } from './words';

/** An address of the story: the name shown, the address, its domain in ASCII and, for an IDN, in Unicode. */
export interface MailAddress {
  /** The display name, decoded; null when there is none. */
  readonly name: string | null;
  /** The address as written (local part and domain). */
  readonly address: string;
  /** The domain, lower case, IDN in punycode (`xn--…`); null when the address has none. */
  readonly domain: string | null;
  /** The domain in Unicode when it is an IDN (shown beside `domain`), else null. */
  readonly unicodeDomain: string | null;
}

/** A Received hop: the host that handed the mail over (its name and address as the receiver saw them), the receiver, when. */
export interface ReceivedHop {
  readonly from: string | null;
  readonly ip: string | null;
  readonly by: string | null;
  /** ISO 8601 when the date could be read, else as written; null when absent. */
  readonly date: string | null;
}

/** What a reader of the story should look at twice. */
export type SenderWarning = 'nameHoldsAddress' | 'nameHoldsDomain' | 'replyToDomain' | 'returnPathDomain';

/** The sender's story of one message. */
export interface SenderStory {
  readonly from: MailAddress | null;
  /** The first Reply-To address; null when there is none. */
  readonly replyTo: MailAddress | null;
  /** The Return-Path (where bounces go: the SMTP envelope sender); null when absent or null (`<>`). */
  readonly returnPath: MailAddress | null;
  readonly auth: AuthVerdicts;
  /** Who wrote the verdicts (the authserv-id); null when the header names nobody, as Microsoft 365 writes it. */
  readonly authBy: string | null;
  /** The hop where the mail entered the receiving side; null when no Received header shows one. */
  readonly received: ReceivedHop | null;
  readonly warnings: readonly SenderWarning[];
}

const NO_VERDICTS: AuthVerdicts = { spf: null, dkim: null, dmarc: null, compauth: null };

/** The domain of an address in the URL parser's form (lower case, punycode), or null. */
function domainOf(address: string): string | null {
  const at = address.lastIndexOf('@');
  if (at < 0 || at === address.length - 1) return null;
  const domain = address.slice(at + 1).replace(/^\[|\]$/g, '');
  try {
    const { hostname } = new URL(`http://${domain}/`);
    return hostname === '' ? null : hostname.replace(/^\[|\]$/g, '');
  } catch {
    return null;
  }
}

function mailAddress(name: string | undefined, address: string | undefined): MailAddress | null {
  const at = (address ?? '').trim();
  if (at === '') return null;
  const domain = domainOf(at);
  const shown = fixC1((name ?? '').trim());
  return { name: shown === '' ? null : shown, address: at, domain, unicodeDomain: domain === null ? null : unicodeHost(domain) };
}

/** The first mailbox of an address header (the first member of a group). */
function firstAddress(value: string | undefined): MailAddress | null {
  if (value === undefined || value.trim() === '') return null;
  // Words in UTF-7 and other charsets TextDecoder refuses are decoded first (./words), as the From of ./mime is.
  for (const entry of addressParser(rewriteWords(value).value)) {
    if ('group' in entry && entry.group !== undefined) {
      const member = entry.group[0];
      if (member !== undefined) return mailAddress(member.name, member.address);
      continue;
    }
    return mailAddress(entry.name, entry.address);
  }
  return null;
}

function header(headers: readonly MailHeader[], key: string): string | undefined {
  return headers.find((field) => field.key === key)?.value;
}

/** Text without its RFC 5322 comments (parenthesised, nested, with quoted pairs), quoted strings kept. */
export function withoutComments(text: string): string {
  let out = '';
  let depth = 0;
  let quoted = false;
  for (let index = 0; index < text.length; index++) {
    const char = text.charAt(index);
    if (char === '\\') {
      if (depth === 0) out += text.slice(index, index + 2);
      index++;
      continue;
    }
    if (quoted) {
      out += char;
      if (char === '"') quoted = false;
      continue;
    }
    if (char === '(') depth++;
    else if (char === ')' && depth > 0) depth--;
    else if (depth === 0) {
      if (char === '"') quoted = true;
      out += char;
    }
  }
  return out;
}

/** One result of Authentication-Results: `method[/version]=result`. */
const RESULT = /^([a-z][\w-]*)\s*(?:\/\s*\d+\s*)?=\s*([a-z][\w-]*)/i;

/**
 * The verdicts of one Authentication-Results value (RFC 8601), and who wrote them. Reads
 * the standard form (`mx.example; spf=pass …; dkim=pass …`) and the one Microsoft 365
 * writes without the authserv-id (`spf=pass (sender IP is …) smtp.mailfrom=…; dkim=none …;
 * dmarc=none action=none …;compauth=fail reason=001`). Several DKIM results: `pass` when
 * any signature passed, else the first; for the other checks the first result counts.
 */
export function readAuthResults(value: string): { readonly by: string | null; readonly verdicts: AuthVerdicts } {
  const parts = withoutComments(value)
    .split(';')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  let by: string | null = null;
  const first = parts[0];
  if (first !== undefined && !RESULT.test(first)) {
    by = first.split(/\s+/)[0] ?? null;
    parts.shift();
  }
  const verdicts: Record<AuthMethod, string | null> = { ...NO_VERDICTS };
  for (const part of parts) {
    const match = RESULT.exec(part);
    if (match === null) continue;
    const method = (match[1] ?? '').toLowerCase();
    const result = (match[2] ?? '').toLowerCase();
    if (!(AUTH_METHODS as readonly string[]).includes(method)) continue;
    const key = method as AuthMethod;
    if (verdicts[key] === null || (key === 'dkim' && result === 'pass')) verdicts[key] = result;
  }
  return { by, verdicts };
}

/** Addresses that never belong to the open Internet: a hop from one of them is inside somebody's network. */
const INTERNAL = [
  '0.0.0.0/8',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.168.0.0/16',
  '::1/128',
  'fc00::/7',
  'fe80::/10',
]
  .map((cidr) => parseCidr(cidr))
  .filter((cidr) => cidr !== null);

function isInternal(ip: string): boolean {
  const parsed = parseIp(ip);
  if (parsed === null) return true;
  const address = unmapIpv4(parsed);
  return INTERNAL.some((cidr) => cidrContains(cidr, address));
}

/** Address literals in a Received header: `[192.0.2.1]`, `[IPv6:2001:db8::1]`, `(198.51.100.23)` as Exchange writes them, or bare. */
const ADDRESS_LITERAL = /\[(?:ipv6:)?([\d.:a-f]{2,45})\]|\(([\d.:a-f]{2,45})\)|(?<![\w.:])((?:\d{1,3}\.){3}\d{1,3})(?![\w.:])/gi;

/** The first address literal of the text that is an IP address. */
function firstIp(text: string): string | null {
  for (const match of text.matchAll(ADDRESS_LITERAL)) {
    const literal = match[1] ?? match[2] ?? match[3];
    if (literal !== undefined && parseIp(literal) !== null) return literal;
  }
  return null;
}

function isoDate(text: string): string | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  const time = Date.parse(trimmed);
  return Number.isNaN(time) ? trimmed : new Date(time).toISOString();
}

/** One Received header (RFC 5321 trace): `from <host> (<comments>) by <host> … ; <date>`. */
export function readReceived(value: string): ReceivedHop {
  const semicolon = value.lastIndexOf(';');
  const trace = semicolon < 0 ? value : value.slice(0, semicolon);
  const byAt = trace.search(/(?:^|\s)by\s/i);
  const fromPart = /^\s*from\s/i.test(trace) ? (byAt < 0 ? trace : trace.slice(0, byAt)) : '';
  const ip = firstIp(fromPart);
  return {
    from: /^\s*from\s+([^\s()[\];]+)/i.exec(fromPart)?.[1] ?? null,
    ip,
    by: byAt < 0 ? null : (/^\s*by\s+([^\s()[\];]+)/i.exec(trace.slice(byAt))?.[1] ?? null),
    date: semicolon < 0 ? null : isoDate(value.slice(semicolon + 1)),
  };
}

function siteOf(host: string | null): string | null {
  if (host === null || host.startsWith('[')) return null;
  return registrableDomain(host.toLowerCase());
}

/**
 * The hop where the mail entered the receiving side: read from the top (the receiver's own
 * hops, which a sender cannot forge, come first), the first whose sending host is outside:
 * a public address, and a domain other than the receiving host's (so a provider's own
 * internal hops, on public addresses, are passed over). Hops a sender wrote below it are
 * never reached.
 */
export function enteringHop(headers: readonly MailHeader[]): ReceivedHop | null {
  for (const field of headers) {
    if (field.key !== 'received') continue;
    const hop = readReceived(field.value);
    if (hop.ip === null || isInternal(hop.ip)) continue;
    const from = siteOf(hop.from);
    if (from !== null && from === siteOf(hop.by)) continue;
    return hop;
  }
  return null;
}

/** An address written in a display name (`"security@paypal.com" <x@evil.example>`). */
const ADDRESS_IN_NAME = /(?<![^\s"'(),:;<>@])[^\s"'(),:;<>@]+@[^\s"'(),:;<>@]+\.[^\s"'(),:;<>@]+/;

function differs(domain: string | null, from: string | null): boolean {
  return domain !== null && from !== null && registrableDomain(domain) !== registrableDomain(from);
}

function warningsOf(from: MailAddress | null, replyTo: MailAddress | null, returnPath: MailAddress | null): SenderWarning[] {
  const warnings: SenderWarning[] = [];
  if (from?.name != null && from.domain !== null) {
    const inName = ADDRESS_IN_NAME.exec(from.name);
    if (inName !== null) {
      if (differs(domainOf(inName[0]), from.domain)) warnings.push('nameHoldsAddress');
    } else if (hostsNamed(from.name).some((host) => differs(host, from.domain))) warnings.push('nameHoldsDomain');
  }
  if (differs(replyTo?.domain ?? null, from?.domain ?? null)) warnings.push('replyToDomain');
  if (differs(returnPath?.domain ?? null, from?.domain ?? null)) warnings.push('returnPathDomain');
  return warnings;
}

/** Who a message says it is from: its From header, or for a .msg without transport headers the sender it records. */
export function fromAddress(letter: Letter): MailAddress | null {
  return firstAddress(header(letter.headers, 'from')) ?? firstAddress(letter.from ?? undefined);
}

/**
 * The story of one message. The From is the header's (or, for a .msg without transport
 * headers, the sender the message records); Reply-To and Return-Path are always given,
 * with a warning where their registrable domain differs from the From's.
 */
export function senderStory(letter: Letter): SenderStory {
  const { headers } = letter;
  const from = fromAddress(letter);
  const replyTo = firstAddress(header(headers, 'reply-to'));
  const returnPath = firstAddress(header(headers, 'return-path'));
  const results = header(headers, 'authentication-results');
  const auth = results === undefined ? { by: null, verdicts: NO_VERDICTS } : readAuthResults(results);
  return {
    from,
    replyTo,
    returnPath,
    auth: auth.verdicts,
    authBy: auth.by,
    received: enteringHop(headers),
    warnings: warningsOf(from, replyTo, returnPath),
  };
}
