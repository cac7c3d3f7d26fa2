/**
 * `isolink mail` with a saved attachment: an Office document, a zip, an RTF file, given on
 * its own as a mail holding it would be read (the built command as a process; the files are
 * LibreOffice's and Python's, test/fixtures/attachments/README.md).
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

import { isolink, put, records, scratch } from './helpers';

const OFFICE = resolve(import.meta.dirname, '../fixtures/attachments/office');
const ARCHIVES = resolve(import.meta.dirname, '../fixtures/attachments/archives');

describe('isolink mail <attachment>', () => {
  it("prints a .docx's links as --json objects, the remote template among them", async () => {
    const file = join(OFFICE, 'template.docx');
    const ran = await isolink(['mail', file, '--json']);

    expect(ran.code).toBe(0);
    expect(records(ran.stdout)).toEqual([
      {
        mail: file,
        url: 'https://docx-link.example/invoice?id=7',
        target: 'https://docx-link.example/invoice?id=7',
        shown: 'open the invoice',
        mismatch: false,
        where: ['attachment:template.docx'],
        scriptOnly: false,
        wrappedBy: [],
        opaque: false,
      },
      {
        mail: file,
        url: 'https://docx-text.example/help',
        target: 'https://docx-text.example/help',
        shown: null,
        mismatch: false,
        where: ['attachment:template.docx'],
        scriptOnly: false,
        wrappedBy: [],
        opaque: false,
      },
      {
        mail: file,
        url: 'https://template.example/office/normal.dotm',
        target: 'https://template.example/office/normal.dotm',
        shown: 'the document would load: attachedTemplate',
        mismatch: false,
        where: ['attachment:template.docx'],
        scriptOnly: false,
        wrappedBy: [],
        opaque: false,
      },
    ]);
  });

  it('reads a zip, its entries at attachment:<entry name>, and says on stderr what it did not open', async () => {
    const ran = await isolink(['mail', join(ARCHIVES, 'nested.zip')]);

    expect(ran.code).toBe(0);
    expect(ran.stdout.split('\n').filter((line) => line !== '')).toEqual([
      '1\tone\thttps://depth-one.example/read\tattachment:first.html\t',
      '2\ttwo\thttps://depth-two.example/read\tattachment:second.html\t',
    ]);
    expect(ran.stderr).toContain('isolink: attachment:innermost.zip holds archives nested more than 2 deep; the deeper ones were not opened.');
  });

  it('takes --format xlsx for a document whose name says nothing, and an RTF file by its content', async () => {
    const dir = scratch();
    const saved = put(dir, 'download', readFileSync(join(OFFICE, 'sheet.xlsx')));
    const rtf = put(dir, 'letter.txt', readFileSync(join(OFFICE, 'link.rtf')));

    const sheet = await isolink(['mail', '--format', 'xlsx', '--json', saved]);
    const letter = await isolink(['mail', '--json', rtf]);
    expect(records(sheet.stdout).map((row) => [row['target'], row['where']])).toEqual([
      ['https://xlsx-link.example/payroll', ['attachment:download']],
      ['https://xlsx-text.example/backup', ['attachment:download']],
    ]);
    expect(records(letter.stdout).map((row) => [row['target'], row['shown']])).toEqual([
      ['https://docx-link.example/invoice?id=7', 'open the invoice'],
      ['https://docx-text.example/help', null],
    ]);
  });

  it('names the formats --format takes', async () => {
    const ran = await isolink(['mail', '--format', 'pdfx', join(OFFICE, 'link.docx')]);

    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain('--format takes auto, eml, msg, html, svg, pdf, zip, docx, xlsx, pptx, rtf, png, jpeg, gif, webp, bmp');
  });
});
