/**
 * The popup's state: one factory per popup, no module-level mutable state.
 */
import { batch, signal } from '@preact/signals';
import { t } from '../../i18n';
import type { SettingsView, Status } from '../../messaging/protocol';
import { errorNotice, type Notice } from '../common/notice';
import { createBulkState } from './bulk-state';
import type { PopupDeps } from './deps';
import { createFangState } from './fang-state';
import { createIsolateState } from './isolate-state';
import { failed } from './notice';
import { createRecentState } from './recent-state';

export const TABS = ['isolate', 'bulk', 'recent', 'fang'] as const;
export type TabId = (typeof TABS)[number];

export function createPopupState(deps: PopupDeps) {
  const status = signal<Status | null>(null);
  const settings = signal<SettingsView | null>(null);
  /** True once the first status and settings requests have settled. */
  const ready = signal(false);
  const loadNotice = signal<Notice | null>(null);
  const optionsNotice = signal<Notice | null>(null);
  const tab = signal<TabId>('isolate');
  const isolate = createIsolateState(deps);

  async function load(): Promise<void> {
    const [statusReply, settingsReply] = await Promise.allSettled([deps.connector('getStatus', {}), deps.connector('getSettings', {})]);
    batch(() => {
      if (statusReply.status === 'fulfilled') status.value = statusReply.value;
      if (settingsReply.status === 'fulfilled') {
        settings.value = settingsReply.value;
        isolate.applyDefaults(settingsReply.value.settings);
      }
      const rejected = [statusReply, settingsReply].find((reply) => reply.status === 'rejected');
      loadNotice.value = rejected === undefined ? null : failed(rejected.reason);
      ready.value = true;
    });
  }

  async function openOptions(): Promise<void> {
    try {
      await deps.openOptions();
      optionsNotice.value = null;
    } catch {
      optionsNotice.value = errorNotice(t('popupOptionsFailed'));
    }
  }

  return {
    status,
    settings,
    ready,
    loadNotice,
    optionsNotice,
    tab,
    isolate,
    bulk: createBulkState(deps),
    recent: createRecentState(deps),
    fang: createFangState(deps),
    load,
    openOptions,
  };
}

export type PopupState = ReturnType<typeof createPopupState>;
