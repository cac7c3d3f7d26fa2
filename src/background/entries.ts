/**
 * The entry points: context menus, the keyboard shortcut, the omnibox and clicks on
 * notifications. Each turns its input into an action and, when anything fails, a
 * notification that says what happened and what to do next. None of them ever opens
 * the suspicious URL itself.
 */
import { defang, extractUrls, refang } from '../fang';
import { t } from '../i18n';
import type { PendingAction } from '../settings/pending';
import { createMany, isolate, openLaunchUrls, requireTarget, targetFromText, type ActionDeps, type IsolateOutcome, type SessionKind, type SourceTab } from './actions';
import { describeFailure } from './failures';
import type { Notifier } from './notify';
import { SingleFlight } from './single-flight';

/** Stable ids: tests, the demo and administrators rely on them. */
export const MENU_IDS = {
  isolateLink: 'isolate-link',
  isolateLinkResearch: 'isolate-link-research',
  copyLinkDefanged: 'copy-link-defanged',
  isolateSelection: 'isolate-selection',
  copySelectionDefanged: 'copy-selection-defanged',
  copySelectionRefanged: 'copy-selection-refanged',
  isolatePage: 'isolate-page',
} as const;

export const COMMAND_ISOLATE_TAB = 'isolate-current-tab';

export interface MenuClick {
  readonly menuItemId: string | number;
  readonly linkUrl?: string | undefined;
  readonly selectionText?: string | undefined;
  readonly pageUrl?: string | undefined;
}

export interface ClickedTab extends SourceTab {
  readonly url?: string | undefined;
}

export interface EntryDeps extends ActionDeps {
  readonly notifier: Notifier;
  copyText(text: string): Promise<void>;
  openOptions(): Promise<void>;
  readonly inFlight: SingleFlight<IsolateOutcome>;
}

function sourceOf(tab: ClickedTab | undefined): SourceTab | undefined {
  return tab ? { id: tab.id, index: tab.index, windowId: tab.windowId } : undefined;
}

async function report(deps: EntryDeps, error: unknown, retry?: PendingAction): Promise<void> {
  await deps.notifier.failure(describeFailure(error), retry);
}

/** A link or page address as the browser gives it, or text the analyst typed (maybe defanged). */
type TargetInput = { readonly url: string } | { readonly text: string };

/** Isolates one target, joining a request already in flight for the same target. */
async function isolateTarget(deps: EntryDeps, input: TargetInput, session: SessionKind, tab: ClickedTab | undefined): Promise<void> {
  const source = sourceOf(tab);
  let target: string | undefined;
  try {
    // A real address is judged as it is; only typed text is refanged.
    target = ('url' in input ? requireTarget(input.url) : targetFromText(input.text)).href;
    const url = target;
    await deps.inFlight.run(`${session} ${url}`, () => isolate(deps, { url, session, source }));
  } catch (error) {
    await report(deps, error, target === undefined ? undefined : { kind: 'isolate', url: target, session, source });
  }
}

/** Creates contexts for many targets (batched) and opens their tabs; reports failures. */
export async function openMany(deps: EntryDeps, urls: readonly string[], source: SourceTab | undefined): Promise<void> {
  try {
    const outcome = await createMany(deps, urls);
    const opened = await openLaunchUrls(deps, outcome.created.map((context) => context.launchUrl), source);
    if (outcome.failures.length > 0) {
      const details = outcome.failures.map((failure) => `${failure.url}: ${failure.error}`).join('\n');
      await deps.notifier.info(t('notifyBulkPartial', [String(opened), String(urls.length)]), details);
    }
  } catch (error) {
    await report(deps, error, { kind: 'openMany', urls: [...urls], source });
  }
}

async function isolateSelection(deps: EntryDeps, text: string, tab: ClickedTab | undefined): Promise<void> {
  const urls = extractUrls(text);
  if (urls.length === 0) {
    await deps.notifier.info(t('notifyNoLinks'), t('notifyNoLinksMessage'));
    return;
  }
  if (urls.length === 1) {
    await isolateTarget(deps, { url: urls[0] ?? '' }, 'standard', tab);
    return;
  }
  const source = sourceOf(tab);
  let threshold: number;
  try {
    threshold = (await deps.readSettings()).settings.bulkConfirmThreshold;
  } catch (error) {
    await report(deps, error);
    return;
  }
  if (urls.length > threshold) {
    await deps.notifier.ask(
      t('notifyConfirmBulk', String(urls.length)),
      urls.slice(0, 5).join('\n') + (urls.length > 5 ? '\n…' : ''),
      t('notifyConfirmBulkButton', String(urls.length)),
      { kind: 'openMany', urls, source },
    );
    return;
  }
  await openMany(deps, urls, source);
}

async function copy(deps: EntryDeps, text: string): Promise<void> {
  try {
    await deps.copyText(text);
  } catch {
    // The browser's own reason (Firefox's clipboard) is English and says nothing to do: ours does.
    await deps.notifier.info(t('notifyCopyFailed'), t('notifyCopyFailedMessage'));
  }
}

/** A click on one of Isolink's context-menu items. */
export async function onMenuClick(deps: EntryDeps, info: MenuClick, tab: ClickedTab | undefined): Promise<void> {
  switch (info.menuItemId) {
    case MENU_IDS.isolateLink:
      return isolateTarget(deps, { url: info.linkUrl ?? '' }, 'standard', tab);
    case MENU_IDS.isolateLinkResearch:
      return isolateTarget(deps, { url: info.linkUrl ?? '' }, 'research', tab);
    case MENU_IDS.copyLinkDefanged:
      return copy(deps, defang(info.linkUrl ?? ''));
    case MENU_IDS.isolateSelection:
      return isolateSelection(deps, info.selectionText ?? '', tab);
    case MENU_IDS.copySelectionDefanged:
      return copy(deps, defang(info.selectionText ?? ''));
    case MENU_IDS.copySelectionRefanged:
      return copy(deps, refang(info.selectionText ?? ''));
    case MENU_IDS.isolatePage:
      return isolateTarget(deps, { url: info.pageUrl ?? tab?.url ?? '' }, 'standard', tab);
    default:
      return undefined;
  }
}

/** The keyboard shortcut: the current tab's page. */
export async function onCommand(deps: EntryDeps, command: string, tab: ClickedTab | undefined): Promise<void> {
  if (command !== COMMAND_ISOLATE_TAB) return;
  await isolateTarget(deps, { url: tab?.url ?? '' }, 'standard', tab);
}

/** The omnibox keyword `iso`: the typed text, defanged or not. */
export async function onOmniboxEntered(deps: EntryDeps, text: string): Promise<void> {
  await isolateTarget(deps, { text }, 'standard', undefined);
}

/** The omnibox's live suggestion: the refanged target, or nothing when there is none. */
export function omniboxSuggestion(text: string): string | undefined {
  try {
    return t('omniboxTarget', targetFromText(text).href);
  } catch {
    return undefined;
  }
}

/** A click on a notification or its button: carry out what it offered, once. */
export async function onNotificationAction(deps: EntryDeps, action: PendingAction | undefined): Promise<void> {
  if (!action) return;
  switch (action.kind) {
    case 'openOptions':
      await deps.openOptions();
      return;
    case 'isolate':
      await isolateTarget(deps, { url: action.url }, action.session, action.source);
      return;
    case 'openMany':
      await openMany(deps, action.urls, action.source);
      return;
  }
}
