/**
 * A confirmation inside the page (no window.confirm): the question, the action and Cancel.
 * Focus moves to Cancel, so a second Enter does not confirm by accident.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useId, useRef } from 'preact/hooks';
import { t } from '../../i18n';

interface Props {
  readonly question: string;
  readonly confirmLabel: string;
  readonly busy: boolean;
  readonly onConfirm: () => void;
  readonly onCancel: () => void;
  readonly children?: ComponentChildren;
}

export function ConfirmStep({ question, confirmLabel, busy, onConfirm, onCancel, children }: Props) {
  const id = useId();
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    cancel.current?.focus();
  }, [question]);
  return (
    <div class="card confirm" role="group" aria-labelledby={id}>
      <p id={id} class="warn">
        <strong>{question}</strong>
      </p>
      {children}
      <div class="row">
        <button type="button" class="danger" disabled={busy} onClick={onConfirm}>
          {confirmLabel}
        </button>
        <button type="button" ref={cancel} disabled={busy} onClick={onCancel}>
          {t('optionsCancel')}
        </button>
      </div>
    </div>
  );
}
