/**
 * A value built on first use, then kept. The client's schemas for commands a click never
 * sends, and the pages' message schemas, are built this way, so a service worker woken by
 * a click builds none of them before it answers. Here, in the lowest layer the client and
 * the messages share.
 */
export function once<T>(build: () => T): () => T {
  let built: T | undefined;
  return () => (built ??= build());
}
