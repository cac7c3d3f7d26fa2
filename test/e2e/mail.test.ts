/**
 * The reported mail page in real Chromium, on the production build.
 *
 * 1. A mail dropped on the page (a real drop event whose DataTransfer holds a File built in
 *    the page) lists its links; with all but two unchecked, "Open selected in isolation"
 *    sends ONE create request to the simulator holding exactly those two targets, and their
 *    launch tabs open.
 * 2. An Outlook .msg whose strings are windows-1252 is read in the page as the command reads it.
 * 3. An SVG attachment whose script names a link (through atob): the link is a row, labelled
 *    "In a script".
 * 4. A saved Word document and a zip given on their own: the document's hyperlink, text URL
 *    and remote template, and the zip's pages two archives deep, are rows; the third archive
 *    is said in the page's words.
 * 5. The no-request proof: a mail full of remote images, CSS, fonts, frames, prefetches,
 *    scripts, posters, objects and a meta refresh, chosen with the file input, is read and
 *    shown, and no request leaves the page but for the extension's own files: every request
 *    of the browser context (Playwright) and of the page (CDP Network) is recorded, and the
 *    mail's remote URLs point at a second server on 127.0.0.1 that counts hits: zero.
 */
import { resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/service/wire';
import { targetUrlOf } from '../simulator/state';
import { PHISH, phoningHome } from './fixtures/mails';
import { ARTIFACTS_DIR, findChromium, useSession, type Session } from './harness';
import { localServer } from './local-server';

/** An Outlook .msg of the reader's corpus whose strings are windows-1252 (see its expected.json). */
const MSG_CP1252 = resolve(import.meta.dirname, '../fixtures/mail/msg/06-ansi-cp1252.msg');
/** The corpus's SVG "voice message" mail: its attachment's script sends the victim on through atob (make-eml.py). */
const SVG_VOICE = resolve(import.meta.dirname, '../fixtures/mail/eml/46-svg-voice-message.eml');
/** LibreOffice's Word document with a remote template, and Python's zip nested three deep (test/fixtures/attachments/README.md). */
const TEMPLATE_DOCX = resolve(import.meta.dirname, '../fixtures/attachments/office/template.docx');
const NESTED_ZIP = resolve(import.meta.dirname, '../fixtures/attachments/archives/nested.zip');
/** Where the README's screenshot of the page is saved. */
const README_SHOT = resolve(ARTIFACTS_DIR, '../mail-page.png');

/** Drops a file made in the page from `bytes` onto the page's body: dragenter, dragover, drop, as a browser fires them. */
async function dropFile(page: Page, bytes: Uint8Array, name: string): Promise<void> {
  await page.evaluate(
    ([data, fileName]) => {
      const file = new File([Uint8Array.from(data)], fileName, { type: 'message/rfc822' });
      const transfer = new DataTransfer();
      transfer.items.add(file);
      for (const type of ['dragenter', 'dragover', 'drop']) {
        document.body.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: transfer }));
      }
    },
    [[...bytes], name] as const,
  );
}

