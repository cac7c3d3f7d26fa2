/**
 * Zip archives in a mail and given on their own: their entries read by the walk as files of
 * the mail, within ZIP_LIMITS (depth, entries, each entry's and the mail's expanded size,
 * ratio: counted while inflating), hostile names shown as text, encrypted and unopened
 * formats said. The archives are Python's zipfile's and Info-ZIP's
 * (test/fixtures/attachments/README.md); the limit edges are built here with fflate.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';

import { linksInMail, MAIL_FAILURES, MAIL_PROBLEMS, ZIP_LIMITS, type MailReport } from '../../src/readers';
import { entryLabel, expandEntry, readZipDirectory } from '../../src/readers/zip';

const DIR = resolve(import.meta.dirname, '../fixtures/attachments/archives');

function fixture(name: string): Uint8Array {
  return readFileSync(join(DIR, name));
}

async function read(bytes: Uint8Array, options: Parameters<typeof linksInMail>[1] = {}): Promise<MailReport> {
  const reading = await linksInMail(bytes, options);
  if (!reading.ok) throw new Error(`expected a reading, got ${reading.code}: ${reading.reason}`);
  return reading;
}

/** Rows as [target, shown, where]. */
function rows(report: MailReport): [string | null, string | null, readonly string[]][] {
  return report.links.map((link) => [link.target, link.shown, link.where]);
}

function problems(report: MailReport): [string, string | undefined][] {
  return report.problems.map((problem) => [problem.code, problem.where]);
}

/** A MIME mail carrying one attachment, base64. */
function mailWith(name: string, type: string, bytes: Uint8Array): Uint8Array {
  const body = Buffer.from(bytes).toString('base64').replace(/.{76}/g, '$&\r\n');
  const text = [
    'From: "Billing" <billing@vendor.example>',
    'Subject: Your documents',
    'MIME-Version: 1.0',
    'Content-Type: multipart/mixed; boundary="b"',
    '',
    '--b',
    'Content-Type: text/plain; charset=utf-8',
    '',
    'See the attached archive.',
    '--b',
    `Content-Type: ${type}; name="${name}"`,
    `Content-Disposition: attachment; filename="${name}"`,
    'Content-Transfer-Encoding: base64',
    '',
    body,
    '--b--',
    '',
  ].join('\r\n');
  return new TextEncoder().encode(text);
}

