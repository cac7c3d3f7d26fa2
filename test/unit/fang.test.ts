import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defang, extractUrls, refang } from '../../src/fang';

const MIB = 1 << 20;

/** unit repeated until the text is at least 1 MiB of code units. */
function flood(unit: string): string {
  return unit.repeat(Math.ceil(MIB / unit.length));
}

/** Index of the first difference, -1 when equal: keeps failures readable for huge strings. */
function firstDifference(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) if (a.charCodeAt(i) !== b.charCodeAt(i)) return i;
  return a.length === b.length ? -1 : length;
}

describe('defang', () => {
  it.each([
    // scheme and host
    ['http://example.com', 'hxxp://example[.]com'],
    ['https://example.com/', 'hxxps://example[.]com/'],
    ['HTTP://EXAMPLE.COM/A.B', 'hxxp://EXAMPLE[.]COM/A.B'],
    ['hTtPs://a.b.example/', 'hxxps://a[.]b[.]example/'],
    ['ftp://files.example.com/a.txt', 'fxp://files[.]example[.]com/a.txt'],
    // nothing but the host's dots changes
    ['https://user.name:pa.ss@example.com:8443/p.a.t.h?q=a.b#f.g', 'hxxps://user.name:pa.ss@example[.]com:8443/p.a.t.h?q=a.b#f.g'],
    ['https://example.com/redirect/http/x', 'hxxps://example[.]com/redirect/http/x'],
    ['https://example.com/%2e%2e/x.y', 'hxxps://example[.]com/%2e%2e/x.y'],
    ['http://localhost:8080/x.y', 'hxxp://localhost:8080/x.y'],
    ['https://a.com/r?u=https://b.org/x', 'hxxps://a[.]com/r?u=https://b.org/x'],
    // dots a browser still honours
    ['https://example\u3002com/', 'hxxps://example[.]com/'],
    ['https://example\uff0ecom/', 'hxxps://example[.]com/'],
    ['https://example\uff61com/', 'hxxps://example[.]com/'],
    ['http://evil%2eexample%2Ecom/a', 'hxxp://evil[.]example[.]com/a'],
    ['http://example.com./', 'hxxp://example[.]com[.]/'],
    ['http://[::ffff:1.2.3.4]:80/', 'hxxp://[::ffff:1[.]2[.]3[.]4]:80/'],
    ['http://[2001:db8::1]/', 'hxxp://[2001:db8::1]/'],
    ['https://пример.рф/путь.html', 'hxxps://пример[.]рф/путь.html'],
    // prose, bare hosts, addresses
    ['a http://x.example.com b https://y.example.org/p.q c', 'a hxxp://x[.]example[.]com b hxxps://y[.]example[.]org/p.q c'],
    ['example.com', 'example[.]com'],
    ['www.example.co.uk/a.html', 'www[.]example[.]co[.]uk/a.html'],
    ['8.8.8.8 and 10.0.0.1:53', '8[.]8[.]8[.]8 and 10[.]0[.]0[.]1:53'],
    ['mail first.last@example.com', 'mail first.last@example[.]com'],
    ['(see example.com).', '(see example[.]com).'],
    ['[x](https://example.com/a.png)', '[x](hxxps://example[.]com/a.png)'],
    ['http://a.com/a,http://b.com/b', 'hxxp://a[.]com/a,hxxp://b[.]com/b'],
    // not hosts
    ['Version 1.2.3 released', 'Version 1.2.3 released'],
    ['e.g. this, i.e. that. 3.14 and 1.2.3.4.5', 'e.g. this, i.e. that. 3.14 and 1.2.3.4.5'],
    ['no urls here [.] (.) {.}', 'no urls here [.] (.) {.}'],
    ['end of sentence. Next', 'end of sentence. Next'],
    // already defanged
    ['hxxp://example[.]com', 'hxxp://example[.]com'],
    ['http://example[.]com/a', 'hxxp://example[.]com/a'],
    ['hxxps[:]//a(.)b[.]com', 'hxxps[:]//a(.)b[.]com'],
  ])('%j -> %j', (input, expected) => {
    expect(defang(input)).toBe(expected);
    expect(defang(expected)).toBe(expected);
  });
});

