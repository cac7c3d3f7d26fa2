/**
 * Actions a notification offers (retry, confirm a bulk open, open the options), kept
 * in storage.session by notification id so a restarted service worker can still carry
 * them out when the analyst clicks. Memory only; gone when the browser closes.
 */
import * as z from 'zod/mini';
import { once } from '../service/once';
import { defineItem } from './item';
import { serialized } from './serial';

// A plain union of strict objects, each with its own one-value `kind`: exactly one can
// match. (z.discriminatedUnion and z.literal would add their code to the background for
// this schema alone; z.union and z.enum are there anyway.) Built when a notification is
// first clicked, not when the worker starts.
const pendingActionSchema = once(() => {
  const sourceTab = z.optional(z.strictObject({ id: z.optional(z.number()), index: z.optional(z.number()), windowId: z.optional(z.number()) }));
  /** The analyst's answer about wrapped links, once asked. */
  const wrapped = z.optional(z.enum(['unwrap', 'keep']));
  return z.union([
    z.strictObject({ kind: z.enum(['openOptions']) }),
    z.strictObject({ kind: z.enum(['isolate']), url: z.string(), session: z.enum(['standard', 'research']), source: sourceTab, wrapped }),
    z.strictObject({ kind: z.enum(['openMany']), urls: z.array(z.string()).check(z.maxLength(500)), source: sourceTab, wrapped }),
  ]);
});
export type PendingAction = z.infer<ReturnType<typeof pendingActionSchema>>;

const pendingItem = defineItem<Record<string, unknown>>('session', 'pendingNotifications', {});
const MAX_PENDING = 20;
/** Writers of the table take turns. */
const inTurn = serialized();

/** The key of a notification's second button's action. */
const secondKey = (id: string): string => `${id}/2`;

/** Keeps what a notification offers: its click and first button, and its second button, if any. */
export async function putPending(id: string, action: PendingAction, second?: PendingAction): Promise<void> {
  await inTurn(async () => {
    const all = await pendingItem.getValue();
    const added: [string, PendingAction][] = [[id, action], ...(second ? [[secondKey(id), second] as [string, PendingAction]] : [])];
    const kept = Object.entries(all).slice(-(MAX_PENDING - added.length));
    await pendingItem.setValue(Object.fromEntries([...kept, ...added]));
  });
}

/** Takes the action of a notification's click or button (once): the notification's actions are all removed as one is read. */
export async function takePending(id: string, button = 0): Promise<PendingAction | undefined> {
  const raw = await inTurn(async () => {
    const all = await pendingItem.getValue();
    const key = button === 1 ? secondKey(id) : id;
    if (!Object.hasOwn(all, key)) return undefined;
    const { [id]: first, [secondKey(id)]: second, ...rest } = all;
    await pendingItem.setValue(rest);
    return button === 1 ? second : first;
  });
  if (raw === undefined) return undefined;
  const parsed = pendingActionSchema().safeParse(raw);
  return parsed.success ? parsed.data : undefined;
}
