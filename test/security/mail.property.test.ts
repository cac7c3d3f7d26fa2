/**
 * The mail reader under hostile input: it never throws (every answer is a report or a
 * failure with a known code and words), and its time stays linear in the size of the
 * mail. The time check is a ratio, as in linear.test.ts: a 4 MiB mail over a 1 MiB one is
 * ~4 for a linear reader and ~16 for a quadratic one; the bound is 10.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { linksInMail, MAIL_FAILURES, MAIL_PROBLEMS, type MailReading } from '../../src/readers';
import { prove } from './ledger';

const encode = (text: string): Uint8Array => new TextEncoder().encode(text);

/** A mail that uses most of what MIME offers: alternative bodies, quoted-printable, base64, an attached page and a forwarded message. */
const SEED = encode(
  [
    'From: =?UTF-8?B?UGF5UGFs?= <service@paypa1.example>',
    'Subject: =?iso-8859-1?Q?Re=E7u?=',
    'Date: Tue, 24 Nov 2026 09:30:00 +0000',
    'MIME-Version: 1.0',
    'Content-Type: multipart/mixed; boundary="outer"',
    '',
    '--outer',
    'Content-Type: multipart/alternative; boundary="inner"',
    '',
    '--inner',
    'Content-Type: text/plain; charset=windows-1252',
    'Content-Transfer-Encoding: quoted-printable',
    '',
    'Review invoice <https://pay-invoice.example/inv/42?a=3D1&b=3D=',
    '2> hxxps://evil[.]example/drop =93quoted=94',
    '--inner',
    'Content-Type: text/html; charset=utf-8',
    'Content-Transfer-Encoding: base64',
    '',
    Buffer.from(
      '<base href="https://b.example/"><a href="x?a=1&amp;b=2">www.paypal.com</a><!--[if mso]><v:rect href="https://v.example/"/><![endif]--><img src="https://t.example/p.gif">',
    ).toString('base64'),
    '--inner--',
    '--outer',
    'Content-Type: text/html; name="page.html"',
    'Content-Disposition: attachment; filename="page.html"',
    '',
    '<form action="https://collect.example/post"></form>',
    '--outer',
    'Content-Type: message/rfc822',
    '',
    'Subject: Fwd',
    'Content-Type: text/plain; charset=iso-2022-jp',
    '',
    'https://fwd.example/x',
    '--outer--',
    '',
  ].join('\r\n'),
);

const CODES = new Set<string>([...Object.keys(MAIL_FAILURES)]);
const PROBLEMS = new Set<string>([...Object.keys(MAIL_PROBLEMS)]);

/** An answer of the reader's contract: a report whose problems have known codes, or a failure with a known code and words. */
function expectAnswer(reading: MailReading): void {
  if (reading.ok) {
    for (const problem of reading.problems) expect(PROBLEMS.has(problem.code)).toBe(true);
    for (const link of reading.links) expect(link.target === null).toBe(link.refused !== undefined);
    return;
  }
  expect(CODES.has(reading.code)).toBe(true);
  expect(reading.reason.length).toBeGreaterThan(5);
}

const formats = fc.constantFrom<'auto' | 'eml' | 'msg'>('auto', 'eml', 'msg');

/** SEED with edits at random places: cuts, duplicated spans, bytes changed, text spliced in. */
const corrupted = fc
  .array(
    fc.oneof(
      fc.record({ kind: fc.constant('cut' as const), at: fc.nat(), length: fc.nat({ max: 200 }) }),
      fc.record({ kind: fc.constant('copy' as const), at: fc.nat(), length: fc.nat({ max: 400 }), to: fc.nat() }),
      fc.record({ kind: fc.constant('byte' as const), at: fc.nat(), value: fc.integer({ min: 0, max: 255 }) }),
      fc.record({
        kind: fc.constant('splice' as const),
        at: fc.nat(),
        text: fc.constantFrom(
          '--outer',
          '--inner--',
          '\r\n\r\n',
          '=?',
          '?=',
          '=\r\n',
          '<a href="',
          '<!--[if',
          'charset=utf-7',
          'charset=x-unknown',
          '+ADw-a href+AD0-+ACI-',
          '+2D3',
          '=?utf-7?Q?+AOk?=',
          'boundary=',
          '\u0000',
          ':',
          'Content-Type: message/rfc822\r\n\r\n',
        ),
      }),
    ),
    { minLength: 1, maxLength: 12 },
  )
  .map((edits) => {
    const bytes = [...SEED];
    for (const edit of edits) {
      const at = edit.at % (bytes.length + 1);
      if (edit.kind === 'cut') bytes.splice(at, edit.length);
      else if (edit.kind === 'copy') bytes.splice(edit.to % (bytes.length + 1), 0, ...bytes.slice(at, at + edit.length));
      else if (edit.kind === 'byte') bytes[at] = edit.value;
      else bytes.splice(at, 0, ...encode(edit.text));
    }
    return Uint8Array.from(bytes);
  });

