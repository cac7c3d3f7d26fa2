/**
 * A confirmation inside the page (no window.confirm): the question, the action and Cancel.
 * Focus moves to Cancel, so a second Enter does not confirm by accident; when the step
 * closes with focus inside it, focus goes back to the control that opened it. Owners
 * close it once its request is over, so that control is usable again by then.
 */
import type { ComponentChildren, RefObject } from 'preact';
import { useEffect, useId, useLayoutEffect, useRef } from 'preact/hooks';
import { Button } from './Button';

interface Props {
  readonly question: string;
  readonly confirmLabel: string;
  readonly cancelLabel: string;
  readonly busy: boolean;
  readonly onConfirm: () => void;
  readonly onCancel: () => void;
  /** The control that opened the step: focus returns there when the step closes. */
  readonly returnFocus: RefObject<HTMLElement | null>;
  readonly className?: string;
  readonly children?: ComponentChildren;
}

export function ConfirmStep({ question, confirmLabel, cancelLabel, busy, onConfirm, onCancel, returnFocus, className, children }: Props) {
  const id = useId();
  const root = useRef<HTMLDivElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const opener = useRef(returnFocus);
  opener.current = returnFocus;

  useEffect(() => {
    cancel.current?.focus();
  }, [question]);

  // A layout cleanup runs while the step is still in the page, so it can tell whether
  // focus is inside it. The opener may become available in the same render, so the
  // focus moves once that render is done.
  useLayoutEffect(
    () => () => {
      const active = document.activeElement;
      const inside = active === null || active === document.body || root.current?.contains(active) === true;
      if (!inside) return;
      queueMicrotask(() => {
        const target = opener.current.current;
        if (target?.isConnected === true) target.focus();
      });
    },
    [],
  );

  return (
    <div ref={root} class={className === undefined ? 'confirm' : `confirm ${className}`} role="group" aria-labelledby={id}>
      <p id={id} class="warn">
        {question}
      </p>
      {children}
      <div class="row">
        <Button class="danger" busy={busy} onClick={onConfirm}>
          {confirmLabel}
        </Button>
        <Button ref={cancel} busy={busy} onClick={onCancel}>
          {cancelLabel}
        </Button>
      </div>
    </div>
  );
}
