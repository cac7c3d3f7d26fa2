/**
 * Hostile URLs through every entry point of the real extension in Chromium: refused
 * with a clear message, nothing sent, no tab. Deceptive but real http(s) links are
 * judged by their real host and opened only as a launch URL. A service that answers
 * hostile context ids cannot make Isolink open anything outside the launch base.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isLaunchUrl } from '../../src/api';
import { apiCount, findChromium, launchBrowser, type Reply, type SecuritySession } from './browser';
import { closingChecks } from './closing';
import { closeLaunchTabs, launchPrefix, launchTabs, seed, sleep, waitForLaunchTabs } from './flows';
import { prove } from './ledger';
import { startScripted } from './scan';

const HUNDRED_KB = `https://evil.example/?q=${'a'.repeat(100 * 1024)}`;

/** Refused everywhere: none of them is, or holds, an http(s) link. */
const REFUSED: readonly (readonly [label: string, input: string])[] = [
  ['javascript:', 'javascript:alert(document.cookie)'],
  ['javascript: behind spaces', '   javascript:alert(1)'],
  ['javascript: behind tabs', '\t\tjavascript:alert(1)'],
  ['javascript: in mixed case', 'JaVaScRiPt:alert(1)'],
  ['javascript: with a tab inside the scheme', 'java\tscript:alert(1)'],
  ['javascript: with a newline inside the scheme', 'java\nscript:alert(1)'],
  ['javascript: behind a control character', '\u0001javascript:alert(1)'],
  ['vbscript:', 'vbscript:msgbox(1)'],
  ['data: HTML', 'data:text/html,<script>alert(1)</script>'],
  ['data: base64', 'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg=='],
  ['file:', 'file:///etc/passwd'],
  ['file: on a host', 'file://server/share/x.exe'],
  ['blob:', 'blob:null/550e8400-e29b-41d4-a716-446655440000'],
  ['about:blank', 'about:blank'],
  ['chrome:', 'chrome://settings/passwords'],
  ['chrome-extension:', 'chrome-extension://abcdefghijklmnopabcdefghijklmnop/options.html'],
  ['view-source:', 'view-source:evil.example'],
  ['filesystem:', 'filesystem:evil.example/temporary/x'],
  ['relative path', '/login?next=/admin'],
  ['protocol-relative', '//evil.example/login'],
  ['schemeless host', 'evil.example/login'],
  ['an http URL without a host', 'http://'],
  ['a 100 kB URL', HUNDRED_KB],
  ['empty', ''],
];

/**
 * Addresses as the browser hands them to a menu or the shortcut (judged whole, never
 * mined): control characters or spaces in the host make them invalid.
 */
const BAD_HOSTS: readonly string[] = ['https://evil\u0000.example/', 'https://evil.exa\u0007mple/', 'https://evil.example%00.com/', 'http://[::1/'];

/** Typed text the URL parser reads as a javascript:/data: URL, with a link inside it. */
const WRAPPED: readonly (readonly [label: string, input: string])[] = [
  ['javascript: navigating to a link', "javascript:location='https://evil.example/'"],
  ['data: holding a link', 'data:text/html,<a href="https://evil.example/x">x</a>'],
  ['javascript: with a tab inside the scheme, navigating to a link', "java\tscript:location='https://evil.example/'"],
  ['javascript: behind a control character, navigating to a link', "\u0001javascript:location='https://evil.example/'"],
  ['data: with a newline inside the scheme, holding a link', 'da\nta:text/html,https://evil.example/x'],
];

/** Real http(s) links that look like something else: isolated under their real host. */
const DECEPTIVE: readonly (readonly [label: string, input: string, host: string])[] = [
  ['userinfo naming the service', 'https://isolation.acme.example@evil.example/login', 'evil.example'],
  ['userinfo with a password', 'https://service:secret@evil.example/', 'evil.example'],
  ['backslashes', 'https:\\\\evil.example\\login', 'evil.example'],
  ['an IDN homograph (Cyrillic а)', 'https://\u0430pple.com/signin', 'xn--pple-43d.com'],
  ['upper case', 'HTTPS://EVIL.EXAMPLE/X', 'evil.example'],
];

