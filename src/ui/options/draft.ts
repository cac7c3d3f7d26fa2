/**
 * A form's draft: the user's edits, and the saved values replacing them after a save,
 * unless the user edited the form while the save ran (their edits stay).
 */
import { useRef, useState } from 'preact/hooks';

export function useDraft<D extends object>(initial: () => D) {
  const [draft, setDraft] = useState<D>(initial);
  const edits = useRef(0);

  /** A change the user made. */
  const update = (change: Partial<D> | ((current: D) => Partial<D>)): void => {
    edits.current += 1;
    setDraft((current) => ({ ...current, ...(typeof change === 'function' ? change(current) : change) }));
  };

  /** Taken when a save starts: the edits made so far. */
  const mark = (): number => edits.current;

  /** After a save: the saved values replace the draft, unless the user edited it since `mark`. */
  const settle = (mark: number, saved: D): void => {
    if (edits.current === mark) setDraft(saved);
  };

  /** A change of the page's own, not the user's (emptying a secret once it was sent). */
  const adjust = (change: (current: D) => D): void => {
    setDraft(change);
  };

  return { draft, update, mark, settle, adjust };
}
