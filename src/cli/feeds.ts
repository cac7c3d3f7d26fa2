/**
 * The URLs in what `isolink bulk` reads: plain text (a report, a list), CSV (a cell ends
 * at its comma), or a STIX 2.1 bundle (the URLs of `indicator` patterns
 * `[url:value = '…']` and of `url` observables, nothing else: not descriptions, not
 * external references). URLs are found defanged or not and returned refanged, in order;
 * checking and unwrapping are the resolver's (src/resolve).
 */
import * as z from 'zod/mini';

import { extractUrls } from '../fang';
import { CliError } from './problems';

export const FEED_FORMATS = ['auto', 'text', 'csv', 'stix'] as const;
export type FeedFormat = (typeof FEED_FORMATS)[number];

export function isFeedFormat(value: string): value is FeedFormat {
  return (FEED_FORMATS as readonly string[]).includes(value);
}

const stixObject = z.looseObject({
  type: z.string(),
  pattern: z.optional(z.string()),
  pattern_type: z.optional(z.string()),
  value: z.optional(z.string()),
});
const stixBundle = z.looseObject({ type: z.literal('bundle'), objects: z.optional(z.array(stixObject)) });

/** `url:value = '…'` in a STIX pattern (any spacing); the literal with its `\'` and `\\` escapes. */
const URL_COMPARISON = /\burl:value\s*=\s*'((?:[^'\\]|\\.)*)'/g;

/** The URLs a STIX pattern compares `url:value` with (=), unescaped. */
export function urlsInPattern(pattern: string): string[] {
  const found: string[] = [];
  for (const match of pattern.matchAll(URL_COMPARISON)) found.push((match[1] ?? '').replace(/\\(.)/g, '$1'));
  return found;
}

/** The URLs of a STIX 2.1 bundle, in the order of its objects. */
export function urlsInStix(text: string, source: string): string[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new CliError('inputInvalid', source, 'not JSON, so not a STIX bundle');
  }
  const parsed = stixBundle.safeParse(value);
  if (!parsed.success) throw new CliError('inputInvalid', source, 'not a STIX 2.1 bundle (no "type": "bundle" with a list of objects)');
  const found: string[] = [];
  for (const object of parsed.data.objects ?? []) {
    if (object.type === 'indicator' && object.pattern !== undefined && (object.pattern_type ?? 'stix') === 'stix') {
      found.push(...urlsInPattern(object.pattern));
    } else if (object.type === 'url' && object.value !== undefined) {
      found.push(object.value);
    }
  }
  // A value may itself be defanged; it is one URL either way.
  return found.map((url) => extractUrls(url)[0] ?? url);
}

/** The cells of CSV text (RFC 4180: quoted cells may hold commas, quotes doubled, line breaks). */
export function csvCells(text: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charAt(i);
    if (quoted) {
      if (c === '"' && text.charAt(i + 1) === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"' && cell.trim() === '') {
      quoted = true;
      cell = '';
    } else if (c === ',' || c === '\n' || c === '\r') {
      cells.push(cell);
      cell = '';
    } else cell += c;
  }
  cells.push(cell);
  return cells.filter((value) => value.trim() !== '');
}

/** Commas outside quotes on one line. */
function commasIn(line: string): number {
  let count = 0;
  let quoted = false;
  for (const c of line) {
    if (c === '"') quoted = !quoted;
    else if (c === ',' && !quoted) count++;
  }
  return count;
}

/**
 * The format of an input when none is given: a JSON bundle is STIX; a `.csv` file, or text
 * whose first lines (up to 20) all have the same number of commas outside quotes, is CSV;
 * anything else is text.
 */
export function detectFormat(text: string, source: string): Exclude<FeedFormat, 'auto'> {
  const start = text.trimStart();
  if (start.startsWith('{') && /"type"\s*:\s*"bundle"/.test(start.slice(0, 4096))) return 'stix';
  if (source.toLowerCase().endsWith('.csv')) return 'csv';
  if (source.toLowerCase().endsWith('.json')) return 'stix';
  const lines = text
    .split(/\r?\n/, 21)
    .filter((line) => line.trim() !== '')
    .slice(0, 20);
  const first = lines[0];
  if (first === undefined) return 'text';
  const commas = commasIn(first);
  return commas > 0 && lines.every((line) => commasIn(line) === commas) ? 'csv' : 'text';
}

/** Every URL in one input, refanged, in order (repeats kept: the resolver drops them). */
export function urlsInFeed(text: string, source: string, format: FeedFormat): string[] {
  const chosen = format === 'auto' ? detectFormat(text, source) : format;
  if (chosen === 'stix') return urlsInStix(text, source);
  if (chosen === 'csv') return csvCells(text).flatMap((cell) => extractUrls(cell));
  return extractUrls(text);
}
