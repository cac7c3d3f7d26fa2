/**
 * The spec's enumerations and the pure checks of its value formats. No zod and no
 * imports: pages that only need these (the popup) stay small.
 */

export const BROWSER_OS = ['win', 'mac', 'linux', 'android', 'ios'] as const;
export const BROWSER_NAMES = ['chrome', 'firefox', 'edge', 'safari', 'tor'] as const;
export const PROXY_TYPES = ['http', 'https', 'socks', 'socks4', 'socks5'] as const;
export type ProxyType = (typeof PROXY_TYPES)[number];
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

export function isDigit(ch: string): boolean {
  const code = ch.charCodeAt(0);
  return code >= 48 && code <= 57;
}

function isLanguageRange(range: string): boolean {
  if (range === '*') return true;
  const parts = range.split('-');
  return parts.every(
    (part, i) => part.length >= 1 && part.length <= 8 && [...part].every((ch) => isAlpha(ch) || (i > 0 && isDigit(ch))),
  );
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
