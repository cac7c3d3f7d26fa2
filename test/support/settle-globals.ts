/**
 * Import this BEFORE `@fast-check/poisoning`: Node defines some globals lazily (the first
 * read replaces a getter with the value, e.g. AbortController), and the poisoning check
 * would report that first read as a change. Reading every global once here makes the
 * snapshot the package takes at import time the settled one.
 */
for (const key of Reflect.ownKeys(globalThis)) {
  try {
    void Reflect.get(globalThis, key);
  } catch {
    // A getter that throws is left as it is.
  }
}

/** Roots the test runner itself changes while tests run (its per-test state, console streams). */
export const RUNNER_ROOTS = /^(__vitest_\w+__|console)$/;
