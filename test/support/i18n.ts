/**
 * Gives the fake browser the real English messages, so UI tests see the strings a user
 * sees. Call installMessages() in a beforeEach (fakeBrowser.reset() clears it).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fakeBrowser } from 'wxt/testing/fake-browser';

type Messages = Record<string, { message: string }>;

// A path, not new URL(…, import.meta.url): under happy-dom Vite rewrites such URLs to http:.
const english = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../public/_locales/en/messages.json'), 'utf8')) as Messages;

/** Formats a message as browser.i18n does for $1..$9 substitutions. */
export function format(key: string, substitutions?: string | string[]): string {
  const entry = english[key];
  if (!entry) return '';
  const subs = substitutions === undefined ? [] : Array.isArray(substitutions) ? substitutions : [substitutions];
  return entry.message.replace(/\$(\d)/g, (_, n: string) => subs[Number(n) - 1] ?? '');
}

export function installMessages(): void {
  (fakeBrowser.i18n as { getMessage: (key: string, subs?: string | string[]) => string }).getMessage = format;
}
