/**
 * The options page's sections, and how the other pages and the background open it at one:
 * the section is the page's fragment (`options.html#auto-isolate`), so a link, a reload or
 * a bookmark lands where it points. The page reads it back (optionsSectionOf) as any input.
 */
import { browser } from 'wxt/browser';

/** The sections, in the order of the page's navigation; the first is shown when none is named. */
export const OPTIONS_SECTIONS = ['connection', 'policy', 'session', 'auto-isolate', 'proxies', 'files', 'import-export'] as const;
export type OptionsSection = (typeof OPTIONS_SECTIONS)[number];

/** The section a fragment (`#files`, or `''`) names; the connection when it names none of them. */
export function optionsSectionOf(hash: string): OptionsSection {
  const id = hash.slice(1);
  return OPTIONS_SECTIONS.find((section) => section === id) ?? 'connection';
}

/**
 * Shows the options page at `section`: an options tab already open is brought forward and
 * sent to the section (a change of fragment, so its unsaved edits stay); otherwise a new
 * tab opens at it. Kept small: the service worker imports it for its notifications.
 */
export async function openOptionsAt(section: OptionsSection): Promise<void> {
  const page = browser.runtime.getURL('/options.html');
  const url = `${page}#${section}`;
  const open = (await browser.runtime.getContexts({ contextTypes: ['TAB'] })).find((context) => context.documentUrl?.startsWith(page));
  if (open === undefined) {
    await browser.tabs.create({ url });
    return;
  }
  await browser.tabs.update(open.tabId, { active: true, url });
  await browser.windows.update(open.windowId, { focused: true });
}
