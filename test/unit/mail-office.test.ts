/**
 * Office Open XML and RTF documents, in a mail and given on their own: hyperlinks with the
 * text anchored on them, HYPERLINK fields (split across runs, simple), what the document
 * would load (a remote template), Excel's and PowerPoint's links, codes in images, macro-
 * enabled documents told by content. The documents are LibreOffice's
 * (test/fixtures/attachments/README.md); hostile XML and RTF are written here.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';

import { nodeDecoder } from '../../src/decoders';
import { linksInMail, type MailReport } from '../../src/readers';
import { fieldTarget } from '../../src/readers/fields';
import { readOffice } from '../../src/readers/office';
import { readRtf } from '../../src/readers/rtf';
import { tokenizeXml } from '../../src/readers/xml';

const DIR = resolve(import.meta.dirname, '../fixtures/attachments/office');

function fixture(name: string): Uint8Array {
  return readFileSync(join(DIR, name));
}

async function read(bytes: Uint8Array, options: Parameters<typeof linksInMail>[1] = {}): Promise<MailReport> {
  const reading = await linksInMail(bytes, options);
  if (!reading.ok) throw new Error(`expected a reading, got ${reading.code}: ${reading.reason}`);
  return reading;
}

/** Rows as [target, shown, where, mismatch]. */
function rows(report: MailReport): [string | null, string | null, readonly string[], boolean][] {
  return report.links.map((link) => [link.target, link.shown, link.where, link.mismatch]);
}

const encode = (text: string): Uint8Array => new TextEncoder().encode(text);

describe('Word documents', () => {
  it('list a hyperlink with its anchored text, then the URLs of the text', async () => {
    const report = await read(fixture('link.docx'), { name: 'link.docx' });

    expect(report.format).toBe('docx');
    expect(rows(report)).toEqual([
      ['https://docx-link.example/invoice?id=7', 'open the invoice', ['attachment:link.docx'], false],
      ['https://docx-text.example/help', null, ['attachment:link.docx'], false],
    ]);
    expect(report.problems).toEqual([]);
    expect(report.remoteContent).toBe(0);
  });

  it('read a HYPERLINK field split across runs and a simple field, whose shown text lies', async () => {
    const report = await read(fixture('field-split.docx'), { name: 'field-split.docx' });

    expect(rows(report)).toEqual([
      ['https://split-field.example/signin?u=1&v=2', 'Sign in', ['attachment:field-split.docx'], false],
      ['https://simple-field.example/pay', 'www.bank.example', ['attachment:field-split.docx'], true],
      ['https://docx-text.example/help', null, ['attachment:field-split.docx'], false],
    ]);
  });

  it('list a remote template as what the document would load, counted as remote content', async () => {
    const report = await read(fixture('template.docx'), { name: 'template.docx' });

    expect(rows(report)).toEqual([
      ['https://docx-link.example/invoice?id=7', 'open the invoice', ['attachment:template.docx'], false],
      ['https://docx-text.example/help', null, ['attachment:template.docx'], false],
      ['https://template.example/office/normal.dotm', 'the document would load: attachedTemplate', ['attachment:template.docx'], false],
    ]);
    expect(report.remoteContent).toBe(1);
  });

  it('are told by content: a macro-enabled document named .bin reads as docx', async () => {
    const report = await read(fixture('macro.docm'), { name: 'invoice.bin' });

    expect(report.format).toBe('docx');
    expect(rows(report)).toEqual([
      ['https://docm-link.example/enable-content', 'open the invoice', ['attachment:invoice.bin'], false],
      ['https://docm-text.example/help', null, ['attachment:invoice.bin'], false],
    ]);
  });

  it('have their images scanned for codes, at qr:<document name>', async () => {
    const report = await read(fixture('qr.docx'), { name: 'qr.docx', decoder: nodeDecoder });

    expect(rows(report)).toEqual([['https://qr-in-docx.example/scan', null, ['qr:qr.docx'], false]]);
    expect((await read(fixture('qr.docx'), { name: 'qr.docx' })).links).toEqual([]);
  });

  it('in a mail give the same rows as on their own', async () => {
    const body = Buffer.from(fixture('template.docx')).toString('base64').replace(/.{76}/g, '$&\r\n');
    const mail = encode(
      [
        'From: hr@corp.example',
        'Subject: Salary review',
        'MIME-Version: 1.0',
        'Content-Type: application/vnd.openxmlformats-officedocument.wordprocessingml.document; name="template.docx"',
        'Content-Disposition: attachment; filename="template.docx"',
        'Content-Transfer-Encoding: base64',
        '',
        body,
      ].join('\r\n'),
    );

    const held = await read(mail);
    const alone = await read(fixture('template.docx'), { name: 'template.docx' });
    expect(held.links).toEqual(alone.links);
    expect(held.remoteContent).toBe(alone.remoteContent);
    expect(held.attachments).toEqual(alone.attachments);
  });

  it('a legacy .doc in a mail is said as not read', async () => {
    const body = Buffer.from(fixture('legacy.doc')).toString('base64');
    const mail = encode(
      ['From: a@corp.example', 'Subject: Old', 'Content-Type: application/msword; name="old.doc"', 'Content-Transfer-Encoding: base64', '', body].join('\r\n'),
    );

    const report = await read(mail);
    expect(report.problems.map((problem) => [problem.code, problem.where])).toEqual([['legacyOfficeNotRead', 'attachment:old.doc']]);
  });
});

