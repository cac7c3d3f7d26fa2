/**
 * Controls that keep their place while they cannot act. A focused control that becomes
 * `disabled` hands focus to the page, so keyboard and screen-reader users lose their
 * place after Save or Open; these stay focused and announced. While a request runs, or
 * while there is nothing for them to act on, they are aria-disabled and ignore
 * activation: a click, Enter or Space, and so the form submission of a submit button.
 * `disabled` stays for a control that cannot be used at all on this page (a setting
 * locked by the organisation).
 */
import type { ButtonHTMLAttributes, TargetedMouseEvent } from 'preact';

/** For any control: aria-disabled, and an activation that does nothing, while `unavailable`; else `onClick`. */
export function unavailableProps<E extends Event>(unavailable: boolean, onClick?: (event: E) => void) {
  return {
    'aria-disabled': unavailable ? ('true' as const) : undefined,
    onClick: (event: E) => {
      if (unavailable) event.preventDefault();
      else onClick?.(event);
    },
  };
}

type Props = Omit<ButtonHTMLAttributes, 'onClick'> & {
  /** A request runs: announced busy, activation ignored. */
  readonly busy?: boolean;
  /** Nothing to act on for now: activation ignored. */
  readonly unavailable?: boolean;
  readonly onClick?: (event: TargetedMouseEvent<HTMLButtonElement>) => void;
};

export function Button({ busy = false, unavailable = false, type = 'button', onClick, ...rest }: Props) {
  return <button {...rest} type={type} aria-busy={busy ? 'true' : undefined} {...unavailableProps(busy || unavailable, onClick)} />;
}
