/**
 * User-visible text: every string comes from public/_locales through browser.i18n.
 * Keys are typed from messages.json (WXT generates the types), so a missing key fails
 * the type check.
 */
import { browser } from 'wxt/browser';

export type MessageKey = Exclude<Parameters<typeof browser.i18n.getMessage>[0], `@@${string}`>;

/** The message for `key`, with $1.. substitutions; the key itself if the browser has none (visible in tests). */
export function t(key: MessageKey, substitutions?: string | string[]): string {
  const message = browser.i18n.getMessage(key, substitutions);
  return message === '' ? key : message;
}
