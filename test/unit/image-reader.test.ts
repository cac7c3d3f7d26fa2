/**
 * linksInImage, rule by rule, with a decoder the test controls: what a file must be before
 * any decoder sees it (the header and IMAGE_LIMITS), and what a code's text means (a link
 * through the one resolver, or something only shown). The real decoder on images made by
 * other tools is test/unit/qr-corpus.test.ts.
 */
import { describe, expect, it } from 'vitest';

import { checkImage, IMAGE_LIMITS, imageHeader, linksInImage, type DecodedCode, type ImageDecoder, type ImageReport } from '../../src/readers';
import { meaningOf } from '../../src/readers/codes';

const ascii = (text: string): number[] => [...text].map((char) => char.charCodeAt(0));
const be32 = (n: number): number[] => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
const le16 = (n: number): number[] => [n & 255, n >>> 8];
const le32 = (n: number): number[] => [...le16(n & 0xffff), ...le16(n >>> 16)];

/** The first bytes of an image of each format, declaring this size (what the header reader reads, no more). */
const HEADERS = {
  png: (w: number, h: number) => new Uint8Array([0x89, ...ascii('PNG\r\n\x1a\n'), 0, 0, 0, 13, ...ascii('IHDR'), ...be32(w), ...be32(h), 8, 6, 0, 0, 0]),
  gif: (w: number, h: number) => new Uint8Array([...ascii('GIF89a'), ...le16(w), ...le16(h), 0, 0, 0]),
  bmp: (w: number, h: number) => new Uint8Array([...ascii('BM'), ...new Array<number>(16).fill(0), ...le32(w), ...le32(-h >>> 0), 1, 0]),
  // A JFIF segment first, then a baseline frame header: height before width.
  jpeg: (w: number, h: number) =>
    new Uint8Array([
      0xff,
      0xd8,
      0xff,
      0xe0,
      0,
      16,
      ...ascii('JFIF\0'),
      1,
      1,
      0,
      0,
      1,
      0,
      1,
      0,
      0,
      0xff,
      0xc0,
      0,
      17,
      8,
      h >> 8,
      h & 255,
      w >> 8,
      w & 255,
      3,
      0,
      0,
      0,
    ]),
  webpX: (w: number, h: number) =>
    new Uint8Array([...ascii('RIFF'), 0, 0, 0, 0, ...ascii('WEBPVP8X'), 10, 0, 0, 0, 0, 0, 0, 0, ...le32(w - 1).slice(0, 3), ...le32(h - 1).slice(0, 3), 0, 0]),
  webpL: (w: number, h: number) => {
    const bits = (w - 1) | ((h - 1) << 14);
    return new Uint8Array([...ascii('RIFF'), 0, 0, 0, 0, ...ascii('WEBPVP8L'), 5, 0, 0, 0, 0x2f, ...le32(bits >>> 0), 0, 0, 0, 0, 0]);
  },
} as const;

/** A decoder that gives these codes, and counts how often it was asked. */
function fakeDecoder(codes: readonly DecodedCode[]): ImageDecoder & { calls: number } {
  const decoder = Object.assign(
    async (): Promise<readonly DecodedCode[]> => {
      decoder.calls++;
      return Promise.resolve(codes);
    },
    { calls: 0 },
  );
  return decoder;
}

const code = (text: string, format = 'QRCode'): DecodedCode => ({ text, format, box: { x: 1, y: 2, width: 30, height: 30 } });

async function read(texts: readonly string[], unwrap?: 'unwrap' | 'keep'): Promise<ImageReport> {
  const reading = await linksInImage(HEADERS.png(100, 100), { decoder: fakeDecoder(texts.map((text) => code(text))), ...(unwrap ? { unwrap } : {}) });
  if (!reading.ok) throw new Error(`expected an image, got ${reading.code}`);
  return reading;
}

