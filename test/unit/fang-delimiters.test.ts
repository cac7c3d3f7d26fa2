/**
 * Issue 26, item 1: every URL delimiter in every position. Bracketed `@ : / .` in userinfo,
 * host, port, path, query and fragment; backslash-escaped slashes; invisible characters
 * (zero-width and bidirectional controls) inside a URL, scheme included; broken scheme
 * separators; the defanged forms of ftp, ftps and sftp. The sources and the decisions
 * where the public tools disagree are in ../fixtures/fang-cases.json (R216 on).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defang, extractUrls, refang } from '../../src/fang';

const MIB = 1 << 20;

describe('refang: bracketed delimiters anywhere in a URL', () => {
  it.each([
    // query, path, fragment
    ['hxxps[:]//example[.]org/test?target=bad[@]test.com', 'https://example.org/test?target=bad@test.com'],
    ['hxxp://example[.]com/a(/)b{/}c[/]d', 'http://example.com/a/b/c/d'],
    ['hxxp://example[.]com/redirect?to=evil[.]net[:]8080', 'http://example.com/redirect?to=evil.net:8080'],
    ['hxxp://example[.]com/path(:)80', 'http://example.com/path:80'],
    ['hxxp://example[.]com/a(.)php?x=1{.}2#f[.]g', 'http://example.com/a.php?x=1.2#f.g'],
    ['hxxp://example[.]com/a[dot]php?m=bad[at]test[.]com', 'http://example.com/a.php?m=bad@test.com'],
    ['hxxp://example[.]com/a\\.php', 'http://example.com/a.php'],
    // a path that starts with a bracketed slash, after the host or the port
    ['hxxp://example[.]com(/)login', 'http://example.com/login'],
    ['hxxp://example[.]com[:]8080{/}a', 'http://example.com:8080/a'],
    ['example[.]com(/)path(/)x', 'example.com/path/x'],
    // userinfo
    ['hxxp://user(:)secret(@)example[.]com/', 'http://user:secret@example.com/'],
    ['hxxp://user{:}secret{@}example[.]com/', 'http://user:secret@example.com/'],
    ['hxxp://first(.)last[:]pw[@]example[.]com/', 'http://first.last:pw@example.com/'],
  ])('%j -> %j', (input, expected) => {
    expect(refang(input)).toBe(expected);
  });

  it.each([
    'see (a) and (b), a(/)b and x[:]y',
    'http://example.com/api?filter[at]=1&sort[at]',
    'http://example.com/q?list=[,]&x=(at)',
    'https://en.wikipedia.org/wiki/Foo_(bar)',
  ])('leaves %j as it is', (input) => {
    expect(refang(input)).toBe(input);
  });

  it('reads an at-word in a path only between letters or digits', () => {
    expect(refang('hxxp://example[.]com/api?filter[at]=1&to=bob(at)mail[.]example')).toBe('http://example.com/api?filter[at]=1&to=bob@mail.example');
  });

  it('extracts the URL with its path refanged', () => {
    expect(extractUrls('hxxp://evil[.]com(/)a(/)b.php?u=x[@]y[.]com, then')).toEqual(['http://evil.com/a/b.php?u=x@y.com']);
  });
});

describe('backslash-escaped slashes', () => {
  it.each([
    ['https:\\/\\/evil.example\\/path\\/a.php', 'https://evil.example/path/a.php'],
    ['{"url":"https:\\/\\/evil.example\\/x"}', '{"url":"https://evil.example/x"}'],
    ['hxxps:\\\\\\/\\\\\\/evil[.]example\\\\\\/a', 'https://evil.example/a'],
    ['hxxp://evil[.]example/a\\/b', 'http://evil.example/a/b'],
  ])('%j -> %j', (input, expected) => {
    expect(refang(input)).toBe(expected);
  });

  it.each(['C:\\/Windows\\/x.exe and "a\\/b"', 'HKLM\\SOFTWARE\\foo', 'http:\\\\evil.example\\a'])('leaves %j as it is', (input) => {
    expect(refang(input)).toBe(input);
  });

  it('extracts a JSON-escaped URL and defangs its live scheme', () => {
    expect(extractUrls('{"url":"https:\\/\\/evil.example\\/x","n":1}')).toEqual(['https://evil.example/x']);
    expect(defang('"https:\\/\\/evil.example\\/x"')).toBe('"hxxps:\\/\\/evil[.]example\\/x"');
  });
});

describe('invisible characters inside a URL', () => {
  const invisible: readonly [string, string][] = [
    ['U+200B', '\u200b'],
    ['U+200C', '\u200c'],
    ['U+200D', '\u200d'],
    ['U+200E', '\u200e'],
    ['U+200F', '\u200f'],
    ['U+2060', '\u2060'],
    ['U+FEFF', '\ufeff'],
    ['U+00AD', '\u00ad'],
    ['U+061C', '\u061c'],
    ['U+202A', '\u202a'],
    ['U+202B', '\u202b'],
    ['U+202C', '\u202c'],
    ['U+2066', '\u2066'],
    ['U+2067', '\u2067'],
    ['U+2068', '\u2068'],
    ['U+2069', '\u2069'],
  ];

  it.each(invisible)('drops %s in the scheme, the host and the path', (_name, c) => {
    expect(refang(`ht${c}tps://ex${c}ample[.]com/a${c}b`)).toBe('https://example.com/ab');
    expect(refang(`h${c}xxp://evil${c}[.]com${c}/a`)).toBe('http://evil.com/a');
    expect(extractUrls(`see ht${c}tps://ex${c}ample.com/a${c}b now`)).toEqual(['https://example.com/ab']);
  });

  it.each([
    ['http:\u200b//evil.example/a', 'http://evil.example/a'],
    ['https://\u200bevil.example/a', 'https://evil.example/a'],
    ['hxxp://evil[.]com/\u202efdp.exe', 'http://evil.com/fdp.exe'],
    ['hxxp://evil[.]com/\u202dexe.pdf', 'http://evil.com/exe.pdf'],
    // controls around a URL are not part of it
    ['\u202ahxxp://evil[.]com/a\u202c', '\u202ahttp://evil.com/a\u202c'],
    ['\u200fhxxp://evil[.]com/a\u200f (see)', '\u200fhttp://evil.com/a\u200f (see)'],
  ])('%j -> %j', (input, expected) => {
    expect(refang(input)).toBe(expected);
  });

  it.each([
    ['hxxp://ev\u202elic[.]com/', 'in the host'],
    ['hxxp://\u202emoc[.]live/', 'before the host'],
    ['hxxp://evil[.]\u202ecom/', 'after a dot'],
    ['hxxp://evil\u200b\u202elic[.]com/ and hxxp://evil\u200b[.]\u200b\u202ecom/', 'after an invisible character'],
    ['hxxp://a\u202e@evil[.]com/', 'in the userinfo'],
    ['ht\u202etps://evil[.]com/', 'in the scheme'],
  ])('finds no URL in %j: a bidirectional override %s turns the host around on screen', (input) => {
    expect(extractUrls(input)).toEqual([]);
  });

  it('keeps invisible characters in prose', () => {
    const prose = 'family \u{1F468}\u200d\u{1F469} and \u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645 \u200f(note)';
    expect(refang(prose)).toBe(prose);
  });
});

describe('broken scheme separators', () => {
  it.each([
    ['https//evil.example/a', 'https://evil.example/a'],
    ['hxxps//evil[.]example/a', 'https://evil.example/a'],
    ['http//10.0.0.1/a', 'http://10.0.0.1/a'],
    ['http:///evil.example/a', 'http://evil.example/a'],
    ['hxxp:///evil[.]example/a', 'http://evil.example/a'],
    ['http:/// evil.example/a', 'http://evil.example/a'],
    ['http ://evil.example/a', 'http://evil.example/a'],
    ['hxxps [:]//evil[.]example', 'https://evil.example'],
    ['hxxps[:]//evil[.]example', 'https://evil.example'],
    ['HTTPS//EVIL.EXAMPLE/A', 'HTTPS://EVIL.EXAMPLE/A'],
  ])('%j -> %j', (input, expected) => {
    expect(refang(input)).toBe(expected);
  });

  it.each([
    'the https// typo and http :// alone',
    'https//localhost/x',
    'http// evil.example',
    'https://a.example/proxy/http//b.example/x',
    'http://a.example/r?u=http ://b.example',
    'text http :x and https ://',
  ])('leaves %j as it is', (input) => {
    expect(refang(input)).toBe(input);
  });

  it('extracts them', () => {
    expect(extractUrls('see https//evil.example/a, http ://b.example/c and hxxp:///c[.]example/d.')).toEqual([
      'https://evil.example/a',
      'http://b.example/c',
      'http://c.example/d',
    ]);
  });

  it('defangs the live scheme of http:/// (a browser reads it as http://)', () => {
    expect(defang('http:///evil.example/a')).toBe('hxxp:///evil[.]example/a');
  });
});

describe('ftp, ftps and sftp', () => {
  it.each([
    ['fxp://files[.]example[.]com/a', 'ftp://files.example.com/a'],
    ['fxps://files[.]example[.]com/a', 'ftps://files.example.com/a'],
    ['sfxp://files[.]example[.]com/a', 'sftp://files.example.com/a'],
    ['FXPS[:]//files[.]example[.]com', 'ftps://files.example.com'],
    ['[sftp]://files[.]example[.]com', 'sftp://files.example.com'],
  ])('refang %j -> %j', (input, expected) => {
    expect(refang(input)).toBe(expected);
  });

  it.each([
    ['ftp://files.example.com/a.txt', 'fxp://files[.]example[.]com/a.txt'],
    ['ftps://files.example.com/a.txt', 'fxps://files[.]example[.]com/a.txt'],
    ['SFTP://files.example.com/a.txt', 'sfxp://files[.]example[.]com/a.txt'],
  ])('defang %j -> %j', (input, expected) => {
    expect(defang(input)).toBe(expected);
    expect(defang(expected)).toBe(expected);
  });

  it('extracts only http(s)', () => {
    expect(extractUrls('fxps://a[.]com/x sfxp://b[.]com/y ftps://c.com/z')).toEqual([]);
  });

  it('leaves words that only start like a scheme', () => {
    const prose = 'sftpd: ftpserver, sfx://x.com and fxpp://y.com';
    expect(refang(prose)).toBe(prose);
  });

  it('refang(defang(u)) === u for ftp, ftps and sftp URLs', () => {
    const url = fc.webUrl({ validSchemes: ['ftp', 'ftps', 'sftp'], authoritySettings: { withPort: true, withUserInfo: true } });
    fc.assert(
      fc.property(
        url.filter((u) => !/(?:h[tx*]{2}ps?|s?f[tx]ps?):/i.test(u.slice(8)) && !/\((?:[.:/@]|at|dot|punkt|punto)[()]/i.test(u)),
        (u) => {
          expect(refang(defang(u))).toBe(u);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('no input grows', () => {
  const fragment = fc.constantFrom(
    ...'abcomhtpxsfXH*12.[](){}<>:/\\@%e -_,;?#"'.split(''),
    '\u200b',
    '\u202e',
    '\u200f',
    'https//',
    'http ://',
    'http:///',
    'hxp://',
    'hxxp__',
    'fxps://',
    'sfxp://',
    ':\\/\\/',
    '(/)',
    '[:]',
    '{@}',
    '[at]',
    '[dot]',
    'example.com',
    '1.2.3.4',
  );
  const text = fc.array(fragment, { maxLength: 40 }).map((parts) => parts.join(''));

  it('refang adds at most two characters per URL it writes (a scheme word and a separator each one longer)', () => {
    fc.assert(
      fc.property(text, (input) => {
        const output = refang(input);
        const urls = output.split('://').length - 1;
        expect(output.length).toBeLessThanOrEqual(input.length + 2 * urls);
      }),
      { numRuns: 5000 },
    );
  });

  it('defang leaves a defanged text as it is, and refang(defang(url)) === url for every URL extracted without a marker left', () => {
    fc.assert(
      fc.property(text, (input) => {
        const once = defang(input);
        expect(defang(once)).toBe(once);
        // An extracted URL may still hold a marker (`/hxp://a` nested in its path, `\[dot]`
        // that refangs to `\.`); the identity holds for those without.
        for (const url of extractUrls(input)) if (refang(url) === url) expect(refang(defang(url))).toBe(url);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('1 MiB floods of the new forms', () => {
  const flood = (unit: string): string => unit.repeat(Math.ceil(MIB / unit.length));
  it.each(['https//', 'http ://', ':\\/', '\\\\\\/', 'a(/)', '(@)', 'ht\u200b', '\u202e', 'sfxp:', 'fxps://a(/)'])('%j', (unit) => {
    const input = flood(unit);
    expect(typeof refang(input)).toBe('string');
    expect(typeof defang(input)).toBe('string');
    expect(Array.isArray(extractUrls(input))).toBe(true);
  });
});
