/**
 * Recent contexts (newest first, capped, bad entries dropped) and the pending actions
 * of notifications (taken once, capped, validated on the way out).
 */
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { beforeEach, describe, expect, it } from 'vitest';
import { putPending, takePending, type PendingAction } from '../../src/settings/pending';
import { RECENT_LIMIT, addRecent, findRecent, listRecent, removeRecent, updateRecent, type RecentContext } from '../../src/settings/recent';
import { recentEntry } from '../support/background-fakes';

beforeEach(() => {
  fakeBrowser.reset();
});

const entry = (n: number, overrides: Partial<RecentContext> = {}): RecentContext =>
  recentEntry({
    id: `ctx${n}`,
    launchUrl: `https://launch.acme.example/launch?ctx=ctx${n}`,
    url: `https://h${n}.example/`,
    host: `h${n}.example`,
    ...overrides,
  });

describe('recent contexts', () => {
  it('lists the newest first; a batch keeps its own order', async () => {
    // Arrange
    await addRecent([entry(1)]);

    // Act
    await addRecent([entry(2), entry(3)]);

    // Assert
    expect((await listRecent()).map((e) => e.id)).toEqual(['ctx2', 'ctx3', 'ctx1']);
  });

  it('replaces an entry of the same id and moves it to the front', async () => {
    // Arrange
    await addRecent([entry(1), entry(2)]);

    // Act
    await addRecent([entry(2, { name: 'again' })]);

    // Assert
    expect(await listRecent()).toEqual([entry(2, { name: 'again' }), entry(1)]);
  });

  it(`keeps at most RECENT_LIMIT (${RECENT_LIMIT}), dropping the oldest`, async () => {
    // Arrange
    for (let n = 1; n <= RECENT_LIMIT; n += 1) await addRecent([entry(n)]);

    // Act
    await addRecent([entry(RECENT_LIMIT + 1), entry(RECENT_LIMIT + 2)]);

    // Assert
    const ids = (await listRecent()).map((e) => e.id);
    expect(ids).toHaveLength(RECENT_LIMIT);
    expect(ids.slice(0, 3)).toEqual([`ctx${RECENT_LIMIT + 1}`, `ctx${RECENT_LIMIT + 2}`, `ctx${RECENT_LIMIT}`]);
    expect(ids.at(-1)).toBe('ctx3');
  });

  it('a batch larger than the cap keeps its first RECENT_LIMIT', async () => {
    // Act
    await addRecent(Array.from({ length: RECENT_LIMIT + 10 }, (_, i) => entry(i)));

    // Assert
    expect((await listRecent()).map((e) => e.id)).toEqual(Array.from({ length: RECENT_LIMIT }, (_, i) => `ctx${i}`));
  });

  it('drops stored entries that no longer parse', async () => {
    // Arrange
    await fakeBrowser.storage.local.set({ recentContexts: [entry(1), { id: 'x' }, 'junk', { ...entry(2), extra: true }, entry(3)] });

    // Act
    const actual = await listRecent();

    // Assert
    expect(actual).toEqual([entry(1), entry(3)]);
  });

  it.each([
    ['an object', { a: 1 }],
    ['text', 'ctx1'],
    ['null', null],
  ])('reads %s in storage as an empty list', async (_label, stored) => {
    // Arrange
    await fakeBrowser.storage.local.set({ recentContexts: stored });

    // Act
    const actual = await listRecent();

    // Assert
    expect(actual).toEqual([]);
  });

  it('renames, finds and removes by id', async () => {
    // Arrange
    await addRecent([entry(1), entry(2)]);

    // Act
    await updateRecent('ctx2', { name: 'invoice phish' });
    await removeRecent('ctx1');

    // Assert
    expect(await listRecent()).toEqual([entry(2, { name: 'invoice phish' })]);
    expect(await findRecent('ctx2')).toEqual(entry(2, { name: 'invoice phish' }));
    expect(await findRecent('ctx1')).toBeUndefined();
  });

  it('adding nothing writes nothing', async () => {
    // Act
    await addRecent([]);

    // Assert
    expect(await fakeBrowser.storage.local.get()).toEqual({});
  });
});

