import type { Notice } from './notice';

interface Props {
  readonly notice: Notice | null;
  readonly id?: string;
}

/**
 * The result of the last action: errors as alerts, the rest as polite status text
 * (info muted). The region stays in the page while empty, so screen readers announce
 * each new text in it.
 */
export function NoticeLine({ notice, id }: Props) {
  if (notice?.kind === 'error') {
    return (
      <p id={id} class="notice error" role="alert">
        {notice.text}
      </p>
    );
  }
  return (
    <p id={id} class={notice?.kind === 'info' ? 'notice muted' : 'notice ok'} role="status">
      {notice?.text ?? ''}
    </p>
  );
}
