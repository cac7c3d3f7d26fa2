import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { defang, extractUrls, refang } from '../../src/fang';
import { FANG_DEVIATIONS } from '../fixtures/fang-deviations';

type Confidence = 'consensus' | 'majority' | 'minority' | 'judgement';

interface FangCase {
  readonly id: string;
  readonly op: 'refang' | 'defang' | 'extract';
  readonly input: string;
  readonly expected: string | readonly string[];
  readonly confidence: Confidence;
  readonly note?: string;
}

const corpus = JSON.parse(readFileSync(new URL('../fixtures/fang-cases.json', import.meta.url), 'utf8')) as {
  readonly about: string;
  readonly cases: readonly FangCase[];
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
    for (const id of Object.keys(FANG_DEVIATIONS)) {
      expect(corpus.cases.find((c) => c.id === id)?.confidence, id).toBe('minority');
    }
  });

  it.each(corpus.cases)('$id $op ($confidence)', (c) => {
    const actual = run(c);
    // An argued deviation (see ../fixtures/fang-deviations.ts) must give exactly its argued answer.
    const deviation = FANG_DEVIATIONS[c.id];
    if (deviation === undefined) {
      expect(actual).toEqual(c.expected);
    } else {
      expect(actual).toEqual(deviation.actual);
      expect(actual).not.toEqual(c.expected);
    }
  });
});
