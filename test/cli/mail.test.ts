/**
 * `isolink mail` and `bulk` with a mail, end to end: the built command as a process, the
 * simulator over real HTTP on 127.0.0.1 for --open. Reading a mail sends nothing and needs
 * no configuration; only --open talks to the service.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

import type { Simulator } from '../simulator';
import { useSimulator } from '../simulator/helpers';
import { apiCalls, envFor, isolink, put, records, scratch } from './helpers';

/** The sender corpus, written by Python's email package (test/fixtures/mail/make-sender.py). */
const SENDER = resolve(import.meta.dirname, '../fixtures/mail/sender');
/** The charset corpus, written by Python's codecs and email package (test/fixtures/mail/charset/make-charset.py). */
const CHARSET = resolve(import.meta.dirname, '../fixtures/mail/charset');

const handle = useSimulator();
const sim = (): Simulator => handle.sim;

const SAFE_LINK = 'https://eur01.safelinks.protection.outlook.com/?url=https%3A%2F%2Freal.example%2Flogin%3Fa%3D1&amp;data=05%7C01&amp;reserved=0';

/** A reported phish: a lying anchor, a wrapped one, a javascript: one, a mailto:, and the same link again in the text part. */
const PHISH = [
  'From: "PayPal" <service@paypa1.example>',
  'To: analyst@corp.example',
  'Subject: Your account is limited',
  'Date: Tue, 24 Nov 2026 09:30:00 +0000',
  'MIME-Version: 1.0',
  'Content-Type: multipart/alternative; boundary="b"',
  '',
  '--b',
  'Content-Type: text/plain; charset=utf-8',
  '',
  'Review invoice <https://pay-invoice.example/inv/42>',
  '--b',
  'Content-Type: text/html; charset=utf-8',
  '',
  '<p><a href="https://paypa1-login.example/verify">www.paypal.com</a>',
  '<a href="https://pay-invoice.example/inv/42">Review invoice</a>',
  `<a href="${SAFE_LINK}">Sign in</a>`,
  '<a href="javascript:alert(1)">Unsubscribe</a> <a href="mailto:help@corp.example">help</a>',
  '<img src="https://track.example/p.gif"></p>',
  '--b--',
  '',
].join('\r\n');

const PLAIN = 'From: a@corp.example\r\nSubject: Lunch\r\n\r\nSee you at noon.\r\n';

/** The URLs of each request that created contexts (one array per request). */
function createdUrls(): string[][] {
  return apiCalls(sim())
    .map((call) =>
      call.filter((entry) => entry.command === 'create_context').flatMap((entry) => (entry as { context_data?: { urls?: string[] } }).context_data?.urls ?? []),
    )
    .filter((urls) => urls.length > 0);
}

