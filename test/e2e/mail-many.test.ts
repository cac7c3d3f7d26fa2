/**
 * The reported mail page with several mails, in real Chromium on the production build.
 *
 * 1. Several mails of test/fixtures/mail chosen at once with the file input (and one empty
 *    file): the page lists their targets once each, with how many mails hold each and which;
 *    the empty file is named with why. The README's screenshot of the page is taken here.
 *    With every target but one unchecked, "Open selected in isolation" sends ONE create
 *    request to the simulator holding that target, and its one launch tab opens.
 * 2. A folder chosen with the folder input (webkitdirectory): its mails read, by their paths.
 */
import { readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/service/wire';
import { targetUrlOf } from '../simulator/state';
import { ARTIFACTS_DIR, findChromium, useSession, type Session } from './harness';

const MAIL = resolve(import.meta.dirname, '../fixtures/mail');
const MESSAGES = resolve(MAIL, 'mbox/messages');
/** Three reports of one campaign (1 and 3 hold the same invoice link) and three others. */
const CHOSEN = [
  resolve(MESSAGES, '1.eml'),
  resolve(MESSAGES, '2.eml'),
  resolve(MESSAGES, '3.eml'),
  resolve(MAIL, 'eml/17-lying-display-text.eml'),
  resolve(MAIL, 'eml/03-safelinks-same-target-twice.eml'),
  resolve(MAIL, 'msg/06-ansi-cp1252.msg'),
];
/** Where the README's screenshot of the page with several reports is saved (copied to docs/ by hand). */
const README_SHOT = resolve(ARTIFACTS_DIR, '../mail-page-many.png');
const INVOICE = 'https://invoice-desk.example/pay/1';

describe.skipIf(!findChromium() && !process.env['CI'])('the reported mail page with several mails in real Chromium', () => {
  const use = useSession();
  let session: Session;
  let prefix = '';
  const apiRequests = () => session.sim.requests.filter((request) => request.path === '/api/');
  beforeEach(() => {
    session = use();
    prefix = `${session.sim.launchBase}/launch?ctx=`;
  });

  it('lists the targets of several mails with their counts, and opens the one left checked: one create request, one launch tab', async () => {
    const page = await session.openPage('mail.html');
    await page.setViewportSize({ width: 1000, height: 900 });
    const files = [
      ...CHOSEN.map((path) => ({
        name: basename(path),
        mimeType: path.endsWith('.msg') ? 'application/vnd.ms-outlook' : 'message/rfc822',
        buffer: readFileSync(path),
      })),
      { name: 'unfinished.eml', mimeType: 'message/rfc822', buffer: Buffer.alloc(0) },
    ];
    await page.getByLabel(/reported mail/i).setInputFiles(files);

    await page.getByRole('heading', { name: 'Several reported mails' }).waitFor({ timeout: 15_000 });
    await page.getByText('6 mails read, 1 could not be read.').waitFor();
    await page
      .getByRole('region', { name: 'Not read' })
      .getByText(/^unfinished\.eml /)
      .waitFor();
    const rows = page.getByRole('list', { name: /^Targets: / }).getByRole('listitem');
    const first = rows.first();
    await expect(first.locator('label.target').textContent()).resolves.toBe(INVOICE);
    await expect(first.textContent()).resolves.toContain('In 2 mails: 1.eml, 3.eml');
    await expect(rows.filter({ hasText: 'parcel-hold.example' }).textContent()).resolves.toContain('In one mail: 2.eml');
    const boxes = page.getByRole('checkbox');
    const count = await boxes.count();
    expect(count).toBe(await rows.count());
    await expect(page.getByRole('heading', { name: `Targets: ${String(count)}` }).isVisible()).resolves.toBe(true);
    await page.getByRole('button', { name: /^2\.eml/ }).click();
    await page.getByRole('region', { name: 'The mail in 2.eml' }).getByText('Report 2').waitFor();
    await page.getByRole('button', { name: /^2\.eml/ }).click();
    await page.getByRole('region', { name: 'The mail in 2.eml' }).waitFor({ state: 'detached' });
    await page.screenshot({ path: README_SHOT, fullPage: true });
    await page.screenshot({ path: resolve(ARTIFACTS_DIR, 'mail-page-many.png'), fullPage: true });

    // Every target unchecked but the campaign's invoice link.
    for (let index = 0; index < count; index++) {
      const box = boxes.nth(index);
      const name = (await box.getAttribute('id')) ?? '';
      const label = await page.locator(`label[for="${name}"]`).textContent();
      if (label !== INVOICE) await box.uncheck();
    }
    await page.getByText('Selected: 1').waitFor();
    await page.getByRole('button', { name: /open selected in isolation/i }).click();

    await page.getByText('Isolated tabs opened: 1').waitFor({ timeout: 15_000 });
    const requests = apiRequests();
    expect(requests).toHaveLength(1);
    const body = requests[0]?.body;
    const commands = JSON.parse(typeof body === 'string' ? body : '[]') as { command: string }[];
    expect(commands.filter((command) => command.command === COMMANDS.createContext)).toHaveLength(1);
    expect([...session.sim.state.contexts.values()].map((context) => targetUrlOf(context))).toEqual([INVOICE]);
    await expect.poll(async () => (await session.tabUrls()).filter((url) => url.startsWith(prefix)).length, { timeout: 10_000 }).toBe(1);
    expect((await session.tabUrls()).some((url) => url.includes('invoice-desk'))).toBe(false);
    await page.close();
  });

  it('reads a folder chosen with the folder input: its mails by their paths', async () => {
    const page = await session.openPage('mail.html');
    await page.getByLabel('Or a whole folder of them').setInputFiles(MESSAGES);

    await page.getByText('Read 3 mails: 3 targets.').waitFor({ timeout: 15_000 });
    await page.getByRole('button', { name: /^messages\/1\.eml/ }).waitFor();
    await expect(
      page
        .getByRole('list', { name: /^Targets: / })
        .getByRole('listitem')
        .first()
        .textContent(),
    ).resolves.toContain('In 2 mails: messages/1.eml, messages/3.eml');
    expect(session.sim.requests).toEqual([]);
    await page.close();
  });
});
