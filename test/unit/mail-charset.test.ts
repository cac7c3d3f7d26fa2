/**
 * Charsets in the mail reader: the corpus of test/fixtures/mail/charset/ (UTF-7 bodies,
 * headers and attached pages, an unknown charset, legacy charsets under the labels mail
 * clients write), written by Python's codecs and email package (make-charset.py), each
 * mail's from, subject, links and problems stated by hand; then the label lookup, the
 * page decoder, the encoded-word rewrite, and the hook on postal-mime's internals.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import PostalMime from 'postal-mime';
import { describe, expect, it } from 'vitest';

import { linksInMail } from '../../src/readers';
import { charsetOf, charsetOfCodePage, decodeBytes, decodeText } from '../../src/readers/charset';
import { rewriteWords } from '../../src/readers/words';

const ROOT = resolve(import.meta.dirname, '../..');
const FOLDER = join(ROOT, 'test/fixtures/mail/charset');

interface Expected {
  readonly from: string;
  readonly subject: string;
  readonly links: readonly { target: string; shown: string | null; where: readonly string[] }[];
  readonly problems: readonly { code: string; params: readonly string[]; where: string }[];
}

const { mails } = JSON.parse(readFileSync(join(FOLDER, 'expected.json'), 'utf8')) as { mails: Record<string, Expected> };

describe('the charset corpus', () => {
  it('has the mails make-charset.py writes', () => {
    expect(Object.keys(mails)).toHaveLength(13);
  });

  it.each(Object.entries(mails))('%s', async (file, expected) => {
    const reading = await linksInMail(readFileSync(join(FOLDER, file)));

    expect(reading.ok).toBe(true);
    if (!reading.ok) return;
    expect(reading.from).toBe(expected.from);
    expect(reading.subject).toBe(expected.subject);
    expect(reading.links.map(({ target, shown, where }) => ({ target, shown, where }))).toEqual(expected.links);
    expect(reading.problems.map(({ code, params, where }) => ({ code, params, where }))).toEqual(expected.problems);
  });

  it('names the UTF-7 sender in the sender story too', async () => {
    const reading = await linksInMail(readFileSync(join(FOLDER, '02-utf7-headers.eml')));

    expect(reading.ok && reading.sender.from?.name).toBe('Microsoft\u00ae Konto');
  });

  it('says an unknown charset in English for the command', async () => {
    const reading = await linksInMail(readFileSync(join(FOLDER, '04-unknown-charset.eml')));

    expect(reading.ok && reading.problems[0]?.reason).toBe('is written in charset cp850, which Isolink does not know; it was read as windows-1252');
  });
});

describe('postal-mime, the parser the hook extends', () => {
  it('is the exact version whose internals src/readers/mime.ts hooks', () => {
    const pinned = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies['postal-mime'];
    const installed = (JSON.parse(readFileSync(join(ROOT, 'node_modules/postal-mime/package.json'), 'utf8')) as { version: string }).version;

    expect(pinned).toBe('4.0.0');
    expect(installed).toBe(pinned);
    expect(typeof (PostalMime.prototype as unknown as { collectNode?: unknown }).collectNode).toBe('function');
  });

  it('alone leaves a UTF-7 body undecoded: what the hook is for', async () => {
    const email = await PostalMime.parse(readFileSync(join(FOLDER, '01-utf7-html-body.eml')));

    expect(email.html).toContain('+ADw-a href+AD0-+ACI-https://konto-pruefung.example/login?id+AD0-7+ACI-+AD4-');
  });
});

describe('charsetOf', () => {
  it.each([
    ['utf-7', 'utf-7'],
    ['UTF-7', 'utf-7'],
    ['unicode-1-1-utf-7', 'utf-7'],
    ['x-unicode-2-0-utf-7', 'utf-7'],
    ['csUnicode11UTF7', 'utf-7'],
    ['"utf-7"', 'utf-7'],
    ['cp1252', 'windows-1252'],
    ['ms1252', 'windows-1252'],
    ['iso_8859_2', 'iso-8859-2'],
    ['ks_c_5601-1987', 'euc-kr'],
    ['cp949', 'euc-kr'],
    ['x-sjis', 'shift_jis'],
    ['cp932', 'shift_jis'],
    ['iso-8859-8-i', 'iso-8859-8-i'],
    ['iso2022_jp_2', 'iso-2022-jp'],
    ['gb2312', 'gbk'],
    ['cp936', 'gbk'],
    ['big5-hkscs', 'big5'],
    ['x-cp1251', 'windows-1251'],
    ['koi8_r', 'koi8-r'],
    ['cp65001', 'utf-8'],
    ['ascii', 'windows-1252'],
  ])('%s is %s', (label, name) => {
    const charset = charsetOf(label);

    expect(charset === null ? null : charset.kind === 'utf-7' ? 'utf-7' : charset.decoder.encoding).toBe(name);
  });

  it.each(['cp850', 'ibm437', 'x-private-label', 'iso-2022-kr', 'replacement', '', 'x'.repeat(41)])('does not know %j', (label) => {
    expect(charsetOf(label)).toBeNull();
  });
});

describe('decodeBytes', () => {
  const bytes = (...values: number[]): Uint8Array => Uint8Array.from(values);

  it('reads an unknown label as UTF-8 when the bytes are UTF-8, else as windows-1252, and says so', () => {
    expect(decodeBytes(new TextEncoder().encode('h\u00e9'), 'x-mine')).toEqual({ text: 'h\u00e9', unknown: { label: 'x-mine', readAs: 'utf-8' } });
    expect(decodeBytes(bytes(0x68, 0xe9), 'x-mine')).toEqual({ text: 'h\u00e9', unknown: { label: 'x-mine', readAs: 'windows-1252' } });
  });

  it('shows a hostile label as printable ASCII, cut', () => {
    expect(decodeBytes(bytes(0x61), 'x\n\u202e'.padEnd(60, 'y')).unknown?.label).toBe(`x??${'y'.repeat(37)}\u2026`);
  });
});

describe('decodeText (an attached page, an Outlook HTML body)', () => {
  const ascii = (text: string): Uint8Array => new TextEncoder().encode(text);

  it('reads the declared charset, UTF-7 included', () => {
    expect(decodeText(ascii('+ADw-a+AD4-'), 'utf-7')).toEqual({ text: '<a>', unknown: null });
  });

  it('reads a page whose own meta names UTF-7', () => {
    expect(decodeText(ascii('<meta charset="utf-7">+ADw-a+AD4-')).text).toBe('<meta charset="utf-7"><a>');
  });

  it('says an unknown declared charset and reads the meta one instead', () => {
    expect(decodeText(ascii('<meta charset=utf-7>+AOk-'), 'x-mine')).toEqual({
      text: '<meta charset=utf-7>\u00e9',
      unknown: { label: 'x-mine', readAs: 'utf-7' },
    });
  });

  it('says an unknown meta charset', () => {
    expect(decodeText(ascii('<meta charset=x-mine>a')).unknown).toEqual({ label: 'x-mine', readAs: 'utf-8' });
  });

  it('lets a byte-order mark win over any label', () => {
    expect(decodeText(Uint8Array.from([0xef, 0xbb, 0xbf, 0x61]), 'x-mine')).toEqual({ text: 'a', unknown: null });
  });

  it('reads an Outlook code page, 65000 as UTF-7, an unknown one named', () => {
    expect(charsetOfCodePage(65000)).toBe('utf-7');
    expect(decodeText(ascii('+AOk-'), charsetOfCodePage(65000)).text).toBe('\u00e9');
    expect(decodeText(ascii('a'), charsetOfCodePage(850)).unknown).toEqual({ label: 'cp850', readAs: 'utf-8' });
  });
});

describe('rewriteWords', () => {
  it('leaves words TextDecoder reads, and text without words, as they are', () => {
    expect(rewriteWords('=?utf-8?B?w6k=?= and =?iso-8859-1?Q?=E9?=')).toEqual({ value: '=?utf-8?B?w6k=?= and =?iso-8859-1?Q?=E9?=', unknown: [] });
    expect(rewriteWords('plain +AOk-')).toEqual({ value: 'plain +AOk-', unknown: [] });
  });

  it('rewrites a UTF-7 word in UTF-8, B or Q', () => {
    expect(rewriteWords('=?utf-7?B?K0FPay0=?=').value).toBe('=?utf-8?Q?=C3=A9?=');
    expect(rewriteWords('x =?UTF-7?Q?a+AOk-_b?= y').value).toBe('x =?utf-8?Q?a=C3=A9=20b?= y');
  });

  it('decodes adjacent words of one UTF-7 run together', () => {
    expect(rewriteWords('=?utf-7?Q?+AOkA?= =?utf-7?Q?6Q-?=').value).toBe('=?utf-8?Q?=C3=A9=C3=A9?=');
  });

  it('names each unknown label once', () => {
    expect(rewriteWords('=?x-a?Q?1?= =?x-a?Q?2?= =?x-b?Q?3?=').unknown).toEqual([
      { label: 'x-a', readAs: 'utf-8' },
      { label: 'x-b', readAs: 'utf-8' },
    ]);
  });
});