describe('the header of an image', () => {
  it.each([
    ['png', HEADERS.png(1920, 1080)],
    ['gif', HEADERS.gif(640, 480)],
    ['bmp', HEADERS.bmp(300, 200)],
    ['jpeg', HEADERS.jpeg(4032, 3024)],
    ['webp', HEADERS.webpX(5000, 3000)],
    ['webp', HEADERS.webpL(1200, 900)],
  ])('of a %s file gives its format and declared size', (format, bytes) => {
    const header = imageHeader(bytes);
    expect(header?.format).toBe(format);
    expect([header?.width, header?.height]).not.toContain(undefined);
    expect((header?.width ?? 0) * (header?.height ?? 0)).toBeGreaterThan(0);
  });

  it('reads the declared sizes exactly', () => {
    expect(imageHeader(HEADERS.png(1920, 1080))).toEqual({ format: 'png', width: 1920, height: 1080 });
    expect(imageHeader(HEADERS.jpeg(4032, 3024))).toEqual({ format: 'jpeg', width: 4032, height: 3024 });
    expect(imageHeader(HEADERS.bmp(300, 200))).toEqual({ format: 'bmp', width: 300, height: 200 });
    expect(imageHeader(HEADERS.webpX(5000, 3000))).toEqual({ format: 'webp', width: 5000, height: 3000 });
    expect(imageHeader(HEADERS.webpL(1200, 900))).toEqual({ format: 'webp', width: 1200, height: 900 });
  });

  it('is null for what is not an image, by its bytes and never its name', () => {
    for (const text of ['', 'hello', '<svg xmlns="http://www.w3.org/2000/svg"/>', '%PDF-1.7', 'GIF8', '\x89PNG\r\n\x1a\n'])
      expect(imageHeader(new TextEncoder().encode(text))).toBeNull();
  });

  it('ends on a JPEG whose segments loop or stop short', () => {
    // A segment length of 0 and one that runs past the end: both end the walk.
    expect(imageHeader(new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0, ...new Array<number>(20).fill(0)]))).toBeNull();
    expect(imageHeader(new Uint8Array([0xff, 0xd8, 0xff, 0xe1, 0xff, 0xff, ...new Array<number>(20).fill(0)]))).toBeNull();
    const fills = new Uint8Array(100_000).fill(0xff);
    fills.set([0xff, 0xd8, 0xff]);
    expect(imageHeader(fills)).toBeNull();
  });
});

describe('an image checked before decoding', () => {
  it('is refused when empty, not an image, or larger than the byte limit', () => {
    expect(checkImage(new Uint8Array())).toMatchObject({ ok: false, code: 'imageEmpty' });
    expect(checkImage(new TextEncoder().encode('not an image'))).toMatchObject({ ok: false, code: 'notImage' });
    const large = new Uint8Array(IMAGE_LIMITS.bytes + 1);
    large.set(HEADERS.png(10, 10));
    expect(checkImage(large)).toMatchObject({ ok: false, code: 'imageTooLarge', params: ['20'] });
  });

  it('is refused when it declares more pixels or a longer side than the limits, before the decoder runs', async () => {
    const decoder = fakeDecoder([code('https://never.example/')]);
    for (const bytes of [
      HEADERS.png(10_000, 10_000),
      HEADERS.jpeg(65_000, 65_000),
      HEADERS.webpX(16_000, 16_000),
      HEADERS.png(40_000, 1),
      HEADERS.gif(65_535, 65_535),
    ]) {
      const reading = await linksInImage(bytes, { decoder });
      expect(reading).toMatchObject({ ok: false, code: 'imageTooManyPixels' });
      expect(reading.ok ? '' : reading.reason).toMatch(/beyond the limit of 40 megapixels and 32767 pixels a side/);
    }
    expect(decoder.calls).toBe(0);
  });

  it('is refused when it declares no pixels', async () => {
    const decoder = fakeDecoder([]);
    expect(await linksInImage(HEADERS.png(0, 100), { decoder })).toMatchObject({ ok: false, code: 'imageUnreadable' });
    expect(decoder.calls).toBe(0);
  });

  it('answers a decoder that throws as unreadable, never with a throw', async () => {
    const decoder: ImageDecoder = () => Promise.reject(new Error('Failed to load image from memory'));
    expect(await linksInImage(HEADERS.png(10, 10), { decoder })).toEqual({
      ok: false,
      code: 'imageUnreadable',
      params: ['Failed to load image from memory'],
      reason: 'could not be decoded: Failed to load image from memory',
    });
  });

  it('lists at most the limit of codes', async () => {
    const many = Array.from({ length: 100 }, (_, i) => code(`https://c${i}.example/`));
    const reading = await linksInImage(HEADERS.png(10, 10), { decoder: fakeDecoder(many) });
    expect(reading.ok && reading.codes.length).toBe(IMAGE_LIMITS.codes);
  });
});

