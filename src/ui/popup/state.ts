/**
 * The popup's state: one factory per popup, no module-level mutable state.
 */
import { batch, signal, type ReadonlySignal } from '@preact/signals';
import { t } from '../../i18n';
import type { SettingsView, Status } from '../../messaging/protocol';
import { errorNotice, type Notice } from '../common/notice';
import type { PopupDeps, TabPanel } from './deps';
import { createIsolateState } from './isolate-state';
import { createLater } from './later';
import { failed } from './notice';

/** The popup's tabs. */
export type TabId = 'isolate' | 'bulk' | 'recent' | 'fang';
type LaterTabId = Exclude<TabId, 'isolate'>;

/**
 * The tabs other than Isolate, where the popup opens: their code and styles load when
 * the analyst first opens them. Each panel keeps its state while another tab is shown.
 */
function laterTabs(deps: PopupDeps, settings: ReadonlySignal<SettingsView | null>) {
  const later = (load: () => Promise<{ readonly tab: TabPanel }>) => createLater(async () => (await load()).tab(deps, settings));
  return {
    bulk: later(() => import('./BulkPanel')),
    recent: later(() => import('./RecentPanel')),
    fang: later(() => import('./FangPanel')),
  } satisfies Record<LaterTabId, unknown>;
}

export function createPopupState(deps: PopupDeps) {
  const status = signal<Status | null>(null);
  const settings = signal<SettingsView | null>(null);
  /** True once the first status and settings requests have settled. */
  const ready = signal(false);
  const loadNotice = signal<Notice | null>(null);
  const optionsNotice = signal<Notice | null>(null);
  const tab = signal<TabId>('isolate');
  const isolate = createIsolateState(deps);
  const panels = laterTabs(deps, settings);

  async function load(): Promise<void> {
    // Ready once the status and the settings are there, asked for side by side.
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

  /** Shows a tab, loading its panel the first time. */
  function selectTab(id: TabId): void {
    tab.value = id;
    if (id !== 'isolate') void panels[id].request();
  }

  async function openOptions(): Promise<void> {
    try {
      await deps.openOptions();
      optionsNotice.value = null;
    } catch {
      optionsNotice.value = errorNotice(t('popupOptionsFailed'));
    }
  }

  /** The reported mail page, in a tab; a failure is said where the options' would be. */
  async function openMail(): Promise<void> {
    try {
      await deps.openMail();
      optionsNotice.value = null;
    } catch {
      optionsNotice.value = errorNotice(t('popupOpenMailFailed'));
    }
  }

  return { status, settings, ready, loadNotice, optionsNotice, tab, isolate, panels, load, selectTab, openOptions, openMail };
}

export type PopupState = ReturnType<typeof createPopupState>;
