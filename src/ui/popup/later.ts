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

  /** Starts loading unless it is loaded or loading; after a failure, tries again. */
  function request(): void {
    if (loaded.value !== null || busy.value) return;
    busy.value = true;
    notice.value = null;
    load()
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
  }

  return { loaded, notice, busy, request };
}

export type Later<T> = ReturnType<typeof createLater<T>>;
