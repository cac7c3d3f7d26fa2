import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_UNWRAP_DEPTH, unwrap, WRAPPER_IDS } from '../../src/fang';
import corpus from '../fixtures/unwrap-cases.json' with { type: 'json' };
import { wrap, WRAP_LAYER, wrapperFloods } from '../support/wrap';

interface UnwrapCase {
  readonly id: string;
  readonly input: string;
  readonly expected: { readonly url: string; readonly layers: readonly string[]; readonly opaque?: string };
  readonly source: string;
}

const cases = corpus.cases as readonly UnwrapCase[];
const MIB = 1 << 20;

describe('unwrap: the conformance corpus', () => {
  it('holds at least 80 cases, each with its source, ids unique', () => {
    expect(cases.length).toBeGreaterThanOrEqual(80);
    expect(new Set(cases.map((c) => c.id)).size).toBe(cases.length);
    for (const c of cases) expect(c.source.length, c.id).toBeGreaterThan(10);
  });

  it('covers every wrapping service', () => {
    const seen = new Set(cases.flatMap((c) => [...c.expected.layers, ...(c.expected.opaque ? [c.expected.opaque] : [])]));
    expect([...seen].sort()).toEqual([...WRAPPER_IDS].sort());
  });

  it.each(cases.map((c) => [c.id, c] as const))('%s', (_id, c) => {
    const expected = c.expected.opaque === undefined ? { url: c.expected.url, layers: c.expected.layers } : c.expected;
    expect(unwrap(c.input)).toEqual(expected);
  });
});

/** Targets as real links have them: queries, fragments, escapes, Unicode paths and hosts. */
const target = fc.oneof(
  fc.webUrl({ withQueryParameters: true, withFragments: true }),
  fc
    .tuple(
      fc.constantFrom('https://evil.example', 'http://xn--80ak6aa92e.com', 'https://пример.example', 'https://a-b_c.example:8443'),
      fc.string({ unit: 'grapheme', maxLength: 30 }),
      fc.string({ unit: 'grapheme-ascii', maxLength: 30 }),
    )
    .map(([origin, path, query]) => `${origin}/${path}?${query}`),
);

describe('unwrap: properties', () => {
  it.each(Object.keys(wrap) as (keyof typeof wrap)[])('unwrap(%s(x)) gives x back, with its layer', (format) => {
    fc.assert(
      fc.property(target, (x) => {
        expect(unwrap(wrap[format](x))).toEqual({ url: x, layers: [WRAP_LAYER[format]] });
      }),
      { numRuns: 300 },
    );
  });

  it('peels any nesting of the formats, outermost first', () => {
    const format = fc.constantFrom(...(Object.keys(wrap) as (keyof typeof wrap)[]));
    fc.assert(
      fc.property(fc.webUrl({ withQueryParameters: true, withFragments: true }), fc.array(format, { minLength: 1, maxLength: 4 }), (x, formats) => {
        // A v3 body ends at its first `__;`, as in Proofpoint's own decoder: v3 directly
        // inside v3 cannot be told apart from a target holding `__;` (the gateway does not rewrite its own links).
        fc.pre(!formats.some((f, i) => f === 'proofpointV3' && formats[i + 1] === 'proofpointV3'));
        const link = formats.reduceRight((inner, f) => wrap[f](inner), x);
        expect(unwrap(link)).toEqual({ url: x, layers: formats.map((f) => WRAP_LAYER[f]) });
      }),
      { numRuns: 300 },
    );
  });

  it(`stops after ${MAX_UNWRAP_DEPTH} layers and reports the rest as opaque`, () => {
    let link = 'https://evil.example/';
    for (let i = 0; i <= MAX_UNWRAP_DEPTH; i++) link = wrap.slack(link);
    const result = unwrap(link);
    expect(result.layers).toHaveLength(MAX_UNWRAP_DEPTH);
    expect(result.opaque).toBe('slack');
    expect(unwrap(result.url)).toEqual({ url: 'https://evil.example/', layers: ['slack'] });
  });

  it('never throws and never returns a longer URL, on any text or any damaged wrapper', () => {
    const damaged = fc
      .tuple(fc.constantFrom(...(Object.keys(wrap) as (keyof typeof wrap)[])), fc.webUrl(), fc.nat(), fc.string({ maxLength: 4 }))
      .map(([f, x, at, junk]) => {
        const link = wrap[f](x);
        const cut = at % (link.length + 1);
        return link.slice(0, cut) + junk + link.slice(cut);
      });
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'binary' }), damaged), (text) => {
        const result = unwrap(text);
        expect(result.url.length).toBeLessThanOrEqual(text.length);
        expect(result.layers.length).toBeLessThanOrEqual(MAX_UNWRAP_DEPTH);
        if (result.layers.length === 0) expect(result.url).toBe(text);
      }),
      { numRuns: 2000 },
    );
  });

  it('leaves look-alike hosts alone, however the real host is embedded', () => {
    const real = fc.constantFrom('nam12.safelinks.protection.outlook.com', 'urldefense.com', 'linkprotect.cudasvc.com', 'www.google.com', 'slack-redir.net');
    fc.assert(
      fc.property(real, fc.constantFrom('evil.example', 'evil-example.com'), fc.constantFrom('.', '-', ''), (host, evil, glue) => {
        for (const link of [
          `https://${host}${glue}${evil}/url?url=https%3A%2F%2Fbenign.example%2F&q=https%3A%2F%2Fbenign.example%2F`,
          `https://${host}@${evil}/url?url=https%3A%2F%2Fbenign.example%2F`,
          `https://${evil}/${host}/url?url=https%3A%2F%2Fbenign.example%2F`,
        ]) {
          expect(unwrap(link)).toEqual({ url: link, layers: [] });
        }
      }),
    );
  });
});

describe('unwrap: 1 MiB hostile inputs return', () => {
  const floods = Object.entries(wrapperFloods(MIB));
  it.each(floods)('%s', (_name, text) => {
    const result = unwrap(text);
    expect(result.url.length).toBeLessThanOrEqual(text.length);
  });

  it('a Safe Link of a 1 MiB target is peeled whole', () => {
    const long = `https://evil.example/${'a'.repeat(MIB)}`;
    expect(unwrap(wrap.safelinks(long))).toEqual({ url: long, layers: ['safelinks'] });
  });
});