describe('refang', () => {
  it.each([
    ['hxxp://example[.]com', 'http://example.com'],
    ['hXXp://example[.]com', 'http://example.com'],
    ['HXXPS://example[.]com', 'https://example.com'],
    ['h**p://example[.]com', 'http://example.com'],
    ['h**ps://example[.]com', 'https://example.com'],
    ['hxp://example[.]com', 'http://example.com'],
    ['httpx://example[.]com', 'https://example.com'],
    ['fxp://files[.]example[.]com/a', 'ftp://files.example.com/a'],
    ['[http]://example[.]com', 'http://example.com'],
    ['(https)://example[.]com', 'https://example.com'],
    ['http[:]//example.com', 'http://example.com'],
    ['http[://]example.com', 'http://example.com'],
    ['http(:)//example.com', 'http://example.com'],
    ['http{:}//example.com', 'http://example.com'],
    ['http:[//]example.com', 'http://example.com'],
    ['hxxp[:][/][/]example.com', 'http://example.com'],
    ['hxxp__example[.]com/a', 'http://example.com/a'],
    ['http:// example.com/a', 'http://example.com/a'],
  ])('scheme form %j', (input, expected) => {
    expect(refang(input)).toBe(expected);
  });

  it.each([
    ['example[.]com', 'example.com'],
    ['example(.)com', 'example.com'],
    ['example{.}com', 'example.com'],
    ['example[dot]com', 'example.com'],
    ['example(dot)com', 'example.com'],
    ['example[DOT]com', 'example.com'],
    ['example<.>com', 'example.com'],
    ['example<dot>com', 'example.com'],
    ['example\\.com', 'example.com'],
    ['example [.] com', 'example.com'],
    ['www].[example].[com', 'www.example.com'],
    ['www[.[example[.[com', 'www.example.com'],
    ['a[.)b(.]com', 'a.b.com'],
    ['1[,]2[,]3(,)4', '1.2.3.4'],
    ['hxxp://example[.com/a', 'http://example.com/a'],
    ['hxxp://example.]com/a', 'http://example.com/a'],
    ['hxxp://example(.com/a', 'http://example.com/a'],
    ['hxxp://www[.)example(.]com', 'http://www.example.com'],
    ['hxxp://example\u3002com/', 'http://example.com/'],
    ['hxxp://example\u30fbcom/', 'http://example.com/'],
  ])('dot form %j', (input, expected) => {
    expect(refang(input)).toBe(expected);
  });

  it.each([
    ['hxxp://example[.]com[:]8080/a', 'http://example.com:8080/a'],
    ['example[.]com[:]8080', 'example.com:8080'],
    ['hxxp://example[.]com[/]a[/]b', 'http://example.com/a/b'],
    ['hxxp://example[.]com/a[.]php?u=b[.]c', 'http://example.com/a.php?u=b.c'],
    ['hxxp://user[@]example[.]com/', 'http://user@example.com/'],
    ['hxxp://user[at]example[.]com/', 'http://user@example.com/'],
    ['user[@]example[.]com', 'user@example.com'],
    ['user(at)example[.]com', 'user@example.com'],
    ['first[.]last{at}example(.)org', 'first.last@example.org'],
    ['user[AT]example[.]com', 'user@example.com'],
    ['[mailto]:user[@]example[.]com', 'mailto:user@example.com'],
    ['2001[:]db8[:][:]1', '2001:db8::1'],
    ['[:][:]', '::'],
    ['hxxp://[2001[:]db8[:][:]1]:8080/', 'http://[2001:db8::1]:8080/'],
    ['hxxp://[::ffff:1[.]2[.]3[.]4]/', 'http://[::ffff:1.2.3.4]/'],
    ['hxxp://a[.]com/r?u=hxxp://b[.]com/x', 'http://a.com/r?u=http://b.com/x'],
  ])('separator %j', (input, expected) => {
    expect(refang(input)).toBe(expected);
  });

  it.each([
    ['U+200B', '\u200b'],
    ['U+200C', '\u200c'],
    ['U+200D', '\u200d'],
    ['U+2060', '\u2060'],
    ['U+FEFF', '\ufeff'],
    ['U+00AD', '\u00ad'],
  ])('drops %s inside a host and a path', (_name, zeroWidth) => {
    expect(refang(`hxxp://ex${zeroWidth}ample[.]com/a${zeroWidth}b`)).toBe('http://example.com/ab');
    expect(refang(`ex${zeroWidth}ample[.]co${zeroWidth}m`)).toBe('example.com');
  });

  it.each([
    'Meet me (at) noon',
    'Reply [at] once',
    '[.NET] runtime and (.pdf) files',
    'array[0].length and obj{x}.y and a[i].b.c',
    '[link](https://example.com/a.png) and [https://i.example/x.png](https://i.example/x.png)',
    'query ?arr[0]=1&map[key]=2',
    'path /hxxp-notes/httpx and hxxp-notes',
    'ldap://example.com/a and tcp://1.2.3.4:53',
    'end of sentence . Next one',
    'Version 1.2.3 (build 4) [beta]',
    'let empty = [:]; let one = [/]',
    'HKLM\\SOFTWARE\\foo bar\\b',
    'bad-dot-com and foodotcom',
    'e.g. see i.e. this',
    'Not a URL: hxxp://',
    'hxxp:// nothing here',
    '\u306f\u3058\u3081\u3088\u3046.\u307f\u3093\u306a',
    '\u6587\u7ae0\u3067\u3059\u3002\u6b21\u306e\u6587',
  ])('leaves %j as it is', (input) => {
    expect(refang(input)).toBe(input);
  });

  it('keeps the case of paths, queries and hosts', () => {
    expect(refang('hxxp://Example[.]COM/Path/To/File.PHP?Token=AbC')).toBe('http://Example.COM/Path/To/File.PHP?Token=AbC');
  });
});

