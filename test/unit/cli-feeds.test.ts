/**
 * What `isolink bulk` finds in its input (text, CSV, STIX 2.1) and how `proxies diff`
 * compares lists: pure functions, tested on the edge cases a feed brings.
 */
import { describe, expect, it } from 'vitest';

import { diffProxies } from '../../src/cli/commands/proxies';
import { csvCells, detectFormat, urlsInFeed, urlsInPattern, urlsInStix } from '../../src/cli/feeds';
import type { Proxy } from '../../src/api';

describe('CSV', () => {
  it('ends a cell at its comma, and a quoted cell at its closing quote', () => {
    expect(csvCells('a,b\n"c,d","e ""quoted"""\r\nf')).toEqual(['a', 'b', 'c,d', 'e "quoted"', 'f']);
    expect(urlsInFeed('url,seen\nhttps://a.example/x,2026-01-01\nhxxp://b[.]example/y?q=1,2\n', 'feed.csv', 'auto')).toEqual([
      'https://a.example/x',
      'http://b.example/y?q=1',
    ]);
  });

  it('keeps a line break inside quotes in the cell', () => {
    expect(csvCells('"https://a.example/\nsecond line",x')).toEqual(['https://a.example/\nsecond line', 'x']);
  });
});

describe('STIX 2.1', () => {
  it('reads every url:value comparison of a pattern, unescaping quotes and backslashes', () => {
    expect(urlsInPattern("[url:value = 'https://a.example/'] OR [url:value='https://b.example/it\\'s\\\\x'] AND [domain-name:value = 'c.example']")).toEqual([
      'https://a.example/',
      "https://b.example/it's\\x",
    ]);
    expect(urlsInPattern("[url:value LIKE 'https://%.example/']")).toEqual([]);
  });

  it('reads indicators of pattern_type stix (or none) and url observables only', () => {
    const bundle = JSON.stringify({
      type: 'bundle',
      objects: [
        { type: 'indicator', pattern: "[url:value = 'hxxps://a[.]example/']" },
        { type: 'indicator', pattern_type: 'snort', pattern: "url:value = 'https://no.example/'" },
        { type: 'url', value: 'https://b.example/' },
        { type: 'note', content: 'https://no2.example/' },
      ],
    });
    expect(urlsInStix(bundle, 'feed.json')).toEqual(['https://a.example/', 'https://b.example/']);
  });

  it('says what is wrong with something that is not a bundle', () => {
    expect(() => urlsInStix('[1,2]', 'x.json')).toThrow(
      expect.objectContaining({ code: 'inputInvalid', params: ['x.json', expect.stringContaining('not a STIX 2.1 bundle')] }),
    );
    expect(() => urlsInStix('{', 'x.json')).toThrow(expect.objectContaining({ code: 'inputInvalid' }));
  });
});

describe('the format of an input', () => {
  it.each([
    ['{"type": "bundle", "objects": []}', 'stdin', 'stix'],
    ['a,b\nc,d\n', 'stdin', 'csv'],
    ['just text, with a comma\nand a line without', 'stdin', 'text'],
    ['one line', 'feed.csv', 'csv'],
    ['https://a.example/\nhttps://b.example/', 'stdin', 'text'],
  ] as const)('%j from %s is %s', (text, source, format) => {
    expect(detectFormat(text, source)).toBe(format);
  });
});

describe('the proxy diff', () => {
  const proxy = (name: string, address: string, port = 3128, type: Proxy['location']['type'] = 'http'): Proxy => ({ name, location: { address, port, type } });

  it('finds nothing between equal lists', () => {
    const list = [proxy('a', 'a.example'), proxy('b', 'b.example')];
    expect(diffProxies(list, [...list])).toEqual({ added: [], removed: [], changed: [], reordered: false });
  });

  it('names what was added, removed, changed and reordered', () => {
    const diff = diffProxies(
      [proxy('a', 'a.example'), proxy('b', 'b.example'), proxy('c', 'c.example')],
      [proxy('c', 'c.example', 8080), proxy('a', 'a.example'), proxy('d', 'd.example')],
    );
    expect(diff.added.map((p) => p.name)).toEqual(['d']);
    expect(diff.removed.map((p) => p.name)).toEqual(['b']);
    expect(diff.changed).toEqual([{ name: 'c', from: proxy('c', 'c.example'), to: proxy('c', 'c.example', 8080) }]);
    expect(diff.reordered).toBe(true);
  });
});
