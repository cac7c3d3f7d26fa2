/**
 * The entry points: context menus, the keyboard shortcut, the omnibox and clicks on
 * notifications. Each turns its input into an action and, when anything fails, a
 * notification that says what happened and what to do next. None of them ever opens
 * the suspicious URL itself.
 */
import { defang, extractUrls, refang, unwrap, unwrapText, WRAPPER_NAMES } from '../fang';
import { wrapperNamesOf } from '../fang/ids';
import { t } from '../i18n';
import type { PendingAction } from '../settings/pending';
import { linkInText, resolveAll, resolveText, type Target } from '../resolve';
import { createMany, isolate, openTabs, type SessionKind, type WrappedChoice } from './actions';
import type { ClickedTab, Deps, SourceTab } from './deps';
import { describeFailure, RefusedUrlError } from './failures';

/** Stable ids: tests, the demo and administrators rely on them. */
export const MENU_IDS = {
  isolateLink: 'isolate-link',
  isolateLinkResearch: 'isolate-link-research',
  copyLinkDefanged: 'copy-link-defanged',
  copyLinkUnwrapped: 'copy-link-unwrapped',
  isolateSelection: 'isolate-selection',
  copySelectionDefanged: 'copy-selection-defanged',
  copySelectionRefanged: 'copy-selection-refanged',
  copySelectionUnwrapped: 'copy-selection-unwrapped',
  isolatePage: 'isolate-page',
  scanImage: 'scan-qr-image',
  scanTab: 'scan-qr-tab',
} as const;

export const COMMAND_ISOLATE_TAB = 'isolate-current-tab';
export const COMMAND_SCAN_TAB = 'scan-tab-qr';

export interface MenuClick {
  readonly menuItemId: string | number;
  readonly linkUrl?: string | undefined;
  readonly selectionText?: string | undefined;
  readonly pageUrl?: string | undefined;
}

function sourceOf(tab: ClickedTab | undefined): SourceTab | undefined {
  return tab ? { id: tab.id, index: tab.index, windowId: tab.windowId } : undefined;
}

async function report(deps: Deps, error: unknown, retry?: PendingAction): Promise<void> {
  await deps.browser.notifier.failure(describeFailure(error), retry);
}

/** A link or page address as the browser gives it, or text the analyst typed (maybe defanged). */
type LinkInput = { readonly url: string } | { readonly text: string };

/** A wrapped link under the "ask" setting: which to open, the real target (button 1) or the wrapper (button 2). */
async function askWrapped(deps: Deps, target: Target, session: SessionKind, source: SourceTab | undefined): Promise<void> {
  const action: PendingAction = { kind: 'isolate', url: target.given, session, source, wrapped: 'unwrap' };
  await deps.browser.notifier.ask(
    t('notifyAskUnwrap', wrapperNamesOf(target.layers)),
    t('notifyAskUnwrapMessage', [target.url.href, target.given]),
    t('notifyAskUnwrapButton'),
    action,
    { label: t('notifyAskKeepButton'), action: { ...action, wrapped: 'keep' } },
  );
}

/** Isolates one link, joining a request already in flight for the same link; says why a wrapper is opened as it is. */
async function isolateLink(deps: Deps, input: LinkInput, session: SessionKind, tab: ClickedTab | undefined, wrapped?: WrappedChoice): Promise<void> {
  const source = sourceOf(tab);
  // A real address is judged as it is; only typed text is refanged and mined for its link.
  const link = 'url' in input ? input.url : linkInText(input.text);
  try {
    // A second activation joins the first, notices included: only the first one speaks.
    await deps.inFlight.run(`link ${session} ${wrapped ?? ''} ${link}`, async () => {
      const outcome = await isolate(deps, { link, session, source, wrapped });
      if ('ask' in outcome) {
        await askWrapped(deps, outcome.ask, session, source);
        return;
      }
      const { target } = outcome;
      // Opened as it is: a wrapper whose target cannot be read offline.
      if (target.opaque && target.wrapper !== undefined) {
        await deps.browser.notifier.info(t('notifyOpaque', WRAPPER_NAMES[target.wrapper]), t('notifyOpaqueMessage', WRAPPER_NAMES[target.wrapper]));
      }
    });
  } catch (error) {
    // A retry resolves the link again; a link refused as it is offers none.
    const retry: PendingAction | undefined =
      error instanceof RefusedUrlError ? undefined : { kind: 'isolate', url: link, session, source, ...(wrapped ? { wrapped } : {}) };
    await report(deps, error, retry);
  }
}