describe('extractUrls', () => {
  it.each([
    ['Payload at hxxp://evil[.]com/a.exe and hxxps://evil2[.]net/b', ['http://evil.com/a.exe', 'https://evil2.net/b']],
    ['Visit https://example.com. Then http://example.org!', ['https://example.com', 'http://example.org']],
    ['hxxp://evil[.]com:8080', ['http://evil.com:8080']],
    ['hxxp://user:pw@evil[.]com:8080/a?b=c#d', ['http://user:pw@evil.com:8080/a?b=c#d']],
    ['See https://en.wikipedia.org/wiki/Foo_(bar) for more', ['https://en.wikipedia.org/wiki/Foo_(bar)']],
    ['(https://en.wikipedia.org/wiki/Foo_(bar))', ['https://en.wikipedia.org/wiki/Foo_(bar)']],
    ['[a](hxxp://a[.]com/x) [b]', ['http://a.com/x']],
    ['**hxxps://evil[.]com/a**', ['https://evil.com/a']],
    ['"hxxp://a[.]com/x", \'hxxp://b[.]com/y\';', ['http://a.com/x', 'http://b.com/y']],
    ['\u898b\u3066 hxxp://evil[.]com/a\u3001\u6b21', ['http://evil.com/a']],
    ['hxxp://evil[.]com/a\u3002', ['http://evil.com/a']],
    ['hxxp://a[.]com/a,hxxp://a[.]com/b', ['http://a.com/a', 'http://a.com/b']],
    ['hxxp://a[.]com/x hxxp://a[.]com/x', ['http://a.com/x']],
    ['hxxp://a[.]com/r?u=hxxp://b[.]com/x', ['http://a.com/r?u=http://b.com/x']],
    ['http://[2001:db8::1]:8080/', ['http://[2001:db8::1]:8080/']],
    ['[http]://[2001[:]db8[:][:]1]:8080', ['http://[2001:db8::1]:8080']],
    ['hxxps://\u043f\u0440\u0438\u043c\u0435\u0440[.]\u0440\u0444/', ['https://\u043f\u0440\u0438\u043c\u0435\u0440.\u0440\u0444/']],
    ['hxxps://xn--e1afmkfd[.]xn--p1ai/', ['https://xn--e1afmkfd.xn--p1ai/']],
    ['evil[.]com/path', []],
    ['contact bob[at]evil[.]com', []],
    ['ftp://files.example.com/a.zip fxp://x[.]com', []],
    ['Not a URL: hxxp://', []],
    ['mailto:user@example.com', []],
  ])('%j', (input, expected) => {
    expect(extractUrls(input)).toEqual(expected);
  });

  it('drops candidates that are not valid URLs', () => {
    expect(extractUrls('http://[1:2:3]/ http://1.2.3.999/ http://[::1]/')).toEqual(['http://[::1]/']);
  });
});

