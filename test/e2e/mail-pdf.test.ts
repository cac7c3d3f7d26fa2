/**
 * PDFs on the reported mail page in real Chromium, on the production build: read by pdf.js
 * inside the decoder's sandboxed frame (the page holds no PDF parser).
 *
 * 1. A mail with a PDF attached (test/fixtures/pdf/invoice.pdf, written without pdf.js): its
 *    link annotation and the QR code drawn on its page become rows; one is isolated, and the
 *    simulator gets exactly that target.
 * 2. A hostile PDF (hostile.pdf: an OpenAction script, a document script, a closing script,
 *    a page-open URI action, Launch, GoToR, a remote font file, a relative link under a
 *    remote /URI /Base), every address aimed at a counting server on 127.0.0.1: it is read,
 *    its addresses listed (the scripts' as found in a script), and nothing is run or
 *    loaded: no request leaves the page but for the extension's own files, the counting
 *    server gets none, and no tab opens.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/service/wire';
import { targetUrlOf } from '../simulator/state';
import { findChromium, useSession, type Session } from './harness';
import { localServer } from './local-server';

const pdfFixture = (name: string): Buffer => readFileSync(resolve(import.meta.dirname, '../fixtures/pdf', name));

/** A reported mail whose only content is a PDF attached as `name`. */
function mailWithPdf(name: string, pdf: Buffer): Buffer {
  const text = [
    'From: "Accounts" <billing@vendor.example>',
    'To: analyst@acme.example',
    'Subject: Invoice 4471 overdue',
    'Date: Tue, 24 Nov 2026 09:15:00 +0000',
    'MIME-Version: 1.0',
    'Content-Type: multipart/mixed; boundary="pdf-b"',
    '',
    '--pdf-b',
    'Content-Type: text/plain; charset=utf-8',
    '',
    'Please find the invoice attached.',
    '--pdf-b',
    `Content-Type: application/pdf; name="${name}"`,
    `Content-Disposition: attachment; filename="${name}"`,
    'Content-Transfer-Encoding: base64',
    '',
    ...(pdf.toString('base64').match(/.{1,76}/g) ?? []),
    '--pdf-b--',
    '',
  ].join('\r\n');
  return Buffer.from(text);
}

describe.skipIf(!findChromium() && !process.env['CI'])('PDFs on the reported mail page in real Chromium', () => {
  const use = useSession();
  let session: Session;
  beforeEach(() => {
    session = use();
  });

  it('lists a PDF’s link annotation and the QR code drawn on its page, and isolates one of them', async () => {
    const page = await session.openPage('mail.html');
    await page
      .getByLabel(/reported mail/i)
      .setInputFiles({ name: 'invoice.eml', mimeType: 'message/rfc822', buffer: mailWithPdf('invoice.pdf', pdfFixture('invoice.pdf')) });

    await page.getByRole('heading', { name: 'The mail in invoice.eml' }).waitFor();
    const link = page.getByRole('checkbox', { name: /pdf-link\.evil\.example/ });
    const qr = page.getByRole('checkbox', { name: /pdf-qr\.evil\.example/ });
    await link.waitFor({ timeout: 30_000 });
    await qr.waitFor({ timeout: 30_000 });
    expect(await page.getByRole('checkbox').count()).toBe(2);
    await expect(page.locator('li.link', { has: link }).getByText('Found in the attachment invoice.pdf').count()).resolves.toBe(1);
    await expect(page.locator('li.link', { has: qr }).getByText('Found in a QR code in invoice.pdf').count()).resolves.toBe(1);

    await link.uncheck();
    await page.getByText('Selected: 1').waitFor();
    await page.getByRole('button', { name: /open selected in isolation/i }).click();
    await page.getByText('Isolated tabs opened: 1').waitFor({ timeout: 15_000 });
    const creates = session.sim.requests
      .filter((request) => request.path === '/api/')
      .flatMap((request) => JSON.parse(typeof request.body === 'string' ? request.body : '[]') as { command: string }[])
      .filter((command) => command.command === COMMANDS.createContext);
    expect(creates).toHaveLength(1);
    expect([...session.sim.state.contexts.values()].map((context) => targetUrlOf(context))).toEqual(['https://pdf-qr.evil.example/scan']);
    // The launch tab, once the browser context lists it (it may list a new tab late): the next test counts tabs.
    await (await session.waitForTab(`${session.sim.launchBase}/launch?ctx=`)).close();
    await page.close();
  });

  it('reads a hostile PDF and runs nothing, loads nothing: no request but the extension’s files, no hit, no tab', async () => {
    const counter = await localServer();
    const at = counter.origin.replace(/^http:\/\//, '');
    const hostile = Buffer.from(pdfFixture('hostile.pdf').toString('latin1').replaceAll('127.0.0.1:65535', at), 'latin1');
    const origin = `chrome-extension://${session.extensionId}/`;
    const seen: string[] = [];
    const record = (request: { url(): string }): void => {
      seen.push(`context ${request.url()}`);
    };
    session.context.on('request', record);
    try {
      const tabsBefore = (await session.tabUrls()).length;
      const page = await session.context.newPage();
      const cdp = await session.context.newCDPSession(page);
      cdp.on('Network.requestWillBeSent', (event: { request: { url: string } }) => {
        seen.push(`cdp ${event.request.url}`);
      });
      await cdp.send('Network.enable');
      await page.goto(`${origin}mail.html`);
      await page.locator('[data-ready="true"]').waitFor({ timeout: 15_000 });

      await page.getByLabel(/reported mail/i).setInputFiles({ name: 'hostile.eml', mimeType: 'message/rfc822', buffer: mailWithPdf('statement.pdf', hostile) });

      await page.getByRole('heading', { name: 'The mail in hostile.eml' }).waitFor();
      // Its scripts' addresses are rows, found in a script; its actions' and text's too.
      const script = page.getByRole('checkbox', { name: /127\.0\.0\.1/ });
      await script.first().waitFor({ timeout: 30_000 });
      await expect.poll(() => script.count(), { timeout: 10_000 }).toBe(8);
      await expect(page.getByText(/^In a script \(read as text, never run\)/).count()).resolves.toBe(4);
      await page.waitForTimeout(1500);

      const leaving = seen.filter((line) => !line.replace(/^(?:context|cdp) /, '').startsWith(origin));
      expect(leaving).toEqual([]);
      expect(counter.hits).toEqual([]);
      expect(session.sim.requests).toEqual([]);
      expect((await session.tabUrls()).length).toBe(tabsBefore + 1);
      await page.close();

      // The control: the counting server is reachable from this browser, so zero means none were made.
      const control = await session.context.newPage();
      await control.goto(`${counter.origin}/control`);
      expect(counter.hits).toContain('GET /control');
      await control.close();
    } finally {
      session.context.off('request', record);
      await counter.close();
    }
  });
});
