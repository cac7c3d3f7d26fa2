import { useEffect, useId, useRef } from 'preact/hooks';
import { t } from '../../i18n';
import { MAX_CONTEXT_NAME_LENGTH } from '../../messaging/limits';
import { Button } from '../common/Button';
import { ConfirmStep } from '../common/ConfirmStep';
import type { RecentItemState } from './recent-state';

function RenameForm({ item, onDone }: { readonly item: RecentItemState; readonly onDone: () => void }) {
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    input.current?.focus();
  }, []);
  const busy = item.busy.value;
  return (
    <form
      class="row"
      onSubmit={(event) => {
        event.preventDefault();
        void item.saveRename().then(() => {
          if (!item.renaming.value) onDone();
        });
      }}
    >
      <label for={inputId}>{t('popupRenameLabel')}</label>
      <input
        id={inputId}
        ref={input}
        type="text"
        maxLength={MAX_CONTEXT_NAME_LENGTH}
        value={item.renameText.value}
        onInput={(event) => {
          item.renameText.value = event.currentTarget.value;
        }}
        onKeyDown={(event) => {
          if (event.key !== 'Escape') return;
          event.preventDefault();
          item.cancelRename();
          onDone();
        }}
      />
      <Button type="submit" class="primary" busy={busy}>
        {t('popupSave')}
      </Button>
      <button
        type="button"
        onClick={() => {
          item.cancelRename();
          onDone();
        }}
      >
        {t('popupCancel')}
      </button>
    </form>
  );
}

/** Relaunch, copy, enable/disable, rename (inline) and delete (after a confirmation step). */
export function RecentActions({ item, onGone }: { readonly item: RecentItemState; readonly onGone: () => void }) {
  const busy = item.busy.value;
  const details = item.details.value;
  const renameButton = useRef<HTMLButtonElement>(null);
  const deleteButton = useRef<HTMLButtonElement>(null);
  return (
    <>
      <div class="row actions">
        <Button busy={busy} onClick={() => void item.relaunch()}>
          {t('popupRelaunch')}
        </Button>
        <button type="button" onClick={() => void item.copyLaunchUrl()}>
          {t('popupCopyLaunchUrl')}
        </button>
        {details !== null && (
          <Button busy={busy} onClick={() => void item.setEnabled(!details.enabled)}>
            {details.enabled ? t('popupDisable') : t('popupEnable')}
          </Button>
        )}
        <Button ref={renameButton} busy={busy} unavailable={item.renaming.value} onClick={item.startRename}>
          {t('popupRename')}
        </Button>
        <Button class="danger" ref={deleteButton} busy={busy} unavailable={item.confirmingDelete.value} onClick={item.askDelete}>
          {t('popupDelete')}
        </Button>
      </div>
      {item.renaming.value && (
        <RenameForm
          item={item}
          onDone={() => {
            renameButton.current?.focus();
          }}
        />
      )}
      {item.confirmingDelete.value && (
        <ConfirmStep
          question={t('popupDeleteQuestion')}
          confirmLabel={t('popupDeleteConfirm')}
          cancelLabel={t('popupCancel')}
          busy={busy}
          returnFocus={deleteButton}
          onConfirm={() => {
            void item.confirmDelete().then((deleted) => {
              if (deleted) onGone();
            });
          }}
          onCancel={item.cancelDelete}
        />
      )}
    </>
  );
}