describe('compound files that are no message', () => {
  /** A compound file's first bytes, then a directory entry's name in UTF-16 (the streams are named so in its directory). */
  function compound(stream: string): Uint8Array {
    const head = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
    const name = Buffer.from(stream, 'utf16le');
    const bytes = new Uint8Array(1024);
    bytes.set(head);
    bytes.set(name, 512);
    return bytes;
  }

  it("LibreOffice's .doc on its own is a failure that says what to do", async () => {
    const reading = await linksInMail(fixture('legacy.doc'), { name: 'legacy.doc' });

    expect(reading).toMatchObject({ ok: false, code: 'legacyOffice', params: [] });
    expect(reading.ok ? '' : reading.reason).toContain('save it as .docx, .xlsx or .pptx in a sandbox');
  });

  it('an Office document encrypted with a password is said as encrypted, on its own and in a mail', async () => {
    const bytes = compound('EncryptedPackage');
    const mail = encode(
      [
        'From: a@corp.example',
        'Subject: Protected',
        'Content-Type: application/octet-stream; name="salary.docx"',
        'Content-Transfer-Encoding: base64',
        '',
        Buffer.from(bytes).toString('base64'),
      ].join('\r\n'),
    );

    expect(await linksInMail(bytes, { name: 'salary.docx' })).toMatchObject({ ok: false, code: 'encryptedDocument' });
    expect((await read(mail)).problems.map((problem) => [problem.code, problem.where])).toEqual([['encrypted', 'attachment:salary.docx']]);
  });

  it('a compound file of no known kind on its own is not a mail, and in a mail is listed without a problem', async () => {
    const bytes = compound('Something');
    const mail = encode(
      [
        'From: a@corp.example',
        'Subject: Blob',
        'Content-Type: application/octet-stream; name="blob.bin"',
        'Content-Transfer-Encoding: base64',
        '',
        Buffer.from(bytes).toString('base64'),
      ].join('\r\n'),
    );

    expect(await linksInMail(bytes, { name: 'blob.bin' })).toMatchObject({ ok: false, code: 'notMail' });
    expect((await read(mail)).problems).toEqual([]);
  });
});

describe('Excel and PowerPoint documents', () => {
  it('list an Excel hyperlink with its display text and a URL in a cell', async () => {
    const report = await read(fixture('sheet.xlsx'), { name: 'sheet.xlsx' });

    expect(report.format).toBe('xlsx');
    expect(rows(report)).toEqual([
      ['https://xlsx-link.example/payroll', 'Open payroll portal', ['attachment:sheet.xlsx'], false],
      ['https://xlsx-text.example/backup', null, ['attachment:sheet.xlsx'], false],
    ]);
  });

  it('list a PowerPoint hyperlink with the text of its run and a URL in the text', async () => {
    const report = await read(fixture('slides.pptx'), { name: 'slides.pptx' });

    expect(report.format).toBe('pptx');
    expect(rows(report)).toEqual([
      ['https://pptx-link.example/bonus', 'claim your bonus', ['attachment:slides.pptx'], false],
      ['https://pptx-text.example/claim', null, ['attachment:slides.pptx'], false],
    ]);
  });
});

