/**
 * The admin token's storage. Only the background imports this module.
 *
 * - By default the token is kept in storage.session: memory only, gone when the browser
 *   closes.
 * - "Remember on this device" keeps it in storage.local: plain text in the browser
 *   profile on disk.
 * - An administrator may deliver it by managed policy; that one wins.
 * Never storage.sync, never exported, never sent to a page.
 */
import { TokenError } from './errors';
import { defineItem } from './item';
import { readManagedPolicy } from './store';

export type TokenSource = 'managed' | 'session' | 'local';

const sessionToken = defineItem<string | null>('session', 'token', null);
const localToken = defineItem<string | null>('local', 'token', null);

/** Longest token accepted from the options page. */
export const MAX_TOKEN_LENGTH = 4096;

export interface StoredToken {
  readonly token: string;
  readonly source: TokenSource;
}

/** The token in force, and where it comes from; null when none is set. */
export async function readToken(): Promise<StoredToken | null> {
  // The three places are read at once (one round trip, not three); the order of precedence is below.
  const [managed, session, local] = await Promise.all([readManagedPolicy(), sessionToken.getValue(), localToken.getValue()]);
  if (managed.token !== undefined) return { token: managed.token, source: 'managed' };
  if (session) return { token: session, source: 'session' };
  if (local) return { token: local, source: 'local' };
  return null;
}

/** Where the token is, without the token itself: what pages may learn. */
export async function tokenSource(): Promise<TokenSource | null> {
  return (await readToken())?.source ?? null;
}

/** Stores the token in the chosen place and removes it from the other. */
export async function writeToken(token: string, remember: boolean): Promise<void> {
  const trimmed = token.trim();
  // eslint-disable-next-line no-control-regex -- a token with control characters is malformed
  if (trimmed.length === 0 || trimmed.length > MAX_TOKEN_LENGTH || /[\u0000-\u001f\u007f]/.test(trimmed)) {
    throw new TokenError(MAX_TOKEN_LENGTH);
  }
  if (remember) {
    await localToken.setValue(trimmed);
    await sessionToken.removeValue();
  } else {
    await sessionToken.setValue(trimmed);
    await localToken.removeValue();
  }
}

/** Moves an existing token between session and local storage when the user flips "remember". */
export async function moveToken(remember: boolean): Promise<void> {
  const session = await sessionToken.getValue();
  const local = await localToken.getValue();
  const current = session ?? local;
  if (current) await writeToken(current, remember);
}

/** Forgets the user's token in both places (a managed token stays). */
export async function clearToken(): Promise<void> {
  await sessionToken.removeValue();
  await localToken.removeValue();
}
