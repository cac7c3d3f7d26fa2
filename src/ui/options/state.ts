/**
 * The options page's shared state: the settings view and the status, as the background
 * reports them. One instance per page, made by the App; sections keep their own drafts.
 */
import { batch, computed, signal } from '@preact/signals';
import type { Connector } from '../../messaging/page';
import type { MessageData, SettingsView, Status } from '../../messaging/protocol';
import type { SettingKey } from '../../settings/schema';
import { errorText } from './errors';

export function createOptionsState(connector: Connector) {
  const view = signal<SettingsView | null>(null);
  const status = signal<Status | null>(null);
  const loadError = signal<string | null>(null);
  /** Bumped when the settings were replaced as a whole (an import): sections start over from them. */
  const generation = signal(0);
  const ready = computed(() => view.value !== null && status.value !== null);

  /** Reads settings and status; on failure, loadError says what went wrong. */
  async function load(): Promise<void> {
    loadError.value = null;
    try {
      const [nextView, nextStatus] = await Promise.all([connector('getSettings', {}), connector('getStatus', {})]);
      batch(() => {
        view.value = nextView;
        status.value = nextStatus;
      });
    } catch (error) {
      loadError.value = errorText(error);
    }
  }

  async function refreshStatus(): Promise<Status> {
    const next = await connector('getStatus', {});
    status.value = next;
    return next;
  }

  async function refreshSettings(): Promise<SettingsView> {
    const next = await connector('getSettings', {});
    view.value = next;
    return next;
  }

  /** Saves the changed keys; the page then shows the settings as the background holds them. */
  async function saveSettings(patch: MessageData<'saveSettings'>['patch']): Promise<SettingsView> {
    const next = await connector('saveSettings', { patch });
    view.value = next;
    return next;
  }

  function setStatus(next: Status): void {
    status.value = next;
  }

  /** Settings replaced wholesale: every section re-reads them. */
  function replaceView(next: SettingsView): void {
    batch(() => {
      view.value = next;
      generation.value += 1;
    });
  }

  return { connector, view, status, loadError, generation, ready, load, refreshStatus, refreshSettings, saveSettings, setStatus, replaceView };
}

export type OptionsState = ReturnType<typeof createOptionsState>;

/** What every section receives: the state, and the view and status once loaded. */
export interface SectionProps {
  readonly state: OptionsState;
  readonly view: SettingsView;
  readonly status: Status;
}

export function isLocked(view: SettingsView, key: SettingKey): boolean {
  return view.locked.includes(key);
}
