/**
 * `npm run demo`: builds Isolink, starts the simulator, and opens Chromium with Isolink
 * loaded and configured for it, on a local page of sample suspicious links.
 *
 * With a display it is an ordinary browser window to try by hand (Ctrl-C ends it).
 * Without one it runs a short scripted tour (a link, a selection, a research session, a link
 * rewritten by Safe Links, a reported mail, a link isolated by policy), prints what happened and saves screenshots under
 * test-results/demo/. Either way a sample reported mail is written there to drop on the
 * Reported mail page.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { PHISH } from '../e2e/fixtures/mails';
import { autoIsolateThroughOptions, configureThroughOptions, findChromium, launch, type Session } from '../e2e/harness';

const ROOT = resolve(import.meta.dirname, '../..');
const SHOTS = resolve(ROOT, 'test-results/demo');
const USER = 'analyst@acme.example';
/** A reported phish to drop on the Reported mail page: a lying link, wrapped links, a refused one. */
const SAMPLE_MAIL = resolve(SHOTS, 'reported-phish.eml');

function step(text: string): void {
  console.log(`\n▶ ${text}`);
}

interface SamplePage {
  readonly url: string;
  /** Requests for the watched link (`/watched/...`): the policy isolates it, so none ever arrive. */
  readonly watchedHits: () => number;
  close(): void;
}

