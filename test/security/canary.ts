/**
 * The token canary: a random token-shaped string used as the admin token, and every
 * form it could take on its way out (URL-encoded, form-encoded, JSON-escaped, base64 at
 * each byte alignment, UTF-16 on disk). A finder reports which form it saw, never the
 * canary itself.
 */
import { randomBytes } from 'node:crypto';

const BASE64URL = /[^\w-]/g;

function randomChars(count: number): string {
  return randomBytes(count * 2)
    .toString('base64')
    .replace(BASE64URL, '')
    .slice(0, count);
}

/**
 * A token of the standard base64 alphabet (with `+`, `/` and `=` padding), plus a
 * backslash and a tilde: with them, the URL-encoded, form-encoded and JSON-escaped forms
 * all differ from the plain one, so searching for each of them proves something.
 */
export function makeCanary(): string {
  return `${randomChars(18)}+${randomChars(9)}/${randomChars(9)}\\${randomChars(7)}~${randomChars(5)}==`;
}

export interface CanaryForm {
  readonly name: string;
  readonly text: string;
}

function base64Aligned(canary: string, urlSafe: boolean): CanaryForm[] {
  const bytes = Buffer.from(canary, 'utf8');
  const out: CanaryForm[] = [];
  for (let align = 0; align < 3; align += 1) {
    // The canary after `align` unknown bytes: skip the first group (it mixes in the
    // unknown bytes) unless aligned, and the last group (it may mix in what follows).
    const encoded = Buffer.concat([Buffer.alloc(align, 0x41), bytes]).toString(urlSafe ? 'base64url' : 'base64');
    const core = encoded.slice(align === 0 ? 0 : 4, encoded.length - 4);
    out.push({ name: `base64${urlSafe ? 'url' : ''}@${align}`, text: core });
  }
  return out;
}

/** Every textual form of the canary, deduplicated. */
export function canaryForms(canary: string): CanaryForm[] {
  const forms: CanaryForm[] = [
    { name: 'plain', text: canary },
    { name: 'url-encoded', text: encodeURIComponent(canary) },
    { name: 'form-encoded', text: new URLSearchParams({ t: canary }).toString().slice(2) },
    { name: 'json-escaped', text: JSON.stringify(canary).slice(1, -1) },
    { name: 'json-escaped twice', text: JSON.stringify(JSON.stringify(canary).slice(1, -1)).slice(1, -1) },
    ...base64Aligned(canary, false),
    ...base64Aligned(canary, true),
  ];
  const seen = new Set<string>();
  return forms.filter((form) => {
    if (seen.has(form.text)) return false;
    seen.add(form.text);
    return true;
  });
}

/** Windows of the plain canary: a truncated or partly redacted copy still shows. */
export function canaryWindows(canary: string, size = 16): CanaryForm[] {
  const out: CanaryForm[] = [];
  for (let start = 0; start + size <= canary.length; start += 4) out.push({ name: `slice ${start}..${start + size}`, text: canary.slice(start, start + size) });
  return out;
}

export interface Finder {
  /** The name of the first form found in `text`, or null. */
  inText(text: string): string | null;
  /** The name of the first form found in `bytes` (UTF-8 or UTF-16LE), or null. */
  inBytes(bytes: Buffer): string | null;
  readonly forms: readonly CanaryForm[];
}

export function canaryFinder(canary: string): Finder {
  const textForms = [...canaryForms(canary), ...canaryWindows(canary)];
  const plainWindows = canaryWindows(canary);
  // On disk: every form, in UTF-8 and UTF-16LE, and three windows of the plain form.
  const byteForms = [
    ...canaryForms(canary),
    ...[plainWindows[0], plainWindows[Math.floor(plainWindows.length / 2)], plainWindows.at(-1)].filter((form): form is CanaryForm => form !== undefined),
  ].flatMap((form) => [
    { name: `${form.name} (utf-8)`, bytes: Buffer.from(form.text, 'utf8') },
    { name: `${form.name} (utf-16le)`, bytes: Buffer.from(form.text, 'utf16le') },
  ]);
  return {
    forms: textForms,
    inText(text) {
      for (const form of textForms) if (text.includes(form.text)) return form.name;
      return null;
    },
    inBytes(bytes) {
      for (const form of byteForms) if (bytes.includes(form.bytes)) return form.name;
      return null;
    },
  };
}

/** JSON text of any value ('undefined' where JSON has none). */
export function jsonText(value: unknown): string {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol' ? 'undefined' : JSON.stringify(value);
}

/** `text` with every form of the canary masked, for failure messages. */
export function masked(text: string, canary: string, limit = 300): string {
  let out = text;
  for (const form of [...canaryForms(canary), ...canaryWindows(canary)]) out = out.split(form.text).join('<CANARY>');
  return out.length > limit ? `${out.slice(0, limit)}…` : out;
}
