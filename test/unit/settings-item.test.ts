/**
 * The storage layer under the settings, the token, the recent list and the pending
 * actions: one key in one area (never sync), a fallback for what is not stored, the
 * version of the settings kept beside them as @wxt-dev/storage kept it, migrations
 * applied on read and never written by a read, reads of one turn sent as one, and writers
 * of the lists in turn.
 */
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { defineItem, storedVersion, type Migration } from '../../src/settings/item';
import { putPending, takePending } from '../../src/settings/pending';
import { addRecent, listRecent, removeRecent, updateRecent } from '../../src/settings/recent';
import { DEFAULT_SETTINGS } from '../../src/settings/schema';
import { readUserSettings, saveSettings, settingsItem } from '../../src/settings/store';
import { recentEntry } from '../support/background-fakes';

beforeEach(() => {
  fakeBrowser.reset();
});

/** Every storage area's whole contents. */
async function everything(): Promise<Record<string, unknown>> {
  const areas = ['local', 'session', 'sync', 'managed'] as const;
  return Object.fromEntries(await Promise.all(areas.map(async (area) => [area, await fakeBrowser.storage[area].get()] as const)));
}

describe('an item', () => {
  it('gives its fallback when nothing is stored, and when null is stored', async () => {
    // Arrange
    const item = defineItem<string[]>('local', 'list', []);
    const absent = await item.getValue();
    await fakeBrowser.storage.local.set({ list: null });

    // Act
    const stored = await item.getValue();

    // Assert
    expect([absent, stored]).toEqual([[], []]);
  });

  it('gives what is stored, falsy values included', async () => {
    // Arrange
    const item = defineItem<unknown>('local', 'value', 'fallback');

    // Act + Assert
    for (const value of [0, '', false, { a: 1 }, ['x']]) {
      await fakeBrowser.storage.local.set({ value });
      expect(await item.getValue()).toEqual(value);
    }
  });

  it.each(['local', 'session'] as const)('writes and removes its own key in storage.%s only', async (area) => {
    // Arrange
    const item = defineItem<string | null>(area, 'token', null);
    await fakeBrowser.storage[area].set({ neighbour: 'kept' });

    // Act
    await item.setValue('secret');
    const written = await everything();
    await item.removeValue();

    // Assert
    const empty = { local: {}, session: {}, sync: {}, managed: {} };
    expect(written).toEqual({ ...empty, [area]: { neighbour: 'kept', token: 'secret' } });
    expect(await everything()).toEqual({ ...empty, [area]: { neighbour: 'kept' } });
    expect(await item.getValue()).toBeNull();
  });

  it('reads the area at call time, not at definition (a reset browser is seen)', async () => {
    // Arrange
    const item = defineItem<string | null>('session', 'token', null);
    await item.setValue('before');

    // Act
    fakeBrowser.reset();

    // Assert
    expect(await item.getValue()).toBeNull();
  });

  it('rejects when storage rejects (callers fail closed)', async () => {
    // Arrange
    const item = defineItem<unknown>('local', 'value', null);
    vi.spyOn(fakeBrowser.storage.local, 'get').mockRejectedValue(new Error('storage is unavailable'));
    vi.spyOn(fakeBrowser.storage.local, 'set').mockRejectedValue(new Error('quota exceeded'));

    // Act + Assert
    await expect(item.getValue()).rejects.toThrow('storage is unavailable');
    await expect(item.setValue(1)).rejects.toThrow('quota exceeded');
  });
});

