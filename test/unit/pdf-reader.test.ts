/**
 * PDFs in reported mails, read by the Node reader (pdf.js's legacy build, @napi-rs/canvas
 * for the drawn codes) on the corpus of test/fixtures/pdf, written by tools other than
 * pdf.js (see its README): the exact rows, places and problems, the same for a PDF given
 * on its own as for a mail holding it; and readPdf's own rules (its switches, its time
 * limit, a file pdf.js throws on) with a pdf.js the test controls.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { NO_CANVAS, nodePdfReader } from '../../src/decoders/pdf';
import { linksInMail } from '../../src/lib';
import { linksInMail as readMail, PDF_LIMITS, type MailReport } from '../../src/readers';
import { readPdf, type PdfJs, type PdfParameters } from '../../src/readers/pdf';

const fixture = (name: string): Uint8Array => new Uint8Array(readFileSync(new URL(`../fixtures/pdf/${name}`, import.meta.url)));

/** A mail with an HTML body link and the file attached. */
function mailWith(name: string, bytes: Uint8Array): Uint8Array {
  const text = [
    'From: a@b.example',
    'Subject: Invoice',
    'Content-Type: multipart/mixed; boundary="b"',
    '',
    '--b',
    'Content-Type: text/html',
    '',
    '<p><a href="https://body.example/">body</a></p>',
    '--b',
    `Content-Type: application/pdf; name="${name}"`,
    `Content-Disposition: attachment; filename="${name}"`,
    'Content-Transfer-Encoding: base64',
    '',
    Buffer.from(bytes).toString('base64'),
    '--b--',
    '',
  ].join('\r\n');
  return new TextEncoder().encode(text);
}

async function alone(name: string): Promise<MailReport> {
  const mail = await linksInMail(fixture(name), { name });
  if (!mail.ok) throw new Error(mail.reason);
  return mail;
}

/** The rows as [url, shown, where, scriptOnly]. */
const rows = (mail: MailReport): [string, string | null, readonly string[], boolean][] =>
  mail.links.map((link) => [link.url, link.shown, link.where, link.scriptOnly]);
const problems = (mail: MailReport): [string, readonly string[], string | undefined][] =>
  mail.problems.map((problem) => [problem.code, problem.params, problem.where]);

afterEach(() => {
  vi.useRealTimers();
});

