/**
 * Wrapped links in real Chromium, through the real listeners of the built extension:
 * a Safe Link and a Proofpoint link right-clicked open the real target (in the request,
 * with its own domain_allow, and on the session page); a Mimecast link is isolated as it
 * is and says why; "ask" offers both in a notification whose second button opens the
 * wrapper; the popup previews and isolates the real target.
 */
import { resolve } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { policyOf, targetUrlOf } from '../simulator/state';
import { seedStorage } from '../support/seed';
import { wrap } from '../support/wrap';
import { ARTIFACTS_DIR, findChromium, useSession, type Session } from './harness';

const REAL = 'https://real-phish.example/login?next=%2Fhome';
const MIMECAST = 'https://protect-eu.mimecast.com/s/AbCdEfGhIj?domain=real-phish.example';

describe.skipIf(!findChromium() && !process.env['CI'])('wrapped links in real Chromium', () => {
  let session: Session;
  let prefix = '';

  /** The URL and domain_allow hosts of the contexts the simulator holds, in creation order. */
  const created = () =>
    [...session.sim.state.contexts.values()].map((context) => ({
      url: targetUrlOf(context),
      domainAllow: policyOf(context)
        .filter((entry) => entry.type === 'domain_allow')
        .flatMap((entry) => entry.params),
    }));
  const apiCount = (): number => session.sim.requests.filter((r) => r.path === '/api/').length;

  const use = useSession();
  beforeEach(() => {
    session = use();
    prefix = `${session.sim.launchBase}/launch?ctx=`;
  });

  it.each([
    ['a Safe Link', wrap.safelinks(REAL)],
    ['a Proofpoint v3 link', wrap.proofpointV3(REAL)],
    ['a Proofpoint v2 link inside a Safe Link', wrap.safelinks(wrap.proofpointV2(REAL))],
  ])('right-clicking %s isolates the real target: one request, its own domain_allow, the session page on it', async (_name, link) => {
    await session.clickMenu({ menuItemId: 'isolate-link', linkUrl: link, pageUrl: 'https://mail.example/' });
    const tab = await session.waitForTab(prefix);
    await tab.getByTestId('target-url').waitFor();
    expect(await tab.getByTestId('target-url').textContent()).toBe(REAL);
    expect(apiCount()).toBe(1);
    expect(created()).toEqual([{ url: REAL, domainAllow: ['real-phish.example'] }]);
    const tabs = await session.tabUrls();
    expect(tabs).not.toContain(REAL);
    expect(tabs).not.toContain(link);
  });

  it('a Mimecast link is isolated as it is, with no domain_allow, and a notification says why', async () => {
    const before = (await session.notifications()).length;
    await session.clickMenu({ menuItemId: 'isolate-link', linkUrl: MIMECAST });
    await session.waitForTab(prefix);
    expect(created()).toEqual([{ url: MIMECAST, domainAllow: [] }]);
    await expect.poll(async () => (await session.notifications()).length, { timeout: 10_000 }).toBeGreaterThan(before);
  });

  it('"ask": nothing is created until a button is clicked; the second button opens the wrapper', async () => {
    await seedStorage(await session.currentWorker(), session.sim, { unwrap: 'ask' }, session.sim.adminToken);
    const link = wrap.safelinks(REAL);
    const before = await session.notifications();
    await session.clickMenu({ menuItemId: 'isolate-link', linkUrl: link });
    await expect.poll(async () => (await session.notifications()).length, { timeout: 10_000 }).toBe(before.length + 1);
    expect(apiCount()).toBe(0);
    const id = (await session.notifications()).find((candidate) => !before.includes(candidate)) ?? '';
    await session.dispatch('notifications.onButtonClicked', id, 1);
    await session.waitForTab(prefix);
    expect(created()).toEqual([{ url: link, domainAllow: [] }]);
  });

  it('copy link unwrapped puts the real target on the clipboard', async () => {
    await session.clickMenu({ menuItemId: 'copy-link-unwrapped', linkUrl: wrap.safelinks(wrap.proofpointV3(REAL)) });
    await expect.poll(() => session.readClipboard(), { timeout: 10_000 }).toBe(REAL);
    expect(apiCount()).toBe(0);
  });

  it('the popup previews the real target of a pasted Safe Link and isolates it', async () => {
    const popup = await session.openPage('popup.html');
    await popup.setViewportSize({ width: 420, height: 600 });
    await popup.locator('main[data-ready="true"]').waitFor();
    await popup.getByLabel('URL to isolate').fill(wrap.safelinks(REAL));
    await popup.getByText('from Microsoft Safe Links').waitFor();
    expect(await popup.locator('#isolate-url-preview dd').first().textContent()).toBe(REAL);
    await popup.screenshot({ path: resolve(ARTIFACTS_DIR, 'popup-unwrapped.png'), fullPage: true });
    await popup.getByLabel('URL to isolate').press('Enter');
    await session.waitForTab(prefix);
    expect(created()).toEqual([{ url: REAL, domainAllow: ['real-phish.example'] }]);
    await popup.close();
  });
});
