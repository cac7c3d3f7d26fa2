/**
 * The spec's enumerations and the pure checks of its value formats. No zod, and only
 * the pure host and IP checks of ../net: pages that check what they send with these
 * (the options page) stay small. ./params checks the same with zod in the client.
 */
import { parseIp } from '../net/ip';
import { isFqdn, normalizeHostname } from '../net/host';
import type { ValidationCode } from './errors';

/** The operating systems a research session's browser profile may present. */
export const BROWSER_OS = ['win', 'mac', 'linux', 'android', 'ios'] as const;
/** The browsers a research session's browser profile may present. */
export const BROWSER_NAMES = ['chrome', 'firefox', 'edge', 'safari', 'tor'] as const;
/** The proxy types the service takes. */
export const PROXY_TYPES = ['http', 'https', 'socks', 'socks4', 'socks5'] as const;
/** One of PROXY_TYPES. */
export type ProxyType = (typeof PROXY_TYPES)[number];
/** A proxy as sent: type and port always filled in. */
export interface Proxy {
  readonly name: string;
  readonly location: { readonly address: string; readonly port: number; readonly type: ProxyType };
}

/** Why prepareProxies warns about a proxy. */
export type ProxyWarningCode = 'https_certificate_name' | 'socks4_no_auth' | 'socks5_no_auth_chrome';

/** A warning about a proxy: English `message` for developers; as data, `code` and the proxy's name. */
export interface ProxyWarning {
  readonly proxy: string;
  readonly code: ProxyWarningCode;
  readonly message: string;
}

/** The port a proxy gets when none is given, by type. */
export const DEFAULT_PROXY_PORTS: Readonly<Record<ProxyType, number>> = {
  http: 80,
  https: 443,
  socks: 1080,
  socks4: 1080,
  socks5: 1080,
};

/** Longest list the client sends in one parameter (IPs, domains, proxies, names). */
export const MAX_LIST_LENGTH = 1000;
/** Longest name or id the client sends. */
export const MAX_NAME_LENGTH = 256;
/** Longest admin or file token accepted anywhere (the spec gives none: a decision): the settings, the messages, the client. */
export const MAX_TOKEN_LENGTH = 4096;

// ---- primitive checks -------------------------------------------------------

