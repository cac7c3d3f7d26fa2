/**
 * QR codes in real Chromium, on the production build: the decoder runs in its sandboxed
 * frame (its own page, the only one whose policy allows WebAssembly), never in the service
 * worker, and reads the pixels it is given: nothing is fetched again from the page.
 *
 * 1. A reported mail whose only link is a QR code in an inline image lists that link, found
 *    "in a QR code in scan.png", and opens it in isolation.
 * 2. An image chosen, and a screenshot pasted, on the same page: every code's link is listed
 *    (several to an image, a WebP too), and a code that is not a link is shown, not offered.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { targetUrlOf } from '../simulator/state';
import type { Page } from 'playwright-core';
import { ARTIFACTS_DIR, findChromium, useSession, type Session } from './harness';

const QR_DIR = resolve(import.meta.dirname, '../fixtures/qr');
/** Where the README's screenshot of an image read is saved (copied to docs/ by hand). */
const README_SHOT = resolve(ARTIFACTS_DIR, '../qr-page.png');

/** A "quishing" mail: words and one inline image whose QR code is the only link. */
function quishing(image: string): string {
  const png = readFileSync(resolve(QR_DIR, image)).toString('base64');
  return [
    'From: "IT Service Desk" <it@evil.example>',
    'Subject: Your mailbox is full',
    'MIME-Version: 1.0',
    'Content-Type: multipart/related; boundary="rel"',
    '',
    '--rel',
    'Content-Type: text/html; charset=utf-8',
    '',
    '<p>Your mailbox is full. Scan the code below with your phone to keep your mail.</p><img src="cid:scan">',
    '--rel',
    'Content-Type: image/png; name="scan.png"',
    'Content-Disposition: inline; filename="scan.png"',
    'Content-ID: <scan>',
    'Content-Transfer-Encoding: base64',
    '',
    ...(png.match(/.{1,76}/g) ?? []),
    '--rel--',
    '',
  ].join('\r\n');
}

/** Pastes a file made in the page from these bytes, as Ctrl+V with a screenshot on the clipboard does. */
async function pasteFile(page: Page, bytes: Uint8Array, name: string, type: string): Promise<void> {
  await page.evaluate(
    ([data, fileName, fileType]) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([Uint8Array.from(data)], fileName, { type: fileType }));
      document.dispatchEvent(new ClipboardEvent('paste', { bubbles: true, cancelable: true, clipboardData: transfer }));
    },
    [[...bytes], name, type] as const,
  );
}

describe.skipIf(!findChromium() && !process.env['CI'])('QR codes in real Chromium', () => {
  const use = useSession();
  let session: Session;
  beforeEach(() => {
    session = use();
  });

  it('lists the link of a QR code in a mail’s inline image, and opens it in isolation', async () => {
    const page = await session.openPage('mail.html');
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await page
      .getByLabel(/reported mail/i)
      .setInputFiles({ name: 'quishing.eml', mimeType: 'message/rfc822', buffer: Buffer.from(quishing('content-https.png')) });

    await page.getByRole('heading', { name: 'The mail in quishing.eml' }).waitFor();
    await page.getByText(/a QR code in scan\.png/).waitFor({ timeout: 15_000 });
    expect(await page.getByRole('checkbox').count()).toBe(1);
    await page.getByRole('button', { name: /open selected in isolation/i }).click();
    await page.getByText('Isolated tabs opened: 1').waitFor({ timeout: 15_000 });
    expect([...session.sim.state.contexts.values()].map((context) => targetUrlOf(context))).toEqual(['https://mail-quota.evil.example/verify?user=alice']);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('lists the links of the codes in an image chosen or pasted, and shows a code that is not a link as text', async () => {
    const page = await session.openPage('mail.html');
    await page.setViewportSize({ width: 1000, height: 900 });
    await page.getByLabel(/reported mail/i).setInputFiles(resolve(QR_DIR, 'multi-mixed.png'));
    await page.getByRole('heading', { name: 'The codes in multi-mixed.png' }).waitFor({ timeout: 15_000 });
    await page.getByText(/4 codes found/).waitFor();
    await page.screenshot({ path: README_SHOT, fullPage: true });

    await page.getByLabel(/reported mail/i).setInputFiles(resolve(QR_DIR, 'multi-3.jpg'));
    await page.getByRole('heading', { name: 'The codes in multi-3.jpg' }).waitFor({ timeout: 15_000 });
    await page.getByText(/3 codes found/).waitFor();
    expect(await page.getByRole('checkbox').count()).toBe(3);

    await pasteFile(page, readFileSync(resolve(QR_DIR, 'content-wifi.png')), 'image.png', 'image/png');
    await page.getByRole('heading', { name: 'The codes in image.png' }).waitFor({ timeout: 15_000 });
    await page.getByText('Wi-Fi network', { exact: true }).waitFor();
    await page.getByText('WIFI:T:WPA;S:CorpGuest;P:secret;;').waitFor();
    expect(await page.getByRole('checkbox').count()).toBe(0);

    await pasteFile(page, readFileSync(resolve(QR_DIR, 'screenshot-1280x900-dark.webp')), 'shot.webp', 'image/webp');
    await page.getByRole('heading', { name: 'The codes in shot.webp' }).waitFor({ timeout: 15_000 });
    await page.getByRole('checkbox', { name: /mfa-reset\.evil\.example/ }).waitFor();
    expect(session.sim.requests).toEqual([]);
    await page.close();
  });
});