/** A compound-file header followed by arbitrary sectors. */
const compound = fc.uint8Array({ minLength: 0, maxLength: 4096 }).map((rest) => Uint8Array.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, ...rest]));

describe('a hostile mail', () => {
  it('never makes linksInMail throw: a report, or a failure with a known code and words', async () => {
    await prove('mail-hostile', async () => {
      let cases = 0;
      for (const [name, bytes] of [
        ['arbitrary bytes', fc.uint8Array({ maxLength: 4096 })],
        ['compound files', compound],
        ['corrupted mails', corrupted],
      ] as const) {
        await fc.assert(
          fc.asyncProperty(bytes, formats, async (input, format) => {
            cases++;
            expectAnswer(await linksInMail(input, { format }));
          }),
          { numRuns: name === 'corrupted mails' ? 600 : 300 },
        );
      }
      return { cases, detail: `${cases} generated inputs: arbitrary bytes, compound files, corrupted mails, each format` };
    });
  });
});

/** A mail whose HTML body is `unit` repeated to about `size` bytes. */
function htmlMail(unit: string, size: number): Uint8Array {
  return encode(`From: a@b.example\r\nSubject: flood\r\nContent-Type: text/html\r\n\r\n${unit.repeat(Math.ceil(size / unit.length))}`);
}

const MIB = 1024 * 1024;
const FLOODS: readonly (readonly [string, (size: number) => Uint8Array])[] = [
  [
    'distinct links',
    (size) =>
      encode(
        `Subject: l\r\nContent-Type: text/html\r\n\r\n${Array.from({ length: Math.ceil(size / 60) }, (_, i) => `<a href="https://h${i}.example/p">x${i}.example</a>`).join('')}`,
      ),
  ],
  ['nested elements', (size) => htmlMail('<div><span>', size)],
  [
    'script literals joined',
    (size) => htmlMail(`<script>${"location = 'htt' + 'ps:\\x2f/' + atob('ZXZpbC5leGFtcGxl') + '/a';".repeat(Math.ceil(size / 70))}</script>`, 1),
  ],
  [
    'svg attachment script',
    (size) =>
      encode(
        `Subject: s\r\nContent-Type: multipart/mixed; boundary="b"\r\n\r\n--b\r\nContent-Type: image/svg+xml; name="v.svg"\r\n\r\n<svg><script><![CDATA[${"u = `https://e.example/${x}` + '\\u0061';".repeat(Math.ceil(size / 45))}]]></script></svg>\r\n--b--\r\n`,
      ),
  ],
  ['defanged text', (size) => htmlMail('hxxps://evil[.]example/a ', size)],
  ['one attribute', (size) => encode(`Subject: a\r\nContent-Type: text/html\r\n\r\n<a href="https://a.example/${'a'.repeat(size)}">x</a>`)],
  ['conditional comments', (size) => htmlMail('<!--[if mso]><a href="https://m.example/">m</a><![endif]-->', size)],
  ['nested conditional comments', (size) => htmlMail(`${'<!--[if mso]>'.repeat(Math.ceil(size / 26))}${'<![endif]-->'.repeat(Math.ceil(size / 26))}`, 1)],
  [
    'parts',
    (size) =>
      encode(
        `Subject: p\r\nContent-Type: multipart/mixed; boundary="b"\r\n\r\n${'--b\r\nContent-Type: text/plain\r\n\r\nhttps://p.example/\r\n'.repeat(Math.ceil(size / 52))}--b--\r\n`,
      ),
  ],
];

async function timeOf(bytes: Uint8Array): Promise<number> {
  const start = performance.now();
  await linksInMail(bytes);
  return performance.now() - start;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

describe('reading a mail stays linear', () => {
  it('the 4 MiB / 1 MiB time ratio stays under 10 for every flood', async () => {
    await prove('linear-mail', async () => {
      const ratios: string[] = [];
      const over: string[] = [];
      for (const [name, make] of FLOODS) {
        const small = make(MIB);
        const large = make(4 * MIB);
        await timeOf(small);
        const smallTimes: number[] = [];
        const largeTimes: number[] = [];
        for (let run = 0; run < 3; run++) {
          smallTimes.push(await timeOf(small));
          largeTimes.push(await timeOf(large));
        }
        const ratio = median(largeTimes) / Math.max(median(smallTimes), 0.001);
        ratios.push(`${name} ${ratio.toFixed(1)}`);
        if (ratio >= 10) over.push(`${name}: ${ratio.toFixed(1)}× (${median(smallTimes).toFixed(1)} ms → ${median(largeTimes).toFixed(1)} ms)`);
      }
      console.log(`mail time ratios (4 MiB / 1 MiB, linear ≈ 4): ${ratios.join(', ')}`);
      expect(over).toEqual([]);
      return { cases: FLOODS.length, detail: `${FLOODS.length} floods, ratios ${ratios.join(', ')}` };
    });
  }, 300_000);
});
