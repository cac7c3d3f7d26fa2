/**
 * Recent contexts, kept locally for the popup: newest first, capped. Holds what the
 * service returned at creation; live details (use_count) are fetched on demand.
 */
import * as z from 'zod/mini';
import { WRAPPER_IDS } from '../fang/ids';
import { once } from '../service/once';
import { SESSION_TYPES } from '../service/wire';
import { defineItem } from './item';
import { serialized } from './serial';

export const RECENT_LIMIT = 50;

// Built when the list is first read (after a click's tab has opened), not when the worker starts.
const recentContextSchema = once(() =>
  z.strictObject({
    id: z.string().check(z.minLength(1), z.maxLength(256)),
    /** The isolated target, refanged, or '' for a research session without one. */
    url: z.string().check(z.maxLength(16 * 1024)),
    /** The target's host in punycode, for display. */
    host: z.string().check(z.maxLength(256)),
    sessionType: z.enum(SESSION_TYPES),
    /** Epoch ms. */
    createdAt: z.number(),
    /** Epoch seconds, as the service reported. */
    expires: z.number(),
    maxUses: z.number(),
    launchUrl: z.string().check(z.maxLength(4096)),
    name: z.string().check(z.maxLength(256)),
    /** The wrappers the link came in (a mail gateway, a redirector), outermost first. */
    wrappedBy: z.optional(z.array(z.enum(WRAPPER_IDS)).check(z.maxLength(16))),
  }),
);
export type RecentContext = z.infer<ReturnType<typeof recentContextSchema>>;

const recentItem = defineItem<unknown>('local', 'recentContexts', []);
/** Writers of the list take turns. */
const inTurn = serialized();

/** The list, newest first; entries that no longer parse are dropped. */
export async function listRecent(): Promise<RecentContext[]> {
  const raw = await recentItem.getValue();
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((entry) => {
    const parsed = recentContextSchema().safeParse(entry);
    return parsed.success ? [parsed.data] : [];
  });
}

/** Adds contexts at the front (a batch keeps its own order), replacing same ids, keeping the cap. */
export async function addRecent(entries: readonly RecentContext[]): Promise<void> {
  if (entries.length === 0) return;
  const ids = new Set(entries.map((entry) => entry.id));
  await inTurn(async () => {
    const kept = (await listRecent()).filter((entry) => !ids.has(entry.id));
    await recentItem.setValue([...entries, ...kept].slice(0, RECENT_LIMIT));
  });
}

export async function findRecent(id: string): Promise<RecentContext | undefined> {
  return (await listRecent()).find((entry) => entry.id === id);
}

export async function updateRecent(id: string, change: Partial<Pick<RecentContext, 'name'>>): Promise<void> {
  await inTurn(async () => {
    const list = await listRecent();
    await recentItem.setValue(list.map((entry) => (entry.id === id ? { ...entry, ...change } : entry)));
  });
}

export async function removeRecent(id: string): Promise<void> {
  await inTurn(async () => {
    await recentItem.setValue((await listRecent()).filter((entry) => entry.id !== id));
  });
}