/** Creates contexts for many links (batched) and opens their tabs; reports failures. */
export async function openMany(deps: Deps, urls: readonly string[], source: SourceTab | undefined, wrapped?: WrappedChoice): Promise<void> {
  try {
    // The same links again while they are being opened: joined, nothing created twice.
    await deps.inFlight.run(`many ${wrapped ?? ''} ${urls.join(' ')}`, async () => {
      const outcome = await createMany(deps, urls, wrapped);
      // Checked once, when created: opened with the settings they were made with (no second read).
      const opened = await openTabs(deps, outcome.settings, outcome.launchUrls, source);
      if (outcome.failures.length > 0) {
        const details = outcome.failures.map((failure) => `${failure.url}: ${failure.error}`).join('\n');
        await deps.browser.notifier.info(t('notifyBulkPartial', [String(opened), String(urls.length)]), details);
      }
    });
  } catch (error) {
    await report(deps, error, { kind: 'openMany', urls: [...urls], source, ...(wrapped ? { wrapped } : {}) });
  }
}

/** A target as the confirmation lists it: the real target, and what it was wrapped by. */
function listed(target: Target): string {
  return target.layers.length === 0 ? target.url.href : t('notifyUnwrappedLine', [target.url.href, wrapperNamesOf(target.layers)]);
}

async function isolateSelection(deps: Deps, text: string, tab: ClickedTab | undefined): Promise<void> {
  const found = extractUrls(text);
  if (found.length === 0) {
    await deps.browser.notifier.info(t('notifyNoLinks'), t('notifyNoLinksMessage'));
    return;
  }
  // One link is one isolation: its settings are read there, once.
  if (found.length === 1) {
    await isolateLink(deps, { url: found[0] ?? '' }, 'standard', tab);
    return;
  }
  const source = sourceOf(tab);
  let settings;
  try {
    ({ settings } = await deps.store.readSettings());
  } catch (error) {
    await report(deps, error);
    return;
  }
  const { targets, refused } = resolveAll(text, settings.unwrap);
  const links = [...targets.map((target) => target.given), ...refused.map((refusal) => refusal.given)];
  // Several wrappers of one target are one target.
  if (links.length === 1) {
    await isolateLink(deps, { url: links[0] ?? '' }, 'standard', tab);
    return;
  }
  const threshold = settings.bulkConfirmThreshold;
  const asking = targets.some((target) => target.choice !== undefined);
  if (links.length > threshold || asking) {
    const shown = targets.slice(0, 5).map(listed);
    const more = links.length > shown.length ? '\n…' : '';
    const action: PendingAction = { kind: 'openMany', urls: links, source, ...(asking ? { wrapped: 'unwrap' } : {}) };
    await deps.browser.notifier.ask(
      t('notifyConfirmBulk', String(links.length)),
      shown.join('\n') + more,
      t('notifyConfirmBulkButton', String(links.length)),
      action,
      asking ? { label: t('notifyAskKeepButton'), action: { ...action, wrapped: 'keep' } } : undefined,
    );
    return;
  }
  await openMany(deps, links, source);
}

async function copy(deps: Deps, text: string): Promise<void> {
  try {
    await deps.browser.copyText(text);
  } catch {
    // The browser's own reason (Firefox's clipboard) is English and says nothing to do: ours does.
    await deps.browser.notifier.info(t('notifyCopyFailed'), t('notifyCopyFailedMessage'));
  }
}

