/**
 * One piece of work per key while it is in flight: a double click on the same link, a
 * second activation of the same selection or bulk list, joins the first instead of
 * creating contexts again. Held only for the work's lifetime (a stopped worker loses the
 * work too, so nothing can be replayed). Keys name what the work is for
 * (`link standard <url>`, `many <urls>`), so different kinds of work never meet.
 */
export class SingleFlight {
  readonly #pending = new Map<string, Promise<unknown>>();

  run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const existing = this.#pending.get(key) as Promise<T> | undefined;
    if (existing) return existing;
    // Awaited, not chained: an error's async stack still reaches back to the click.
    const promise = (async () => {
      try {
        return await work();
      } finally {
        this.#pending.delete(key);
      }
    })();
    this.#pending.set(key, promise);
    return promise;
  }

  get size(): number {
    return this.#pending.size;
  }
}
