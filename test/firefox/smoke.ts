/**
 * Smoke test in real Firefox (Debian's firefox-esr, headless):
 *
 *   npx tsx test/firefox/smoke.ts [--source-dir <unpacked build>]
 *
 * 1. Builds the Firefox MV3 zip (unless --source-dir) and installs it with
 *    `web-ext run` as a temporary add-on in a fresh profile (--no-input, --no-reload).
 * 2. Connects to the same Remote Debugging Protocol server web-ext used (port read
 *    from web-ext's verbose output) and checks, through the add-on's descriptor:
 *    installed without manifest warnings, background script RUNNING, name localised.
 * 3. Watches every document of the add-on (background page, and pages opened later)
 *    for error and console resources; a canary error thrown in the background proves
 *    the channel delivers errors before any "no errors" conclusion is drawn.
 * 4. Opens options.html, popup.html and mail.html: each must mark itself data-ready,
 *    which needs the background to answer their messages.
 * 5. Isolates a defanged link against the simulator on 127.0.0.1: settings and token
 *    sent from the options page (then the mail page's `getStatus` must answer
 *    configured), `isolate` from the popup page, as the UI does; the simulator must
 *    receive one create request and a tab must open at the launch URL. Before it, an image of
 *    a QR code chosen on the mail page must be decoded (the decoder's worker, WebAssembly) and listed,
 *    then a PDF and a mail chosen there read in that worker (the page holds no parser) and their links listed.
 *    Then the background is stopped (the descriptor's terminateBackgroundScript, as Firefox
 *    stops an idle event page) and the popup's isolate message, the first thing it gets,
 *    must wake it and isolate with one more request and a tab.
 *    Isolate by policy: autoIsolate saved from the options page installs network rules; a
 *    localhost page (a from site) that navigates itself to 127.0.0.1 and a tab opened on a
 *    `to` domain are each isolated, and their target server receives no request.
 * 6. Fails on any error or console.error from the add-on's documents, on Firefox
 *    output lines naming the add-on with an error or warning, and on any step above.
 * Firefox is always shut down (web-ext's SIGINT handling, then SIGKILL to the whole
 * process group) and its temporary profile directory is removed. SMOKE_DEBUG=1 prints
 * every debugger event.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { localServer } from '../e2e/local-server';
import { startSimulator, type Simulator } from '../simulator';
import { targetUrlOf } from '../simulator/state';
import { FIREFOX, ROOT, buildFirefoxZip, sourceDirArgument } from './build';
import { RdpClient, type Packet } from './rdp';

const ADDON_ID = 'isolink@isolink.invalid';
const OVERALL_TIMEOUT_MS = 150_000;
const STEP_TIMEOUT_MS = 30_000;
const CANARY = 'isolink-smoke-canary';
/** Messages the test itself causes, never the add-on: its debugger connection keeps the event page alive. */
const CAUSED_BY_THE_TEST = [/not terminated on idle because a DevTools toolbox is attached/u];
const causedByTheTest = (text: string): boolean => CAUSED_BY_THE_TEST.some((pattern) => pattern.test(text));

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = STEP_TIMEOUT_MS): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(150);
  }
}

interface Firefox {
  readonly child: ChildProcess;
  readonly tmp: string;
  output: string;
}

