/**
 * Scanning what a tab shows for QR codes, in real Chromium on the production build, in a
 * real window (Xvfb): the browser gives a tab's pixels to an extension only under the grant
 * a real click or keyboard shortcut gives (activeTab), and only real key presses (xdotool)
 * reach the browser's shortcuts. The scan's pixels are the ones already drawn: the test
 * page's server counts every request, and the images are asked for once, by the page.
 *
 * 1. The shortcut (Alt+Shift+Q, "Scan the current tab for QR codes") on a page showing two
 *    codes: the page that reads them comes to the front listing both; nothing is created.
 * 2. "Open QR code in isolation" on an image, the only code the tab shows: it is isolated at
 *    once (one create request, the launch tab opens) and the scan page closes.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { targetUrlOf } from '../simulator/state';
import { seedStorage } from '../support/seed';
import { findChromium, launch, type Session } from './harness';
import { localServer, type LocalServer } from './local-server';

const QR_DIR = resolve(import.meta.dirname, '../fixtures/qr');
/** The display of this test's own X server, once started (Xvfb picks a free one). */
let DISPLAY = '';

/** Starts Xvfb on a free display and waits until it says which. */
function startXvfb(): Promise<{ readonly server: ChildProcess; readonly display: string }> {
  const server = spawn('Xvfb', ['-displayfd', '1', '-screen', '0', '1280x1024x24', '-nolisten', 'tcp'], { stdio: ['ignore', 'pipe', 'ignore'] });
  return new Promise((done, fail) => {
    server.once('error', fail);
    server.stdout.once('data', (chunk: Buffer) => {
      done({ server, display: `:${chunk.toString().trim()}` });
    });
  });
}
const canRun = existsSync('/usr/bin/Xvfb') && existsSync('/usr/bin/xdotool') && findChromium() !== undefined;

/** A page with two QR codes far apart, served on 127.0.0.1, counting what it is asked. */
function quishingSite(): Promise<LocalServer> {
  return localServer({
    '/': [
      'text/html',
      '<!doctype html><title>Mailbox full</title><body style="margin:0;background:#fff">' +
        '<p>Scan to keep your mailbox:</p><img id="a" src="/a.png" style="position:absolute;left:40px;top:80px;width:264px">' +
        '<img id="b" src="/b.png" style="position:absolute;left:640px;top:80px;width:264px"></body>',
    ],
    '/a.png': ['image/png', readFileSync(resolve(QR_DIR, 'content-https.png'))],
    '/b.png': ['image/png', readFileSync(resolve(QR_DIR, 'content-urlto.png'))],
  });
}

/** Presses keys in the focused browser window as a person would (X events, not the page's input). */
function pressKeys(keys: string): void {
  const env = { ...process.env, DISPLAY };
  const [window] = execFileSync('xdotool', ['search', '--onlyvisible', '--class', 'chromium'], { env }).toString().trim().split('\n').slice(-1);
  if (window !== undefined) execFileSync('xdotool', ['windowfocus', '--sync', window], { env });
  execFileSync('xdotool', ['key', '--clearmodifiers', keys], { env });
}

describe.skipIf(!canRun && !process.env['CI'])('scanning a tab for QR codes, in a real window', () => {
  let xvfb: ChildProcess;
  let session: Session;
  let site: LocalServer;
  let page: Page;
  const scanPrefix = () => `chrome-extension://${session.extensionId}/mail.html?scan=`;

  beforeAll(async () => {
    const started = await startXvfb();
    xvfb = started.server;
    DISPLAY = started.display;
    process.env['DISPLAY'] = DISPLAY;
    session = await launch({ headless: false });
    await seedStorage(await session.currentWorker(), session.sim, {}, session.sim.adminToken);
    site = await quishingSite();
    page = await session.context.newPage();
    await page.setViewportSize({ width: 1000, height: 700 });
    await page.goto(`${site.origin}/`);
    await page.locator('#b').evaluate((image: HTMLImageElement) => image.decode());
    await page.bringToFront();
  }, 60_000);
  afterAll(async () => {
    await session.close();
    await site.close();
    xvfb.kill();
  });

  it('lists both codes of the tab after the shortcut, creating nothing', async () => {
    pressKeys('alt+shift+q');
    const scan = await session.waitForTab(scanPrefix(), 20_000);
    await scan.getByRole('heading', { name: 'The codes in the visible tab' }).waitFor({ timeout: 20_000 });
    expect(await scan.getByRole('checkbox').count()).toBe(2);
    await scan.getByRole('checkbox', { name: /mail-quota\.evil\.example/ }).waitFor();
    await scan
      .getByRole('checkbox', { name: /evil\.example/ })
      .first()
      .waitFor();
    await expect.poll(() => scan.evaluate(() => document.visibilityState)).toBe('visible');
    expect(session.sim.state.contexts.size).toBe(0);
    await scan.close();
  });

  it('isolates the one code at once from the image menu, reads nothing again from the site, and closes', async () => {
    await page.bringToFront();
    const tab = await (
      await session.currentWorker()
    ).evaluate(async (origin) => {
      const [found] = await chrome.tabs.query({ url: `${origin}/*` });
      return { id: found?.id, index: found?.index, windowId: found?.windowId, url: found?.url };
    }, site.origin);
    // The other code scrolled out of view: the tab shows one.
    await page.locator('#b').evaluate((image: HTMLImageElement) => {
      image.style.top = '3000px';
    });
    const before = [...site.hits];
    await session.clickMenu({ menuItemId: 'scan-qr-image', srcUrl: `${site.origin}/a.png`, frameId: 0, mediaType: 'image', pageUrl: `${site.origin}/` }, tab);
    const launched = await session.waitForTab(`${session.sim.launchBase}/launch?ctx=`, 20_000);
    expect([...session.sim.state.contexts.values()].map((context) => targetUrlOf(context))).toEqual(['https://mail-quota.evil.example/verify?user=alice']);
    await expect.poll(async () => (await session.tabUrls()).filter((url) => url.startsWith(scanPrefix())).length, { timeout: 10_000 }).toBe(0);
    expect(site.hits).toEqual(before);
    await launched.close();
  });
});
