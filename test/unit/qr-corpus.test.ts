/**
 * The real decoder (ZXing-C++ in WebAssembly, as the library and the command load it) on
 * test/fixtures/qr/: images drawn by qrencode, zint, ImageMagick and Chromium, never by
 * this codebase (test/fixtures/qr/README.md says how). Every image's texts are read as
 * expected.json records them, but for the few named below with the reason; each code's
 * meaning follows from its text; and every hostile file in bad/ gets a clear answer.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

import { nodeDecoder } from '../../src/decoders';
import { IMAGE_LIMITS, linksInImage, linksInMail, type ImageCode, type ImageReading, type MailReport } from '../../src/readers';

const DIR = 'test/fixtures/qr';

interface Expected {
  readonly images: readonly { readonly file: string; readonly texts: readonly string[]; readonly covers: readonly string[] }[];
  readonly bad: readonly { readonly file: string; readonly what: string }[];
}

const expected = JSON.parse(readFileSync(join(DIR, 'expected.json'), 'utf8')) as Expected;

/** Images whose codes the library does not read, each for a stated reason: the texts it reads instead. */
const NOT_READ: Readonly<Record<string, { readonly texts: readonly string[]; readonly why: string }>> = {
  'barcode-1d-only.png': { texts: [], why: 'linear barcodes are not read: a photo of noise reads as one, and they are not how links arrive' },
  'logo-too-big.png': { texts: [], why: 'the logo covers 23% of the code, beyond what level H can correct: no reader recovers it' },
  'no-quiet-zone.png': { texts: [], why: 'ZXing needs the white margin around a QR code; this one has none on a dark background' },
  'format-gif-transparent.gif': {
    texts: [],
    why: "in Node the decoder's own image reader gives transparent pixels as black, so the light modules vanish; the extension draws images on white first",
  },
};

const readings = new Map<string, Promise<ImageReading>>();

/** The library's reading of a corpus file, once per file. */
function read(file: string): Promise<ImageReading> {
  let reading = readings.get(file);
  if (reading === undefined) {
    reading = linksInImage(readFileSync(join(DIR, file)), { decoder: nodeDecoder });
    readings.set(file, reading);
  }
  return reading;
}

async function codesOf(file: string): Promise<readonly ImageCode[]> {
  const reading = await read(file);
  if (!reading.ok) throw new Error(`${file}: ${reading.code} ${reading.reason}`);
  return reading.codes;
}

describe('the QR corpus', () => {
  it('holds at least 40 images of every kind the issue names', () => {
    expect(expected.images.length).toBeGreaterThanOrEqual(40);
    const covered = new Set(expected.images.flatMap((image) => image.covers));
    for (const kind of [
      'small',
      'low-contrast',
      'inverted',
      'logo',
      'rotated',
      'perspective',
      'noise',
      'multi',
      'screenshot',
      'png',
      'jpeg',
      'gif',
      'webp',
      'bmp',
    ])
      expect(covered, kind).toContain(kind);
  });

  it.each(expected.images.map((image) => [image.file, image.texts] as const))('%s gives its texts', async (file, texts) => {
    const want = NOT_READ[file]?.texts ?? texts;
    expect((await codesOf(file)).map((code) => code.text).sort()).toEqual([...want].sort());
  });

  it('reads all but the images named, each with its reason', () => {
    for (const [file, { why }] of Object.entries(NOT_READ)) {
      expect(expected.images.map((image) => image.file)).toContain(file);
      expect(why.split(' ').length).toBeGreaterThan(5);
    }
    expect(expected.images.length - Object.keys(NOT_READ).length).toBeGreaterThanOrEqual(90);
  });
});

describe("the meaning of the corpus's codes", () => {
  /** The one code of a file: its kind, and its target or refusal code. */
  async function meaning(file: string): Promise<[string, string | null, string | undefined]> {
    const [code, ...rest] = await codesOf(file);
    expect(rest).toEqual([]);
    return [code?.kind ?? '', code?.target ?? null, code?.refused?.code];
  }

  it.each([
    ['content-https.png', 'https://mail-quota.evil.example/verify?user=alice'],
    ['content-ipv4.png', 'http://192.0.2.45/login.php?id=7'],
    ['content-ipv6.png', 'http://[2001:db8::45]:8443/owa/auth/logon.aspx'],
    ['content-defanged.png', 'https://evil.example/login'],
    ['content-safelinks.png', 'https://evil.example/login'],
    ['content-urlto.png', 'http://evil.example/path'],
    ['content-mebkm.png', 'https://evil.example/'],
    ['content-uppercase.png', 'https://evil.example/LOGIN'],
    ['content-localhost.png', 'http://127.0.0.1:8080/'],
    ['content-idn-utf8.png', 'https://xn--bcher-kva.example/login'],
    ['content-idn-eci.png', 'https://xn--bnk-6cd.example/login'],
    ['screenshot-1920x1080.png', 'https://mail-quota.evil.example/verify?u=alice%40corp.test&t=1f2e3d4c'],
  ])('%s is a link to %s', async (file, target) => {
    expect(await meaning(file)).toEqual(['link', target, undefined]);
  });

  it.each([
    ['content-javascript.png', 'scheme'],
    ['content-data-url.png', 'scheme'],
    ['content-file-url.png', 'scheme'],
  ])('%s is a link the resolver refuses', async (file) => {
    const [kind, target, refused] = await meaning(file);
    expect([kind, target]).toEqual(['link', null]);
    expect(refused).toMatch(/\w/);
  });

  it.each([
    ['content-wifi.png', 'wifi'],
    ['content-vcard.png', 'contact'],
    ['content-mailto.png', 'email'],
    ['content-tel.png', 'phone'],
    ['content-sms.png', 'sms'],
    ['content-text.png', 'text'],
    ['content-text-domain.png', 'text'],
  ])('%s is shown as %s, never a target', async (file, kind) => {
    expect(await meaning(file)).toEqual([kind, null, undefined]);
  });
});

