/**
 * One value in browser.storage: the small layer the settings, the token, the recent list
 * and the pending actions need, directly over `browser.storage` (what @wxt-dev/storage
 * did for them, without its snapshots, metadata API, watchers and locks).
 *
 * Only storage.local and storage.session: nothing is ever written to storage.sync, and
 * storage.managed is read-only (./store.ts reads it, with its time limit).
 */
import { browser } from 'wxt/browser';

export type AreaName = 'local' | 'session';

/** Turns a stored value of version n - 1 into version n. */
export type Migration = (value: unknown) => unknown;

export interface StoredItem<T> {
  /** The stored value, or the fallback when none is stored. */
  getValue(): Promise<T>;
  setValue(value: T): Promise<void>;
  removeValue(): Promise<void>;
}

/**
 * A versioned item keeps its version beside it, under `<key>$` as `{ v: n }` (the layout
 * @wxt-dev/storage used, so profiles written by earlier releases keep their version). A
 * value stored at an older version is read through `migrations[v + 1]`, … up to
 * `version`; it is stored at the current version by the next write. Reading never
 * writes, so a migration can never race a writer. A value from a later version (the
 * extension was downgraded) is read as it is: its readers parse leniently.
 */
export interface Versioning {
  readonly version: number;
  readonly migrations: Readonly<Record<number, Migration>>;
}

/** The version a `<key>$` entry records: 1 when it is missing or unreadable. */
export function storedVersion(meta: unknown): number {
  const v = (meta as { v?: unknown } | null | undefined)?.v;
  return typeof v === 'number' && Number.isInteger(v) && v >= 1 ? v : 1;
}

export function defineItem<T>(area: AreaName, key: string, fallback: T, versioning?: Versioning): StoredItem<T> {
  const metaKey = `${key}$`;
  // Looked up on each call: nothing about the browser is captured at import time.
  const store = () => browser.storage[area];
  return {
    async getValue() {
      const stored = await store().get(versioning ? [key, metaKey] : key);
      let value: unknown = stored[key];
      if (value == null) return fallback;
      if (versioning) {
        for (let v = storedVersion(stored[metaKey]) + 1; v <= versioning.version; v += 1) {
          const migrate = versioning.migrations[v];
          if (migrate) value = migrate(value);
        }
      }
      return value as T;
    },
    async setValue(value) {
      // One set call: the value and its version land together or not at all.
      await store().set(versioning ? { [key]: value, [metaKey]: { v: versioning.version } } : { [key]: value });
    },
    async removeValue() {
      await store().remove(key);
    },
  };
}