/** A click on one of Isolink's context-menu items. */
export async function onMenuClick(deps: Deps, info: MenuClick, tab: ClickedTab | undefined): Promise<void> {
  switch (info.menuItemId) {
    case MENU_IDS.isolateLink:
      return isolateLink(deps, { url: info.linkUrl ?? '' }, 'standard', tab);
    case MENU_IDS.isolateLinkResearch:
      return isolateLink(deps, { url: info.linkUrl ?? '' }, 'research', tab);
    case MENU_IDS.copyLinkDefanged:
      return copy(deps, defang(info.linkUrl ?? ''));
    case MENU_IDS.copyLinkUnwrapped:
      return copy(deps, unwrap(info.linkUrl ?? '').url);
    case MENU_IDS.isolateSelection:
      return isolateSelection(deps, info.selectionText ?? '', tab);
    case MENU_IDS.copySelectionDefanged:
      return copy(deps, defang(info.selectionText ?? ''));
    case MENU_IDS.copySelectionRefanged:
      return copy(deps, refang(info.selectionText ?? ''));
    case MENU_IDS.copySelectionUnwrapped:
      return copy(deps, unwrapText(refang(info.selectionText ?? '')));
    case MENU_IDS.isolatePage:
      return isolateLink(deps, { url: info.pageUrl ?? tab?.url ?? '' }, 'standard', tab);
    case MENU_IDS.scanImage:
      return scan(deps, tab, true);
    case MENU_IDS.scanTab:
      return scan(deps, tab, false);
    default:
      return undefined;
  }
}

/**
 * A scan for QR codes: the page that reads them opens behind the tab, reads its visible
 * pixels (the grant the click or the shortcut gave) and decodes them; the worker decodes
 * nothing.
 */
async function scan(deps: Deps, tab: ClickedTab | undefined, image: boolean): Promise<void> {
  try {
    if (tab?.id === undefined || tab.windowId === undefined) throw new RefusedUrlError('errorNoTab');
    await deps.browser.openScan(tab, { tabId: tab.id, windowId: tab.windowId, image });
  } catch (error) {
    await report(deps, error);
  }
}

/** The keyboard shortcuts: the current tab's page, or its QR codes. */
export async function onCommand(deps: Deps, command: string, tab: ClickedTab | undefined): Promise<void> {
  if (command === COMMAND_SCAN_TAB) await scan(deps, tab, false);
  if (command !== COMMAND_ISOLATE_TAB) return;
  await isolateLink(deps, { url: tab?.url ?? '' }, 'standard', tab);
}

/** The omnibox keyword `iso`: the typed text, defanged or not. */
export async function onOmniboxEntered(deps: Deps, text: string): Promise<void> {
  await isolateLink(deps, { text }, 'standard', undefined);
}

/** XML's five special characters, as Chrome's omnibox description needs them escaped. */
const XML_ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/**
 * Text for an omnibox description: Chrome reads it as XML (`<match>`, `<url>`, `<dim>`),
 * so a link holding `<`, `&` or `]]>` is escaped to show as typed; Firefox shows plain text.
 */
export function omniboxText(text: string, firefox: boolean = import.meta.env.FIREFOX): string {
  return firefox ? text : text.replace(/["&'<>]/g, (ch) => XML_ENTITIES[ch] ?? ch);
}

/**
 * The omnibox's live suggestion: the link as typed, refanged, and the wrappers around it
 * (the settings decide later whether its real target or the wrapper is isolated); nothing
 * when there is no link.
 */
export function omniboxSuggestion(text: string): string | undefined {
  const resolved = resolveText(text, 'keep');
  if (!resolved.ok) return undefined;
  const { layers, opaque } = unwrap(resolved.target.url.href);
  const wrappers = [...layers, ...(opaque === undefined ? [] : [opaque])];
  const link = resolved.target.url.href;
  return wrappers.length === 0 ? t('omniboxTarget', link) : t('omniboxTargetWrapped', [link, wrapperNamesOf(wrappers)]);
}

/** A click on a notification or its button: carry out what it offered, once. */
export async function onNotificationAction(deps: Deps, action: PendingAction | undefined): Promise<void> {
  if (!action) return;
  switch (action.kind) {
    case 'openOptions':
      await deps.browser.openOptions();
      return;
    case 'isolate':
      await isolateLink(deps, { url: action.url }, action.session, action.source, action.wrapped);
      return;
    case 'openMany':
      await openMany(deps, action.urls, action.source, action.wrapped);
      return;
  }
}
