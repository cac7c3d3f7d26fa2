/**
 * The files a reported mail carries: told by their content (`detectKind`), flagged when
 * their name or declared type lies (`fileType`), and listed by linksInMail with size and
 * SHA-256. The corpus (test/fixtures/mail/files) is written by Python, which also hashed
 * the bytes it attached.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

import { linksInMail, MAIL_LIMITS, type MailReport } from '../../src/readers';
import { claimedKinds, detectKind, fileType, KIND_TYPES } from '../../src/readers/kinds';

const FIXTURES = join(import.meta.dirname, '../fixtures/mail');
const bytes = (...values: readonly (number | string)[]): Uint8Array =>
  Uint8Array.from(values.flatMap((value) => (typeof value === 'number' ? [value] : [...value].map((char) => char.charCodeAt(0)))));

async function read(data: Uint8Array): Promise<MailReport> {
  const reading = await linksInMail(data);
  if (!reading.ok) throw new Error(`expected a mail, got ${reading.code}: ${reading.reason}`);
  return reading;
}

describe('detectKind: what a file is by its first bytes', () => {
  it.each([
    ['%PDF-1.7\n', 'pdf'],
    [bytes(0x50, 0x4b, 0x03, 0x04, 0x14), 'zip'],
    [bytes(0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0), 'ole'],
    ['{\\rtf1\\ansi', 'rtf'],
    [bytes(0x89, 'PNG', 0x0d, 0x0a, 0x1a, 0x0a, 0), 'png'],
    [bytes(0xff, 0xd8, 0xff, 0xe0), 'jpeg'],
    ['GIF89a', 'gif'],
    [bytes('RIFF', 0, 0, 0, 0, 'WEBPVP8 '), 'webp'],
    [bytes(0x1f, 0x8b, 8), 'gzip'],
    [bytes('Rar!', 0x1a, 0x07, 0x01), 'rar'],
    [bytes(0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c), '7z'],
    ['MZ\u0090\u0000', 'exe'],
    [bytes(0x7f, 'ELF', 2), 'elf'],
    [bytes(0x4c, 0, 0, 0, 0x01, 0x14, 0x02, 0, 0), 'lnk'],
    [bytes(0xe4, 0x52, 0x5c, 0x7b, 0x8c, 0xd8, 0xa7, 0x4d, 0), 'onenote'],
    ['\uFEFF  <!DOCTYPE html><html>', 'html'],
    ['\n<html lang="en">', 'html'],
    ['<!-- saved from url=(0014)about:internet -->\n<html>', 'html'],
    ['<script>location.href = atob("aHR0cHM6Ly9ldmlsLmV4YW1wbGUv")</script>', 'html'],
    ['<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg">', 'svg'],
    ['<svg xmlns="http://www.w3.org/2000/svg" onload="go()">', 'svg'],
    ['Received: from mx.example by mx.corp.example\r\nFrom: a@b.example\r\n\r\nhi', 'mail'],
  ])('%j is %s', (input, kind) => {
    const data = typeof input === 'string' ? new TextEncoder().encode(input) : input;
    expect(detectKind(data)).toBe(kind);
  });

  it('tells an ISO image by the volume descriptor at sector 16', () => {
    const data = new Uint8Array(0x8010);
    data.set(bytes('CD001'), 0x8001);
    expect(detectKind(data)).toBe('iso');
  });

  it.each([[''], ['Just some words.'], ['<p>a fragment of text</p> and more'], [bytes(0, 1, 2, 3)], [bytes('RIFF', 0, 0, 0, 0, 'WAVE')]])(
    'says nothing of %j',
    (input) => {
      const data = typeof input === 'string' ? new TextEncoder().encode(input) : input;
      expect(detectKind(data)).toBeNull();
    },
  );

  it('gives every kind a MIME type', () => {
    for (const type of Object.values(KIND_TYPES)) expect(type).toMatch(/^[a-z]+\/[\w.+-]+$/);
  });
});

describe('fileType: whether a label lies about the content', () => {
  const html = new TextEncoder().encode('<!doctype html><html><body>Sign in</body></html>');

  it('flags an HTML page named .pdf, or declared a PDF', () => {
    expect(fileType(html, 'invoice.pdf', 'application/octet-stream')).toEqual({ detected: 'html', disguised: true });
    expect(fileType(html, 'invoice', 'application/pdf')).toEqual({ detected: 'html', disguised: true });
  });

  it('leaves an honest label, an empty one and octet-stream alone', () => {
    expect(fileType(html, 'page.HTM', 'text/html')).toEqual({ detected: 'html', disguised: false });
    expect(fileType(html, '', '')).toEqual({ detected: 'html', disguised: false });
    expect(fileType(html, 'download', 'application/octet-stream')).toEqual({ detected: 'html', disguised: false });
  });

  it('counts Office Open XML as the zip it is, and a .doc as a compound file', () => {
    const zip = bytes(0x50, 0x4b, 0x03, 0x04, 0);
    expect(fileType(zip, 'report.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document').disguised).toBe(false);
    expect(fileType(zip, 'macro.xlsm', 'application/vnd.ms-excel.sheet.macroEnabled.12').disguised).toBe(false);
    expect(claimedKinds('old.DOC', 'application/msword')).toEqual(['ole', 'ole']);
  });

  it('says nothing when the content is not told', () => {
    expect(fileType(new TextEncoder().encode('plain words'), 'x.pdf', 'application/pdf')).toEqual({ detected: null, disguised: false });
  });
});

describe('the files linksInMail lists', () => {
  it('gives each attachment its declared and detected type, size and the SHA-256 Python computed', async () => {
    const expected = JSON.parse(readFileSync(join(FIXTURES, 'files/expected.json'), 'utf8')) as Record<string, unknown[]>;
    for (const [name, files] of Object.entries(expected)) {
      const report = await read(readFileSync(join(FIXTURES, 'files', name)));
      expect(report.attachments).toEqual(files);
    }
  });

  it('lists the files of an attached message, at that message', async () => {
    const report = await read(readFileSync(join(FIXTURES, 'sender/06-user-report.eml')));
    expect(report.attachments.length).toBeGreaterThan(0);
    const attached = report.attachments.find((file) => file.type === 'message/rfc822');
    expect(attached).toMatchObject({ where: 'mail', detected: 'message/rfc822', disguised: false });
    expect(attached?.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('lists files no deeper than the top message when there are none', async () => {
    const report = await read(new TextEncoder().encode('From: a@b.example\r\nSubject: hi\r\n\r\nhello https://x.example/\r\n'));
    expect(report.attachments).toEqual([]);
  });

  it(`lists ${String(MAIL_LIMITS.files)} files at most, and says how many it stopped at`, async () => {
    const count = MAIL_LIMITS.files + 3;
    const parts = Array.from(
      { length: count },
      (_, i) => `--b\r\nContent-Type: application/octet-stream\r\nContent-Disposition: attachment; filename="f${String(i)}.bin"\r\n\r\nx${String(i)}\r\n`,
    );
    const mail = `From: a@b.example\r\nSubject: many\r\nContent-Type: multipart/mixed; boundary="b"\r\n\r\n${parts.join('')}--b--\r\n`;
    const report = await read(new TextEncoder().encode(mail));
    expect(report.attachments).toHaveLength(MAIL_LIMITS.files);
    expect(report.attachments.at(-1)?.name).toBe(`f${String(MAIL_LIMITS.files - 1)}.bin`);
    expect(report.problems.filter((problem) => problem.code === 'tooManyFiles')).toEqual([
      {
        code: 'tooManyFiles',
        params: [String(MAIL_LIMITS.files)],
        reason: `has more than ${String(MAIL_LIMITS.files)} files attached; the rest were not listed`,
      },
    ]);
  });
});
