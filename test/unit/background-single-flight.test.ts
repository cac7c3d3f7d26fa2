/**
 * Single flight everywhere: a second activation of the same link, page, selection or bulk
 * list while the first is in flight creates nothing new and says nothing twice; different
 * work is never joined. Against the simulator (slowed down), side effects as plain fakes.
 */
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { beforeEach, describe, expect, it } from 'vitest';
import { MENU_IDS, onMenuClick } from '../../src/background/entries';
import { createHandlers } from '../../src/background/handlers';
import type { Simulator } from '../simulator';
import { useSimulator } from '../simulator/helpers';
import { SOURCE_TAB, apiRequests, createFakes } from '../support/background-fakes';
import { installMessages } from '../support/i18n';

const handle = useSimulator();
const sim = (): Simulator => handle.sim;

beforeEach(() => {
  fakeBrowser.reset();
  installMessages();
  sim().faults.set({ latencyMs: 150 });
});

const SELECTION = 'IOCs: hxxps://a[.]example/1, hxxp://b[.]example/2 and https://c.example/3';

describe('a second activation while the first is in flight', () => {
  it('of the same multi-link selection: one request, three tabs', async () => {
    const { deps, state } = createFakes(sim());
    const click = () => onMenuClick(deps, { menuItemId: MENU_IDS.isolateSelection, selectionText: SELECTION }, { ...SOURCE_TAB });

    await Promise.all([click(), click()]);

    expect(apiRequests(sim())).toHaveLength(1);
    expect(sim().state.contexts.size).toBe(3);
    expect(state.tabs).toHaveLength(3);
  });

  it('of the same page: one request, one tab', async () => {
    const { deps, state } = createFakes(sim());
    const click = () =>
      onMenuClick(deps, { menuItemId: MENU_IDS.isolatePage, pageUrl: 'https://evil.example/page' }, { ...SOURCE_TAB, url: 'https://evil.example/page' });

    await Promise.all([click(), click()]);

    expect(apiRequests(sim())).toHaveLength(1);
    expect(state.tabs).toHaveLength(1);
  });

  it('of the same bulk list from the popup: one request, the same contexts for both', async () => {
    const { deps } = createFakes(sim());
    const handlers = createHandlers(deps);
    const urls = ['https://a.example/1', 'https://b.example/2'];

    const [first, second] = await Promise.all([handlers.bulkCreate({ urls }), handlers.bulkCreate({ urls })]);

    expect(apiRequests(sim())).toHaveLength(1);
    expect(sim().state.contexts.size).toBe(2);
    expect(second).toBe(first);
  });

  it('of the same Mimecast link: one context, and the analyst is told once', async () => {
    const { deps, state } = createFakes(sim());
    const link = 'https://protect-us.mimecast.com/s/AbCdEf?domain=evil.example';
    const click = () => onMenuClick(deps, { menuItemId: MENU_IDS.isolateLink, linkUrl: link }, { ...SOURCE_TAB });

    await Promise.all([click(), click()]);

    expect(sim().state.contexts.size).toBe(1);
    expect(state.notices.filter((notice) => notice.kind === 'info')).toHaveLength(1);
  });

  it('of different selections: both are created', async () => {
    const { deps, state } = createFakes(sim());
    const click = (text: string) => onMenuClick(deps, { menuItemId: MENU_IDS.isolateSelection, selectionText: text }, { ...SOURCE_TAB });

    await Promise.all([click('https://a.example/1 https://b.example/2'), click('https://a.example/1 https://c.example/3')]);

    expect(apiRequests(sim())).toHaveLength(2);
    expect(state.tabs).toHaveLength(4);
  });

  it('once the first is done, the same selection is created again', async () => {
    const { deps } = createFakes(sim());
    const click = () => onMenuClick(deps, { menuItemId: MENU_IDS.isolateSelection, selectionText: SELECTION }, { ...SOURCE_TAB });

    await click();
    await click();

    expect(apiRequests(sim())).toHaveLength(2);
    expect(sim().state.contexts.size).toBe(6);
  });
});
