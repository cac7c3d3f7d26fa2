import type { Notice } from './notice';

interface Props {
  readonly notice: Notice | null;
  readonly id?: string;
}

/**
 * The result of the last action: errors as alerts, successes as polite status text.
 * The live region stays in the page while empty, so screen readers announce changes.
 */
export function NoticeLine({ notice, id }: Props) {
  if (notice?.kind === 'error') {
    return (
      <p id={id} class="notice error" role="alert">
        {notice.message}
      </p>
    );
  }
  return (
    <p id={id} class="notice ok" role="status">
      {notice?.message ?? ''}
    </p>
  );
}