/** web-ext run, in its own process group so that Firefox and its children can be killed together. */
function startWebExt(sourceDir: string): Firefox {
  // web-ext and Firefox put their temporary profile under TMPDIR: a private one is removed whole at the end.
  const tmp = mkdtempSync(join(tmpdir(), 'isolink-firefox-'));
  const args = [
    'run',
    '--source-dir',
    sourceDir,
    '--target',
    'firefox-desktop',
    '--firefox',
    FIREFOX,
    '--arg=--headless',
    '--no-input',
    '--no-reload',
    '--no-config-discovery',
    '--verbose',
    // No test touches the public network: every outside request goes to a closed local port.
    '--pref',
    'network.proxy.type=1',
    '--pref',
    'network.proxy.http=127.0.0.1',
    '--pref',
    'network.proxy.http_port=9',
    '--pref',
    'network.proxy.ssl=127.0.0.1',
    '--pref',
    'network.proxy.ssl_port=9',
    '--pref',
    'network.proxy.no_proxies_on=127.0.0.1,localhost',
    // Console messages of extension documents also reach stdout (a second, independent signal).
    '--pref',
    'devtools.console.stdout.content=true',
    '--pref',
    'devtools.console.stdout.chrome=true',
  ];
  const child = spawn(join(ROOT, 'node_modules/.bin/web-ext'), args, {
    cwd: ROOT,
    detached: true,
    env: { ...process.env, TMPDIR: tmp },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const firefox: Firefox = { child, tmp, output: '' };
  const append = (chunk: Buffer): void => {
    firefox.output += chunk.toString('utf8');
  };
  child.stdout.on('data', append);
  child.stderr.on('data', append);
  return firefox;
}

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/** SIGINT to web-ext (it closes Firefox and removes its profile), then SIGKILL to whatever is left. */
async function stopFirefox(firefox: Firefox): Promise<void> {
  const pid = firefox.child.pid;
  if (pid === undefined) return;
  if (firefox.child.exitCode === null && firefox.child.signalCode === null) {
    try {
      process.kill(pid, 'SIGINT');
    } catch {
      // already gone
    }
  }
  const deadline = Date.now() + 15_000;
  while (groupAlive(pid) && Date.now() < deadline) await sleep(200);
  if (groupAlive(pid)) {
    console.log('   Firefox did not stop within 15 s: SIGKILL to its process group');
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // already gone
    }
    await sleep(500);
  }
  if (groupAlive(pid)) throw new Error(`processes of group ${pid} are still running`);
  rmSync(firefox.tmp, { recursive: true, force: true });
}

interface AddonForm {
  readonly actor: string;
  readonly id: string;
  readonly name: string;
  readonly backgroundScriptStatus?: string;
  readonly manifestURL: string;
  readonly warnings: unknown[];
  readonly temporarilyInstalled: boolean;
}

interface TargetForm {
  readonly actor: string;
  readonly url: string;
  readonly consoleActor: string;
}

interface Problem {
  readonly where: string;
  readonly text: string;
}

function resourcesOf(packet: Packet): [string, Record<string, unknown>[]][] {
  if (packet.type !== 'resources-available-array' || !Array.isArray(packet['array'])) return [];
  return packet['array'] as [string, Record<string, unknown>[]][];
}

async function smoke(sourceDir: string, sim: Simulator, firefox: Firefox): Promise<string[]> {
  const checks: string[] = [];
  const pass = (text: string): void => {
    checks.push(text);
    console.log(`   ok  ${text}`);
  };

  const port = await until('web-ext to connect to Firefox', () => {
    const match = /Connected to the remote Firefox debugger on port (\d+)/u.exec(firefox.output);
    return match?.[1] === undefined ? undefined : Number(match[1]);
  });
  await until('web-ext to install the add-on', () => {
    if (firefox.child.exitCode !== null) throw new Error(`web-ext exited with ${firefox.child.exitCode}`);
    return firefox.output.includes('as a temporary add-on') ? true : undefined;
  });
  if (/installTemporaryAddon: Error/u.test(firefox.output)) throw new Error('web-ext could not install the add-on');
  pass(`web-ext installed ${sourceDir} as a temporary add-on (debugger port ${port})`);

  const rdp = new RdpClient();
  await rdp.connect(port);
  try {
    const addon = await until('the add-on in listAddons with a running background', async () => {
      const list = await rdp.request('root', 'listAddons');
      const found = (list['addons'] as AddonForm[]).find((a) => a.id === ADDON_ID);
      return found?.backgroundScriptStatus === 'RUNNING' ? found : undefined;
    });
    pass(`background script RUNNING (listAddons: ${addon.name}, temporary=${String(addon.temporarilyInstalled)})`);
    if (addon.warnings.length > 0) throw new Error(`Firefox reported manifest warnings: ${JSON.stringify(addon.warnings)}`);
    pass('no manifest warnings from Firefox');
    if (addon.name !== 'Isolink') throw new Error(`the add-on's name is ${addon.name}, not the localised "Isolink"`);
    pass('__MSG_extName__ resolved to "Isolink"');
    // Not URL.origin: Node answers "null" for moz-extension: URLs.
    const manifestUrl = new URL(addon.manifestURL);
    const base = `${manifestUrl.protocol}//${manifestUrl.host}`;

    // Every document of the add-on, and what it reports.
    const problems: Problem[] = [];
    const warnings: string[] = [];
    let canarySeen = false;
    const targets: TargetForm[] = [];
    rdp.onEvent((packet) => {
      if (packet.type === 'target-available-form') targets.push(packet['target'] as TargetForm);
      for (const [kind, resources] of resourcesOf(packet)) {
        for (const resource of resources) {
          if (kind === 'error-message') {
            const error = resource['pageError'] as { errorMessage: string; sourceName: string; lineNumber: number; warning: boolean; error: boolean };
            const text = `${error.errorMessage} at ${error.sourceName}:${error.lineNumber}`;
            if (error.errorMessage.includes(CANARY)) canarySeen = true;
            else if (causedByTheTest(error.errorMessage)) console.log(`   note ${text} (caused by the test's debugger)`);
            else if (error.error) problems.push({ where: 'error', text });
            else warnings.push(text);
          } else if (kind === 'console-message') {
            const level = String(resource['level']);
            const text = `console.${level}(${(resource['arguments'] as unknown[]).map((a) => JSON.stringify(a)).join(', ')}) at ${String(resource['filename'])}:${String(resource['lineNumber'])}`;
            if (level === 'error') problems.push({ where: 'console', text });
            else if (level === 'warn') warnings.push(text);
          }
        }
      }
    });
    if (process.env['SMOKE_DEBUG'] === '1') {
      rdp.onEvent((packet) => {
        console.log(`   debug ${JSON.stringify(packet).slice(0, 300)}`);
      });
    }
    const watcher = await rdp.request(addon.actor, 'getWatcher', { isServerTargetSwitchingEnabled: true });
    const watcherActor = String(watcher['actor']);
    await rdp.request(watcherActor, 'watchTargets', { targetType: 'frame' });
    await rdp.request(watcherActor, 'watchResources', { resourceTypes: ['error-message', 'console-message'] });
    const background = await until('the background page target', () => targets.find((t) => t.url === `${base}/_generated_background_page.html`));
    pass(`watching the add-on's documents (background: ${background.url})`);

    /** Evaluates in a document of the add-on (awaiting a promise); throws on an exception. */
    const evaluateIn = async (consoleActor: string, text: string): Promise<unknown> => {
      const reply = await rdp.request(consoleActor, 'evaluateJSAsync', { text: `(async () => { ${text} })()`, mapped: { await: true } });
      const id = reply['resultID'];
      const result = await until(`the result of ${text.slice(0, 60)}`, () =>
        rdp.events.find((event) => event.type === 'evaluationResult' && event['resultID'] === id),
      );
      if (result['hasException'] === true) throw new Error(`evaluation failed: ${String(result['exceptionMessage'])} in ${text.slice(0, 120)}`);
      return result['result'];
    };
    /** Evaluates in the background page. */
    const evaluate = (text: string): Promise<unknown> => evaluateIn(background.consoleActor, text);

    // The error channel works: a canary thrown in the background must arrive.
    await evaluate(`setTimeout(() => { throw new Error('${CANARY}'); }, 0); return 'thrown';`);
    await until('the canary error to arrive', () => (canarySeen ? true : undefined), 10_000);
    pass('an error thrown in the background arrives through the watcher (canary)');

    // The pages load, and the background answers them.
    await evaluate(
      `await browser.tabs.create({ url: browser.runtime.getURL('/options.html') }); await browser.tabs.create({ url: browser.runtime.getURL('/popup.html') }); await browser.tabs.create({ url: browser.runtime.getURL('/mail.html') }); return 'opened';`,
    );
    const pageState = (page: string): string =>
      `const view = browser.extension.getViews({ type: 'tab' }).find((v) => v.location.pathname === '/${page}');` +
      ` return view ? view.document.querySelector('[data-ready]')?.getAttribute('data-ready') + '|' + view.document.title : 'none';`;
    for (const page of ['options.html', 'popup.html', 'mail.html']) {
      const state = await until(`${page} to be data-ready`, async () => {
        const value = String(await evaluate(pageState(page)));
        return value.startsWith('true|') ? value : undefined;
      });
      pass(`${page} is data-ready (title "${state.slice(5)}"): the background answered its messages`);
    }

    // Isolation against the simulator, through the same messages the pages send.
    const send = (page: string, message: unknown): Promise<unknown> =>
      evaluate(
        `const view = browser.extension.getViews({ type: 'tab' }).find((v) => v.location.pathname === '/${page}');` +
          ` const reply = await view.browser.runtime.sendMessage(${JSON.stringify(message)}); return JSON.stringify(reply);`,
      ).then((reply) => {
        const parsed = JSON.parse(String(reply)) as { ok: boolean; error?: { message: string } };
        if (!parsed.ok) throw new Error(`${JSON.stringify(message).slice(0, 80)} was refused: ${parsed.error?.message ?? String(reply)}`);
        return parsed;
      });
    await send('options.html', { type: 'saveSettings', data: { patch: { serviceUrl: sim.url, launchUrl: sim.launchBase, username: 'analyst@acme.example' } } });
    await send('options.html', { type: 'setToken', data: { token: sim.adminToken, remember: false } });
    pass('settings and token saved from the options page');
    const mailStatus = (await send('mail.html', { type: 'getStatus', data: {} })) as { value?: { configured?: boolean; serviceHost?: string | null } };
    if (mailStatus.value?.configured !== true) throw new Error(`the mail page's getStatus does not answer configured: ${JSON.stringify(mailStatus)}`);
    pass(`the mail page's getStatus answered: configured, service ${String(mailStatus.value.serviceHost)}`);
    // A QR code chosen on the mail page: Firefox has no sandboxed pages (nor lets an extension
    // page be framed), so the decoder is a worker whose policy allows WebAssembly; the page's forbids it.
    const png = readFileSync(join(ROOT, 'test/fixtures/qr/content-https.png')).toString('base64');
    await evaluate(
      `const view = browser.extension.getViews({ type: 'tab' }).find((v) => v.location.pathname === '/mail.html');` +
        ` const bytes = Uint8Array.from(atob('${png}'), (c) => c.charCodeAt(0));` +
        ` const transfer = new view.DataTransfer(); transfer.items.add(new view.File([bytes], 'qr.png', { type: 'image/png' }));` +
        ` const input = view.document.querySelector('input[type=file]'); input.files = transfer.files;` +
        ` input.dispatchEvent(new view.Event('change', { bubbles: true })); return 'chosen';`,
    );
    let mailText = '';
    const qrRow = await until('the chosen QR code listed on the mail page', async () => {
      mailText = String(
        await evaluate(
          `const view = browser.extension.getViews({ type: 'tab' }).find((v) => v.location.pathname === '/mail.html');` +
            ` return view.document.querySelectorAll('input[type=checkbox]').length + ' ' + view.document.querySelector('main')?.textContent;`,
        ),
      );
      return mailText.startsWith('1 ') && mailText.includes('mail-quota.evil.example') ? mailText : undefined;
    }).catch((error: unknown) => {
      throw new Error(`${error instanceof Error ? error.message : String(error)}; the page says: ${mailText.slice(-500)}`);
    });
    pass(
      `a QR code chosen on the mail page was decoded in the decoder's worker and listed (${qrRow.includes('mail-quota.evil.example/verify') ? 'https://mail-quota.evil.example/verify…' : '?'})`,
    );
    // A PDF chosen on its own: read by pdf.js in the same worker, its link annotation and the QR code drawn on its page listed.
    const pdf = readFileSync(join(ROOT, 'test/fixtures/pdf/invoice.pdf')).toString('base64');
    await evaluate(
      `const view = browser.extension.getViews({ type: 'tab' }).find((v) => v.location.pathname === '/mail.html');` +
        ` const bytes = Uint8Array.from(atob('${pdf}'), (c) => c.charCodeAt(0));` +
        ` const transfer = new view.DataTransfer(); transfer.items.add(new view.File([bytes], 'invoice.pdf', { type: 'application/pdf' }));` +
        ` const input = view.document.querySelector('input[type=file]'); input.files = transfer.files;` +
        ` input.dispatchEvent(new view.Event('change', { bubbles: true })); return 'chosen';`,
    );
    await until("the chosen PDF's link and drawn QR code listed on the mail page", async () => {
      mailText = String(
        await evaluate(
          `const view = browser.extension.getViews({ type: 'tab' }).find((v) => v.location.pathname === '/mail.html');` +
            ` return view.document.querySelectorAll('input[type=checkbox]').length + ' ' + view.document.querySelector('main')?.textContent;`,
        ),
      );
      return mailText.startsWith('2 ') && mailText.includes('pdf-link.evil.example') && mailText.includes('pdf-qr.evil.example') ? mailText : undefined;
    }).catch((error: unknown) => {
      throw new Error(`${error instanceof Error ? error.message : String(error)}; the page says: ${mailText.slice(-500)}`);
    });
    pass("a PDF chosen on the mail page was read by pdf.js in the decoder's worker: its link annotation and the QR code drawn on its page listed");
    // A mail: read whole in the decoder's worker (postal-mime, parse5), never in the page; the page lists what it answers.
    const eml = readFileSync(join(ROOT, 'test/fixtures/mail/eml/17-lying-display-text.eml')).toString('base64');
    await evaluate(
      `const view = browser.extension.getViews({ type: 'tab' }).find((v) => v.location.pathname === '/mail.html');` +
        ` const bytes = Uint8Array.from(atob('${eml}'), (c) => c.charCodeAt(0));` +
        ` const transfer = new view.DataTransfer(); transfer.items.add(new view.File([bytes], 'lying.eml', { type: 'message/rfc822' }));` +
        ` const input = view.document.querySelector('input[type=file]'); input.files = transfer.files;` +
        ` input.dispatchEvent(new view.Event('change', { bubbles: true })); return 'chosen';`,
    );
    await until("the chosen mail's links listed on the mail page", async () => {
      mailText = String(
        await evaluate(
          `const view = browser.extension.getViews({ type: 'tab' }).find((v) => v.location.pathname === '/mail.html');` +
            ` return view.document.querySelector('main')?.textContent;`,
        ),
      );
      return mailText.includes('lying.eml') && mailText.includes('verify.paypa1.example') && mailText.includes('amaz0n-orders.example') ? mailText : undefined;
    }).catch((error: unknown) => {
      throw new Error(`${error instanceof Error ? error.message : String(error)}; the page says: ${mailText.slice(-500)}`);
    });
    pass("a mail chosen on the mail page was read in the decoder's worker (postal-mime, parse5) and its links listed");
    await send('popup.html', { type: 'isolate', data: { url: 'hxxps://invoice[.]evil[.]example/pay?id=7', session: 'standard' } });
    const prefix = `${sim.launchBase}/launch?ctx=`;
    const tabUrl = await until('a tab at the launch URL', async () => {
      const urls = JSON.parse(String(await evaluate('return JSON.stringify((await browser.tabs.query({})).map((t) => t.url ?? ""));'))) as string[];
      return urls.find((url) => url.startsWith(prefix));
    });
    const creates = sim.requests.filter((r) => r.method === 'POST' && r.path === '/api/');
    const contexts = [...sim.state.contexts.values()];
    if (creates.length !== 1 || contexts.length !== 1)
      throw new Error(`expected one create request and one context, got ${creates.length} and ${contexts.length}`);
    if (!tabUrl.endsWith(contexts[0]?.id ?? '?')) throw new Error(`the tab ${tabUrl} is not the created context's launch URL`);
    pass(`a defanged link was isolated: 1 POST /api/, tab opened at ${tabUrl}`);

    // Isolate by policy: the same network rules as in Chrome (declarativeNetRequest). A page
    // on localhost (a from site) navigates itself to 127.0.0.1 (another site); a tab the
    // background opens goes to a `to` domain. Neither target may receive a byte.
    const target = await localServer();
    const fromSite = await localServer({
      '/': ['text/html', `<!doctype html><title>from</title><script src="/go.js"></script>`],
      '/go.js': ['text/javascript', `location.href = '${target.origin}/phish';`],
    });
    try {
      await send('options.html', { type: 'saveSettings', data: { patch: { autoIsolate: { from: ['localhost'] } } } });
      const rules = await until('the isolate-by-policy rules installed', async () => {
        const count = Number(await evaluate('return (await browser.declarativeNetRequest.getDynamicRules()).length;'));
        return count > 0 ? count : undefined;
      });
      pass(`autoIsolate saved from the options page: ${rules} network rules installed`);
      const before = sim.state.contexts.size;
      await evaluate(`await browser.tabs.create({ url: '${fromSite.origin.replace('127.0.0.1', 'localhost')}/' }); return 'opened';`);
      const policyTab = await until("a tab at the launch URL of the page's navigation", async () => {
        const urls = JSON.parse(String(await evaluate('return JSON.stringify((await browser.tabs.query({})).map((t) => t.url ?? ""));'))) as string[];
        return sim.state.contexts.size > before
          ? urls.find((url) => url.startsWith(prefix) && url.endsWith([...sim.state.contexts.keys()].at(-1) ?? '?'))
          : undefined;
      });
      const isolated = [...sim.state.contexts.values()].at(-1);
      if (targetUrlOf(isolated ?? ({} as never)) !== `${target.origin}/phish`)
        throw new Error(`the context was made for ${JSON.stringify(isolated?.contextData)}, not the page's target`);
      if (target.hits.length > 0) throw new Error(`the target received ${JSON.stringify(target.hits)}`);
      pass(`a navigation started by a from page was stopped and isolated (tab ${policyTab}); its target received nothing`);
      await send('options.html', { type: 'saveSettings', data: { patch: { autoIsolate: { to: ['127.0.0.1'] } } } });
      await until('the to rule installed', async () =>
        String(await evaluate('return JSON.stringify(await browser.declarativeNetRequest.getDynamicRules());')).includes('"requestDomains":["127.0.0.1"]')
          ? true
          : undefined,
      );
      const count = sim.state.contexts.size;
      await evaluate(`await browser.tabs.create({ url: '${target.origin}/typed' }); return 'opened';`);
      await until('a context for the watched domain', () => (sim.state.contexts.size > count ? true : undefined));
      if (targetUrlOf([...sim.state.contexts.values()].at(-1) ?? ({} as never)) !== `${target.origin}/typed`)
        throw new Error('the to rule isolated another URL');
      if (target.hits.length > 0) throw new Error(`the target received ${JSON.stringify(target.hits)}`);
      pass('a navigation to a watched (to) domain was isolated; its target received nothing');
      await send('options.html', { type: 'saveSettings', data: { patch: { autoIsolate: {} } } });
      await until('the rules removed', async () =>
        Number(await evaluate('return (await browser.declarativeNetRequest.getDynamicRules()).length;')) === 0 ? true : undefined,
      );
    } finally {
      await target.close();
      await fromSite.close();
    }

    // A click on a just-started background: stopped (as Firefox does to an idle event page),
    // then woken by the popup's isolate message, the first thing it does.
    const status = async (): Promise<string | undefined> =>
      ((await rdp.request('root', 'listAddons'))['addons'] as AddonForm[]).find((a) => a.id === ADDON_ID)?.backgroundScriptStatus;
    const createsBefore = sim.requests.filter((r) => r.method === 'POST' && r.path === '/api/').length;
    const tabsBefore = JSON.parse(String(await evaluate('return JSON.stringify((await browser.tabs.query({})).map((t) => t.url ?? ""));'))) as string[];
    await rdp.request(addon.actor, 'terminateBackgroundScript');
    await until('the background script to stop', async () => ((await status()) === 'STOPPED' ? true : undefined));
    const popup = await until('the popup page target', () => targets.find((t) => t.url === `${base}/popup.html`));
    const wakeReply = JSON.parse(
      String(
        await evaluateIn(
          popup.consoleActor,
          `return JSON.stringify(await browser.runtime.sendMessage(${JSON.stringify({ type: 'isolate', data: { url: 'https://cold.evil.example/first', session: 'standard' } })}));`,
        ),
      ),
    ) as { ok: boolean; error?: { message: string } };
    if (!wakeReply.ok) throw new Error(`the isolation on a just-started background was refused: ${wakeReply.error?.message ?? '?'}`);
    const coldTab = await until('a second tab at the launch URL', async () => {
      const urls = JSON.parse(
        String(await evaluateIn(popup.consoleActor, 'return JSON.stringify((await browser.tabs.query({})).map((t) => t.url ?? ""));')),
      ) as string[];
      return urls.find((url) => url.startsWith(prefix) && !tabsBefore.includes(url));
    });
    const createsAfter = sim.requests.filter((r) => r.method === 'POST' && r.path === '/api/').length;
    if (createsAfter !== createsBefore + 1)
      throw new Error(`expected one more create request on the just-started background, got ${createsAfter - createsBefore}`);
    if ((await status()) !== 'RUNNING') throw new Error('the background did not start for the message');
    pass(`a just-started background isolated with one request (it was STOPPED; the popup's message woke it): ${coldTab}`);

    // Late errors (the launch tab, the pages) get a moment to arrive.
    await sleep(1500);
    for (const warning of warnings) console.log(`   warn ${warning}`);

    const uuidHost = new URL(base).host;
    const outputLines = firefox.output
      .split('\n')
      .filter((line) => (line.includes(ADDON_ID) || line.includes(uuidHost)) && /error|warn|exception/iu.test(line))
      .filter((line) => !line.includes('installTemporaryAddon: {') && !causedByTheTest(line));
    for (const line of outputLines) problems.push({ where: 'firefox output', text: line.trim() });

    if (problems.length > 0) {
      throw new Error(`the add-on reported ${problems.length} problem(s):\n${problems.map((p) => `  [${p.where}] ${p.text}`).join('\n')}`);
    }
    pass(
      `no errors from the add-on's ${targets.length} documents, no console.error, no Firefox output naming it with an error (${warnings.length} warning(s) printed above)`,
    );
    return checks;
  } finally {
    rdp.close();
  }
}

async function main(): Promise<number> {
  if (!existsSync(FIREFOX)) {
    console.error(`FAIL: ${FIREFOX} not found: apt-get install -y --no-install-recommends firefox-esr (or set FIREFOX_PATH).`);
    return 1;
  }
  const sourceDir = sourceDirArgument(process.argv.slice(2)) ?? buildFirefoxZip().dir;
  const sim = await startSimulator();
  console.log(`== web-ext run: ${FIREFOX} --headless, temporary add-on, fresh profile; simulator at ${sim.url}`);
  const firefox = startWebExt(sourceDir);
  const watchdog = setTimeout(() => {
    console.error(`FAIL: watchdog: the smoke test took longer than ${OVERALL_TIMEOUT_MS} ms`);
    try {
      process.kill(-(firefox.child.pid ?? 0), 'SIGKILL');
    } catch {
      // gone
    }
    rmSync(firefox.tmp, { recursive: true, force: true });
    process.exit(1);
  }, OVERALL_TIMEOUT_MS);
  watchdog.unref();
  let code = 0;
  try {
    const checks = await smoke(sourceDir, sim, firefox);
    console.log(`\nOK: ${checks.length} checks passed in Firefox.`);
  } catch (error) {
    code = 1;
    console.error(`\nFAIL: ${error instanceof Error ? error.message : String(error)}`);
    console.error(`--- last web-ext/Firefox output ---\n${firefox.output.split('\n').slice(-40).join('\n')}`);
  } finally {
    try {
      await stopFirefox(firefox);
      console.log('   Firefox stopped: no process of its group is left, its temporary profile is removed.');
    } catch (error) {
      code = 1;
      console.error(`FAIL: could not stop Firefox: ${String(error)}`);
    }
    await sim.close();
    clearTimeout(watchdog);
  }
  return code;
}

process.exitCode = await main();
