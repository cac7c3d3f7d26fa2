/**
 * One request per key while it is in flight: a double click on the same link joins the
 * first request instead of creating a second context. Held only for the request's
 * lifetime (a stopped worker loses the request too, so nothing can be replayed).
 */
export class SingleFlight<T> {
  readonly #pending = new Map<string, Promise<T>>();

  run(key: string, work: () => Promise<T>): Promise<T> {
    const existing = this.#pending.get(key);
    if (existing) return existing;
    const promise = work().finally(() => {
      this.#pending.delete(key);
    });
    this.#pending.set(key, promise);
    return promise;
  }

  get size(): number {
    return this.#pending.size;
  }
}
