/**
 * script.ts: the URLs a script names, read as text. Literals, escapes, joins, atob and
 * base64, templates; comments and regular expressions skipped; every bound held, never a throw.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { SCRIPT_LIMITS } from '../../src/readers/limits';
import { scriptBudget, urlsInScript } from '../../src/readers/script';

const b64 = (text: string): string => Buffer.from(text).toString('base64');

describe('urlsInScript', () => {
  it('reads URLs in single, double and template literals', () => {
    expect(urlsInScript(`location.href = 'https://a.example/1'; x("https://b.example/2"); y = \`https://c.example/3\`;`)).toEqual([
      'https://a.example/1',
      'https://b.example/2',
      'https://c.example/3',
    ]);
  });

  it('decodes \\xNN, \\uNNNN, \\u{…} and simple escapes', () => {
    expect(urlsInScript(String.raw`go('\x68ttps:\/\/\u0065vil.example/\u{70}ath\x3fq=1')`)).toEqual(['https://evil.example/path?q=1']);
  });

  it('joins literals joined with +, across lines', () => {
    expect(urlsInScript(`window.location = 'htt' + 'ps://' +\n "evil.example" + '/login';`)).toEqual(['https://evil.example/login']);
  });

  it('does not join across a name or a call', () => {
    expect(urlsInScript(`var a = 'https://' + host + '/x';`)).toEqual([]);
  });

  it('decodes atob of a literal, of joined literals, and joins its result', () => {
    const url = 'https://evil.example/voice?id=7';
    expect(urlsInScript(`location = atob('${b64(url)}');`)).toEqual([url]);
    const encoded = b64(url);
    expect(urlsInScript(`location = atob('${encoded.slice(0, 8)}' + '${encoded.slice(8)}');`)).toContain(url);
    expect(urlsInScript(`location = 'https://' + atob('${b64('evil.example/x')}');`)).toEqual(['https://evil.example/x']);
  });

  it('decodes a literal that is base64 of a URL, wherever it is used', () => {
    expect(urlsInScript(`var u = "${b64('https://evil.example/b64')}"; location = atob(u);`)).toEqual(['https://evil.example/b64']);
  });

  it('reads the text of a template around its expressions, not into them', () => {
    expect(urlsInScript('x = `https://a.example/${id}/more`; y = "https://b.example/"')).toEqual(['https://a.example/', 'https://b.example/']);
    expect(urlsInScript('x = `a${ {k: `https://n.example/${1}`}.k }b`; z = "https://c.example/"')).toEqual(['https://n.example/', 'https://c.example/']);
  });

  it('skips comments and regular expression literals', () => {
    expect(urlsInScript(`// 'https://comment.example/'\n/* "https://block.example/" */ var r = /'/g; go("https://real.example/")`)).toEqual([
      'https://real.example/',
    ]);
    expect(urlsInScript(`var n = a / 2; go('https://div.example/' + '1') / 3`)).toEqual(['https://div.example/1']);
  });

  it('ends an unclosed string at its line', () => {
    expect(urlsInScript(`x = 'https://open.example/a\ny = "https://next.example/"`)).toEqual(['https://open.example/a', 'https://next.example/']);
  });

  it('leaves malformed escapes as written and never throws on them', () => {
    for (const source of [
      String.raw`'\x6'`,
      String.raw`'\u{110000}'`,
      String.raw`'\u{'`,
      String.raw`'\u12'`,
      String.raw`'\'`,
      '"\\',
      '`${',
      "atob('@@')",
      'atob(',
      ')))',
    ])
      expect(() => urlsInScript(source)).not.toThrow();
    expect(urlsInScript(String.raw`'https://e.example/\x4g\u{zz}'`)).toEqual(['https://e.example/x4gu{zz}']);
  });

  it('reads at most SCRIPT_LIMITS.characters of a document and says it cut', () => {
    const budget = scriptBudget();
    const filler = ' '.repeat(SCRIPT_LIMITS.characters - 10);
    expect(urlsInScript(`${filler}'https://late.example/'`, budget)).toEqual([]);
    expect(budget.cut).toBe(true);
    expect(urlsInScript(`'https://after.example/'`, budget)).toEqual([]);
  });

  it('reads at most SCRIPT_LIMITS.literals literals', () => {
    const budget = scriptBudget();
    urlsInScript(`${"'a',".repeat(SCRIPT_LIMITS.literals)}'https://late.example/'`, budget);
    expect(budget.cut).toBe(true);
  });

  it('keeps at most SCRIPT_LIMITS.valueLength characters of a value', () => {
    const long = `'https://long.example/${'a'.repeat(SCRIPT_LIMITS.valueLength)}'`;
    const [url] = urlsInScript(`${long} + ${long}`);
    expect(url?.length).toBeLessThanOrEqual(SCRIPT_LIMITS.valueLength);
  });

  it('follows at most SCRIPT_LIMITS.depth nested atob calls and template expressions', () => {
    const nested = `${'atob('.repeat(SCRIPT_LIMITS.depth * 4)}'x'${')'.repeat(SCRIPT_LIMITS.depth * 4)}`;
    expect(() => urlsInScript(nested)).not.toThrow();
    expect(() => urlsInScript('`${'.repeat(10_000))).not.toThrow();
  });

  it('never throws and never reads beyond its budget, on any text', () => {
    const pieces = fc.constantFrom(
      "'",
      '"',
      '`',
      '${',
      '}',
      '{',
      '(',
      ')',
      '+',
      '/',
      '*',
      '\\',
      '\\x',
      '\\u{',
      '\\u',
      'atob',
      '\n',
      'https://',
      'aHR0cHM6Ly9',
      '=',
      'x',
    );
    fc.assert(
      fc.property(fc.array(fc.oneof(pieces, fc.string()), { maxLength: 200 }), (parts) => {
        const budget = scriptBudget();
        const urls = urlsInScript(parts.join(''), budget);
        expect(budget.characters).toBeGreaterThanOrEqual(0);
        for (const url of urls) expect(url.length).toBeLessThanOrEqual(SCRIPT_LIMITS.valueLength);
      }),
      { numRuns: 500 },
    );
  });
});
