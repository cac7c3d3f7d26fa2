/**
 * Target and launch URL checks. Every URL here is attacker-chosen: parsed with the
 * WHATWG URL parser only, never with prefix checks.
 */
import { isLoopbackHost } from './ip';

/** Longest target URL accepted. Real phishing links run to a few kB; 100 kB ones are abuse. */
export const MAX_URL_LENGTH = 16 * 1024;

export type UrlCheck = { readonly ok: true; readonly url: URL } | { readonly ok: false; readonly reason: string };

/**
 * Accepts only absolute http(s) URLs with a host. Refuses `javascript:`, `data:`,
 * `file:`, `blob:`, `about:`, browser-internal schemes, relative and schemeless text.
 */
export function checkTargetUrl(text: string): UrlCheck {
  if (text.length > MAX_URL_LENGTH) return { ok: false, reason: `is longer than ${MAX_URL_LENGTH} characters` };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, reason: 'is not an absolute URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { ok: false, reason: `uses the ${url.protocol.slice(0, 20)} scheme; only http and https links can be isolated` };
  }
  if (url.hostname.length === 0) return { ok: false, reason: 'has no host' };
  return { ok: true, url };
}

/**
 * The host-permission match pattern for an origin, without its port: Firefox patterns
 * cannot carry one, and Chrome's portless pattern covers every port.
 */
export function hostPatternOf(origin: string): string {
  const url = new URL(origin);
  return `${url.protocol}//${url.hostname}/*`;
}

/**
 * Checks a service base URL or launch base: https, or http on a loopback host (the
 * bundled simulator); no userinfo, query or fragment. Returns the URL without a
 * trailing slash, so endpoint paths can be appended.
 */
export function checkServiceBase(text: string): { readonly ok: true; readonly base: string } | { readonly ok: false; readonly reason: string } {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, reason: 'is not an absolute URL' };
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname))) {
    return { ok: false, reason: 'must use https (http is allowed only on 127.0.0.1, ::1 or localhost)' };
  }
  if (url.username || url.password) return { ok: false, reason: 'must not contain a user name or password' };
  if (url.search || url.hash) return { ok: false, reason: 'must not contain a query or fragment' };
  let base = url.href;
  while (base.endsWith('/')) base = base.slice(0, -1);
  return { ok: true, base };
}
