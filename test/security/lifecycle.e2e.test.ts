/**
 * MV3 lifecycle in Chromium: every entry point works after the service worker was
 * stopped (CDP ServiceWorker.stopAllWorkers), five times in a row; a worker stopped
 * while its create is held by the service never replays it; a double click creates one
 * context; closing the popup right after "Open" still opens the tab.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCount, findChromium, launchBrowser, waitUntil, type SecuritySession } from './browser';
import { closingChecks, positiveControl } from './closing';
import { closeLaunchTabs, launchTabs, notified, seed, sleep, waitForLaunchTabs } from './flows';
import { prove } from './ledger';

const ROUNDS = 5;
const RESEARCH = { egressRegion: '', browserProfile: null, availability: [], connectivity: [] };

/** create_context commands the service received, from its own log. */
function creates(session: SecuritySession): number {
  return session.sim.requests
    .filter((r) => r.path === '/api/' && typeof r.body === 'string')
    .reduce((sum, r) => sum + (JSON.parse(r.body as string) as { command: string }[]).filter((c) => c.command === 'create_context').length, 0);
}

describe.skipIf(!findChromium() && !process.env['CI'])('MV3 lifecycle in Chromium', () => {
  let session: SecuritySession;
  let tabId = 0;
  beforeAll(async () => {
    session = await launchBrowser();
    await seed(session);
    await positiveControl(session);
    const worker = await session.worker();
    tabId = (await worker.evaluate(() => chrome.tabs.query({ active: true })))[0]?.id ?? 0;
  });
  afterAll(async () => {
    await closingChecks(session, 'lifecycle');
    await session.dispose();
  });

  it('every entry point works after the service worker was stopped, five times in a row', async () => {
    await prove('lifecycle-restart', async () => {
      session.sim.reset();
      // Opened before the stops: its messages wake the worker as the browser does.
      const popup: Page = await session.openPage('popup.html');
      const startsBefore = session.workerStarts();
      const entries: readonly (readonly [name: string, tabs: number, act: (tag: string) => Promise<unknown>])[] = [
        [
          'link menu',
          1,
          (tag) => session.clickMenu({ menuItemId: 'isolate-link', linkUrl: `https://evil.example/${tag}` }, { id: tabId, index: 0, windowId: 1 }),
        ],
        ['research menu', 1, (tag) => session.clickMenu({ menuItemId: 'isolate-link-research', linkUrl: `https://evil.example/${tag}` })],
        [
          'selection menu',
          2,
          (tag) => session.clickMenu({ menuItemId: 'isolate-selection', selectionText: `hxxps://a[.]example/${tag} and https://b.example/${tag}` }),
        ],
        ['page menu', 1, (tag) => session.clickMenu({ menuItemId: 'isolate-page', pageUrl: `https://evil.example/${tag}` })],
        [
          'shortcut',
          1,
          (tag) => session.dispatch('commands.onCommand', 'isolate-current-tab', { id: tabId, index: 0, windowId: 1, url: `https://evil.example/${tag}` }),
        ],
        ['omnibox', 1, (tag) => session.dispatch('omnibox.onInputEntered', `hxxps://evil[.]example/${tag}`, 'currentTab')],
        ['popup isolate', 1, (tag) => session.send(popup, 'isolate', { url: `https://evil.example/${tag}`, session: 'standard' })],
        ['popup research', 1, () => session.send(popup, 'research', { research: RESEARCH })],
        [
          'popup bulk, then open',
          2,
          async (tag) => {
            const reply = await session.send(popup, 'bulkCreate', { urls: [`https://c.example/${tag}`, `https://d.example/${tag}`] });
            const ids = (reply.value as { created: { id: string }[] }).created.map((c) => c.id);
            await session.stopWorker();
            return session.send(popup, 'openContexts', { ids });
          },
        ],
        [
          'confirm a bulk question after a restart',
          6,
          async (tag) => {
            const text = Array.from({ length: 6 }, (_, i) => `https://q${i}.example/${tag}`).join(' ');
            const ask = await notified(session, () => session.clickMenu({ menuItemId: 'isolate-selection', selectionText: text }));
            // The question's action lives in storage.session: a new worker carries it out.
            await session.stopWorker();
            return session.dispatch('notifications.onButtonClicked', ask.id, 0);
          },
        ],
      ];
      let cases = 0;
      for (let round = 0; round < ROUNDS; round += 1) {
        for (const [name, tabs, act] of entries) {
          const before = launchTabs(session).length;
          await session.stopWorker();
          await act(`round-${round}-${name.replaceAll(' ', '-')}`);
          // The round ends when its tabs are open: a stop before would cut the action short.
          await waitForLaunchTabs(session, before + tabs).catch((error: unknown) => {
            throw new Error(`round ${round}, ${name}: ${error instanceof Error ? error.message : String(error)}`);
          });
          cases += 1;
        }
        await closeLaunchTabs(session);
      }
      await popup.close();
      expect(session.workerStarts() - startsBefore).toBeGreaterThanOrEqual(ROUNDS * entries.length);
      return { cases, detail: `${entries.length} entry points × ${ROUNDS} rounds, each after a stop (${session.workerStarts() - startsBefore} worker starts)` };
    });
  });

  it('a worker stopped while the service holds its create never replays it', async () => {
    await prove('lifecycle-no-replay', async () => {
      let cases = 0;
      for (const round of [0, 1]) {
        session.sim.reset();
        await closeLaunchTabs(session);
        session.sim.faults.set({ latencyMs: 1_500 });
        await session.clickMenu({ menuItemId: 'isolate-link', linkUrl: `https://evil.example/held-${round}` });
        await waitUntil(() => apiCount(session) === 1, 10_000, 'the create to reach the service');
        await session.stopWorker();
        session.sim.faults.clear();
        await session.worker();
        // Longer than the held request and a fresh worker's start-up.
        await sleep(2_500);
        expect(creates(session)).toBe(1);
        expect(launchTabs(session)).toEqual([]);
        cases += 1;
      }
      // The extension still works afterwards.
      await session.clickMenu({ menuItemId: 'isolate-link', linkUrl: 'https://evil.example/after-held' });
      await waitForLaunchTabs(session, 1);
      expect(creates(session)).toBe(2);
      await closeLaunchTabs(session);
      return { cases: cases + 1, detail: '2 stops mid-create (create count stays 1, no tab) + a create afterwards' };
    });
  });

  it('a double click creates one context (menu and popup)', async () => {
    await prove('double-click', async () => {
      session.sim.reset();
      await closeLaunchTabs(session);
      session.sim.faults.set({ latencyMs: 500 });
      await Promise.all([
        session.clickMenu({ menuItemId: 'isolate-link', linkUrl: 'https://evil.example/double' }),
        session.clickMenu({ menuItemId: 'isolate-link', linkUrl: 'https://evil.example/double' }),
      ]);
      await waitForLaunchTabs(session, 1);
      await sleep(800);
      expect(creates(session)).toBe(1);
      expect(launchTabs(session)).toHaveLength(1);
      await closeLaunchTabs(session);

      // The popup: two Opens on the same link, as fast as the page sends them.
      session.sim.reset();
      session.sim.faults.set({ latencyMs: 500 });
      const popup = await session.openPage('popup.html');
      await Promise.all([
        session.send(popup, 'isolate', { url: 'hxxps://evil[.]example/double-popup', session: 'standard' }),
        session.send(popup, 'isolate', { url: 'https://evil.example/double-popup', session: 'standard' }),
      ]);
      await waitForLaunchTabs(session, 1);
      await sleep(800);
      expect(creates(session)).toBe(1);
      // And in the page itself: a double click on Open.
      session.sim.reset();
      session.sim.faults.set({ latencyMs: 500 });
      await closeLaunchTabs(session);
      await popup.getByLabel('URL to isolate').fill('https://evil.example/double-ui');
      await popup.getByRole('button', { name: 'Open', exact: true }).dblclick();
      await waitForLaunchTabs(session, 1);
      await sleep(800);
      expect(creates(session)).toBe(1);
      expect(launchTabs(session)).toHaveLength(1);
      session.sim.faults.clear();
      await popup.close();
      await closeLaunchTabs(session);
      return { cases: 3, detail: 'menu double click, two popup messages, a double click on Open' };
    });
  });

  it("concurrent actions keep every notification's Retry and every recent context", async () => {
    await prove('concurrent-state', async () => {
      const COUNT = 10;
      const worker = await session.worker();
      const clickAll = (prefix: string) =>
        worker.evaluate(
          ([host, count]) => {
            // Several clicks at once, as a fast analyst (or several windows) would.
            for (let i = 0; i < count; i += 1) {
              (chrome.contextMenus.onClicked as unknown as { dispatch(i: unknown, t: unknown): void }).dispatch(
                { menuItemId: 'isolate-link', linkUrl: `https://${host}/${i}`, editable: false },
                null,
              );
            }
          },
          [prefix, COUNT] as const,
        );
      const problems: string[] = [];
      // Failures at once: each notification offers Retry, and each Retry must be kept.
      session.sim.reset();
      await closeLaunchTabs(session);
      session.sim.faults.set({ status: 502 });
      const notesFrom = (await session.harvestNotes()).length;
      await clickAll('concurrent-fail.example');
      await session.waitForNotes(notesFrom + COUNT);
      await sleep(300);
      session.sim.faults.clear();
      const offered = session.notes
        .slice(notesFrom)
        .filter((n) => n.buttons.includes('Retry'))
        .map((n) => n.id);
      const kept = Object.keys((await session.storage()).session['pendingNotifications'] ?? {});
      const lost = offered.filter((id) => !kept.includes(id));
      if (lost.length > 0)
        problems.push(`${lost.length} of ${offered.length} notifications offer a Retry whose action was not kept (clicking it does nothing)`);
      // Successes at once: every context must be in the recent list.
      session.sim.reset();
      await clickAll('concurrent-ok.example');
      await waitForLaunchTabs(session, COUNT);
      await sleep(300);
      const recent = ((await session.storage()).local['recentContexts'] ?? []) as { url: string }[];
      const remembered = recent.filter((r) => r.url.startsWith('https://concurrent-ok.example/')).length;
      if (remembered < COUNT)
        problems.push(
          `${COUNT - remembered} of ${COUNT} contexts opened at once are missing from the recent list (the popup cannot show, disable or delete them)`,
        );
      await closeLaunchTabs(session);
      expect(problems).toEqual([]);
      return { cases: 2 * COUNT, detail: `${COUNT} concurrent failures (their Retry actions) and ${COUNT} concurrent isolations (the recent list)` };
    });
  });

  it('closing the popup right after "Open" still opens the tab', async () => {
    await prove('popup-close', async () => {
      let cases = 0;
      for (const round of [0, 1, 2]) {
        session.sim.reset();
        await closeLaunchTabs(session);
        session.sim.faults.set({ latencyMs: 400 });
        const popup = await session.openPage('popup.html');
        await popup.getByLabel('URL to isolate').fill(`https://closing.example/${round}`);
        await popup.getByRole('button', { name: 'Open', exact: true }).click();
        await popup.close();
        await waitForLaunchTabs(session, 1);
        expect(creates(session)).toBe(1);
        cases += 1;
      }
      session.sim.faults.clear();
      await closeLaunchTabs(session);
      return { cases, detail: '3 rounds, the create held 400 ms' };
    });
  });
});