describe('hostile Office XML', () => {
  const part = (name: string, xml: string) => ({ name, bytes: encode(xml) });

  it('expands no entity a document type declares, and names nothing it points at', () => {
    const xml = [
      '<?xml version="1.0"?>',
      '<!DOCTYPE w:document [ <!ENTITY url "https://entity.example/expanded"> <!ENTITY ext SYSTEM "https://external.example/dtd"> ]>',
      '<w:document xmlns:w="w"><w:body><w:p><w:r><w:t>&url;&ext; and https://plain.example/kept &amp; more</w:t></w:r></w:p></w:body></w:document>',
    ].join('\n');

    expect(readOffice([part('word/document.xml', xml)]).links.map((link) => link.url)).toEqual(['https://plain.example/kept']);
  });

  it('reads an Excel HYPERLINK formula, INCLUDEPICTURE as a load, and relationships of mhtml: and UNC targets as written', () => {
    const sheet = '<worksheet><sheetData><row><c><f>HYPERLINK("https://formula.example/x?a=""b""","Pay here")</f></c></row></sheetData></worksheet>';
    const doc =
      '<w:document><w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText>INCLUDEPICTURE "https://pixel.example/p.png" \\d</w:instrText></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p></w:document>';
    const rels =
      '<Relationships><Relationship Id="rId9" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/oleObject" Target="mhtml:https://ole.example/x!x-usc:https://ole.example/y" TargetMode="External"/>' +
      '<Relationship Id="rId8" Type="http://x/frame" Target="\\\\203.0.113.9\\share" TargetMode="External"/>' +
      '<Relationship Id="rId7" Type="http://x/styles" Target="styles.xml"/></Relationships>';

    const found = readOffice([part('xl/worksheets/sheet1.xml', sheet), part('word/document.xml', doc), part('word/_rels/document.xml.rels', rels)]);

    expect(found.links).toEqual([
      { url: 'https://formula.example/x?a="b"', shown: 'Pay here', loads: false },
      { url: 'https://pixel.example/p.png', shown: 'the document would load: INCLUDEPICTURE', loads: true },
      { url: 'mhtml:https://ole.example/x!x-usc:https://ole.example/y', shown: 'the document would load: oleObject', loads: true },
      { url: '\\\\203.0.113.9\\share', shown: 'the document would load: frame', loads: true },
    ]);
  });

  it('survives broken markup: an unclosed tag, an unclosed comment, a stray end tag', () => {
    const seen: string[] = [];
    const handler = {
      start: (name: string) => seen.push(`<${name}>`),
      end: (name: string) => seen.push(`</${name}>`),
      text: (text: string) => seen.push(text),
    };
    tokenizeXml('</x><a b="1">t<!-- never closed <c>', handler);
    tokenizeXml('<a b="unclosed', handler);

    expect(seen).toEqual(['</x>', '<a>', 't']);
  });

  it('says a document whose text is longer than read, and reads the links before the cut', async () => {
    const text = `https://first.example/a ${'x'.repeat(4 * 1024 * 1024)} https://beyond.example/b`;
    const docx = zipSync({
      '[Content_Types].xml': encode('<Types/>'),
      'word/document.xml': [encode(`<w:document><w:body><w:p><w:r><w:t>${text}</w:t></w:r></w:p></w:body></w:document>`), { level: 0 }],
    });

    const report = await read(docx, { name: 'long.docx' });
    expect(report.links.map((link) => link.target)).toEqual(['https://first.example/a']);
    expect(report.problems.map((problem) => [problem.code, problem.where, problem.params])).toEqual([
      ['documentTextTooLong', 'attachment:long.docx', [String(4 * 1024 * 1024)]],
    ]);
  });
});

