/**
 * Scans for QR codes up to the page that reads them: the menu items and the shortcut hand
 * the page the tab (and the image) through its query, and the page reads that query back
 * as the hostile input it could be. The worker decodes nothing (figure 1 and figure 10 of
 * the bench check its bundle); the pixels are read and decoded by the page (test/e2e).
 */
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { beforeEach, describe, expect, it } from 'vitest';
import { COMMAND_SCAN_TAB, MENU_IDS, onCommand, onMenuClick } from '../../src/background/entries';
import { menuItems } from '../../src/background/menus';
import { readScanQuery, scanQuery } from '../../src/messaging/scan';
import type { Simulator } from '../simulator';
import { useSimulator } from '../simulator/helpers';
import { SOURCE_TAB, apiRequests, createFakes } from '../support/background-fakes';
import { installMessages } from '../support/i18n';

const handle = useSimulator();
const sim = (): Simulator => handle.sim;

beforeEach(() => {
  fakeBrowser.reset();
  installMessages();
});

describe("the scan page's query", () => {
  it('carries the tab, and whether the scan is for an image, and reads back the same', () => {
    const tab = { tabId: 7, windowId: 1, image: false };
    const image = { tabId: 7, windowId: 1, image: true };
    expect(scanQuery(tab)).toBe('?scan=7.1');
    expect(scanQuery(image)).toBe('?scan=7.1&image');
    expect(readScanQuery(scanQuery(tab))).toEqual(tab);
    expect(readScanQuery(scanQuery(image))).toEqual(image);
  });

  it.each([
    '',
    '?',
    '?scan=',
    '?scan=7',
    '?scan=7.1.2',
    '?scan=-1.1',
    '?scan=7.x',
    '?scan=07.1',
    '?scan=99999999999.1',
    '?scan=7.1&image=1',
    '?scan=7.1&src=x',
    '?x=1&scan=7.1',
  ])('is no scan for %j', (search) => {
    expect(readScanQuery(search)).toBeNull();
  });
});

describe('the scan entries of the worker', () => {
  it('are a menu item on images and one on pages and the toolbar button', () => {
    const items = menuItems();
    expect(items.find((item) => item.id === MENU_IDS.scanImage)?.contexts).toEqual(['image']);
    expect(items.find((item) => item.id === MENU_IDS.scanTab)?.contexts).toEqual(['page', 'action']);
  });

  it('open the scan page behind the tab for an image, and send nothing', async () => {
    const { deps, state } = createFakes(sim());
    await onMenuClick(deps, { menuItemId: MENU_IDS.scanImage }, { ...SOURCE_TAB });
    expect(state.scans).toEqual([{ from: SOURCE_TAB, request: { tabId: 7, windowId: 1, image: true } }]);
    expect(apiRequests(sim())).toEqual([]);
    expect(state.tabs).toEqual([]);
  });

  it('open it for the whole tab from the page menu and from the shortcut', async () => {
    const { deps, state } = createFakes(sim());
    await onMenuClick(deps, { menuItemId: MENU_IDS.scanTab }, { ...SOURCE_TAB });
    await onCommand(deps, COMMAND_SCAN_TAB, { ...SOURCE_TAB });
    expect(state.scans.map((scan) => scan.request)).toEqual([
      { tabId: 7, windowId: 1, image: false },
      { tabId: 7, windowId: 1, image: false },
    ]);
    expect(apiRequests(sim())).toEqual([]);
  });

  it('say which tab is missing when the browser gives none, and open nothing', async () => {
    const { deps, state } = createFakes(sim());
    await onMenuClick(deps, { menuItemId: MENU_IDS.scanTab }, undefined);
    expect(state.scans).toEqual([]);
    expect(state.notices).toHaveLength(1);
    expect(JSON.stringify(state.notices[0])).toContain('cannot tell which tab to scan');
  });
});
