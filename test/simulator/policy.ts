/**
 * Policy entries: value checks for the types the spec lists, and what a launched
 * session makes of them (ribbon colours and message, browser chrome).
 *
 * Decisions where the spec's table is loose:
 * - single-valued types (readonly, file_transfer, ad_block, browser_chrome, the two
 *   colours, ribbon_message) take exactly one param; clipboard, domain_allow and
 *   domain_block take one or more;
 * - a colour is `#rgb`, `#rgba`, `#rrggbb` or `#rrggbbaa`, the `#` optional;
 * - ribbon_message is at most 100 characters, counted as Unicode code points;
 * - a domain is a host name or address without scheme, port, path or spaces, with an
 *   optional leading `*.`;
 * - when a single-valued type is given more than once, the last entry wins.
 */
import { POLICY_TYPES, RIBBON_MESSAGE_MAX } from './spec-names';

export interface PolicyEntry {
  type: string;
  params: string[];
}

const P = POLICY_TYPES;

const COLOUR = /^#?(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;
const DOMAIN = /^(?:\*\.)?\w(?:[\w-]*\w)?(?:\.\w(?:[\w-]*\w)?)*\.?$/;

function oneOf(type: string, allowed: readonly string[]) {
  return (params: readonly string[]): string | null =>
    params.length === 1 && allowed.includes(params[0] ?? '')
      ? null
      : `policy ${type}: params must be exactly one of ${allowed.join(', ')}`;
}

function someOf(type: string, allowed: readonly string[]) {
  return (params: readonly string[]): string | null =>
    params.length >= 1 && params.every((p) => allowed.includes(p))
      ? null
      : `policy ${type}: params must be one or more of ${allowed.join(', ')}`;
}

function domains(type: string) {
  return (params: readonly string[]): string | null => {
    if (params.length === 0) return `policy ${type}: params must list at least one domain`;
    const bad = params.find((p) => !DOMAIN.test(p));
    return bad === undefined ? null : `policy ${type}: not a domain: ${JSON.stringify(bad)}`;
  };
}

function colour(type: string) {
  return (params: readonly string[]): string | null =>
    params.length === 1 && COLOUR.test(params[0] ?? '')
      ? null
      : `policy ${type}: params must be exactly one hex colour such as #1e40af`;
}

const CHECKS: ReadonlyMap<string, (params: readonly string[]) => string | null> = new Map([
  [P.readonly, oneOf(P.readonly, ['true', 'false'])],
  [P.fileTransfer, oneOf(P.fileTransfer, ['block_all', 'allow_all'])],
  [P.clipboard, someOf(P.clipboard, ['block_all', 'allow_all', 'allow_to_local', 'block_to_silo'])],
  [P.adBlock, oneOf(P.adBlock, ['enable', 'disable'])],
  [P.browserChrome, oneOf(P.browserChrome, ['standard', 'seamless', 'minimal'])],
  [P.domainAllow, domains(P.domainAllow)],
  [P.domainBlock, domains(P.domainBlock)],
  [P.ribbonBackground, colour(P.ribbonBackground)],
  [P.ribbonText, colour(P.ribbonText)],
  [
    P.ribbonMessage,
    (params: readonly string[]) =>
      params.length === 1 && [...(params[0] ?? '')].length <= RIBBON_MESSAGE_MAX
        ? null
        : `policy ${P.ribbonMessage}: params must be exactly one message of at most ${RIBBON_MESSAGE_MAX} characters`,
  ],
]);

/** The problem with one entry of a known type, or null. Unknown types are accepted. */
export function checkPolicyEntry(entry: PolicyEntry): string | null {
  const check = CHECKS.get(entry.type);
  return check ? check(entry.params) : null;
}

/** The last single param given for a type, or undefined. */
export function lastParam(policy: readonly PolicyEntry[], type: string): string | undefined {
  let value: string | undefined;
  for (const entry of policy) if (entry.type === type && entry.params.length > 0) value = entry.params[0];
  return value;
}

/** `#` plus the hex digits of an accepted colour. */
export function normaliseColour(value: string): string {
  return value.startsWith('#') ? value.toLowerCase() : `#${value.toLowerCase()}`;
}

export const DEFAULT_RIBBON = {
  background: '#1f2937',
  text: '#f9fafb',
  message: 'Isolated session',
} as const;

export type BrowserChrome = 'standard' | 'seamless' | 'minimal';

/** The chrome a session gets: catchall users are always forced to minimal (spec rule). */
export function effectiveChrome(policy: readonly PolicyEntry[], catchall: boolean): BrowserChrome {
  if (catchall) return 'minimal';
  const chosen = lastParam(policy, P.browserChrome);
  return chosen === 'seamless' || chosen === 'minimal' ? chosen : 'standard';
}

export interface Ribbon {
  background: string;
  text: string;
  message: string;
}

export function ribbonOf(policy: readonly PolicyEntry[]): Ribbon {
  const background = lastParam(policy, P.ribbonBackground);
  const text = lastParam(policy, P.ribbonText);
  return {
    background: background !== undefined && COLOUR.test(background) ? normaliseColour(background) : DEFAULT_RIBBON.background,
    text: text !== undefined && COLOUR.test(text) ? normaliseColour(text) : DEFAULT_RIBBON.text,
    message: lastParam(policy, P.ribbonMessage) ?? DEFAULT_RIBBON.message,
  };
}