/** True for an IANA time zone name the runtime knows (`Europe/Berlin`, `UTC`); offsets are refused. */
export function isIanaTimeZone(value: string): boolean {
  if (value.length === 0 || value.length > 64) return false;
  const head = value.charCodeAt(0);
  const startsWithLetter = (head >= 65 && head <= 90) || (head >= 97 && head <= 122);
  if (!startsWithLetter) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

function isAlpha(ch: string): boolean {
  const code = ch.charCodeAt(0);
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

function isDigit(ch: string): boolean {
  const code = ch.charCodeAt(0);
  return code >= 48 && code <= 57;
}

function isLanguageRange(range: string): boolean {
  if (range === '*') return true;
  const parts = range.split('-');
  return parts.every((part, i) => part.length >= 1 && part.length <= 8 && [...part].every((ch) => isAlpha(ch) || (i > 0 && isDigit(ch))));
}

function isQValue(text: string): boolean {
  const [whole, fraction, ...extra] = text.split('.');
  if (extra.length > 0 || (fraction !== undefined && fraction.length > 3)) return false;
  if (whole === '0') return fraction === undefined || [...fraction].every(isDigit);
  if (whole === '1') return fraction === undefined || [...fraction].every((ch) => ch === '0');
  return false;
}

/** True for an Accept-Language header value (`en-US,en;q=0.9,*;q=0.1`). */
export function isAcceptLanguage(value: string): boolean {
  if (value.length === 0 || value.length > 512) return false;
  return value.split(',').every((item) => {
    const [range = '', weight, ...extra] = item.split(';').map((part) => part.trim());
    if (extra.length > 0 || !isLanguageRange(range)) return false;
    if (weight === undefined) return true;
    return weight.startsWith('q=') && isQValue(weight.slice(2));
  });
}

/** A category value spelling: lower-case words (`public`, `datacenter`, `isp`). */
export function isCategoryValue(value: string): boolean {
  return value.length >= 1 && value.length <= 64 && [...value].every((ch) => (ch >= 'a' && ch <= 'z') || isDigit(ch) || ch === '_' || ch === '-');
}

// ---- proxies ------------------------------------------------------------------

/** Why a value was refused: the field, its validation code (see ./errors) and the values the code's words hold. */
export interface ValueProblem {
  readonly field: string;
  readonly code: ValidationCode;
  readonly details: readonly string[];
}

/** A proxy as a form gives it: the port a number, or the text typed when it is not one; port and type optional. */
export interface ProxyDraft {
  readonly name: string;
  readonly location: { readonly address: string; readonly port?: number | string; readonly type?: string };
}

export function isProxyType(value: string): value is ProxyType {
  return (PROXY_TYPES as readonly string[]).includes(value);
}

/** The first problem of one proxy, in the order prepareProxies reports them. */
function proxyProblem({ name, location: { address, port, type } }: ProxyDraft, at: string): ValueProblem | undefined {
  const problem = (field: string, code: ValidationCode, ...details: string[]): ValueProblem => ({ field: `${at}.${field}`, code, details });
  if (name === '') return problem('name', 'empty');
  if (name.length > MAX_NAME_LENGTH) return problem('name', 'tooLong', String(MAX_NAME_LENGTH));
  if (parseIp(address) === null && !isFqdn(address)) return problem('location.address', 'notIpOrFqdn');
  if (typeof port === 'string') return problem('location.port', 'notNumber');
  if (port !== undefined && !Number.isInteger(port)) return problem('location.port', 'notInteger');
  if (port !== undefined && (port < 1 || port > 65535)) return problem('location.port', 'notPort');
  if (type !== undefined && !isProxyType(type)) return problem('location.type', 'notOneOf', PROXY_TYPES.join(', '));
  return undefined;
}

/** What to tell about a proxy of this type, if anything (the service accepts it). */
function proxyWarning(name: string, type: ProxyType): ProxyWarning | undefined {
  switch (type) {
    case 'https':
      return {
        proxy: name,
        code: 'https_certificate_name',
        message: `${name}: the address must equal the Common Name of the proxy's certificate, or users get ERR_PROXY_CERTIFICATE_INVALID.`,
      };
    case 'socks4':
      return { proxy: name, code: 'socks4_no_auth', message: `${name}: SOCKSv4 supports no proxy authentication.` };
    case 'socks5':
      return { proxy: name, code: 'socks5_no_auth_chrome', message: `${name}: SOCKSv5 supports no authentication in Chrome.` };
    default:
      return undefined;
  }
}

/**
 * Checks a proxy list as prepareProxies does: names required and unique, address an IP
 * or FQDN, port 1 to 65535 (by default the type's), type one of PROXY_TYPES (by default
 * http). Returns the list to send and the warnings to show, or the first problem.
 */
export function checkProxies(list: readonly ProxyDraft[], field = 'proxies'): { proxies: Proxy[]; warnings: ProxyWarning[] } | ValueProblem {
  if (list.length > MAX_LIST_LENGTH) return { field, code: 'tooMany', details: [String(MAX_LIST_LENGTH)] };
  for (const [i, draft] of list.entries()) {
    const problem = proxyProblem(draft, `${field}[${i}]`);
    if (problem !== undefined) return problem;
  }
  const seen = new Set<string>();
  const proxies: Proxy[] = [];
  const warnings: ProxyWarning[] = [];
  for (const [i, { name, location }] of list.entries()) {
    if (seen.has(name)) return { field: `${field}[${i}].name`, code: 'duplicateProxy', details: [JSON.stringify(name)] };
    seen.add(name);
    const type = location.type === undefined || !isProxyType(location.type) ? 'http' : location.type;
    const port = typeof location.port === 'number' ? location.port : DEFAULT_PROXY_PORTS[type];
    proxies.push({ name, location: { address: normalizeHostname(location.address) ?? location.address, port, type } });
    const warning = proxyWarning(name, type);
    if (warning !== undefined) warnings.push(warning);
  }
  return { proxies, warnings };
}
