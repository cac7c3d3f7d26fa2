/**
 * The token never shows, in any encoding: service text that carries a generated token
 * raw, percent-encoded (either case), JSON-escaped (`\/`, `\u002f`), as HTML entities,
 * as base64 (standard or URL-safe, at any alignment inside a longer value) or nested is
 * shown without it, by every path that shows service text (the sanitiser, and the errors
 * the client builds from a reply).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sanitizeServiceText } from '../../src/api';
import { redactSecrets } from '../../src/service/redact';
import { prove } from './ledger';

const RUNS = 1500;

/** Token characters, and some that need escaping in every encoding. */
const token = fc.oneof(
  fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.~+/='), minLength: 12, maxLength: 64 }),
  fc.string({ unit: fc.constantFrom(...'abcXYZ019-_./+=:&<>"\'\\%#?@é漢'), minLength: 12, maxLength: 40 }),
);

const hex = (code: number, upper: boolean) => (upper ? code.toString(16).toUpperCase() : code.toString(16));
const bytes = (text: string) => [...new TextEncoder().encode(text)];

type Encoder = (secret: string, upper: boolean) => string;

/** The encodings a token may come back in, each written here from its definition. */
const ENCODERS: Readonly<Record<string, Encoder>> = {
  raw: (s) => s,
  'percent, reserved only': (s) => encodeURIComponent(s),
  'percent, every byte': (s, upper) =>
    bytes(s)
      .map((b) => `%${hex(b, upper).padStart(2, '0')}`)
      .join(''),
  'JSON string': (s) => JSON.stringify(s).slice(1, -1),
  'JSON with \\/': (s) => JSON.stringify(s).slice(1, -1).replaceAll('/', '\\/'),
  'JSON \\u escapes': (s, upper) =>
    [...s]
      .map((c) => [...c].map((unit) => `\\u${hex(unit.charCodeAt(0), upper).padStart(4, '0')}`).join(''))
      .join('')
      .replaceAll('\\u', '\\u'),
  'HTML decimal': (s) => [...s].map((c) => `&#${String(c.codePointAt(0))};`).join(''),
  'HTML hex': (s, upper) => [...s].map((c) => `&#x${hex(c.codePointAt(0) ?? 0, upper)};`).join(''),
  'HTML named': (s) => s.replaceAll('&', '&amp;').replaceAll('/', '&sol;').replaceAll('+', '&plus;').replaceAll('=', '&equals;').replaceAll('<', '&lt;'),
  'JSON inside percent': (s) => encodeURIComponent(JSON.stringify(s).replaceAll('/', '\\/')),
  'percent inside JSON': (s) => JSON.stringify(encodeURIComponent(s)),
  'HTML inside JSON': (s) => JSON.stringify([...s].map((c) => `&#${String(c.codePointAt(0))};`).join('')),
};

/** base64 of `before + token + after`, standard or URL-safe, padded or not. */
function base64Around(secret: string, before: string, after: string, urlSafe: boolean): string {
  const encoded = btoa(String.fromCharCode(...bytes(before + secret + after)));
  return urlSafe ? encoded.replaceAll('+', '-').replaceAll('/', '_').replaceAll('=', '') : encoded;
}

/** Text around the encoded token, as a service error or page might put it. */
const surround = fc.tuple(fc.constantFrom('KeyError: ', '{"error":"', '<p>', 'auth=', ''), fc.constantFrom(' is not valid', '"}', '</p>', '&x=1', ''));

describe('the token never shows, in any encoding', () => {
  it('redactSecrets removes every encoding of a generated token', async () => {
    await prove(
      'token-encodings',
      () => {
        let runs = 0;
        fc.assert(
          fc.property(token, fc.constantFrom(...Object.keys(ENCODERS)), fc.boolean(), surround, (secret, name, upper, [lead, tail]) => {
            runs += 1;
            const encoded = (ENCODERS[name] ?? ENCODERS['raw'] ?? ((s: string) => s))(secret, upper);
            const shown = redactSecrets(`${lead}${encoded}${tail}`, [secret]);
            expect(shown).not.toContain(encoded);
            expect(shown).not.toContain(secret);
            expect(shown).toContain('[redacted]');
          }),
          { numRuns: RUNS },
        );
        fc.assert(
          fc.property(token, fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), fc.boolean(), (secret, before, after, urlSafe) => {
            runs += 1;
            const blob = base64Around(secret, before, after, urlSafe);
            const shown = redactSecrets(`data=${blob};`, [secret]);
            // What is left of the blob decodes to no more than a few bytes of the token's edges.
            const kept = shown.replace('data=', '').replace(';', '').split('[redacted]');
            expect(kept.length).toBeGreaterThan(1);
            for (const piece of kept) expect(piece.length).toBeLessThanOrEqual(Math.ceil(((before.length + 2) * 4 * 4) / 3) + 8);
          }),
          { numRuns: RUNS },
        );
        return {
          cases: runs,
          detail: `${runs} generated tokens in ${Object.keys(ENCODERS).length + 1} encodings (with base64 at every alignment), redactSecrets`,
        };
      },
      'redactSecrets',
    );
  });

  it('sanitizeServiceText, which every shown piece of service text goes through, does the same on long text', async () => {
    await prove(
      'token-encodings',
      () => {
        let runs = 0;
        fc.assert(
          fc.property(token, fc.constantFrom(...Object.keys(ENCODERS)), fc.nat({ max: 12_000 }), (secret, name, offset) => {
            runs += 1;
            const encoded = (ENCODERS[name] ?? ((s: string) => s))(secret, false);
            // The token near the cut of 10,000 characters too: no piece of it is left behind.
            const shown = sanitizeServiceText(`${'x '.repeat(offset / 2)}${encoded} tail`, [secret]);
            expect(shown).not.toContain(secret);
            expect(shown).not.toContain(encoded.slice(0, Math.max(8, Math.floor(encoded.length / 2))));
          }),
          { numRuns: 500 },
        );
        return { cases: runs, detail: `${runs} tokens placed across the 10,000-character cut, sanitizeServiceText` };
      },
      'sanitizeServiceText',
    );
  });
});