describe('pending notification actions', () => {
  const RETRY: PendingAction = { kind: 'isolate', url: 'https://evil.example/', session: 'standard', source: { id: 7, index: 2, windowId: 1 } };

  it('are taken once', async () => {
    // Arrange
    await putPending('n1', RETRY);

    // Act
    const first = await takePending('n1');
    const second = await takePending('n1');

    // Assert
    expect(first).toEqual(RETRY);
    expect(second).toBeUndefined();
  });

  it.each<[string, PendingAction]>([
    ['open the options', { kind: 'openOptions' }],
    ['isolate, without a source tab', { kind: 'isolate', url: 'https://evil.example/', session: 'research' }],
    [
      'open many',
      { kind: 'openMany', urls: ['https://launch.acme.example/launch?ctx=a', 'https://launch.acme.example/launch?ctx=b'], source: { windowId: 3 } },
    ],
  ])('an action to %s comes back as it was put', async (_label, action) => {
    // Arrange
    await putPending('n1', action);

    // Act
    const actual = await takePending('n1');

    // Assert
    expect(actual).toEqual(action);
  });

  it('live in the session only', async () => {
    // Act
    await putPending('n1', { kind: 'openOptions' });

    // Assert
    expect(await fakeBrowser.storage.local.get()).toEqual({});
    expect(await fakeBrowser.storage.session.get()).toEqual({ pendingNotifications: { n1: { kind: 'openOptions' } } });
  });

  it('an unknown id gives nothing and changes nothing', async () => {
    // Arrange
    await putPending('n1', RETRY);

    // Act
    const actual = await takePending('n2');

    // Assert
    expect(actual).toBeUndefined();
    expect(await takePending('n1')).toEqual(RETRY);
  });

  it.each([
    ['an unknown kind', { kind: 'openUrl', url: 'https://evil.example/' }],
    ['an extra key', { kind: 'openOptions', url: 'https://evil.example/' }],
    ['a bad session', { kind: 'isolate', url: 'https://evil.example/', session: 'admin' }],
    ['the fields of another kind', { kind: 'openMany', url: 'https://evil.example/', session: 'standard' }],
    ['a missing field', { kind: 'isolate', session: 'standard' }],
    ['no kind', { url: 'https://evil.example/', session: 'standard' }],
    ['a kind that is not text', { kind: ['openOptions'] }],
    ['too many URLs', { kind: 'openMany', urls: Array.from({ length: 501 }, (_, n) => `https://h${n}.example/`) }],
  ])('a stored action with %s is dropped, not carried out', async (_label, raw) => {
    // Arrange
    await fakeBrowser.storage.session.set({ pendingNotifications: { n1: raw } });

    // Act
    const actual = await takePending('n1');

    // Assert
    expect(actual).toBeUndefined();
    expect(await fakeBrowser.storage.session.get()).toEqual({ pendingNotifications: {} });
  });

  it('an id such as __proto__ or toString is not found in an empty store', async () => {
    // Act
    const actual = [await takePending('__proto__'), await takePending('toString'), await takePending('constructor')];

    // Assert
    expect(actual).toEqual([undefined, undefined, undefined]);
  });

  it('keeps the 20 newest', async () => {
    // Arrange
    for (let n = 1; n <= 25; n += 1) await putPending(`n${n}`, { kind: 'openOptions' });

    // Act
    const oldest = await takePending('n5');
    const kept = await takePending('n6');

    // Assert
    expect(oldest).toBeUndefined();
    expect(kept).toEqual({ kind: 'openOptions' });
    const stored: { pendingNotifications?: object } = await fakeBrowser.storage.session.get();
    expect(Object.keys(stored.pendingNotifications ?? {})).toHaveLength(19);
  });
});
