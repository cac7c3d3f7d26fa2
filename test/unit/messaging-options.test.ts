/**
 * Opening the options page at a section: the fragment names it (a reload or a link lands
 * there), an options tab already open is brought forward and sent to it, and a fragment that
 * names no section is the connection.
 */
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { OPTIONS_SECTIONS, openOptionsAt, optionsSectionOf } from '../../src/messaging/options';

const OPTIONS = 'chrome-extension://test-extension-id/options.html';

beforeEach(() => {
  fakeBrowser.reset();
});

/** The extension's open contexts, as runtime.getContexts reports them. */
function contexts(open: readonly { tabId: number; windowId: number; documentUrl: string }[]) {
  const getContexts = vi.fn((_filter: unknown) => Promise.resolve(open.map((context) => ({ contextType: 'TAB', frameId: 0, incognito: false, ...context }))));
  Object.assign(fakeBrowser.runtime, { getContexts });
  return getContexts;
}

describe('optionsSectionOf', () => {
  it.each([
    ['', 'connection'],
    ['#', 'connection'],
    ['#files', 'files'],
    ['#auto-isolate', 'auto-isolate'],
    ['#import-export', 'import-export'],
    ['#nowhere', 'connection'],
    ['#files/x', 'connection'],
  ])('reads %j as the %s section', (hash, expected) => {
    const actual = optionsSectionOf(hash);

    expect(actual).toBe(expected);
  });

  it('reads back the fragment of every section', () => {
    const actual = OPTIONS_SECTIONS.map((section) => optionsSectionOf(`#${section}`));

    expect(actual).toEqual([...OPTIONS_SECTIONS]);
  });
});

describe('openOptionsAt', () => {
  it('opens a tab at the section when no options page is open', async () => {
    const getContexts = contexts([{ tabId: 7, windowId: 1, documentUrl: 'chrome-extension://test-extension-id/popup.html' }]);
    const create = vi.spyOn(fakeBrowser.tabs, 'create');

    await openOptionsAt('auto-isolate');

    expect(getContexts).toHaveBeenCalledWith({ contextTypes: ['TAB'] });
    expect(create).toHaveBeenCalledWith({ url: `${OPTIONS}#auto-isolate` });
  });

  it('brings an open options tab forward and sends it to the section, opening none', async () => {
    const windowId = (await fakeBrowser.windows.create({}))?.id ?? -1;
    const tab = await fakeBrowser.tabs.create({ url: `${OPTIONS}#files`, windowId, active: false });
    contexts([{ tabId: tab.id ?? -1, windowId, documentUrl: `${OPTIONS}#files` }]);
    const create = vi.spyOn(fakeBrowser.tabs, 'create');
    const update = vi.spyOn(fakeBrowser.tabs, 'update');
    const focus = vi.spyOn(fakeBrowser.windows, 'update');

    await openOptionsAt('connection');

    expect(create).not.toHaveBeenCalled();
    expect(update).toHaveBeenCalledWith(tab.id, { active: true, url: `${OPTIONS}#connection` });
    expect(focus).toHaveBeenCalledWith(windowId, { focused: true });
    expect((await fakeBrowser.tabs.get(tab.id ?? -1)).url).toBe(`${OPTIONS}#connection`);
  });
});
