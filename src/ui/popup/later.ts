/**
 * Code the popup loads the first time the analyst needs it (a tab, the research
 * choices) instead of when it opens: the loaded value, or why it could not be loaded.
 */
import { signal } from '@preact/signals';
import type { Notice } from '../common/notice';
import { failed } from './notice';

export function createLater<T>(load: () => Promise<T>) {
  const loaded = signal<T | null>(null);
  const notice = signal<Notice | null>(null);
  const busy = signal(false);

  let loading: Promise<void> = Promise.resolve();

  /** Starts loading unless it is loaded or loading; after a failure, tries again. Settles when the load does. */
  function request(): Promise<void> {
    if (loaded.value !== null || busy.value) return loading;
    busy.value = true;
    notice.value = null;
    loading = load()
      .then(
        (value) => {
          loaded.value = value;
        },
        (error: unknown) => {
          notice.value = failed(error);
        },
      )
      .finally(() => {
        busy.value = false;
      });
    return loading;
  }

  return { loaded, notice, busy, request };
}

export type Later<T> = ReturnType<typeof createLater<T>>;