describe('a zip attachment', () => {
  it('has its HTML page read, its links at attachment:<entry name>, its entries listed at attachment:<archive name>', async () => {
    const report = await read(mailWith('documents.zip', 'application/zip', fixture('page.zip')));

    expect(rows(report)).toEqual([['https://zip-page.example/invoice', 'View invoice', ['attachment:docs/invoice.html']]]);
    expect(report.problems).toEqual([]);
    expect(report.attachments.map((file) => [file.name, file.detected, file.where])).toEqual([
      ['documents.zip', 'application/zip', 'mail'],
      ['docs/invoice.html', 'text/html', 'attachment:documents.zip'],
    ]);
    expect(report.attachments[1]?.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('given on its own reads as the mail holding it would, format zip', async () => {
    const alone = await read(fixture('page.zip'), { name: 'documents.zip' });
    const held = await read(mailWith('documents.zip', 'application/zip', fixture('page.zip')));

    expect(alone.format).toBe('zip');
    expect(alone.links).toEqual(held.links);
    expect(alone.attachments.slice(1)).toEqual(held.attachments.slice(1));
    expect((await read(fixture('page.zip'), { format: 'zip' })).format).toBe('zip');
  });

  it('is opened two archives deep; the third is said, its link not listed', async () => {
    const report = await read(fixture('nested.zip'), { name: 'nested.zip' });

    expect(rows(report)).toEqual([
      ['https://depth-one.example/read', 'one', ['attachment:first.html']],
      ['https://depth-two.example/read', 'two', ['attachment:second.html']],
    ]);
    expect(report.problems).toEqual([
      {
        code: 'archiveTooDeep',
        params: [String(ZIP_LIMITS.depth)],
        reason: 'holds archives nested more than 2 deep; the deeper ones were not opened',
        where: 'attachment:innermost.zip',
      },
    ]);
    expect(report.attachments.map((file) => [file.name, file.where])).toEqual([
      ['nested.zip', 'mail'],
      ['first.html', 'attachment:nested.zip'],
      ['inner.zip', 'attachment:nested.zip'],
      ['second.html', 'attachment:inner.zip'],
      ['innermost.zip', 'attachment:inner.zip'],
    ]);
  });

  it('counts the archives around a message inside one: a zip in a mail in a zip in a zip is too deep', async () => {
    const deeper = zipSync({ 'deep.html': new TextEncoder().encode('<a href="https://too-deep.example/">x</a>') });
    const inner = zipSync({ 'deeper.zip': deeper, 'inner.html': new TextEncoder().encode('<a href="https://inner.example/">y</a>') });
    const outer = zipSync({ 'forwarded.eml': mailWith('inner.zip', 'application/zip', inner) });

    const report = await read(outer, { name: 'outer.zip' });
    expect(rows(report)).toEqual([['https://inner.example/', 'y', ['attachment:inner.html']]]);
    expect(problems(report)).toEqual([['archiveTooDeep', 'attachment:deeper.zip']]);
  });

  it('stops a zip bomb while inflating and still reads the entry after it', async () => {
    const report = await read(fixture('bomb.zip'), { name: 'bomb.zip' });

    expect(problems(report)).toEqual([['archiveBomb', 'attachment:zeros.bin']]);
    expect(report.problems[0]?.params).toEqual([String(ZIP_LIMITS.ratio)]);
    expect(rows(report)).toEqual([['https://after-bomb.example/still-read', 'after', ['attachment:after.html']]]);
  });

  it('counts what it inflates, not what the headers declare', async () => {
    const bytes = fixture('lying-size.zip');
    const directory = readZipDirectory(bytes);
    if (!directory.ok) throw new Error(directory.reason);
    expect(directory.entries[0]?.declaredSize).toBe(100);

    expect(problems(await read(bytes, { name: 'lying-size.zip' }))).toEqual([['archiveBomb', 'attachment:small.txt']]);
  });

  it('reads at most ZIP_LIMITS.entries entries and says so', async () => {
    const report = await read(fixture('many.zip'), { name: 'many.zip' });

    expect(problems(report)).toEqual([
      ['tooManyFiles', undefined],
      ['tooManyEntries', 'attachment:many.zip'],
    ]);
    expect(report.problems[1]?.params).toEqual(['1000']);
  });

  it('shows hostile entry names as text: traversal and absolute paths as written, controls and bidi marks visible, long names cut', async () => {
    const report = await read(fixture('names.zip'), { name: 'names.zip' });
    const long = `${'A'.repeat(40)}…${'A'.repeat(54)}.html`;

    expect(report.links.map((link) => link.where[0])).toEqual([
      'attachment:../../../etc/cron.d/evil.html',
      'attachment:/absolute/path.html',
      'attachment:bell\uFFFD\uFFFD[31mred.html',
      'attachment:invoice\uFFFDfdp.html',
      `attachment:${long}`,
      'attachment:windows/style/path.html',
    ]);
    expect(report.attachments.slice(1).map((file) => file.name)).toEqual(report.links.map((link) => link.where[0]?.slice('attachment:'.length)));
    expect(long).toHaveLength(100);
  });

  it('says an encrypted archive needs its password and reads nothing of it', async () => {
    const report = await read(fixture('encrypted.zip'), { name: 'encrypted.zip' });

    expect(report.links).toEqual([]);
    expect(report.problems).toEqual([
      {
        code: 'encrypted',
        params: [],
        reason: 'is encrypted and was not read: it needs its password (often given in the mail) to be opened in a sandbox',
        where: 'attachment:encrypted.zip',
      },
    ]);
  });

  it('names the archives it does not open and a legacy Word document, and reads the Office document beside them', async () => {
    const report = await read(fixture('others.zip'), { name: 'others.zip' });

    expect(report.problems.map((problem) => [problem.code, problem.params, problem.where])).toEqual([
      ['archiveNotRead', ['RAR'], 'attachment:parcel.rar'],
      ['archiveNotRead', ['7z'], 'attachment:scan.7z'],
      ['legacyOfficeNotRead', [], 'attachment:old.doc'],
    ]);
    expect(rows(report)).toEqual([
      ['https://docx-link.example/invoice?id=7', 'open the invoice', ['attachment:statement.docx']],
      ['https://docx-text.example/help', null, ['attachment:statement.docx']],
    ]);
  });

  it('says an archive that is not one (a .zip with no directory) and reads the rest of the mail', async () => {
    const report = await read(mailWith('broken.zip', 'application/zip', fixture('page.zip').slice(0, 100)));

    expect(problems(report)).toEqual([['attachmentUnreadable', 'attachment:broken.zip']]);
    expect(report.problems[0]?.reason).toContain('no zip directory');
  });
});

describe('ZIP_LIMITS, at their edges', () => {
  /** Bytes that deflate about 1.7 times: hex digits of a simple generator, below any ratio limit. */
  function hexText(size: number): Uint8Array {
    const out = new Uint8Array(size);
    let state = 12345;
    for (let i = 0; i < size; i++) {
      state = (state * 1103515245 + 12345) >>> 0;
      out[i] = '0123456789abcdef'.charCodeAt(state >>> 28);
    }
    return out;
  }

  it('does not expand an entry beyond entryBytes, whatever its ratio', () => {
    const bytes = zipSync({ 'big.txt': hexText(ZIP_LIMITS.entryBytes + 1) }, { level: 1 });
    const directory = readZipDirectory(bytes);
    if (!directory.ok) throw new Error(directory.reason);
    const entry = directory.entries[0];
    if (entry === undefined) throw new Error('no entry');

    expect(expandEntry(bytes, entry, { used: 0 })).toMatchObject({ ok: false, code: 'entryTooLarge' });
    expect(expandEntry(bytes, { ...entry, declaredSize: 10 }, { used: 0 })).toMatchObject({ ok: false, code: 'entryTooLarge' });
  });

  it('reads an entry of exactly entryBytes', () => {
    const bytes = zipSync({ 'edge.txt': hexText(ZIP_LIMITS.entryBytes) }, { level: 1 });
    const directory = readZipDirectory(bytes);
    if (!directory.ok) throw new Error(directory.reason);
    const entry = directory.entries[0];
    if (entry === undefined) throw new Error('no entry');
    const budget = { used: 0 };

    const out = expandEntry(bytes, entry, budget);
    expect(out instanceof Uint8Array ? out.length : out).toBe(ZIP_LIMITS.entryBytes);
    expect(budget.used).toBe(ZIP_LIMITS.entryBytes);
  });

  it("stops at the mail's total, counted with what was expanded before", () => {
    const part = hexText(1024);
    const bytes = zipSync({ 'a.html': part, 'b.html': part });
    const directory = readZipDirectory(bytes);
    if (!directory.ok) throw new Error(directory.reason);
    const [first] = directory.entries;
    if (first === undefined) throw new Error('no entry');

    expect(expandEntry(bytes, first, { used: ZIP_LIMITS.totalBytes - 1023 })).toMatchObject({ ok: false, code: 'budget' });
    expect(expandEntry(bytes, first, { used: ZIP_LIMITS.totalBytes - 1024 })).toBeInstanceOf(Uint8Array);
  });

  it('refuses compression methods it does not read, with the method named', () => {
    const bytes = zipSync({ 'a.txt': new TextEncoder().encode('hello') });
    const directory = readZipDirectory(bytes);
    if (!directory.ok) throw new Error(directory.reason);
    const entry = directory.entries[0];
    if (entry === undefined) throw new Error('no entry');

    const refused = expandEntry(bytes, { ...entry, method: 12 }, { used: 0 });
    expect(refused).toMatchObject({ ok: false, code: 'method' });
    expect(refused instanceof Uint8Array ? '' : refused.reason).toContain('method 12');
  });

  it('refuses a directory that points outside the file, and a local header that is missing', () => {
    const bytes = zipSync({ 'a.txt': new TextEncoder().encode('hello') });
    const directory = readZipDirectory(bytes);
    if (!directory.ok) throw new Error(directory.reason);
    const entry = directory.entries[0];
    if (entry === undefined) throw new Error('no entry');

    expect(expandEntry(bytes, { ...entry, headerOffset: bytes.length - 4 }, { used: 0 })).toMatchObject({ ok: false, code: 'damaged' });
    expect(expandEntry(bytes, { ...entry, compressedSize: bytes.length * 2 }, { used: 0 })).toMatchObject({ ok: false, code: 'damaged' });
    const cut = bytes.slice();
    // The end record's directory offset, pointed past the record.
    cut.set([0xff, 0xff, 0xff, 0x7f], cut.length - 6);
    expect(readZipDirectory(cut)).toMatchObject({ ok: false, code: 'damaged' });
  });
});

describe('entryLabel', () => {
  it('keeps ordinary names, makes controls, bidi and invisible marks visible, and cuts in the middle', () => {
    expect(entryLabel('docs/Invoice 2026.html')).toBe('docs/Invoice 2026.html');
    expect(entryLabel('a\u0000b\u200bc\u2066d\ufeffe')).toBe('a\uFFFDb\uFFFDc\uFFFDd\uFFFDe');
    expect(entryLabel('invoice.pdf\t\n    .exe')).toBe('invoice.pdf .exe');
    expect(entryLabel('')).toBe('(no name)');
    const long = entryLabel(`${'x'.repeat(500)}.scr`);
    expect(long).toHaveLength(100);
    expect(long.endsWith('x.scr')).toBe(true);
  });
});

describe('corrupted archives and documents', () => {
  const seeds = [
    fixture('nested.zip'),
    readFileSync(resolve(DIR, '../office/template.docx')),
    readFileSync(resolve(DIR, '../office/field-split.docx')),
    readFileSync(resolve(DIR, '../office/link.rtf')),
  ];
  const problemCodes = new Set(Object.keys(MAIL_PROBLEMS));
  const failureCodes = new Set(Object.keys(MAIL_FAILURES));

  it('never make a reader throw: a report with known problems, or a failure of the whole file by its first bytes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: seeds.length - 1 }),
        fc.array(fc.record({ at: fc.nat(), value: fc.integer({ min: 0, max: 255 }), cut: fc.boolean() }), { minLength: 1, maxLength: 8 }),
        async (which, edits) => {
          const bytes = [...(seeds[which] ?? new Uint8Array())];
          for (const edit of edits) {
            const at = edit.at % bytes.length;
            if (edit.cut) bytes.splice(at, 1 + (edit.value % 64));
            else bytes[at] = edit.value;
          }
          const reading = await linksInMail(Uint8Array.from(bytes), { name: 'file' });
          if (reading.ok) for (const problem of reading.problems) expect(problemCodes.has(problem.code)).toBe(true);
          else {
            expect(failureCodes.has(reading.code)).toBe(true);
            // A reader that threw would lose the whole mail as mailUnreadable: a bad entry must cost only itself.
            expect(reading.code).not.toBe('mailUnreadable');
          }
        },
      ),
      { numRuns: 300, seed: 32 },
    );
  });
});
