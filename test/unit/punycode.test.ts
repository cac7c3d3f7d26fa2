/**
 * Punycode decoding (src/net/punycode.ts) against RFC 3492's own samples and Node's
 * independent implementation (url.domainToUnicode), and the round trip through the URL
 * parser that keeps a decoded host exactly the host.
 */
import fc from 'fast-check';
import { domainToUnicode } from 'node:url';
import { describe, expect, it } from 'vitest';

import { decodePunycode, unicodeHost } from '../../src/net/punycode';

describe('decodePunycode', () => {
  it.each([
    [
      '(A) Arabic (Egyptian)',
      'egbpdaj6bu4bxfgehfvwxn',
      '\u0644\u064a\u0647\u0645\u0627\u0628\u062a\u0643\u0644\u0645\u0648\u0634\u0639\u0631\u0628\u064a\u061f',
    ],
    ['(B) Chinese (simplified)', 'ihqwcrb4cv8a8dqg056pqjye', '\u4ed6\u4eec\u4e3a\u4ec0\u4e48\u4e0d\u8bf4\u4e2d\u6587'],
    ['(L) 3<nen>B<gumi><kinpachi><sensei>', '3B-ww4c5e180e575a65lsy2b', '3\u5e74B\u7d44\u91d1\u516b\u5148\u751f'],
    ['(R) <sono><supiido><de>', 'd9juau41awczczp', '\u305d\u306e\u30b9\u30d4\u30fc\u30c9\u3067'],
    ['(S) -> $1.00 <-', '-> $1.00 <--', '-> $1.00 <-'],
  ])('RFC 3492 sample %s', (_name, input, expected) => {
    const actual = decodePunycode(input);

    expect(actual).toBe(expected);
  });

  it.each(['zz', 'a-b-c-!', '-', 'é-x', 'a'.repeat(64)])('refuses %j', (input) => {
    const actual = decodePunycode(input);

    expect(actual).toBeNull();
  });
});

describe('unicodeHost', () => {
  it.each([
    ['xn--e1afmkfd.xn--p1ai', 'пример.рф'],
    ['login.xn--pypal-4ve.com', 'login.p\u0430ypal.com'],
    ['xn--bcher-kva.example', 'bücher.example'],
  ])('%s', (host, expected) => {
    const actual = unicodeHost(host);

    expect(actual).toBe(expected);
  });

  it.each(['paypal.com', 'xn--zz.example', '192.0.2.1'])('is null for %s', (host) => {
    const actual = unicodeHost(host);

    expect(actual).toBeNull();
  });

  it('agrees with Node’s decoder on every IDN the URL parser makes', () => {
    const letters = fc.constantFrom(...'abcxyzäöüßéñçøåпримерфアイウ中国한국αβγ\u0430\u0435\u043e'.split(''));
    const label = fc.array(letters, { minLength: 1, maxLength: 12 }).map((chars) => chars.join(''));
    fc.assert(
      fc.property(fc.array(label, { minLength: 1, maxLength: 3 }), (labels) => {
        let host: string;
        try {
          host = new URL(`http://${labels.join('.')}.example/`).hostname;
        } catch {
          return;
        }
        const expected = host.includes('xn--') ? domainToUnicode(host) : null;

        const actual = unicodeHost(host);

        expect(actual).toBe(expected);
      }),
      { seed: 3492, numRuns: 500 },
    );
  });
});
