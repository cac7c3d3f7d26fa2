/**
 * One request at a time behind a set of controls: whether it runs, and the notice it
 * left. A factory (no module-level state): the popup's state factories make one per
 * panel or item, the options page's forms one per form through useTask.
 */
import { batch, signal } from '@preact/signals';
import { useState } from 'preact/hooks';
import type { Notice } from './notice';

export function createTask(failed: (error: unknown) => Notice) {
  const busy = signal(false);
  const notice = signal<Notice | null>(null);

  /**
   * Runs `work` unless a request runs already: the old notice goes, then the one `work`
   * returns, or the failure's, takes its place. Resolves true when `work` succeeded.
   */
  async function run(work: () => Promise<Notice | null>, onError: (error: unknown) => Notice = failed): Promise<boolean> {
    if (busy.value) return false;
    batch(() => {
      busy.value = true;
      notice.value = null;
    });
    try {
      notice.value = await work();
      return true;
    } catch (error) {
      notice.value = onError(error);
      return false;
    } finally {
      busy.value = false;
    }
  }

  return { busy, notice, run };
}

export type Task = ReturnType<typeof createTask>;

/** A task that lives as long as the component. */
export function useTask(failed: (error: unknown) => Notice): Task {
  const [task] = useState(() => createTask(failed));
  return task;
}
