/**
 * Actions a notification offers (retry, confirm a bulk open, open the options), kept
 * in storage.session by notification id so a restarted service worker can still carry
 * them out when the analyst clicks. Memory only; gone when the browser closes.
 */
import * as z from 'zod/mini';
import { defineItem } from './item';
import { serialized } from './serial';

const sourceTab = z.optional(
  z.strictObject({ id: z.optional(z.number()), index: z.optional(z.number()), windowId: z.optional(z.number()) }),
);

// A plain union of strict objects, each with its own one-value `kind`: exactly one can
// match. (z.discriminatedUnion and z.literal would add their code to the background for
// this schema alone; z.union and z.enum are there anyway.)
export const pendingActionSchema = z.union([
  z.strictObject({ kind: z.enum(['openOptions']) }),
  z.strictObject({ kind: z.enum(['isolate']), url: z.string(), session: z.enum(['standard', 'research']), source: sourceTab }),
  z.strictObject({ kind: z.enum(['openMany']), urls: z.array(z.string()).check(z.maxLength(500)), source: sourceTab }),
]);
export type PendingAction = z.infer<typeof pendingActionSchema>;

const pendingItem = defineItem<Record<string, unknown>>('session', 'pendingNotifications', {});
const MAX_PENDING = 20;
/** Writers of the table take turns. */
const inTurn = serialized();

export async function putPending(id: string, action: PendingAction): Promise<void> {
  await inTurn(async () => {
    const all = await pendingItem.getValue();
    const kept = Object.entries(all).slice(-(MAX_PENDING - 1));
    await pendingItem.setValue(Object.fromEntries([...kept, [id, action]]));
  });
}

/** Takes the action of a notification (once): it is removed as it is read. */
export async function takePending(id: string): Promise<PendingAction | undefined> {
  const raw = await inTurn(async () => {
    const all = await pendingItem.getValue();
    if (!Object.hasOwn(all, id)) return undefined;
    const { [id]: taken, ...rest } = all;
    await pendingItem.setValue(rest);
    return taken;
  });
  if (raw === undefined) return undefined;
  const parsed = pendingActionSchema.safeParse(raw);
  return parsed.success ? parsed.data : undefined;
}