describe('reads in one turn', () => {
  it('of one area go to the browser as one get; each area has its own', async () => {
    // Arrange
    const settings = defineItem<unknown>('local', 'settings', null, { version: 1, migrations: {} });
    const localToken = defineItem<unknown>('local', 'token', null);
    const sessionToken = defineItem<unknown>('session', 'token', null);
    await fakeBrowser.storage.local.set({ settings: { a: 1 }, token: 'remembered' });
    await fakeBrowser.storage.session.set({ token: 'session' });
    const localGet = vi.spyOn(fakeBrowser.storage.local, 'get');
    const sessionGet = vi.spyOn(fakeBrowser.storage.session, 'get');

    // Act
    const values = await Promise.all([settings.getValue(), localToken.getValue(), sessionToken.getValue()]);

    // Assert
    expect(values).toEqual([{ a: 1 }, 'remembered', 'session']);
    expect(localGet.mock.calls).toEqual([[['settings', 'settings$', 'token']]]);
    expect(sessionGet.mock.calls).toEqual([[['token']]]);
  });

  it('a read asked for before a write sees the value before it; one asked for after, the value after', async () => {
    // Arrange
    const item = defineItem<string | null>('local', 'value', null);
    await item.setValue('old');

    // Act
    const before = item.getValue();
    const write = item.setValue('new');
    const after = item.getValue();
    await write;

    // Assert
    expect([await before, await after]).toEqual(['old', 'new']);
  });

  it('a rejected get rejects every read of its batch', async () => {
    // Arrange
    const one = defineItem<unknown>('local', 'one', null);
    const two = defineItem<unknown>('local', 'two', null);
    vi.spyOn(fakeBrowser.storage.local, 'get').mockRejectedValue(new Error('storage is unavailable'));

    // Act + Assert
    const reads = [one.getValue(), two.getValue()];
    await expect(reads[0]).rejects.toThrow('storage is unavailable');
    await expect(reads[1]).rejects.toThrow('storage is unavailable');
  });

  it('a get that throws instead of rejecting rejects the batch (callers fail closed)', async () => {
    // Arrange
    const item = defineItem<unknown>('session', 'token', null);
    vi.spyOn(fakeBrowser.storage.session, 'get').mockImplementation(() => {
      throw new Error('storage is gone');
    });

    // Act + Assert
    await expect(item.getValue()).rejects.toThrow('storage is gone');
  });

  it('a later turn sends a new get', async () => {
    // Arrange
    const item = defineItem<unknown>('session', 'token', null);
    const get = vi.spyOn(fakeBrowser.storage.session, 'get');

    // Act
    await item.getValue();
    await item.getValue();

    // Assert
    expect(get).toHaveBeenCalledTimes(2);
  });
});

describe('a versioned item', () => {
  it('writes its version beside the value, in the same set call', async () => {
    // Arrange
    const item = defineItem<unknown>('local', 'settings', {}, { version: 3, migrations: {} });
    const set = vi.spyOn(fakeBrowser.storage.local, 'set');

    // Act
    await item.setValue({ a: 1 });

    // Assert
    expect(set).toHaveBeenCalledTimes(1);
    expect(await fakeBrowser.storage.local.get()).toEqual({ settings: { a: 1 }, settings$: { v: 3 } });
  });

  it('reads an older value through each later migration, in order, and writes nothing while reading', async () => {
    // Arrange
    const calls: string[] = [];
    const step =
      (n: number): Migration =>
      (value) => {
        calls.push(`v${n}`);
        return { ...(value as object), [`v${n}`]: true };
      };
    const item = defineItem<unknown>('local', 'settings', {}, { version: 4, migrations: { 1: step(1), 2: step(2), 3: step(3), 4: step(4) } });
    await fakeBrowser.storage.local.set({ settings: { a: 1 }, settings$: { v: 2 } });
    const set = vi.spyOn(fakeBrowser.storage.local, 'set');

    // Act
    const actual = await item.getValue();

    // Assert
    expect(actual).toEqual({ a: 1, v3: true, v4: true });
    expect(calls).toEqual(['v3', 'v4']);
    expect(set).not.toHaveBeenCalled();
    expect(await fakeBrowser.storage.local.get()).toEqual({ settings: { a: 1 }, settings$: { v: 2 } });
  });

  it('stores the migrated value at the current version on the next write', async () => {
    // Arrange
    const item = defineItem<unknown>('local', 'settings', {}, { version: 2, migrations: { 2: (value) => ({ ...(value as object), renamed: true }) } });
    await fakeBrowser.storage.local.set({ settings: { a: 1 } });

    // Act
    await item.setValue(await item.getValue());

    // Assert
    expect(await fakeBrowser.storage.local.get()).toEqual({ settings: { a: 1, renamed: true }, settings$: { v: 2 } });
    expect(await item.getValue()).toEqual({ a: 1, renamed: true });
  });

  it('migrates nothing when nothing is stored: the fallback is already current', async () => {
    // Arrange
    const migrate = vi.fn((value: unknown) => value);
    const item = defineItem<unknown>('local', 'settings', { fresh: true }, { version: 2, migrations: { 2: migrate } });

    // Act
    const actual = await item.getValue();

    // Assert
    expect(actual).toEqual({ fresh: true });
    expect(migrate).not.toHaveBeenCalled();
  });

  it('reads a value of a later version as it is (a downgraded extension)', async () => {
    // Arrange
    const migrate = vi.fn((value: unknown) => value);
    const item = defineItem<unknown>('local', 'settings', {}, { version: 2, migrations: { 2: migrate } });
    await fakeBrowser.storage.local.set({ settings: { a: 1 }, settings$: { v: 5 } });

    // Act
    const actual = await item.getValue();

    // Assert
    expect(actual).toEqual({ a: 1 });
    expect(migrate).not.toHaveBeenCalled();
  });

  it.each<[string, unknown, number]>([
    ['missing', undefined, 1],
    ['null', null, 1],
    ['not an object', 'v2', 1],
    ['without v', {}, 1],
    ['v as text', { v: '2' }, 1],
    ['v zero', { v: 0 }, 1],
    ['v fractional', { v: 1.5 }, 1],
    ['v 1', { v: 1 }, 1],
    ['v 3', { v: 3 }, 3],
  ])('a version entry that is %s reads as version %s', (_label, meta, expected) => {
    expect(storedVersion(meta)).toBe(expected);
  });
});