describe('isolink mail', () => {
  it('lists every link once with its shown text, real target, places and a mark where the text lies', async () => {
    const file = put(scratch(), 'reported.eml', PHISH);
    const ran = await isolink(['mail', file]);
    expect(ran.code).toBe(0);
    expect(ran.stdout.split('\n')).toEqual([
      '1\twww.paypal.com\thttps://paypa1-login.example/verify\thtml\tMISMATCH',
      '2\tReview invoice\thttps://pay-invoice.example/inv/42\thtml, text\t',
      '3\tSign in\thttps://real.example/login?a=1 (wrapped by Microsoft Safe Links)\thtml\t',
      '4\tUnsubscribe\trefused: javascript:alert(1) uses the javascript: scheme; only http and https links can be isolated\thtml\t',
      '',
    ]);
    expect(ran.stderr).toContain('Subject: Your account is limited');
    expect(ran.stderr).toContain('1 remote resource(s)');
  });

  it("tells the sender's story on stderr: the checks at receipt, the hop, replies sent elsewhere", async () => {
    const ran = await isolink(['mail', join(SENDER, '02-microsoft-365.eml')]);

    expect(ran.code).toBe(0);
    expect(ran.stderr.split('\n')).toEqual(
      expect.arrayContaining([
        'Sender: Microsoft 365 <no-reply@m365-alerts.example>',
        'Reply-To: helpdesk@reply-desk.example',
        'Checks at receipt: spf=fail dkim=none dmarc=fail compauth=fail',
        'Came in from: mail.m365-alerts.example [198.51.100.23] to BN8NAM12FT055.mail.protection.outlook.com',
        "Warning: replies would go to another domain than the sender's.",
      ]),
    );
  });

  it('lists the links of a mail written in UTF-7, and its decoded subject', async () => {
    const ran = await isolink(['mail', join(CHARSET, '01-utf7-html-body.eml')]);

    expect(ran.code).toBe(0);
    expect(ran.stdout.split('\n')).toEqual([
      '1\twww.sparkasse.de\thttps://konto-pruefung.example/login?id=7\thtml, text\tMISMATCH',
      '2\tKonto entsperren \u2192\thttps://evil-ut7.example/a+b\thtml\t',
      '',
    ]);
    expect(ran.stderr).toContain('Subject: Ihr Konto wurde gesperrt');
    expect(ran.stderr).not.toContain('does not know');
  });

  it('says a part in an unknown charset in its notes, and lists its links', async () => {
    const ran = await isolink(['mail', join(CHARSET, '04-unknown-charset.eml')]);

    expect(ran.code).toBe(0);
    expect(ran.stdout).toContain('https://cp850-portal.example/reset');
    expect(ran.stderr.split('\n')).toEqual(
      expect.arrayContaining([
        'isolink: html is written in charset cp850, which Isolink does not know; it was read as windows-1252.',
        'isolink: text is written in charset x-private-label, which Isolink does not know; it was read as utf-8.',
        'isolink: header:subject is written in charset x-private-label, which Isolink does not know; it was read as utf-8.',
      ]),
    );
  });

  it("names the reporter of a user's report and tells the original's story", async () => {
    const ran = await isolink(['mail', join(SENDER, '06-user-report.eml')]);

    expect(ran.stderr).toContain('Reported by: Jordan Lee <jordan.lee@corp.example>; the original mail:\nSender: Shared Files <share@files-portal.example>\n');
    expect(ran.stderr).toContain('Checks at receipt: spf=pass dkim=none dmarc=none compauth=softpass\n');
  });

  it('prints one JSON object per link: the mail it is in, then exactly the library fields, refused only where there is no target', async () => {
    const ran = await isolink(['mail', '--json', '-'], { input: PHISH });
    expect(ran.code).toBe(0);
    const links = records(ran.stdout);
    expect(links).toHaveLength(4);
    for (const link of links) {
      const fields = [
        'mail',
        'mismatch',
        'opaque',
        'scriptOnly',
        'shown',
        'target',
        'url',
        'where',
        'wrappedBy',
        ...(link['target'] === null ? ['refused'] : []),
      ];
      expect(link['mail']).toBe('stdin');
      expect(Object.keys(link).sort()).toEqual(fields.sort());
    }
    expect(links[2]).toMatchObject({ target: 'https://real.example/login?a=1', wrappedBy: ['safelinks'], opaque: false, shown: 'Sign in' });
    expect(links[3]).toMatchObject({ url: 'javascript:alert(1)', target: null, refused: { code: 'urlScheme' } });
    expect(ran.stderr).toBe('');
  });

  it('reads a saved SVG on its own as a mail holding it: attachment:<name>, scriptOnly in --json, SCRIPT in the table', async () => {
    const dir = scratch();
    const svg = `<svg><a href="https://shown.example/"><text>Play</text></a><script><![CDATA[location = atob('${Buffer.from('https://voice.evil.example/l').toString('base64')}')]]></script></svg>`;
    const file = put(dir, 'VoiceMessage.svg', svg);
    const ran = await isolink(['mail', '--json', file]);
    expect(ran.code).toBe(0);
    expect(records(ran.stdout).map((link) => [link['target'], link['where'], link['scriptOnly']])).toEqual([
      ['https://shown.example/', ['attachment:VoiceMessage.svg'], false],
      ['https://voice.evil.example/l', ['attachment:VoiceMessage.svg'], true],
    ]);
    const table = await isolink(['mail', '--format', 'svg', file]);
    expect(table.stdout.split('\n')[1]).toBe('2\t\thttps://voice.evil.example/l\tattachment:VoiceMessage.svg\tSCRIPT');
    const page = await isolink(['mail', '--format', 'html', '--json', put(dir, 'saved.txt', '<a href="https://page.example/">p</a>')]);
    expect(records(page.stdout).map((link) => link['where'])).toEqual([['attachment:saved.txt']]);
    expect((await isolink(['mail', '--format', 'exe', file])).code).toBe(2);
  });

  it('reads a saved PDF on its own, by its first bytes or --format pdf: its link annotation, text URLs and drawn code', async () => {
    const fixture = (name: string): string => resolve(import.meta.dirname, '../fixtures/pdf', name);
    const ran = await isolink(['mail', '--json', fixture('links.pdf')]);
    expect(ran.code).toBe(0);
    expect(records(ran.stdout).map((link) => [link['target'], link['shown'], link['where'], link['scriptOnly']])).toEqual([
      ['https://base.example/portal/login?id=7', 'Open document', ['attachment:links.pdf'], false],
      ['https://absolute.example/a', null, ['attachment:links.pdf'], false],
      ['https://text.example/path?q=1', null, ['attachment:links.pdf'], false],
      ['https://defanged.example/x', null, ['attachment:links.pdf'], false],
    ]);
    const dir = scratch();
    const renamed = put(dir, 'scan.bin', readFileSync(fixture('qr-image.pdf')));
    const qr = await isolink(['mail', '--format', 'pdf', '--json', renamed]);
    expect(records(qr.stdout).map((link) => [link['target'], link['where']])).toEqual([['https://qr-image.example/scan', ['qr:scan.bin']]]);
    const locked = await isolink(['mail', fixture('encrypted.pdf')]);
    expect(locked.code).toBe(0);
    expect(locked.stderr).toContain('attachment:encrypted.pdf is a PDF encrypted with a password');
  });

  it('reads with no configuration, and with a broken one, and sends nothing', async () => {
    const dir = scratch();
    const file = put(dir, 'reported.eml', PHISH);
    const broken = put(dir, 'config.json', '{ not json');
    const before = sim().requests.length;
    const ran = await isolink(['mail', '--json', file], { env: { ISOLINK_CONFIG: broken, ISOLINK_SERVICE_URL: sim().url, ISOLINK_TOKEN: sim().adminToken } });
    expect(ran.code).toBe(0);
    expect(records(ran.stdout)).toHaveLength(4);
    expect(sim().requests.length).toBe(before);
  });

  it('--open creates every isolatable target in one request and prints NDJSON as bulk does', async () => {
    const file = put(scratch(), 'reported.eml', PHISH);
    const ran = await isolink(['mail', '--open', '--json', file], { env: envFor(sim()) });
    expect(ran.code).toBe(0);
    expect(createdUrls()).toEqual([['https://paypa1-login.example/verify', 'https://pay-invoice.example/inv/42', 'https://real.example/login?a=1']]);
    const lines = records(ran.stdout);
    expect(lines).toHaveLength(3);
    for (const line of lines) expect(String(line['launch'])).toMatch(new RegExp(`^${sim().url}/launch\\?ctx=`));
  });

  it('--only creates just the rows named', async () => {
    const file = put(scratch(), 'reported.eml', PHISH);
    const ran = await isolink(['mail', '--open', '--only', '1,3', '--json', file], { env: envFor(sim()) });
    expect(ran.code).toBe(0);
    expect(createdUrls()).toEqual([['https://paypa1-login.example/verify', 'https://real.example/login?a=1']]);
  });

  it('refuses --only outside the rows, and --only without --open, before sending anything', async () => {
    const file = put(scratch(), 'reported.eml', PHISH);
    const outside = await isolink(['mail', '--open', '--only', '9', file], { env: envFor(sim()) });
    expect(outside.code).toBe(2);
    expect(outside.stderr).toContain('--only takes row numbers from 1 to 4');
    const alone = await isolink(['mail', '--only', '1', file]);
    expect(alone.code).toBe(2);
    expect(createdUrls()).toEqual([]);
  });

  it('says on stderr that a mail has no links, exit 0', async () => {
    const ran = await isolink(['mail', '--json', put(scratch(), 'lunch.eml', PLAIN)]);
    expect(ran.code).toBe(0);
    expect(ran.stdout).toBe('');
    expect(ran.stderr).toMatch(/no links found in .*lunch\.eml/);
  });

  it.each([
    ['a file that is not a mail', 'notes.txt', 'just some words\n', /is not a mail/],
    ['a .msg that is not a compound file, with --format msg', 'fake.msg', 'From: a@b.example\r\n\r\nhi\r\n', /is not an Outlook \.msg/],
    ['an empty file', 'empty.eml', '', /is empty/],
  ])('exits 2 for %s, naming what to do', async (_, name, content, words) => {
    const args = name === 'fake.msg' ? ['mail', '--format', 'msg'] : ['mail'];
    const ran = await isolink([...args, put(scratch(), name, content)]);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toMatch(words);
    expect(ran.stderr).toContain('.eml (MIME) or .msg (Outlook)');
    expect(ran.stdout).toBe('');
  });

  it('exits 2 for a mail over 25 MiB, naming the limit, and for a file it cannot read', async () => {
    const big = put(scratch(), 'big.eml', `Subject: big\r\n\r\n${'a'.repeat(25 * 1024 * 1024)}`);
    const over = await isolink(['mail', big]);
    expect(over.code).toBe(2);
    expect(over.stderr).toContain('larger than the limit of 25 MiB');
    const missing = await isolink(['mail', '/nonexistent/reported.eml']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('Cannot read /nonexistent/reported.eml');
  });

  it("prints a mail's control characters as replacement characters, never to the terminal", async () => {
    const hostile = PHISH.replace('Review invoice</a>', 'Review \u001b]0;owned\u0007invoice</a>');
    const ran = await isolink(['mail', '-'], { input: hostile });
    expect(ran.code).toBe(0);
    // eslint-disable-next-line no-control-regex -- the test looks for the controls a terminal acts on
    expect(ran.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f]/);
    expect(ran.stdout).toContain('Review \uFFFD]0;owned\uFFFDinvoice');
  });
});

describe('isolink bulk with a mail', () => {
  it('reads a mail by its first bytes and creates its isolatable links, naming the refused ones', async () => {
    const ran = await isolink(['bulk', '--json'], { env: envFor(sim()), input: PHISH });
    expect(ran.code).toBe(0);
    expect(createdUrls()).toEqual([['https://paypa1-login.example/verify', 'https://pay-invoice.example/inv/42', 'https://real.example/login?a=1']]);
    expect(records(ran.stdout)).toHaveLength(3);
  });

  it('takes --format eml for a mail it would not recognise', async () => {
    const odd = `Foo: bar\r\nContent-Type: text/plain\r\n\r\nsee hxxps://evil[.]example/x\r\n`;
    const ran = await isolink(['bulk', '--json', '--format', 'eml'], { env: envFor(sim()), input: odd });
    expect(ran.code).toBe(0);
    expect(createdUrls()).toEqual([['https://evil.example/x']]);
  });
});
