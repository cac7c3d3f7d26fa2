/**
 * State of the bulk tab: pasted text, the links found in it, and the contexts created
 * from them.
 */
import { computed, signal, type ReadonlySignal } from '@preact/signals';
import { extractUrls } from '../../fang';
import { MAX_BULK_URLS } from '../../messaging/limits';
import type { BulkResult, SettingsView } from '../../messaging/protocol';
import { resolveLink, type Resolved } from '../../resolve';
import { t } from '../../i18n';
import { okNotice } from '../common/notice';
import { createTask } from '../common/task';
import type { PopupDeps } from './deps';
import { copyNotice, failed } from './notice';

/** A wrapped link in a list, where the settings ask: the real targets, or the links as written. */
export type WrappedChoice = 'unwrap' | 'keep';

/** A link found in the text and what it resolves to, as the background will resolve it. */
export interface FoundLink {
  readonly link: string;
  readonly resolved: Resolved;
}

function isWrapped(link: string): boolean {
  const resolved = resolveLink(link, 'ask');
  return resolved.ok && resolved.target.choice !== undefined;
}

/** Links listed on screen at most; the count covers all of them. */
export const MAX_SHOWN = 100;

export function createBulkState(deps: PopupDeps, settings: ReadonlySignal<SettingsView | null>) {
  const text = signal('');
  const urls = computed(() => extractUrls(text.value));
  const mode = computed(() => settings.value?.settings.unwrap ?? 'unwrap');
  /** Only where the settings ask; otherwise the setting decides. */
  const wrapped = signal<WrappedChoice>('unwrap');
  /** The links shown (the first ones), each resolved: a list of many is not resolved whole on every key press. */
  const shown = computed<FoundLink[]>(() => {
    const choice = mode.value === 'keep' || (mode.value === 'ask' && wrapped.value === 'keep') ? 'keep' : 'unwrap';
    return urls.value.slice(0, MAX_SHOWN).map((link) => ({ link, resolved: resolveLink(link, choice) }));
  });
  /** The settings ask, and a link is wrapped: the panel shows the choice. */
  const asking = computed(() => mode.value === 'ask' && urls.value.some(isWrapped));
  const tooMany = computed(() => urls.value.length > MAX_BULK_URLS);
  const result = signal<BulkResult | null>(null);
  const task = createTask(failed);

  async function createAll(): Promise<void> {
    const list = urls.value;
    if (list.length === 0 || tooMany.value) return;
    await task.run(async () => {
      result.value = null;
      result.value = await deps.connector('bulkCreate', { urls: [...list], ...(asking.value ? { wrapped: wrapped.value } : {}) });
      return null;
    });
  }

  async function openAll(): Promise<void> {
    const ids = result.value?.created.map((context) => context.id) ?? [];
    if (ids.length === 0) return;
    await task.run(async () => {
      const { opened } = await deps.connector('openContexts', { ids });
      return okNotice(opened === 0 ? t('popupOpenedNone') : t('popupOpenedCount', String(opened)));
    });
  }

  async function copyLaunchUrls(): Promise<void> {
    const launchUrls = result.value?.created.map((context) => context.launchUrl) ?? [];
    if (launchUrls.length === 0) return;
    task.notice.value = await copyNotice(deps.copyText, launchUrls.join('\n'));
  }

  return { text, urls, shown, asking, wrapped, tooMany, busy: task.busy, result, notice: task.notice, createAll, openAll, copyLaunchUrls };
}

export type BulkState = ReturnType<typeof createBulkState>;