describe('the settings item', () => {
  it('keeps the layout @wxt-dev/storage wrote: the settings and settings$ { v: 1 } in storage.local', async () => {
    // Act
    await saveSettings({ username: 'analyst@acme.example' });

    // Assert
    expect(await everything()).toEqual({
      local: { settings: { ...DEFAULT_SETTINGS, username: 'analyst@acme.example' }, settings$: { v: 1 } },
      session: {},
      sync: {},
      managed: {},
    });
  });

  it('reads a profile written by an earlier release unchanged', async () => {
    // Arrange: what @wxt-dev/storage left in a profile, with and without the version entry
    const stored = { ...DEFAULT_SETTINGS, username: 'analyst@acme.example', maxUses: 3 };

    // Act
    await fakeBrowser.storage.local.set({ settings: stored, settings$: { v: 1 } });
    const versioned = await readUserSettings();
    await fakeBrowser.storage.local.remove('settings$');
    const unversioned = await readUserSettings();

    // Assert
    expect(versioned).toEqual(stored);
    expect(unversioned).toEqual(stored);
    expect(await settingsItem.getValue()).toEqual(stored);
  });
});

describe('writers take turns', () => {
  const entry = (n: number) =>
    recentEntry({ id: `ctx${n}`, launchUrl: `https://launch.acme.example/launch?ctx=ctx${n}`, url: `https://h${n}.example/`, host: `h${n}.example` });

  it('ten concurrent additions to the recent list all land', async () => {
    // Act
    await Promise.all(Array.from({ length: 10 }, (_, n) => addRecent([entry(n)])));

    // Assert
    expect((await listRecent()).map((e) => e.id).sort()).toEqual(Array.from({ length: 10 }, (_, n) => `ctx${n}`).sort());
  });

  it('concurrent renames, removals and additions do not overwrite each other', async () => {
    // Arrange
    await addRecent([entry(1), entry(2), entry(3)]);

    // Act
    await Promise.all([updateRecent('ctx1', { name: 'renamed' }), removeRecent('ctx2'), addRecent([entry(4)])]);

    // Assert
    const list = await listRecent();
    expect(list.map((e) => e.id).sort()).toEqual(['ctx1', 'ctx3', 'ctx4']);
    expect(list.find((e) => e.id === 'ctx1')?.name).toBe('renamed');
  });

  it('concurrent pending actions all land, and each is taken once', async () => {
    // Act
    await Promise.all(Array.from({ length: 10 }, (_, n) => putPending(`n${n}`, { kind: 'openOptions' })));
    const taken = await Promise.all([...Array.from({ length: 10 }, (_, n) => takePending(`n${n}`)), takePending('n0')]);

    // Assert
    expect(taken.filter((action) => action !== undefined)).toHaveLength(10);
    expect(await fakeBrowser.storage.session.get()).toEqual({ pendingNotifications: {} });
  });
});