type Entry = 'link' | 'research' | 'page' | 'selection' | 'shortcut' | 'omnibox' | 'popup isolate' | 'popup bulk';

describe.skipIf(!findChromium() && !process.env['CI'])('hostile URLs in Chromium', () => {
  let session: SecuritySession;
  let tabId = 0;
  beforeAll(async () => {
    session = await launchBrowser();
    await seed(session);
    const worker = await session.worker();
    tabId = (await worker.evaluate(() => chrome.tabs.query({ active: true })))[0]?.id ?? 0;
  });
  afterAll(async () => {
    await closingChecks(session, 'urls');
    await session.dispose();
  });

  /** Fires every input at one entry point at once (they are refused before any request). */
  async function fire(entry: Entry, inputs: readonly string[]): Promise<Reply[]> {
    const popup = entry.startsWith('popup') ? await session.openPage('popup.html') : null;
    const replies: Reply[] = [];
    try {
      for (const input of inputs) {
        switch (entry) {
          case 'link':
            await session.clickMenu({ menuItemId: 'isolate-link', linkUrl: input, pageUrl: 'https://mail.example/' }, { id: tabId, index: 0, windowId: 1 });
            break;
          case 'research':
            await session.clickMenu({ menuItemId: 'isolate-link-research', linkUrl: input });
            break;
          case 'page':
            await session.clickMenu({ menuItemId: 'isolate-page', pageUrl: input });
            break;
          case 'selection':
            await session.clickMenu({ menuItemId: 'isolate-selection', selectionText: input });
            break;
          case 'shortcut':
            await session.dispatch('commands.onCommand', 'isolate-current-tab', { id: tabId, index: 0, windowId: 1, url: input });
            break;
          case 'omnibox':
            await session.dispatch('omnibox.onInputEntered', input, 'currentTab');
            break;
          case 'popup isolate':
            if (popup) replies.push(await session.send(popup, 'isolate', { url: input, session: 'standard' }));
            break;
          case 'popup bulk':
            break;
        }
      }
      if (entry === 'popup bulk' && popup) {
        const fitting = inputs.filter((input) => input.length <= 64 * 1024);
        replies.push(await session.send(popup, 'bulkCreate', { urls: fitting }));
        for (const input of inputs.filter((i) => i.length > 64 * 1024)) replies.push(await session.send(popup, 'bulkCreate', { urls: [input] }));
      }
    } finally {
      await popup?.close();
    }
    return replies;
  }

  const NOT_ISOLATED = ['Link not isolated'];
  /** The titles that say why: a selection holds no link, or its one link is refused (a 100 kB one). */
  const EXPECTED_TITLES: Record<Entry, readonly string[] | null> = {
    link: NOT_ISOLATED,
    research: NOT_ISOLATED,
    page: NOT_ISOLATED,
    selection: ['No links found', 'Link not isolated'],
    shortcut: NOT_ISOLATED,
    omnibox: NOT_ISOLATED,
    'popup isolate': null,
    'popup bulk': null,
  };

  /** The target URLs of the creates the service received since the last reset. */
  function createdTargets(): string[] {
    return session.sim.requests
      .filter((r) => r.path === '/api/' && typeof r.body === 'string')
      .flatMap((r) =>
        (JSON.parse(r.body as string) as { command: string; context_data?: { urls?: string[] } }[]).flatMap((c) =>
          c.command === 'create_context' ? (c.context_data?.urls ?? []) : [],
        ),
      );
  }

  /** Fires, then checks: nothing sent, no tab, every input refused in words. Returns the cases. */
  async function refusedAt(entry: Entry, inputs: readonly string[]): Promise<number> {
    session.sim.reset();
    const tabsBefore = session.tabUrls();
    const notesBefore = (await session.harvestNotes()).length;
    const replies = await fire(entry, inputs);
    const titles = EXPECTED_TITLES[entry];
    // How many notifications to wait for: one per input, or per popup request the handler saw.
    const expectedNotes = titles !== null ? inputs.length : entry === 'popup isolate' ? replies.filter((r) => r.error?.name !== 'RefusedMessage').length : 0;
    await session.waitForNotes(notesBefore + expectedNotes, 5_000).catch(() => undefined);
    await sleep(100);
    // First what matters most: nothing sent, nothing opened.
    expect(createdTargets(), `${entry}: targets sent to the service`).toEqual([]);
    expect(apiCount(session), `${entry}: requests to the service`).toBe(0);
    expect(session.tabUrls(), `${entry}: tabs`).toEqual(tabsBefore);
    // Then the words: every input refused with a reason.
    const notes = session.notes.slice(notesBefore);
    if (titles !== null) {
      expect(notes.length, `${entry}: notifications`).toBe(inputs.length);
      for (const note of notes) expect(titles).toContain(note.title);
      for (const note of notes) expect(note.message.length).toBeGreaterThan(20);
    } else if (entry === 'popup isolate') {
      expect(replies.map((r) => r.ok)).toEqual(inputs.map(() => false));
      for (const reply of replies) expect(reply.error?.message.length).toBeGreaterThan(10);
      expect(notes.map((n) => n.title)).toEqual(Array.from({ length: expectedNotes }, () => 'Link not isolated'));
    } else {
      // Bulk: every URL comes back as a failure with its reason (or the message is refused whole).
      for (const reply of replies) {
        if (reply.ok) {
          const value = reply.value as { created: unknown[]; failures: { error: string }[] };
          expect(value.created).toEqual([]);
          for (const failure of value.failures) expect(failure.error.length).toBeGreaterThan(10);
        } else expect(reply.error?.message.length).toBeGreaterThan(10);
      }
    }
    return inputs.length;
  }

  const ALL_ENTRIES: readonly Entry[] = ['link', 'research', 'page', 'selection', 'shortcut', 'omnibox', 'popup isolate', 'popup bulk'];

  /** Runs every entry point, then fails with what went wrong at each (not only the first). */
  async function atEach(entries: readonly Entry[], inputs: readonly string[]): Promise<number> {
    const failures: string[] = [];
    let cases = 0;
    for (const entry of entries) {
      try {
        cases += await refusedAt(entry, inputs);
      } catch (error) {
        failures.push(error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error));
      }
    }
    expect(failures).toEqual([]);
    return cases;
  }

  it('refuses hostile inputs at every entry point: a clear message, nothing sent, no tab', async () => {
    await prove(
      'urls-refused',
      async () => {
        let cases = 0;
        cases += await atEach(
          ALL_ENTRIES,
          REFUSED.map(([, input]) => input),
        );
        // Current tab from the popup: the active tab is an about:, data: or file: page.
        const popup = await session.openPage('popup.html');
        for (const url of ['about:blank', 'data:text/html,<p>x</p>', 'file:///etc/hostname']) {
          const page = await session.context.newPage();
          await page.goto(url).catch(() => undefined);
          await page.bringToFront();
          session.sim.reset();
          const reply = await session.send(popup, 'isolateCurrentTab', { session: 'standard' });
          expect(reply.ok).toBe(false);
          expect(apiCount(session)).toBe(0);
          await page.close();
          cases += 1;
        }
        await popup.close();
        cases += await atEach(['link', 'research', 'page', 'shortcut'], BAD_HOSTS);
        return {
          cases,
          detail: `${REFUSED.length} inputs × ${ALL_ENTRIES.length} entry points + 3 current-tab pages + ${BAD_HOSTS.length} invalid hosts × 4 address entry points`,
        };
      },
      'refused inputs',
    );
  });

  it('refuses typed text that is a javascript:/data: URL holding a link, however the scheme is spelled (omnibox, popup, menus)', async () => {
    await prove(
      'urls-refused',
      async () => {
        // The selection menu isolates every link found in selected text by design: not listed here.
        const cases = await atEach(
          ['link', 'page', 'shortcut', 'omnibox', 'popup isolate'],
          WRAPPED.map(([, input]) => input),
        );
        return { cases, detail: `${WRAPPED.length} wrapped inputs × 5 entry points` };
      },
      'wrapped links',
    );
  });

  it('judges deceptive http(s) links by their real host and opens only the launch URL', async () => {
    await prove('urls-real-host', async () => {
      let cases = 0;
      for (const entry of ['link', 'omnibox', 'popup isolate'] as const) {
        for (const [label, input, host] of DECEPTIVE) {
          session.sim.reset();
          await closeLaunchTabs(session);
          const before = session.tabUrls();
          const replies = await fire(entry, [input]);
          if (entry === 'popup isolate') expect(replies[0]?.ok, label).toBe(true);
          await waitForLaunchTabs(session, 1);
          const [request] = session.sim.requests.filter((r) => r.path === '/api/');
          const commands = JSON.parse(typeof request?.body === 'string' ? request.body : '[]') as {
            command: string;
            context_data?: { urls?: string[]; policy?: { type: string; params: string[] }[] };
          }[];
          const create = commands.find((c) => c.command === 'create_context');
          expect(create?.context_data?.urls, label).toEqual([new URL(input).href]);
          expect(create?.context_data?.policy?.find((p) => p.type === 'domain_allow')?.params, label).toEqual([host]);
          const opened = session.tabUrls().filter((url) => !before.includes(url));
          expect(opened.length, label).toBe(1);
          expect(
            opened.every((url) => isLaunchUrl(session.sim.launchBase, url)),
            label,
          ).toBe(true);
          cases += 1;
        }
      }
      await closeLaunchTabs(session);
      return { cases, detail: `${DECEPTIVE.length} links × 3 entry points (link menu, omnibox, popup)` };
    });
  });

  it('opens nothing outside the launch base whatever context id the service answers', async () => {
    await prove(
      'launch-outside',
      async () => {
        const hostileIds = [
          '../../evil',
          '//evil.example/x',
          'x#@evil.example',
          'x&ctx=y&next=https://evil.example/',
          'https://evil.example/',
          '%2e%2e%2f',
          '\u0000',
          'a'.repeat(5000),
          '',
          ' ',
        ];
        let current = '';
        const service = await startScripted((_method, path, body) => {
          if (path !== '/api/') return { status: 404, body: '' };
          const commands = JSON.parse(body.toString('utf8')) as { command_id?: string }[];
          return {
            status: 200,
            body: JSON.stringify([
              {},
              ...commands.slice(1).map((c) => ({ command_id: c.command_id, result: { browse_context_id: current, expires: 2_000_000_000, max_uses: 5 } })),
            ]),
          };
        });
        try {
          await seed(session, { serviceUrl: service.url, launchUrl: session.sim.launchBase });
          let cases = 0;
          for (const id of hostileIds) {
            current = id;
            await closeLaunchTabs(session);
            const before = session.tabUrls();
            const notesBefore = (await session.harvestNotes()).length;
            await session.clickMenu({ menuItemId: 'isolate-link', linkUrl: `https://evil.example/${cases}` });
            // Either a launch tab on the base, carrying the id whole, or a refusal.
            await expect
              .poll(async () => launchTabs(session).length + (await session.harvestNotes()).length - notesBefore, { timeout: 10_000 })
              .toBeGreaterThan(0);
            const opened = session.tabUrls().filter((url) => !before.includes(url));
            for (const url of opened) {
              expect(isLaunchUrl(session.sim.launchBase, url), url).toBe(true);
              expect(new URL(url).searchParams.get('ctx')).toBe(id);
            }
            if (opened.length === 0) expect(session.notes.at(-1)?.title).toMatch(/unexpected reply|Launch address refused/);
            cases += 1;
          }
          expect(session.tabUrls().every((url) => url === 'about:blank' || url.startsWith(launchPrefix(session)) || url.startsWith(session.base))).toBe(true);
          return { cases, detail: `${hostileIds.length} hostile context ids from a scripted service` };
        } finally {
          await seed(session);
          await service.close();
        }
      },
      'browser',
    );
  });
});