/** The sample page on 127.0.0.1; its watched link points at the same server under the name `localhost`. */
async function servePage(): Promise<SamplePage> {
  const template = readFileSync(resolve(import.meta.dirname, 'samples.html'), 'utf8');
  let port = 0;
  let watchedHits = 0;
  const server = createServer((req, res) => {
    if (req.url?.startsWith('/watched/') === true) watchedHits += 1;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'" });
    res.end(template.replaceAll('{{PORT}}', String(port)));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  port = (server.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${port}/`, watchedHits: () => watchedHits, close: () => server.close() };
}

async function waitForLaunchTabs(session: Session, count: number): Promise<Page[]> {
  const prefix = `${session.sim.launchBase}/launch?ctx=`;
  const deadline = Date.now() + 15_000;
  for (;;) {
    const tabs = session.context.pages().filter((p) => p.url().startsWith(prefix));
    if (tabs.length >= count || Date.now() > deadline) return tabs;
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function shoot(page: Page, name: string): Promise<string> {
  const path = resolve(SHOTS, `${name}.png`);
  await page.bringToFront();
  await page.screenshot({ path, fullPage: true });
  return path;
}

async function tour(session: Session, samples: Page, served: SamplePage): Promise<void> {
  const shots: string[] = [await shoot(samples, '1-sample-page')];

  step('Right-click a link → "Open link in isolation"');
  const link = await samples.locator('#live-1').getAttribute('href');
  await session.clickMenu({ menuItemId: 'isolate-link', linkUrl: link, pageUrl: samples.url() });
  const [first] = await waitForLaunchTabs(session, 1);
  if (!first) throw new Error('no isolated tab opened for the link');
  await first.getByTestId('target-url').waitFor();
  console.log(`  isolated tab: ${first.url()}`);
  console.log(`  session page shows: ${await first.getByTestId('target-url').textContent()}`);
  shots.push(await shoot(first, '2-isolated-link'));

  step('Select defanged text → "Open in isolation"');
  const text = (await samples.locator('#defanged').textContent()) ?? '';
  await session.clickMenu({ menuItemId: 'isolate-selection', selectionText: text, pageUrl: samples.url() });
  const tabs = await waitForLaunchTabs(session, 4);
  console.log(`  ${tabs.length - 1} more isolated tabs from one selection (one batched request)`);

  step('Right-click a link → "Open link in a research session"');
  await session.clickMenu({ menuItemId: 'isolate-link-research', linkUrl: await samples.locator('#live-2').getAttribute('href'), pageUrl: samples.url() });
  const withResearch = await waitForLaunchTabs(session, tabs.length + 1);
  const research = withResearch.at(-1);
  if (research) {
    await research.getByTestId('session-type').waitFor();
    console.log(`  session type: ${await research.getByTestId('session-type').textContent()}`);
    shots.push(await shoot(research, '3-research-session'));
  }

  step('Right-click a link a mail gateway rewrote (Safe Links) → its real target is isolated');
  await session.clickMenu({ menuItemId: 'isolate-link', linkUrl: await samples.locator('#wrapped').getAttribute('href'), pageUrl: samples.url() });
  const withWrapped = await waitForLaunchTabs(session, withResearch.length + 1);
  const unwrapped = withWrapped.at(-1);
  if (unwrapped) {
    await unwrapped.getByTestId('target-url').waitFor();
    console.log(`  session page shows: ${await unwrapped.getByTestId('target-url').textContent()}`);
  }

  step('A javascript: link is refused: nothing is sent, nothing opens');
  const before = session.context.pages().length;
  await session.clickMenu({ menuItemId: 'isolate-link', linkUrl: "javascript:alert('x')", pageUrl: samples.url() });
  await new Promise((r) => setTimeout(r, 500));
  console.log(`  tabs before ${before}, after ${session.context.pages().length}; notifications: ${(await session.notifications()).length}`);

  step('The popup and the options page');
  const popup = await session.openPage('popup.html');
  await popup.setViewportSize({ width: 420, height: 640 });
  shots.push(await shoot(popup, '4-popup'));
  const options = await session.openPage('options.html');
  shots.push(await shoot(options, '5-options'));

  step('A reported mail on the Reported mail page → isolate two of its links in one request');
  const mail = await session.openPage('mail.html');
  await mail.getByLabel(/reported mail/i).setInputFiles(SAMPLE_MAIL);
  const open = mail.getByRole('button', { name: /open selected in isolation/i });
  await open.waitFor();
  shots.push(await shoot(mail, '6-reported-mail'));
  const boxes = mail.getByRole('checkbox');
  const count = await boxes.count();
  for (let i = 2; i < count; i++) await boxes.nth(i).uncheck();
  const launched = (await waitForLaunchTabs(session, 0)).length;
  await open.click();
  const after = await waitForLaunchTabs(session, launched + 2);
  console.log(`  ${count} links could be isolated; 2 chosen; isolated tabs opened: ${after.length - launched}`);

  step('A plain click on a link to a watched domain → isolated by policy, never loaded');
  await samples.bringToFront();
  await samples.locator('#watched').click();
  await samples.waitForURL((url) => url.href.startsWith(`${session.sim.launchBase}/launch?ctx=`), { timeout: 15_000 });
  await samples.getByTestId('target-url').waitFor();
  console.log(`  the same tab now shows: ${samples.url()}`);
  console.log(`  session page shows: ${await samples.getByTestId('target-url').textContent()}`);
  console.log(`  requests that reached the watched link's server: ${served.watchedHits()}`);
  shots.push(await shoot(samples, '7-isolated-by-policy'));

  step('What the simulator saw');
  for (const context of session.sim.state.contexts.values()) {
    console.log(`  ${context.id}  ${(context.contextData.session_type ?? 'service-ruby').padEnd(18)} ${context.contextData.urls?.[0] ?? '(no URL)'}`);
  }
  console.log(`  /api/ requests: ${session.sim.requests.filter((r) => r.path === '/api/').length}`);
  console.log('\nScreenshots:');
  for (const shot of shots) console.log(`  ${shot}`);
}

async function main(): Promise<void> {
  if (!findChromium()) {
    console.error("Chromium is missing: run `npm run setup` (installs Debian's chromium) and try again.");
    process.exitCode = 1;
    return;
  }
  mkdirSync(SHOTS, { recursive: true });
  writeFileSync(SAMPLE_MAIL, PHISH);
  step('Building the extension (production)');
  execFileSync(resolve(ROOT, 'node_modules/.bin/wxt'), ['build'], { cwd: ROOT, stdio: 'inherit' });

  const headless = !process.env['DISPLAY'];
  step(`Starting the simulator and Chromium (${headless ? 'headless: scripted tour' : 'a window to try by hand'})`);
  const page = await servePage();
  const session = await launch({ headless, simulator: { port: Number(process.env['ISOLINK_SIM_PORT'] ?? 8787) } });
  console.log(`  simulator: ${session.sim.url}   admin token: ${session.sim.adminToken}   file token: ${session.sim.fileToken}`);

  step('Configuring Isolink through its options page');
  await configureThroughOptions(session, { token: session.sim.adminToken, username: USER });
  step('Setting a policy through the options page: every link to localhost opens in isolation');
  await autoIsolateThroughOptions(session, { to: ['localhost'] });
  const samples = await session.context.newPage();
  await samples.goto(page.url);

  if (headless) {
    try {
      await tour(session, samples, page);
    } finally {
      await session.close();
      page.close();
    }
    return;
  }
  console.log(`\nIsolink is ready in the Chromium window, configured for ${USER}.`);
  console.log('Right-click the sample links or select the defanged text; open the toolbar popup.');
  console.log('Click the link to the watched domain: the policy isolates every link to localhost.');
  console.log(`Open the popup's "Reported mail…" and drop ${SAMPLE_MAIL} on the page.`);
  console.log('Press Ctrl-C here to stop.');
  const stop = async (): Promise<void> => {
    await session.close();
    page.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
  session.context.once('close', () => void stop());
}

await main();
