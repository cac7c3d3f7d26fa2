/**
 * The case note (caseNote, Markdown) and the case record (caseRecord, JSON) of a reported
 * mail, against mails whose headers and files an independent generator wrote (Python's
 * email package and hashlib: test/fixtures/mail/sender, test/fixtures/mail/files), against
 * hostile text, and over the whole corpus: no live link, nothing that renders.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

import { defang } from '../../src/fang';
import { caseNote, caseRecord, linksInMail, type MailAddress, type MailReport } from '../../src/readers';

const FIXTURES = join(import.meta.dirname, '../fixtures/mail');

async function read(bytes: Uint8Array): Promise<MailReport> {
  const reading = await linksInMail(bytes);
  if (!reading.ok) throw new Error(`expected a mail, got ${reading.code}: ${reading.reason}`);
  return reading;
}

const readFixture = (path: string): Promise<MailReport> => read(readFileSync(join(FIXTURES, path)));

interface SenderExpected {
  readonly from: MailAddress | null;
  readonly replyTo: MailAddress | null;
  readonly returnPath: MailAddress | null;
  readonly auth: Record<string, string | null>;
  readonly received: unknown;
  readonly reportedBy?: MailAddress | null;
}

const senders = (JSON.parse(readFileSync(join(FIXTURES, 'sender/expected.json'), 'utf8')) as { mails: Record<string, SenderExpected> }).mails;
const files = JSON.parse(readFileSync(join(FIXTURES, 'files/expected.json'), 'utf8')) as Record<string, Record<string, unknown>[]>;

/** An address as the record writes it, from the generator's parts. */
function written(address: MailAddress | null | undefined): string | null {
  if (address === null || address === undefined) return null;
  return address.name === null ? address.address : `${address.name} <${address.address}>`;
}