describe("a code's text", () => {
  it('that is a URL is a link, resolved as any link', async () => {
    const [only] = (await read(['https://evil.example/login?a=1'])).codes;
    expect(only).toEqual({
      text: 'https://evil.example/login?a=1',
      format: 'QRCode',
      box: { x: 1, y: 2, width: 30, height: 30 },
      kind: 'link',
      url: 'https://evil.example/login?a=1',
      target: 'https://evil.example/login?a=1',
      wrappedBy: [],
      opaque: false,
    });
  });

  it('that is defanged or wrapped gives the real target, as the settings say', async () => {
    const wrapped = 'https://nam02.safelinks.protection.outlook.com/?url=https%3A%2F%2Fevil.example%2Flogin&data=05&reserved=0';
    const { codes } = await read(['hxxps://evil[.]example/a', wrapped]);
    expect(codes.map((c) => [c.url, c.target, c.wrappedBy])).toEqual([
      ['https://evil.example/a', 'https://evil.example/a', []],
      [wrapped, 'https://evil.example/login', ['safelinks']],
    ]);
    const kept = await read([wrapped], 'keep');
    expect(kept.codes[0]?.target).toBe(wrapped);
  });

  it('gives the URL of URLTO: and MEBKM: codes, with the escapes undone and http where no scheme is written', () => {
    expect(meaningOf('URLTO:evil.example/path', 'unwrap')).toMatchObject({ kind: 'link', target: 'http://evil.example/path' });
    expect(meaningOf('urlto:https://evil.example/x', 'unwrap')).toMatchObject({ kind: 'link', target: 'https://evil.example/x' });
    expect(meaningOf('MEBKM:TITLE:My bank;URL:https\\://evil.example/a\\;b;;', 'unwrap')).toMatchObject({ kind: 'link', url: 'https://evil.example/a;b' });
    expect(meaningOf('MEBKM:URL:evil.example;TITLE:x;;', 'unwrap')).toMatchObject({ kind: 'link', target: 'http://evil.example/' });
    expect(meaningOf('MEBKM:TITLE:no url;;', 'unwrap')).toMatchObject({ kind: 'text', target: null });
  });

  it('that is a bare host gives an http link, as a phone opens it', () => {
    expect(meaningOf('evil.example/login', 'unwrap')).toMatchObject({ kind: 'link', target: 'http://evil.example/login' });
    expect(meaningOf('evil.example:8080/x', 'unwrap')).toMatchObject({ kind: 'link', target: 'http://evil.example:8080/x' });
  });

  it.each([
    ['WIFI:T:WPA;S:CorpGuest;P:secret;;', 'wifi'],
    ['BEGIN:VCARD\nVERSION:3.0\nFN:Help Desk\nURL:https://evil.example/\nEND:VCARD', 'contact'],
    ['MECARD:N:Desk,Help;URL:https://evil.example;;', 'contact'],
    ['mailto:helpdesk@evil.example?subject=verify', 'email'],
    ['MATMSG:TO:a@evil.example;SUB:x;BODY:https://evil.example;;', 'email'],
    ['tel:+15555550100', 'phone'],
    ['SMSTO:+15555550100:https://evil.example/', 'sms'],
    ['BEGIN:VEVENT\nSUMMARY:x\nEND:VEVENT', 'event'],
    ['geo:48.85,2.35', 'place'],
    ['Scan me: https://evil.example/ now', 'text'],
    ['INV-2024-0042', 'text'],
    ['', 'text'],
  ])('%j is shown as %s, never a target', (text, kind) => {
    expect(meaningOf(text, 'unwrap')).toEqual({ kind, url: null, target: null, wrappedBy: [], opaque: false });
  });

  it.each([
    ['javascript:alert(document.domain)', 'scheme'],
    ['JavaScript:fetch("https://evil.example")', 'scheme'],
    ['data:text/html;base64,PHNjcmlwdD4=', 'scheme'],
    ['file:///etc/passwd', 'scheme'],
    ['otpauth://totp/Corp:alice?secret=JBSWY3DPEHPK3PXP', 'scheme'],
  ])('%j is a link refused by the resolver', (text) => {
    const meaning = meaningOf(text, 'unwrap');
    expect(meaning.kind).toBe('link');
    expect(meaning.target).toBeNull();
    expect(meaning.refused?.code).toMatch(/\w/);
    expect(meaning.refused?.reason).toMatch(/\w/);
  });
});
