/**
 * State of the bulk tab: pasted text, the links found in it, and the contexts created
 * from them.
 */
import { computed, signal } from '@preact/signals';
import { extractUrls } from '../../fang';
import { MAX_BULK_URLS } from '../../messaging/limits';
import type { BulkResult } from '../../messaging/protocol';
import { t } from '../../i18n';
import { okNotice } from '../common/notice';
import { createTask } from '../common/task';
import type { PopupDeps } from './deps';
import { copyNotice, failed } from './notice';

export function createBulkState(deps: PopupDeps) {
  const text = signal('');
  const urls = computed(() => extractUrls(text.value));
  const tooMany = computed(() => urls.value.length > MAX_BULK_URLS);
  const result = signal<BulkResult | null>(null);
  const task = createTask(failed);

  async function createAll(): Promise<void> {
    const list = urls.value;
    if (list.length === 0 || tooMany.value) return;
    await task.run(async () => {
      result.value = null;
      result.value = await deps.connector('bulkCreate', { urls: [...list] });
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

  return { text, urls, tooMany, busy: task.busy, result, notice: task.notice, createAll, openAll, copyLaunchUrls };
}

export type BulkState = ReturnType<typeof createBulkState>;
