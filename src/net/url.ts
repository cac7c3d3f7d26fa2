/**
 * Target and launch URL checks. Every URL here is attacker-chosen: parsed with the
 * WHATWG URL parser only, never with prefix checks.
 */
import { isLoopbackHost } from './ip';
import { fillTemplate } from './template';

/** Longest target URL accepted. Real phishing links run to a few kB; 100 kB ones are abuse. */
export const MAX_URL_LENGTH = 16 * 1024;

/**
 * Why a target URL or a service base was refused: a stable code, English words for
 * developers (`reason`, which follows a field name: "url is not an absolute URL"), and
 * the values the words hold (`params`), so the extension can say it in the analyst's
 * language.
 */
// English words, for the library and the command; the extension says codes in the analyst's language (wxt.config.ts leaves these out of its worker).
export const URL_PROBLEMS = {
  urlTooLong: 'is longer than $1 characters',
  urlNotAbsolute: 'is not an absolute URL',
  urlScheme: 'uses the $1 scheme; only http and https links can be isolated',
  urlNoHost: 'has no host',
  baseNotHttps: 'must use https (http is allowed only on 127.0.0.1, ::1 or localhost)',
  baseUserinfo: 'must not contain a user name or password',
  baseQuery: 'must not contain a query or fragment',
} as const satisfies Record<string, string>;

export type UrlProblemCode = keyof typeof URL_PROBLEMS;
/** The codes checkTargetUrl answers with. */
export type TargetUrlProblemCode = 'urlTooLong' | 'urlNotAbsolute' | 'urlScheme' | 'urlNoHost';
/** The codes checkServiceBase answers with. */
export type ServiceBaseProblemCode = 'urlNotAbsolute' | 'baseNotHttps' | 'baseUserinfo' | 'baseQuery';

export interface UrlProblem<C extends UrlProblemCode = UrlProblemCode> {
  readonly ok: false;
  readonly code: C;
  /** The values `reason` holds, in order ($1, $2, ...). */
  readonly params: readonly string[];
  readonly reason: string;
}

function problem<C extends UrlProblemCode>(code: C, ...params: string[]): UrlProblem<C> {
  return { ok: false, code, params, reason: fillTemplate(URL_PROBLEMS[code], params) };
}

declare const CHECKED_URL: unique symbol;

/** A URL that passed checkTargetUrl: absolute http(s) with a host. Nothing else is isolated. */
export type CheckedUrl = URL & { readonly [CHECKED_URL]: true };

export type UrlCheck = { readonly ok: true; readonly url: CheckedUrl } | UrlProblem<TargetUrlProblemCode>;

/** Each URL checkTargetUrl accepted, with its href then: a URL changed since is no longer a checked one. */
const checked = new WeakMap<URL, string>();

/**
 * Whether value is a URL that checkTargetUrl returned, unchanged since: the proof a
 * later layer reads instead of checking the same URL again.
 */
export function isCheckedUrl(value: unknown): value is CheckedUrl {
  return value instanceof URL && checked.get(value) === value.href;
}

/**
 * Accepts only absolute http(s) URLs with a host. Refuses `javascript:`, `data:`,
 * `file:`, `blob:`, `about:`, browser-internal schemes, relative and schemeless text.
 */
export function checkTargetUrl(text: string): UrlCheck {
  if (text.length > MAX_URL_LENGTH) return problem('urlTooLong', String(MAX_URL_LENGTH));
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return problem('urlNotAbsolute');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return problem('urlScheme', url.protocol.slice(0, 20));
  if (url.hostname.length === 0) return problem('urlNoHost');
  checked.set(url, url.href);
  return { ok: true, url: url as CheckedUrl };
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
export function checkServiceBase(text: string): { readonly ok: true; readonly base: string } | UrlProblem<ServiceBaseProblemCode> {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return problem('urlNotAbsolute');
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname))) return problem('baseNotHttps');
  if (url.username || url.password) return problem('baseUserinfo');
  if (url.search || url.hash) return problem('baseQuery');
  let base = url.href;
  while (base.endsWith('/')) base = base.slice(0, -1);
  return { ok: true, base };
}
