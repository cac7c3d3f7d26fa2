/**
 * State of the recent tab: the contexts this browser created, newest first, each with
 * its own expandable details and actions.
 */
import { batch, signal } from '@preact/signals';
import type { ContextView, RecentContext } from '../../messaging/protocol';
import { t } from '../../i18n';
import type { PopupDeps } from './deps';
import { copyNotice, errorNotice, okNotice, type Notice } from './notice';

/** Longest context name the service takes. */
export const MAX_NAME_LENGTH = 256;

export function createRecentItemState(initial: RecentContext, deps: PopupDeps, onDeleted: (id: string) => void) {
  const context = signal(initial);
  const expanded = signal(false);
  const details = signal<ContextView | null>(null);
  const busy = signal(false);
  const notice = signal<Notice | null>(null);
  const confirmingDelete = signal(false);
  const renaming = signal(false);
  const renameText = signal('');
  const id = initial.id;

  async function guarded(work: () => Promise<Notice | null>): Promise<void> {
    if (busy.value) return;
    batch(() => {
      busy.value = true;
      notice.value = null;
    });
    try {
      notice.value = await work();
    } catch (error) {
      notice.value = errorNotice(error);
    } finally {
      busy.value = false;
    }
  }

  function showDetails(view: ContextView): void {
    batch(() => {
      details.value = view;
      context.value = { ...context.value, name: view.name };
    });
  }

  async function loadDetails(): Promise<void> {
    await guarded(async () => {
      showDetails(await deps.connector('contextDetails', { id }));
      return null;
    });
  }

  /** Expands or collapses; the first expansion fetches the live details. */
  async function toggle(): Promise<void> {
    expanded.value = !expanded.value;
    if (expanded.value && details.value === null) await loadDetails();
  }

  async function relaunch(): Promise<void> {
    await guarded(async () => {
      const { opened } = await deps.connector('openContexts', { ids: [id] });
      return okNotice(opened === 0 ? t('popupOpenedNone') : t('popupRelaunched'));
    });
  }

  async function copyLaunchUrl(): Promise<void> {
    notice.value = await copyNotice(deps.copyText, context.value.launchUrl);
  }

  async function setEnabled(enabled: boolean): Promise<void> {
    await guarded(async () => {
      showDetails(await deps.connector('updateContext', { id, enabled }));
      return okNotice(enabled ? t('popupEnabledNotice') : t('popupDisabledNotice'));
    });
  }

  function startRename(): void {
    batch(() => {
      renameText.value = context.value.name;
      renaming.value = true;
      notice.value = null;
    });
  }

  function cancelRename(): void {
    renaming.value = false;
  }

  async function saveRename(): Promise<void> {
    const name = renameText.value.trim();
    if (name.length > MAX_NAME_LENGTH) {
      notice.value = { kind: 'error', message: t('popupNameTooLong', String(MAX_NAME_LENGTH)) };
      return;
    }
    await guarded(async () => {
      showDetails(await deps.connector('updateContext', { id, name }));
      renaming.value = false;
      return okNotice(t('popupRenamed'));
    });
  }

  function askDelete(): void {
    batch(() => {
      confirmingDelete.value = true;
      notice.value = null;
    });
  }

  function cancelDelete(): void {
    confirmingDelete.value = false;
  }

  /** Deletes for good; resolves true when the context is gone. */
  async function confirmDelete(): Promise<boolean> {
    if (busy.value) return false;
    batch(() => {
      busy.value = true;
      notice.value = null;
    });
    try {
      const reply = await deps.connector('deleteContext', { id });
      confirmingDelete.value = false;
      if (!reply.deleted) {
        notice.value = { kind: 'error', message: t('popupNotDeleted') };
        return false;
      }
      onDeleted(id);
      return true;
    } catch (error) {
      notice.value = errorNotice(error);
      return false;
    } finally {
      busy.value = false;
    }
  }

  return {
    id,
    context,
    expanded,
    details,
    busy,
    notice,
    confirmingDelete,
    renaming,
    renameText,
    toggle,
    loadDetails,
    relaunch,
    copyLaunchUrl,
    setEnabled,
    startRename,
    cancelRename,
    saveRename,
    askDelete,
    cancelDelete,
    confirmDelete,
  };
}

export type RecentItemState = ReturnType<typeof createRecentItemState>;

export function createRecentState(deps: PopupDeps) {
  const items = signal<readonly RecentItemState[]>([]);
  const loading = signal(false);
  const loaded = signal(false);
  const notice = signal<Notice | null>(null);

  function remove(id: string): void {
    batch(() => {
      items.value = items.value.filter((item) => item.id !== id);
      notice.value = okNotice(t('popupDeleted'));
    });
  }

  /** Reads the list again; items already shown keep their state (details, expansion). */
  async function load(): Promise<void> {
    if (loading.value) return;
    loading.value = true;
    try {
      const list = await deps.connector('listRecent', {});
      const known = new Map(items.value.map((item) => [item.id, item]));
      const sorted = [...list].sort((a, b) => b.createdAt - a.createdAt);
      batch(() => {
        items.value = sorted.map((entry) => {
          const existing = known.get(entry.id);
          if (existing === undefined) return createRecentItemState(entry, deps, remove);
          existing.context.value = entry;
          return existing;
        });
        notice.value = null;
      });
    } catch (error) {
      notice.value = errorNotice(error);
    } finally {
      batch(() => {
        loading.value = false;
        loaded.value = true;
      });
    }
  }

  return { items, loading, loaded, notice, load, now: deps.now };
}

export type RecentState = ReturnType<typeof createRecentState>;