describe('1 MiB floods', () => {
  // Each row: the input, and what defang, refang and extractUrls return.
  const unchanged = (text: string): [string, string, string[]] => [text, text, []];
  const rows: [string, string, [string, string, string[]]][] = [
    ['[', flood('['), unchanged(flood('['))],
    ['a.', flood('a.'), unchanged(flood('a.'))],
    ['spaces', flood(' '), unchanged(flood(' '))],
    ['A then .', `${'A'.repeat(MIB)}.`, unchanged(`${'A'.repeat(MIB)}.`)],
    ['(', flood('('), unchanged(flood('('))],
    ['hxxp://', flood('hxxp://'), unchanged(flood('hxxp://'))],
    ['[.]', flood('[.]'), unchanged(flood('[.]'))],
    ['[:]', flood('[:]'), unchanged(flood('[:]'))],
    ['a@', flood('a@'), unchanged(flood('a@'))],
    ['1.', flood('1.'), unchanged(flood('1.'))],
    ['http://', flood('http://'), [flood('http://').replaceAll('http', 'hxxp'), flood('http://'), []]],
    ['ab.', flood('ab.'), [`${flood('ab.').slice(0, -1).replaceAll('.', '[.]')}.`, flood('ab.'), []]],
    ['defanged URL', flood('hxxp://a[.]com/,'), [flood('hxxp://a[.]com/,'), 'http://a.com/,'.repeat(flood('hxxp://a[.]com/,').length / 16), ['http://a.com/']]],
    [
      'long path',
      `http://a.com/${'a'.repeat(MIB)}`,
      [`hxxp://a[.]com/${'a'.repeat(MIB)}`, `http://a.com/${'a'.repeat(MIB)}`, [`http://a.com/${'a'.repeat(MIB)}`]],
    ],
  ];

  it.each(rows)('%s', (_name, input, [defanged, refanged, urls]) => {
    expect(firstDifference(defang(input), defanged)).toBe(-1);
    expect(firstDifference(refang(input), refanged)).toBe(-1);
    expect(extractUrls(input)).toEqual(urls);
  });
});

