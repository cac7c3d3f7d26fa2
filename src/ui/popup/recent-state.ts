/**
 * State of the recent tab: the contexts this browser created, newest first, each with
 * its own expandable details and actions.
 */
import { batch, signal } from '@preact/signals';
import { MAX_CONTEXT_NAME_LENGTH } from '../../messaging/limits';
import type { ContextView, RecentContext } from '../../messaging/protocol';
import { t } from '../../i18n';
import { errorNotice, okNotice } from '../common/notice';
import { createTask } from '../common/task';
import type { PopupDeps } from './deps';
import { copyNotice, failed } from './notice';

function createRecentItemState(initial: RecentContext, deps: PopupDeps, onDeleted: (id: string) => void) {
  const context = signal(initial);
  const expanded = signal(false);
  const details = signal<ContextView | null>(null);
  const { busy, notice, run } = createTask(failed);
  const confirmingDelete = signal(false);
  const renaming = signal(false);
  const renameText = signal('');
  const id = initial.id;

  function showDetails(view: ContextView): void {
    batch(() => {
      details.value = view;
      context.value = { ...context.value, name: view.name };
    });
  }

  async function loadDetails(): Promise<void> {
    await run(async () => {
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
    await run(async () => {
      const { opened } = await deps.connector('openContexts', { ids: [id] });
      return okNotice(opened === 0 ? t('popupOpenedNone') : t('popupRelaunched'));
    });
  }

  async function copyLaunchUrl(): Promise<void> {
    notice.value = await copyNotice(deps.copyText, context.value.launchUrl);
  }

  async function setEnabled(enabled: boolean): Promise<void> {
    await run(async () => {
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
    if (name.length > MAX_CONTEXT_NAME_LENGTH) {
      notice.value = errorNotice(t('popupNameTooLong', String(MAX_CONTEXT_NAME_LENGTH)));
      return;
    }
    await run(async () => {
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
    let deleted = false;
    const answered = await run(async () => {
      const reply = await deps.connector('deleteContext', { id });
      if (!reply.deleted) return errorNotice(t('popupNotDeleted'));
      onDeleted(id);
      deleted = true;
      return null;
    });
    // Closed once the request is over, when the Delete button that gets focus back is usable again.
    if (answered) confirmingDelete.value = false;
    return deleted;
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
  const loaded = signal(false);
  const { busy: loading, notice, run } = createTask(failed);

  function remove(id: string): void {
    batch(() => {
      items.value = items.value.filter((item) => item.id !== id);
      notice.value = okNotice(t('popupDeleted'));
    });
  }

  /** Reads the list again; items already shown keep their state (details, expansion). */
  async function load(): Promise<void> {
    if (loading.value) return;
    await run(async () => {
      const list = await deps.connector('listRecent', {});
      const known = new Map(items.value.map((item) => [item.id, item]));
      const sorted = [...list].sort((a, b) => b.createdAt - a.createdAt);
      items.value = sorted.map((entry) => {
        const existing = known.get(entry.id);
        if (existing === undefined) return createRecentItemState(entry, deps, remove);
        existing.context.value = entry;
        return existing;
      });
      return null;
    });
    loaded.value = true;
  }

  return { items, loading, loaded, notice, load, now: deps.now };
}

export type RecentState = ReturnType<typeof createRecentState>;
