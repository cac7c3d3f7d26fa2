/**
 * `isolink qr`, end to end: the built command as a process, reading images of the corpus
 * (test/fixtures/qr/, drawn by other tools) with the decoder bundled in dist/, and the
 * simulator over real HTTP on 127.0.0.1 for --open. Reading sends nothing and needs no
 * configuration.
 */
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

import type { Simulator } from '../simulator';
import { useSimulator } from '../simulator/helpers';
import { apiCalls, envFor, isolink, put, records, scratch } from './helpers';

const handle = useSimulator();
const sim = (): Simulator => handle.sim;

const image = (name: string): string => resolve('test/fixtures/qr', name);

describe('isolink qr', () => {
  it('prints file, text and target for each code, and what a code that is not a link holds', async () => {
    const ran = await isolink(['qr', image('content-defanged.png'), image('content-wifi.png'), image('content-javascript.png')]);
    expect(ran.code).toBe(0);
    expect(ran.stdout.split('\n')).toEqual([
      `${image('content-defanged.png')}\thxxps://evil[.]example/login\thttps://evil.example/login`,
      `${image('content-wifi.png')}\tWIFI:T:WPA;S:CorpGuest;P:secret;;\t(wifi, not a link: not opened)`,
      `${image('content-javascript.png')}\tjavascript:alert(document.domain)\trefused: uses the javascript: scheme; only http and https links can be isolated`,
      '',
    ]);
  });

  it('prints one JSON object per code, several to an image, with refused only where a link is refused', async () => {
    const ran = await isolink(['qr', '--json', image('multi-3.jpg'), image('content-data-url.png')]);
    expect(ran.code).toBe(0);
    const codes = records(ran.stdout);
    expect(codes.map((code) => code['file'])).toEqual([image('multi-3.jpg'), image('multi-3.jpg'), image('multi-3.jpg'), image('content-data-url.png')]);
    for (const code of codes) {
      const fields = ['file', 'format', 'kind', 'target', 'text', ...(code['target'] === null ? ['refused'] : [])];
      expect(Object.keys(code).sort()).toEqual(fields.sort());
    }
    expect(codes[3]).toMatchObject({ kind: 'link', target: null, refused: { code: 'urlScheme' } });
  });

  it('reads WebP, unwraps a Safe Links code, and needs no configuration or network', async () => {
    const before = sim().requests.length;
    const ran = await isolink(['qr', '--json', image('screenshot-1280x900-dark.webp'), image('content-safelinks.png')], {
      env: { ISOLINK_CONFIG: '/nonexistent/config.json' },
    });
    expect(ran.code).toBe(0);
    expect(records(ran.stdout).map((code) => code['target'])).toEqual(['https://mfa-reset.evil.example/enrol?id=8812', 'https://evil.example/login']);
    expect(sim().requests.length).toBe(before);
  });

  it('says on stderr that an image holds no code, exit 0', async () => {
    const ran = await isolink(['qr', '--json', image('screenshot-no-code.png')]);
    expect(ran.code).toBe(0);
    expect(ran.stdout).toBe('');
    expect(ran.stderr).toMatch(/no code found in .*screenshot-no-code\.png/);
  });

  it.each([
    ['a file that is not an image', put(scratch(), 'notes.png', 'just words'), /notes\.png is not an image/],
    ['an empty file', put(scratch(), 'empty.png', ''), /empty\.png is empty/],
    ['a decompression bomb', image('bad/bomb-10000x10000.png'), /declares 10000 × 10000 pixels, beyond the limit of 40 megapixels/],
    ['a truncated image', image('bad/truncated.png'), /truncated\.png could not be decoded/],
  ])('exits 2 for %s and still reads the other files', async (_, file, words) => {
    const ran = await isolink(['qr', '--json', file, image('content-https.png')]);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toMatch(words);
    expect(records(ran.stdout).map((code) => code['target'])).toEqual(['https://mail-quota.evil.example/verify?user=alice']);
  });

  it('exits 2 for a file that cannot be read', async () => {
    const ran = await isolink(['qr', '/nonexistent/scan.png']);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain('Cannot read /nonexistent/scan.png');
  });

  it('--open isolates the links of every code in one request, and not the codes that are not links', async () => {
    const ran = await isolink(['qr', '--open', '--json', image('content-https.png'), image('content-wifi.png'), image('content-urlto.png')], {
      env: envFor(sim()),
    });
    expect(ran.code).toBe(0);
    const created = apiCalls(sim()).map((call) =>
      call.filter((entry) => entry.command === 'create_context').flatMap((entry) => (entry as { context_data?: { urls?: string[] } }).context_data?.urls ?? []),
    );
    expect(created.filter((urls) => urls.length > 0)).toEqual([['https://mail-quota.evil.example/verify?user=alice', 'http://evil.example/path']]);
    for (const line of records(ran.stdout)) expect(String(line['launch'])).toMatch(new RegExp(`^${sim().url}/launch\\?ctx=`));
  });

  it('lists the codes in the images of a reported mail with isolink mail', async () => {
    const png = (await import('node:fs')).readFileSync(image('content-https.png')).toString('base64');
    const mail = [
      'From: it@evil.example',
      'Subject: Scan to keep your mailbox',
      'MIME-Version: 1.0',
      'Content-Type: multipart/mixed; boundary="b"',
      '',
      '--b',
      'Content-Type: text/plain',
      '',
      'Scan the code.',
      '--b',
      'Content-Type: image/png; name="scan.png"',
      'Content-Disposition: attachment; filename="scan.png"',
      'Content-Transfer-Encoding: base64',
      '',
      png,
      '--b--',
      '',
    ].join('\r\n');
    const ran = await isolink(['mail', '--json', put(scratch(), 'quish.eml', mail)]);
    expect(ran.code).toBe(0);
    expect(records(ran.stdout)).toMatchObject([{ target: 'https://mail-quota.evil.example/verify?user=alice', where: ['qr:scan.png'], shown: null }]);
  });
});