describe('the hostile files', () => {
  const ANSWERS: Readonly<Record<string, string | readonly string[]>> = {
    'bad/empty.png': 'imageEmpty',
    'bad/truncated.png': 'imageUnreadable',
    'bad/bomb-10000x10000.png': 'imageTooManyPixels',
    'bad/huge-50000x50000.png': 'imageTooManyPixels',
    'bad/huge-truncated.jpg': 'imageTooManyPixels',
    'bad/text-named.png': 'notImage',
    'bad/qr.svg': 'notImage',
    'bad/1x1.png': [],
    // A GIF is read at its first frame, as a mail client shows it before it animates.
    'bad/animated-code-in-frame-2.gif': [],
    'bad/animated-code-in-all-frames.gif': ['https://evil.example/animated-all'],
    // Told by its bytes, not its name; a broken checksum does not hide the code.
    'bad/png-named.jpg': ['https://mail-quota.evil.example/verify?user=alice'],
    'bad/bad-crc.png': ['https://mail-quota.evil.example/verify?user=alice'],
  };

  it('are every file in bad/', () => {
    expect(Object.keys(ANSWERS).sort()).toEqual(expected.bad.map((bad) => bad.file).sort());
  });

  it.each(Object.entries(ANSWERS))('%s: %j', async (file, answer) => {
    const reading = await read(file);
    if (typeof answer === 'string') {
      expect(reading).toMatchObject({ ok: false, code: answer });
      expect(reading.ok ? '' : reading.reason).toMatch(/\w/);
    } else expect(reading.ok ? reading.codes.map((code) => code.text) : reading.code).toEqual(answer);
  });
});

describe('the images of a reported mail', () => {
  const base64 = (file: string): string =>
    (
      readFileSync(join(DIR, file))
        .toString('base64')
        .match(/.{1,76}/g) ?? []
    ).join('\r\n');

  /** A multipart/related mail: HTML that shows inline images, then attachments, each part an image of the corpus. */
  function mail(inline: readonly [string, string][], attached: readonly [string, string][] = []): Uint8Array {
    const part = (file: string, name: string, disposition: string): string =>
      [
        `Content-Type: image/${file.endsWith('.jpg') ? 'jpeg' : 'png'}; name="${name}"`,
        `Content-Disposition: ${disposition}; filename="${name}"`,
        `Content-ID: <${name}>`,
        'Content-Transfer-Encoding: base64',
        '',
        base64(file),
      ].join('\r\n');
    const html = [
      'Content-Type: text/html; charset=utf-8',
      '',
      `<p>Scan to keep your mailbox</p>${inline.map(([, name]) => `<img src="cid:${name}" alt="">`).join('')}`,
    ].join('\r\n');
    const parts = [html, ...inline.map(([file, name]) => part(file, name, 'inline')), ...attached.map(([file, name]) => part(file, name, 'attachment'))];
    const body = `${parts.map((text) => `--b1\r\n${text}`).join('\r\n')}\r\n--b1--\r\n`;
    return new TextEncoder().encode(
      ['From: "IT Desk" <it@evil.example>', 'Subject: Mailbox full', 'MIME-Version: 1.0', 'Content-Type: multipart/related; boundary="b1"', '', body].join(
        '\r\n',
      ),
    );
  }

  async function report(bytes: Uint8Array, withDecoder = true): Promise<MailReport> {
    const reading = await linksInMail(bytes, withDecoder ? { decoder: nodeDecoder } : {});
    if (!reading.ok) throw new Error(reading.reason);
    return reading;
  }

  it("list an inline code's link and an attached one's, at qr:<image name>, and say which image could not be scanned", async () => {
    const found = await report(
      mail(
        [['content-https.png', 'scan.png']],
        [
          ['screenshot-1280x900.jpg', 'notice.jpg'],
          ['bad/truncated.png', 'broken.png'],
          ['content-wifi.png', 'wifi.png'],
        ],
      ),
    );
    expect(found.links.map((link) => [link.target, link.where, link.shown])).toEqual([
      ['https://mail-quota.evil.example/verify?user=alice', ['qr:scan.png'], null],
      ['https://mfa-reset.evil.example/enrol?id=8812', ['qr:notice.jpg'], null],
    ]);
    expect(found.problems).toEqual([
      {
        code: 'imageUnreadable',
        params: ['could not be decoded: Failed to load image from memory'],
        reason: 'could not be scanned for codes: could not be decoded: Failed to load image from memory',
        where: 'qr:broken.png',
      },
    ]);
  });

  it('are not scanned without a decoder', async () => {
    expect((await report(mail([['content-https.png', 'scan.png']]), false)).links).toEqual([]);
  });

  it(`are scanned at most ${IMAGE_LIMITS.mailImages} a mail, and the rest are named as a problem`, async () => {
    const many = Array.from({ length: IMAGE_LIMITS.mailImages + 3 }, (_, i): [string, string] => ['bad/1x1.png', `pixel-${i}.png`]);
    const found = await report(mail([...many, ['content-https.png', 'last.png']]));
    expect(found.links).toEqual([]);
    expect(found.problems.map((problem) => problem.code)).toEqual(['tooManyImages']);
  });
});
