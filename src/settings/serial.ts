/**
 * Runs read-modify-write operations on one stored list one after another, so that
 * concurrent actions (ten links isolated at once) never overwrite each other's writes.
 */
export function serialized(): <T>(work: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(work: () => Promise<T>): Promise<T> => {
    const run = tail.then(work, work);
    tail = run.catch(() => undefined);
    return run;
  };
}
