/**
 * The admin token's storage. Only the background imports this module.
 *
 * - By default the token is kept in storage.session: memory only, gone when the browser
 *   closes.
 * - "Remember on this device" keeps it in storage.local: plain text in the browser
 *   profile on disk.
 * - An administrator may deliver it by managed policy; that one wins.
 * Never storage.sync, never exported, never sent to a page.
 *
 * A token is bound to the service origin it was entered for: `{ token, origin }`. It is
 * sent to that origin only; a token delivered by policy is bound to the policy's service
 * URL, or to nothing when the policy names none.
 */
import { MAX_TOKEN_LENGTH } from '../service/values';
import { TokenError } from './errors';
import { defineItem } from './item';
import { readManagedPolicy, readUserSettings } from './store';

type TokenSource = 'managed' | 'session' | 'local';

/** A token as stored: with the origin it was entered for. Before binding, a bare string. */
interface BoundToken {
  readonly token: string;
  readonly origin: string;
}

const sessionToken = defineItem<unknown>('session', 'token', null);
const localToken = defineItem<unknown>('local', 'token', null);

export interface StoredToken {
  readonly token: string;
  readonly source: TokenSource;
  /** The only origin the token may be sent to; null for a managed token whose policy names no valid service URL. */
  readonly origin: string | null;
}

/** The origin of a service base, or null when it is not one. */
function originOfBase(base: string | undefined): string | null {
  if (base === undefined || base === '' || !URL.canParse(base)) return null;
  return new URL(base).origin;
}

function isBound(value: unknown): value is BoundToken {
  return typeof value === 'object' && value !== null && typeof (value as BoundToken).token === 'string' && typeof (value as BoundToken).origin === 'string';
}

/**
 * A stored token, bound. A bare string was stored before tokens were bound: it is bound,
 * once, to the service origin the user has saved (the only one it could have been sent
 * to), or dropped when there is none.
 */
async function bound(item: typeof sessionToken, value: unknown): Promise<BoundToken | null> {
  if (isBound(value)) return value.token === '' ? null : value;
  if (typeof value !== 'string' || value === '') return null;
  const origin = originOfBase((await readUserSettings()).serviceUrl);
  if (origin === null) {
    await item.removeValue();
    return null;
  }
  const binding = { token: value, origin };
  await item.setValue(binding);
  return binding;
}

/** The token in force, where it comes from and where it may go; null when none is set. */
export async function readToken(): Promise<StoredToken | null> {
  // The three places are read at once (one round trip, not three); the order of precedence is below.
  const [managed, session, local] = await Promise.all([readManagedPolicy(), sessionToken.getValue(), localToken.getValue()]);
  if (managed.token !== undefined) return { token: managed.token, source: 'managed', origin: originOfBase(managed.values.serviceUrl) };
  const fromSession = await bound(sessionToken, session);
  if (fromSession) return { ...fromSession, source: 'session' };
  const fromLocal = await bound(localToken, local);
  if (fromLocal) return { ...fromLocal, source: 'local' };
  return null;
}

/** Stores the token, bound to `origin`, in the chosen place and removes it from the other. */
export async function writeToken(token: string, remember: boolean, origin: string): Promise<void> {
  const trimmed = token.trim();
  // eslint-disable-next-line no-control-regex -- a token with control characters is malformed
  if (trimmed.length === 0 || trimmed.length > MAX_TOKEN_LENGTH || /[\u0000-\u001f\u007f]/.test(trimmed)) {
    throw new TokenError(MAX_TOKEN_LENGTH);
  }
  await place({ token: trimmed, origin }, remember);
}

async function place(binding: BoundToken, remember: boolean): Promise<void> {
  if (remember) {
    await localToken.setValue(binding);
    await sessionToken.removeValue();
  } else {
    await sessionToken.setValue(binding);
    await localToken.removeValue();
  }
}

/** Moves the user's token, with its binding, between session and local storage ("remember" changed). */
export async function moveToken(remember: boolean): Promise<void> {
  const [session, local] = await Promise.all([sessionToken.getValue(), localToken.getValue()]);
  const current = (await bound(sessionToken, session)) ?? (await bound(localToken, local));
  if (current) await place(current, remember);
}

/** Forgets the user's token in both places (a managed token stays). */
export async function clearToken(): Promise<void> {
  await sessionToken.removeValue();
  await localToken.removeValue();
}
