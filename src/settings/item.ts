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

/** The reads of one area asked for in the current turn, not yet sent. */
interface ReadBatch {
  readonly keys: Set<string>;
  readonly result: Promise<Record<string, unknown>>;
  readonly send: () => void;
}

const batches = new Map<AreaName, ReadBatch>();

/**
 * Reads of one area asked for in the same turn go to the browser as one `get`, each `get`
 * being a round trip to the browser's process: a click reads the settings and the token
 * side by side, one read of storage.local. Sent at the end of the turn, or before a write
 * to the area (see `sendReads`).
 */
function readBatched(area: AreaName, keys: readonly string[]): Promise<Record<string, unknown>> {
  let batch = batches.get(area);
  if (batch === undefined) {
    batch = newBatch(area);
    batches.set(area, batch);
  }
  for (const key of keys) batch.keys.add(key);
  return batch.result;
}

function newBatch(area: AreaName): ReadBatch {
  const keys = new Set<string>();
  let adopt: (read: Promise<Record<string, unknown>>) => void = () => undefined;
  const result = new Promise<Record<string, unknown>>((resolve) => {
    adopt = resolve;
  });
  const batch: ReadBatch = {
    keys,
    result,
    send: () => {
      if (batches.get(area) !== batch) return;
      batches.delete(area);
      // Sent now, in order with a write that follows; looked up now, not at import time.
      // A browser that throws instead of rejecting rejects the batch all the same.
      adopt(getNow(area, [...keys]));
    },
  };
  queueMicrotask(() => {
    batch.send();
  });
  return batch;
}

/** storage[area].get, called at once; a synchronous throw becomes a rejection. */
function getNow(area: AreaName, keys: string[]): Promise<Record<string, unknown>> {
  try {
    return browser.storage[area].get(keys);
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
}

/** Sends the area's reads asked for so far, before a write: they see the area as it was when they were asked. */
function sendReads(area: AreaName): void {
  batches.get(area)?.send();
}

export function defineItem<T>(area: AreaName, key: string, fallback: T, versioning?: Versioning): StoredItem<T> {
  const metaKey = `${key}$`;
  // Looked up on each call: nothing about the browser is captured at import time.
  const store = () => browser.storage[area];
  return {
    async getValue() {
      const stored = await readBatched(area, versioning ? [key, metaKey] : [key]);
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
      sendReads(area);
      // One set call: the value and its version land together or not at all.
      await store().set(versioning ? { [key]: value, [metaKey]: { v: versioning.version } } : { [key]: value });
    },
    async removeValue() {
      sendReads(area);
      await store().remove(key);
    },
  };
}