describe('field instructions', () => {
  it.each([
    [' HYPERLINK "https://a.example/x" ', { url: 'https://a.example/x', loads: false, field: 'HYPERLINK' }],
    ['HYPERLINK https://b.example/y \\o "tip"', { url: 'https://b.example/y', loads: false, field: 'HYPERLINK' }],
    ['HYPERLINK "https://c.example/" \\l "part"', { url: 'https://c.example/#part', loads: false, field: 'HYPERLINK' }],
    ['hyperlink \\o "tip" "https://d.example/"', { url: 'https://d.example/', loads: false, field: 'HYPERLINK' }],
    ['INCLUDETEXT "https://e.example/t.docx"', { url: 'https://e.example/t.docx', loads: true, field: 'INCLUDETEXT' }],
    ['LINK Excel.Sheet.12 "https://f.example/s.xlsx" "Sheet1!R1C1" \\a', { url: 'https://f.example/s.xlsx', loads: true, field: 'LINK' }],
  ])('%s', (instruction, expected) => {
    expect(fieldTarget(instruction)).toEqual(expected);
  });

  it.each([['HYPERLINK \\l "bookmark"'], ['PAGE \\* MERGEFORMAT'], [''], ['HYPERLINK ""']])('%s names no target', (instruction) => {
    expect(fieldTarget(instruction)).toBeNull();
  });
});

describe('RTF documents', () => {
  it("LibreOffice's: a HYPERLINK field with its shown text, then the URLs of the text", async () => {
    const report = await read(fixture('link.rtf'), { name: 'link.rtf' });

    expect(report.format).toBe('rtf');
    expect(rows(report)).toEqual([
      ['https://docx-link.example/invoice?id=7', 'open the invoice', ['attachment:link.rtf'], false],
      ['https://docx-text.example/help', null, ['attachment:link.rtf'], false],
    ]);
  });

  it("decode \\'hh and \\uN escapes in the instruction and the shown text, through nested groups", () => {
    const rtf = String.raw`{\rtf1\ansi\ansicpg1252{\fonttbl{\f0 Arial;}}{\info{\title https://info.example/no}}
{\field{\*\fldinst{\f0 HYPER}{LINK "https://esc\'61ped.example/p\u228?th"}}{\fldrslt{\ul Caf\'e9 {\b www.bank.example}}}}
\par Visit https://text.example/\u8364?x next{\*\unknowndest https://hidden.example/}
{\pict\pngblip 68747470733a2f2f}}`;

    expect(readRtf(rtf).links).toEqual([
      { url: 'https://escaped.example/päth', shown: 'Café www.bank.example', loads: false },
      { url: 'https://text.example/€x', shown: null, loads: false },
    ]);
  });

  it('follows fields in fields, steps over \\bin data, and stops following groups past the depth limit without losing the text', () => {
    const bin = String.raw`{\rtf1 {\object\objdata \bin6 {}}\\x}`;
    const deep = `{\\rtf1 ${'{'.repeat(5000)}https://deep.example/z${'}'.repeat(5000)}}`;
    const nested = String.raw`{\rtf1{\field{\*\fldinst HYPERLINK "https://outer.example/"}{\fldrslt {\field{\*\fldinst PAGE}{\fldrslt 3}} outer}}}`;

    expect(readRtf(bin).links).toEqual([]);
    expect(readRtf(deep).links).toEqual([{ url: 'https://deep.example/z', shown: null, loads: false }]);
    expect(readRtf(nested).links).toEqual([{ url: 'https://outer.example/', shown: '3 outer', loads: false }]);
  });

  it('given on its own by --format, even named otherwise', async () => {
    const report = await read(encode('{\\rtf1 {\\field{\\*\\fldinst HYPERLINK "https://r.example/"}{\\fldrslt go}}}'), { format: 'rtf', name: 'x.txt' });

    expect(rows(report)).toEqual([['https://r.example/', 'go', ['attachment:x.txt'], false]]);
  });
});