describe('properties', () => {
  const webUrl = fc.webUrl({
    validSchemes: ['http', 'https'],
    withQueryParameters: true,
    withFragments: true,
    authoritySettings: { withIPv4: true, withIPv6: true, withIPv4Extended: true, withUserInfo: true, withPort: true },
  });
  // A scheme word after the scheme (`?u=http://...`, `/hxxp:`) is read as a nested URL, and
  // a parenthesised delimiter (`(/)`, `(.)`, `(at)`) anywhere in a URL is a defang marker.
  const plainUrl = webUrl.filter((u) => !/(?:h[tx*]{2}ps?|f[tx]p):/i.test(u.slice(8)) && !/\((?:[.:/@]|at|dot|punkt|punto)[()]/i.test(u));

  it('refang(defang(u)) === u for http(s) URLs', () => {
    fc.assert(
      fc.property(plainUrl, (u) => {
        expect(refang(defang(u))).toBe(u);
      }),
      { numRuns: 1000 },
    );
  });

  it('defang(u) has no live scheme and no live dot in its host', () => {
    fc.assert(
      fc.property(plainUrl, (u) => {
        const d = defang(u);
        expect(d).not.toMatch(/https?:\/\//i);
        const authority = /^hxxps?:\/\/([^/?#]*)/.exec(d)?.[1];
        expect(authority).toBeDefined();
        const host = (authority ?? '').slice((authority ?? '').lastIndexOf('@') + 1).replace(/:\d*$/, '');
        expect(host.replaceAll('[.]', '')).not.toContain('.');
      }),
      { numRuns: 1000 },
    );
  });

  it('extractUrls(defang(u)) finds u in prose', () => {
    // Trailing punctuation and unbalanced brackets end a URL in prose by design.
    const extractable = plainUrl.filter((u) => !/[.,;:!?'"*]$/.test(u) && !/[()]/.test(u));
    fc.assert(
      fc.property(extractable, (u) => {
        expect(extractUrls(`see ${defang(u)} now`)).toEqual([u]);
      }),
      { numRuns: 1000 },
    );
  });

  const fragment = fc.constantFrom(
    ...'abcomhtpxsXH*12.[](){}<>:/@%e -_,;?#"\'\\+'.split(''),
    '\u3002',
    '\u30fb',
    '\u200b',
    '\u0436',
    '\u{20000}',
    'http://',
    'HTTPS://',
    'hxxp://',
    '[http]://',
    'hxxp__',
    'ftp://',
    'mailto:',
    '[.]',
    '(.)',
    '[.',
    '.]',
    '[:]',
    '[/]',
    '[at]',
    '(at)',
    '[dot]',
    ' [.] ',
    '%2e',
    'example.com',
    '.com',
    '1.2.3.4',
    '255',
    '::',
    '[::1]',
    ',http://',
    'xn--p1ai',
  );
  const tricky = fc.array(fragment, { maxLength: 40 }).map((parts) => parts.join(''));
  const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));
  const anyText = fc.oneof(
    tricky,
    fc.string({ unit: 'grapheme', maxLength: 60 }),
    fc.string({ unit: 'binary', maxLength: 60 }),
    fc.string({ unit: 'binary-ascii', maxLength: 80 }),
    fc.string({ unit: fc.oneof(fc.string({ unit: 'grapheme-ascii', maxLength: 1 }), loneSurrogate), maxLength: 40 }),
  );

  it('defang is idempotent', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const once = defang(text);
        expect(defang(once)).toBe(once);
      }),
      { numRuns: 5000 },
    );
  });

  it('never throws, and extracted URLs are unique valid http(s) URLs', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        expect(typeof refang(text)).toBe('string');
        expect(typeof defang(text)).toBe('string');
        const urls = extractUrls(text);
        expect(new Set(urls).size).toBe(urls.length);
        for (const url of urls) expect(['http:', 'https:']).toContain(new URL(url).protocol);
      }),
      { numRuns: 5000 },
    );
  });

  it('refang leaves text without defang markers alone', () => {
    // A scheme word written against `//` (`https//host`) is a broken separator refang repairs.
    const prose = fc
      .string({ unit: fc.constantFrom(...'abcdefhtpxsmo0123456789 .,/@-\n'.split('')), maxLength: 80 })
      .filter((text) => !/[a-z]\/\//i.test(text));
    fc.assert(
      fc.property(prose, (text) => {
        expect(refang(text)).toBe(text);
      }),
      { numRuns: 2000 },
    );
  });
});