describe.skipIf(!findChromium() && !process.env['CI'])('the reported mail page in real Chromium', () => {
  const use = useSession();
  let session: Session;
  let prefix = '';
  const apiRequests = () => session.sim.requests.filter((request) => request.path === '/api/');
  beforeEach(() => {
    session = use();
    prefix = `${session.sim.launchBase}/launch?ctx=`;
  });

  it('reads a dropped mail, and opens exactly the two links left checked: one create request, two launch tabs', async () => {
    const page = await session.openPage('mail.html');
    await page.setViewportSize({ width: 1000, height: 900 });
    await expect(page.getByLabel(/reported mail/i).getAttribute('type')).resolves.toBe('file');

    await dropFile(page, new TextEncoder().encode(PHISH), 'reported-phish.eml');

    await page.getByRole('heading', { name: 'The mail in reported-phish.eml' }).waitFor();
    await page.getByText('The text shows www.paypal.com but the link goes to paypa1-login.example').waitFor();
    await page.getByText('Wrapped by Microsoft Safe Links; this is the real target behind it.').waitFor();
    await page.getByText(/it uses the javascript: scheme/).waitFor();
    await page.screenshot({ path: README_SHOT, fullPage: true });
    await page.screenshot({ path: resolve(ARTIFACTS_DIR, 'mail-page.png'), fullPage: true });

    const boxes = page.getByRole('checkbox');
    expect(await boxes.count()).toBe(5);
    // All but two unchecked: the lying link and the Safe Link's real target stay.
    for (const host of ['protect-eu.mimecast.com', 'help.evil.example', 'status.evil.example']) {
      await page.getByRole('checkbox', { name: new RegExp(host.replaceAll('.', '\\.')) }).uncheck();
    }
    await page.getByText('Selected: 2').waitFor();

    await page.getByRole('button', { name: /open selected in isolation/i }).click();

    await page.getByText('Isolated tabs opened: 2').waitFor({ timeout: 15_000 });
    const requests = apiRequests();
    expect(requests).toHaveLength(1);
    const body = requests[0]?.body;
    const commands = JSON.parse(typeof body === 'string' ? body : '[]') as { command: string }[];
    expect(commands.filter((command) => command.command === COMMANDS.createContext)).toHaveLength(2);
    const targets = [...session.sim.state.contexts.values()].map((context) => targetUrlOf(context));
    expect(targets.sort()).toEqual(['https://invoice.evil.example/pay?id=7', 'https://paypa1-login.example/verify?acc=1']);
    await expect.poll(async () => (await session.tabUrls()).filter((url) => url.startsWith(prefix)).length, { timeout: 10_000 }).toBe(2);
    const tabs = await session.tabUrls();
    expect(tabs.some((url) => url.includes('paypa1-login') || url.includes('invoice.evil'))).toBe(false);
    await page.close();
  });

  it('reads an Outlook .msg in windows-1252 as the command does (the reader decodes with the browser’s TextDecoder)', async () => {
    const page = await session.openPage('mail.html');
    await page.getByLabel(/reported mail/i).setInputFiles(MSG_CP1252);

    await page.getByRole('heading', { name: 'The mail in 06-ansi-cp1252.msg' }).waitFor();
    await page.getByText('Your “Amazon” order #112-4471 – delivery problem', { exact: true }).waitFor();
    await page.getByText('The text shows www.amazon.com but the link goes to amaz0n-track.example').waitFor();
    expect(await page.getByRole('checkbox').count()).toBe(2);
    await page.close();
  });

  it('lists the link an SVG attachment’s script names as a row, labelled as found in a script', async () => {
    const page = await session.openPage('mail.html');
    await page.getByLabel(/reported mail/i).setInputFiles(SVG_VOICE);

    await page.getByRole('heading', { name: 'The mail in 46-svg-voice-message.eml' }).waitFor();
    const box = page.getByRole('checkbox', { name: /voicemail-portal\.evil\.example/ });
    await box.waitFor();
    const row = page.locator('li.link', { has: box });
    await expect(row.getByText(/^In a script \(read as text, never run\)/).isVisible()).resolves.toBe(true);
    await expect(row.getByText('Found in the attachment VoiceMessage_0042.svg').count()).resolves.toBe(1);
    expect(await page.getByRole('checkbox').count()).toBe(1);
    await page.close();
  });

  it('reads a saved Word document and a zip on their own: rows for their links, the deeper archive said', async () => {
    const page = await session.openPage('mail.html');
    await page.getByLabel(/reported mail/i).setInputFiles(TEMPLATE_DOCX);

    await page.getByRole('heading', { name: 'The mail in template.docx' }).waitFor();
    await page.getByRole('checkbox', { name: /template\.example/ }).waitFor();
    await page.getByText('Shown as: the document would load: attachedTemplate', { exact: true }).waitFor();
    expect(await page.getByRole('checkbox', { name: /docx-link\.example|docx-text\.example|template\.example/ }).count()).toBe(3);

    await page.getByLabel(/reported mail/i).setInputFiles(NESTED_ZIP);
    await page.getByRole('heading', { name: 'The mail in nested.zip' }).waitFor();
    await page.getByRole('checkbox', { name: /depth-two\.example/ }).waitFor();
    expect(await page.getByRole('checkbox').count()).toBe(2);
    await page.getByText(/nested more than 2 deep/).waitFor();
    await page.close();
  });

  it('loads nothing a mail points at: no request leaves but for the extension’s own files, and the counting server gets none', async () => {
    const counter = await localServer();
    const origin = `chrome-extension://${session.extensionId}/`;
    const seen: string[] = [];
    const record = (request: { url(): string }): void => {
      seen.push(`context ${request.url()}`);
    };
    session.context.on('request', record);
    try {
      const page = await session.context.newPage();
      const cdp = await session.context.newCDPSession(page);
      cdp.on('Network.requestWillBeSent', (event: { request: { url: string } }) => {
        seen.push(`cdp ${event.request.url}`);
      });
      cdp.on('Network.webSocketCreated', (event: { url: string }) => {
        seen.push(`cdp websocket ${event.url}`);
      });
      await cdp.send('Network.enable');
      await page.goto(`${origin}mail.html`);
      await page.locator('[data-ready="true"]').waitFor({ timeout: 15_000 });

      await page
        .getByLabel(/reported mail/i)
        .setInputFiles({ name: 'parcel.eml', mimeType: 'message/rfc822', buffer: Buffer.from(phoningHome(counter.origin)) });

      await page.getByRole('heading', { name: 'The mail in parcel.eml' }).waitFor();
      const remote = await page.getByText(/^If shown, this mail would load \d+ remote images/).textContent();
      expect(Number(/load (\d+) remote/.exec(remote ?? '')?.[1])).toBeGreaterThanOrEqual(10);
      await page
        .getByRole('checkbox', { name: /127\.0\.0\.1/ })
        .first()
        .waitFor();
      // Long enough for a meta refresh, a font or a lazy image to have gone out, were any loaded.
      await page.waitForTimeout(1500);

      const leaving = seen.filter((line) => !line.replace(/^(?:context|cdp) /, '').startsWith(origin));
      expect(leaving).toEqual([]);
      // The page loads no parser: the mail was read in the decoder's frame, loaded with the file, and no readers chunk came.
      for (const recorder of ['context', 'cdp']) expect(seen.filter((line) => line.startsWith(`${recorder} ${origin}chunks/readers-`))).toEqual([]);
      expect(seen.filter((line) => line.startsWith(`context ${origin}qr-decoder.`)).length).toBeGreaterThanOrEqual(1);
      expect(counter.hits).toEqual([]);
      expect(session.sim.requests).toEqual([]);
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