describe('a PDF read in Node', () => {
  it('lists link annotations (/URI /Base applied, the text under them as shown) and URLs in the text, defanged too', async () => {
    const mail = await alone('links.pdf');
    expect(mail.format).toBe('pdf');
    expect(rows(mail)).toEqual([
      ['https://base.example/portal/login?id=7', 'Open document', ['attachment:links.pdf'], false],
      ['https://absolute.example/a', null, ['attachment:links.pdf'], false],
      ['https://text.example/path?q=1', null, ['attachment:links.pdf'], false],
      ['https://defanged.example/x', null, ['attachment:links.pdf'], false],
    ]);
    expect(mail.problems).toEqual([]);
  });

  it('gives the same link objects for a PDF on its own, auto-detected or said, as for a mail holding it', async () => {
    const bytes = fixture('links.pdf');
    const held = await linksInMail(mailWith('links.pdf', bytes));
    const said = await linksInMail(bytes, { name: 'links.pdf', format: 'pdf' });
    const found = await alone('links.pdf');
    if (!held.ok || !said.ok) throw new Error('not read');
    expect(held.links.filter((link) => link.url !== 'https://body.example/')).toEqual(found.links);
    expect(said.links).toEqual(found.links);
    expect(said.attachments.map((file) => file.name)).toEqual(['links.pdf']);
  });

  it('lists the files of GoToR and Launch actions, and where SubmitForm and ImportData would send or fetch data', async () => {
    const mail = await alone('actions.pdf');
    expect(rows(mail)).toEqual([
      ['https://gotor.example/remote.pdf', 'Actions', ['attachment:actions.pdf'], false],
      ['https://launch.example/run.exe', null, ['attachment:actions.pdf'], false],
      ['https://import.example/data.fdf', null, ['attachment:actions.pdf'], false],
      ['https://submit.example/collect', null, ['attachment:actions.pdf'], false],
    ]);
  });

  it('lists URLs of the OpenAction and document scripts as found in a script, runs none, fetches nothing, names the embedded file', async () => {
    const fetch = vi.fn(() => Promise.reject(new Error('no fetch')));
    vi.stubGlobal('fetch', fetch);
    const launched = vi.fn();
    vi.stubGlobal('app', { launchURL: launched });
    try {
      const mail = await alone('script.pdf');
      expect(rows(mail)).toEqual([
        ['https://doc-script.example/beacon', null, ['attachment:script.pdf'], true],
        ['https://openaction.example/go', null, ['attachment:script.pdf'], true],
      ]);
      expect(problems(mail)).toEqual([['pdfEmbeddedFiles', ['1', 'payload.html'], 'attachment:script.pdf']]);
      expect(launched).not.toHaveBeenCalled();
      expect(fetch).not.toHaveBeenCalled();
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('reads QR codes drawn on a page, as an image and as rectangles, at qr:<file name>', async () => {
    expect(rows(await alone('qr-image.pdf'))).toEqual([['https://qr-image.example/scan', null, ['qr:qr-image.pdf'], false]]);
    expect(rows(await alone('qr-vector.pdf'))).toEqual([['https://qr-vector.example/rect', null, ['qr:qr-vector.pdf'], false]]);
  });

  it('says an encrypted PDF needs its password, and still lists the rest of the mail', async () => {
    const mail = await linksInMail(mailWith('locked.pdf', fixture('encrypted.pdf')));
    if (!mail.ok) throw new Error(mail.reason);
    expect(rows(mail)).toEqual([['https://body.example/', 'body', ['html'], false]]);
    expect(problems(mail)).toEqual([['pdfEncrypted', [], 'attachment:locked.pdf']]);
    expect(mail.attachments.map((file) => file.name)).toEqual(['locked.pdf']);
  });

  it('rebuilds a broken xref table, and says a file that is no PDF past its header could not be read', async () => {
    expect(rows(await alone('broken-xref.pdf'))).toEqual([['https://broken-xref.example/', 'Broken table', ['attachment:broken-xref.pdf'], false]]);
    const truncated = await alone('truncated.pdf');
    expect(truncated.links).toEqual([]);
    expect(problems(truncated)).toEqual([['attachmentUnreadable', ['Invalid PDF structure.'], 'attachment:truncated.pdf']]);
  });

  it(`reads ${String(PDF_LIMITS.pagesRead)} pages of a 10,000-page bomb and says so`, async () => {
    const mail = await alone('pages-bomb.pdf');
    expect(rows(mail)).toEqual([['https://bomb-page.example/', null, ['attachment:pages-bomb.pdf'], false]]);
    expect(problems(mail)).toEqual([['pdfTooManyPages', ['10000', String(PDF_LIMITS.pagesRead), String(PDF_LIMITS.pagesDrawn)], 'attachment:pages-bomb.pdf']]);
  });

  it('survives deep nesting: a 500-deep /Next chain (only the first action is read) and a 5,000-deep array', async () => {
    const mail = await alone('deep-nesting.pdf');
    expect(rows(mail)).toEqual([
      ['https://shallow.example/', null, ['attachment:deep-nesting.pdf'], false],
      ['https://deep-text.example/', null, ['attachment:deep-nesting.pdf'], false],
    ]);
  });

  it('reads a PDF inside a forwarded message, and a PDF named and declared as something else by its first bytes', async () => {
    const inner = Buffer.from(mailWith('links.pdf', fixture('links.pdf'))).toString('base64');
    const outer = [
      'From: analyst@acme.example',
      'Subject: Fwd: Invoice',
      'Content-Type: multipart/mixed; boundary="o"',
      '',
      '--o',
      'Content-Type: message/rfc822; name="original.eml"',
      'Content-Disposition: attachment; filename="original.eml"',
      'Content-Transfer-Encoding: base64',
      '',
      inner,
      '--o',
      'Content-Type: image/png; name="scan.png"',
      'Content-Disposition: inline; filename="scan.png"',
      'Content-Transfer-Encoding: base64',
      '',
      Buffer.from(fixture('qr-vector.pdf')).toString('base64'),
      '--o--',
      '',
    ].join('\r\n');
    const mail = await linksInMail(new TextEncoder().encode(outer));
    if (!mail.ok) throw new Error(mail.reason);
    expect(rows(mail).map(([url, , where]) => [url, where])).toEqual([
      ['https://body.example/', ['message:Invoice']],
      ['https://base.example/portal/login?id=7', ['attachment:links.pdf']],
      ['https://absolute.example/a', ['attachment:links.pdf']],
      ['https://text.example/path?q=1', ['attachment:links.pdf']],
      ['https://defanged.example/x', ['attachment:links.pdf']],
      ['https://qr-vector.example/rect', ['qr:scan.png']],
    ]);
  });

  it('says a PDF unreadable, and reads the rest of the mail, when a given PDF reader throws', async () => {
    const mail = await readMail(mailWith('x.pdf', fixture('links.pdf')), { pdf: () => Promise.reject(new Error('reader broke')) });
    if (!mail.ok) throw new Error(mail.reason);
    expect(rows(mail)).toEqual([['https://body.example/', 'body', ['html'], false]]);
    expect(problems(mail)).toEqual([['attachmentUnreadable', ['reader broke'], 'attachment:x.pdf']]);
  });

  it('lists a PDF with its hash only when no PDF reader is given', async () => {
    const mail = await readMail(mailWith('links.pdf', fixture('links.pdf')));
    if (!mail.ok) throw new Error(mail.reason);
    expect(rows(mail)).toEqual([['https://body.example/', 'body', ['html'], false]]);
    expect(mail.attachments).toHaveLength(1);
    expect(mail.problems).toEqual([]);
  });
});

/** pdf.js as the Node reader loads it, for readPdf on its own. */
async function realPdfJs(): Promise<PdfJs> {
  (globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = await import('pdfjs-dist/legacy/build/pdf.worker.mjs');
  return (await import('pdfjs-dist/legacy/build/pdf.mjs')) as unknown as PdfJs;
}

describe('readPdf', () => {
  it('without a drawer reads the links and says the pages were not drawn', async () => {
    const found = await readPdf(fixture('qr-image.pdf'), { pdfjs: await realPdfJs(), noDrawing: NO_CANVAS });
    expect(found).toEqual({ ok: true, pages: 1, links: [], codes: [], notes: [{ code: 'pdfNotDrawn', params: [NO_CANVAS] }] });
  });

  it('opens every document with eval, scripting, fonts and fetching off, on a copy of the bytes', async () => {
    let given: PdfParameters | undefined;
    const bytes = fixture('links.pdf');
    const pdfjs: PdfJs = {
      getDocument: (parameters) => {
        given = parameters;
        return { promise: Promise.reject(new Error('stop')), destroy: () => Promise.resolve() };
      },
    };
    expect(await readPdf(bytes, { pdfjs })).toEqual({ ok: false, code: 'pdfUnreadable', params: ['stop'] });
    expect(given).toMatchObject({ isEvalSupported: false, enableXfa: false, disableFontFace: true, useSystemFonts: false, useWorkerFetch: false });
    expect(given && Object.keys(given).filter((key) => /url|worker(?!Fetch)/i.test(key))).toEqual([]);
    expect(given?.data).not.toBe(bytes);
    expect(given?.data).toEqual(bytes);
  });

  it(`gives up on a document pdf.js takes longer than ${String(PDF_LIMITS.milliseconds / 1000)} s to open, and destroys it`, async () => {
    vi.useFakeTimers();
    const destroy = vi.fn(() => Promise.resolve());
    const pdfjs: PdfJs = { getDocument: () => ({ promise: new Promise(() => undefined), destroy }) };
    const reading = readPdf(fixture('links.pdf'), { pdfjs });
    await vi.advanceTimersByTimeAsync(PDF_LIMITS.milliseconds + 1);
    expect(await reading).toEqual({ ok: false, code: 'pdfTooSlow', params: [String(PDF_LIMITS.milliseconds / 1000)] });
    expect(destroy).toHaveBeenCalledOnce();
  });

  it('turns a getDocument that throws, and a file over the limit, into failures', async () => {
    const pdfjs: PdfJs = {
      getDocument: () => {
        throw new TypeError('bad');
      },
    };
    expect(await readPdf(fixture('links.pdf'), { pdfjs })).toEqual({ ok: false, code: 'pdfUnreadable', params: ['bad'] });
    expect(await readPdf(new Uint8Array(PDF_LIMITS.bytes + 1), { pdfjs })).toEqual({ ok: false, code: 'pdfTooLarge', params: ['20'] });
  });

  it('the Node reader answers a failure, not a throw, for bytes that are not a PDF', async () => {
    expect(await nodePdfReader(new TextEncoder().encode('%PDF-1.7\nnothing'))).toMatchObject({ ok: false, code: 'pdfUnreadable' });
  });
});
