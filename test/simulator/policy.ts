/**
 * What a launched session makes of its policy entries: the ribbon's colours and
 * message, and the browser chrome. Which entries are valid is src/policy's to say (the
 * service enforces the spec's table, which src/policy encodes); commands.ts checks them
 * with it before a context is stored.
 *
 * Decisions where the spec's table is loose:
 * - when a single-valued type is given more than once, the last entry wins;
 * - catchall users (or users of a catchall org) always get minimal chrome.
 */
import { POLICY_RULES, isHexColor, type KnownPolicyType, type PolicyEntry } from '../../src/policy';

/** The last single param given for a type, or undefined. */
export function lastParam(policy: readonly PolicyEntry[], type: KnownPolicyType): string | undefined {
  let value: string | undefined;
  for (const entry of policy) if (entry.type === type && entry.params.length > 0) value = entry.params[0];
  return value;
}

export const DEFAULT_RIBBON = {
  background: '#1f2937',
  text: '#f9fafb',
  message: 'Isolated session',
} as const;

const CHROME = POLICY_RULES.browser_chrome;
export type BrowserChrome = (typeof CHROME.values)[number];

/** The chrome a session gets: catchall users are always forced to minimal (spec rule). */
export function effectiveChrome(policy: readonly PolicyEntry[], catchall: boolean): BrowserChrome {
  if (catchall) return 'minimal';
  const chosen = lastParam(policy, 'browser_chrome');
  return CHROME.values.find((value) => value === chosen) ?? CHROME.defaultValue;
}

export interface Ribbon {
  background: string;
  text: string;
  message: string;
}

/** A colour for the page's style block: a valid hex colour in lower case, else the fallback. */
function colourOr(value: string | undefined, fallback: string): string {
  return value !== undefined && isHexColor(value) ? value.toLowerCase() : fallback;
}

export function ribbonOf(policy: readonly PolicyEntry[]): Ribbon {
  return {
    background: colourOr(lastParam(policy, 'ribbon_background_color'), DEFAULT_RIBBON.background),
    text: colourOr(lastParam(policy, 'ribbon_text_color'), DEFAULT_RIBBON.text),
    message: lastParam(policy, 'ribbon_message') ?? DEFAULT_RIBBON.message,
  };
}
