import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { defang, extractUrls, refang } from '../../src/fang';

type Confidence = 'consensus' | 'majority' | 'minority' | 'judgement';

interface FangCase {
  readonly id: string;
  readonly op: 'refang' | 'defang' | 'extract';
  readonly input: string;
  readonly expected: string | readonly string[];
  readonly confidence: Confidence;
  readonly note?: string;
}

const corpus = JSON.parse(
  readFileSync(new URL('../fixtures/fang-cases.json', import.meta.url), 'utf8'),
) as { readonly about: string; readonly cases: readonly FangCase[] };

/**
 * Minority cases where the project's answer differs from the corpus, with what the
 * project returns and why that is the better answer. Only minority cases may be here.
 */
const DEVIATIONS: Readonly<Record<string, { readonly actual: string | readonly string[]; readonly reason: string }>> = {
  R023: {
    actual: 'meow://example.com',
    reason: 'an unknown scheme stays as written: turning it into http would invent a URL the text never named (the host is refanged)',
  },
  R063: {
    actual: 'bad-dot-com',
    reason: '"-dot-" is part of ordinary hyphenated words and names; reading it as a dot would damage them',
  },
  R088: {
    actual: 'me (arroba) example (punto) com',
    reason: 'spaced words in parentheses are Spanish prose; joining them across spaces would rewrite sentences',
  },
  R092: {
    actual: '[at](at)[at]',
    reason: 'at-words with no address around them are prose (as in "Meet me (at) noon"); there is nothing to restore',
  },
  R093: {
    actual: 'foo @ bar.com',
    reason: 'an @ with spaces around it is prose ("5 @ 3.50", "meet @ noon"); only an @ written against both parts makes an address',
  },
};

function run(c: FangCase): string | string[] {
  switch (c.op) {
    case 'refang':
      return refang(c.input);
    case 'defang':
      return defang(c.input);
    case 'extract':
      return extractUrls(c.input);
  }
}

describe('fang conformance corpus', () => {
  it('has cases of every operation', () => {
    expect(corpus.cases.length).toBeGreaterThanOrEqual(150);
    expect(new Set(corpus.cases.map((c) => c.op))).toEqual(new Set(['refang', 'defang', 'extract']));
    expect(new Set(corpus.cases.map((c) => c.id)).size).toBe(corpus.cases.length);
  });

  it('names only minority cases of the corpus as deviations', () => {
    for (const id of Object.keys(DEVIATIONS)) {
      expect(corpus.cases.find((c) => c.id === id)?.confidence, id).toBe('minority');
    }
  });

  it.each(corpus.cases)('$id $op ($confidence)', (c) => {
    const actual = run(c);
    const deviation = DEVIATIONS[c.id];
    if (deviation === undefined) {
      expect(actual).toEqual(c.expected);
    } else {
      expect(actual).toEqual(deviation.actual);
      expect(actual).not.toEqual(c.expected);
    }
  });
});