/** What a Markdown note must never hold: a live scheme, raw HTML, a link or image built from text, an autolinkable host or address. */
function expectInert(note: string): void {
  expect(note).not.toMatch(/https?:\/\//i);
  expect(note).not.toMatch(/https?:/i);
  expect(note).not.toContain('<');
  expect(note).not.toContain('](');
  expect(note).not.toMatch(/(?<!\\)[[\]]/);
  expect(note).not.toMatch(/www\./i);
  expect(note).not.toMatch(/@[\w-]+\.[a-z]/i);
  // eslint-disable-next-line no-control-regex -- no control character but the line ends
  expect(note).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029]/);
  // Every line is the note's own: mail text never starts one.
  for (const line of note.split('\n')) expect(line).toMatch(/^(?:$|## Reported mail: |### |- |\d+\. |None|The mail would load )/);
}

describe('caseRecord', () => {
  it.each(Object.entries(senders))('gives the sender of %s as the generator wrote it', async (file, expected) => {
    const record = caseRecord(await readFixture(`sender/${file}`), file);
    expect(record.mail).toBe(file);
    expect(record.from).toBe(written(expected.from));
    expect(record.replyTo).toBe(written(expected.replyTo));
    expect(record.returnPath).toBe(written(expected.returnPath));
    expect(record.auth).toEqual(expected.auth);
    expect(record.received).toEqual(expected.received);
    expect(record.reportedBy).toBe(written(expected.reportedBy));
  });

  it('has exactly the fields scripts rely on, in their order', async () => {
    const record = caseRecord(await readFixture('eml/01-outlook-paypal-vml.eml'), 'x.eml');
    expect(Object.keys(record)).toEqual([
      'mail',
      'subject',
      'date',
      'from',
      'replyTo',
      'returnPath',
      'auth',
      'received',
      'reportedBy',
      'attachments',
      'links',
      'problems',
    ]);
    expect(Object.keys(record.auth)).toEqual(['spf', 'dkim', 'dmarc', 'compauth']);
    expect(Object.keys(record.links[0] ?? {})).toEqual(['url', 'target', 'shown', 'mismatch', 'where', 'scriptOnly', 'wrappedBy', 'opaque', 'defanged']);
  });

  it('says which links only a script named, in the record and in the note', async () => {
    const report = await readFixture('eml/46-svg-voice-message.eml');
    const scripted = report.links.filter((link) => link.scriptOnly);
    expect(scripted.length).toBeGreaterThan(0);
    const record = caseRecord(report, '46.eml');
    expect(record.links.filter((link) => link.scriptOnly).map((link) => link.url)).toEqual(scripted.map((link) => link.url));
    const lines = caseNote(report, '46.eml')
      .split('\n')
      .filter((line) => line.includes('**IN A SCRIPT** (never run)'));
    expect(lines).toHaveLength(scripted.length);
  });

  it("lists the files with Python's hashes and types", async () => {
    const record = caseRecord(await readFixture('files/01-attachments.eml'), '01-attachments.eml');
    expect(record.attachments).toEqual(
      (files['01-attachments.eml'] ?? []).map((file) => ({
        name: file['name'],
        type: file['type'],
        size: file['size'],
        sha256: file['sha256'],
        detected: file['detected'],
        disguised: file['disguised'],
      })),
    );
    expect(record.attachments.length).toBeGreaterThan(0);
  });

  it('keeps the machine-usable link and adds it defanged', async () => {
    const link = caseRecord(await readFixture('eml/01-outlook-paypal-vml.eml'), 'x.eml').links[0];
    expect(link?.target).toMatch(/^https:\/\//);
    expect(link?.defanged).toBe(defang(link?.target ?? ''));
    expect(link?.defanged).toMatch(/^hxxps:\/\/[^/]*\[\.\]/);
  });
});

describe('caseNote', () => {
  it.each(Object.keys(senders))("tells %s's sender story, defanged", async (file) => {
    const expected = senders[file] as SenderExpected;
    const note = caseNote(await readFixture(`sender/${file}`), file);
    expectInert(note);
    const verdicts = Object.entries(expected.auth).filter(([, verdict]) => verdict !== null);
    for (const [method, verdict] of verdicts) expect(note).toContain(`${method}=${String(verdict)}`);
    if (verdicts.length === 0) expect(note).toContain('Checks at receipt: not stated');
    const domain = expected.from?.domain;
    if (domain !== undefined && domain !== null) expect(note).toContain(domain.replace(/\./g, '\\[.\\]'));
    if (expected.reportedBy) expect(note).toContain(`- Reported by: ${expected.reportedBy.name ?? ''}`);
  });

  it('lists every file with its types, its size, its hash and DISGUISED where it lies', async () => {
    const note = caseNote(await readFixture('files/01-attachments.eml'), '01-attachments.eml');
    expectInert(note);
    const rows = note
      .slice(note.indexOf('### Files'))
      .split('\n')
      .filter((text) => /^\d+\. /.test(text));
    expect(rows.length).toBe(files['01-attachments.eml']?.length);
    for (const [index, file] of (files['01-attachments.eml'] ?? []).entries()) {
      const line = rows[index];
      expect(line).toContain(`SHA-256 \`${String(file['sha256'])}\``);
      expect(line).toBeDefined();
      expect(line).toContain(`${String(file['size'])} bytes`);
      expect(line?.includes('**DISGUISED**')).toBe(file['disguised']);
    }
    expect(note).toContain('1. Invoice\\_4471\\[.\\]pdf; declared application/pdf; detected text/html; **DISGUISED**; 160 bytes; SHA-256 `916425be');
  });

  it('makes hostile text inert and defanged', async () => {
    const eml = [
      'From: "http://evil.com Support <b>" <support@evil.example>',
      'Reply-To: "Desk](javascript:alert(1))" <desk@other.example>',
      'Subject: =?utf-8?q?Invoice](javascript:alert(1))_<img_src=3Dx_onerror=3Dalert(1)>_``code``_*bold*_=0A##_new_line_www.evil.com?=',
      'MIME-Version: 1.0',
      'Content-Type: multipart/mixed; boundary="b"',
      '',
      '--b',
      'Content-Type: text/html',
      '',
      '<a href="https://login.evil.example/a?b=`c`">[click](http://paypal.com) <script>x</script></a>',
      '<a href="javascript:alert(1)">![img](https://evil.example/x.png)</a>',
      '--b',
      'Content-Type: text/plain; name="<b>x</b>.html"',
      'Content-Disposition: attachment; filename="[a](https://e.example).txt"',
      '',
      'hello',
      '--b--',
      '',
    ].join('\r\n');
    const report = await read(new TextEncoder().encode(eml));
    expect(report.links.length).toBe(2);
    const note = caseNote(report, 'x](https://evil.example)<b>.eml');
    expectInert(note);
    expect(note).toContain('- From: hxxp://evil\\[.\\]com Support &lt;b&gt; &lt;support@evil\\[.\\]example&gt;');
    expect(note).toContain(
      '1. hxxps://login\\[.\\]evil\\[.\\]example/a?b=\\`c\\`; **MISMATCH**; shown as "\\[click\\]\\(hxxp://paypal\\[.\\]com\\)"; found in html',
    );
    expect(note).toContain('2. refused: javascript:alert\\(1\\) (uses the javascript: scheme');
    expect(note).toContain('shown as "\\!\\[img\\]\\(hxxps://evil\\[.\\]example/x\\[.\\]png\\)"');
    expect(note).toContain('- Reply-To: Desk\\]\\(javascript:alert\\(1\\)\\) &lt;desk@other\\[.\\]example&gt;');
    expect(note.split('\n')).toContain(
      '- Subject: Invoice\\]\\(javascript:alert\\(1\\)\\) &lt;img src=x onerror=alert\\(1\\)&gt; \\`\\`code\\`\\` \\*bold\\*  \\#\\# new line www\\[.\\]evil\\[.\\]com',
    );
  });

  it('lists the links found in QR codes under their own heading', async () => {
    const report = await readFixture('eml/01-outlook-paypal-vml.eml');
    const [first] = report.links;
    if (first === undefined) throw new Error('the fixture has a link');
    const note = caseNote(
      { ...report, links: [first, { ...first, target: 'https://qr.evil.example/x', shown: null, mismatch: false, where: ['qr:scan.png'] }] },
      'q.eml',
    );
    expectInert(note);
    expect(note).toMatch(
      /### Links \(1\)\n\n1\. [^\n]+\n\n### QR codes \(1\)\n\n1\. hxxps:\/\/qr\\\[\.\\\]evil\\\[\.\\\]example\/x; found in qr:scan\\\[\.\\\]png\n/,
    );
  });

  it('holds no live link nor anything that renders, over the whole corpus', async () => {
    const dirs = ['eml', 'sender', 'files', 'msg', 'mbox/messages'];
    let read = 0;
    for (const dir of dirs)
      for (const file of readdirSync(join(FIXTURES, dir)).filter((name) => /\.(?:eml|msg)$/.test(name))) {
        const reading = await linksInMail(readFileSync(join(FIXTURES, dir, file)));
        if (!reading.ok) continue;
        read++;
        expectInert(caseNote(reading, `${dir}/${file}`));
      }
    expect(read).toBeGreaterThan(50);
  });
});
