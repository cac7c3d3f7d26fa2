/**
 * Settings and a session token written straight into the extension's storage, in the
 * layout Isolink keeps (src/settings: `settings` with its version `settings$`, the token
 * in storage.session), as a saved options page leaves them. For browser tests that need
 * a configured extension without going through the options page each time.
 */
import type { Worker } from 'playwright-core';

export const ANALYST = 'analyst@acme.example';

/** Seeds the worker's storage for a service at `sim`; `token: null` leaves no token. */
export async function seedStorage(
  worker: Worker,
  sim: { readonly url: string; readonly launchBase: string },
  overrides: Record<string, unknown>,
  token: string | null,
): Promise<void> {
  await worker.evaluate(
    async ([settings, sessionToken]) => {
      await chrome.storage.local.set({ settings, settings$: { v: 1 } });
      if (sessionToken === null) await chrome.storage.session.remove('token');
      else await chrome.storage.session.set({ token: sessionToken });
      await chrome.storage.local.remove('token');
    },
    [{ serviceUrl: sim.url, launchUrl: sim.launchBase, username: ANALYST, org: '', ...overrides }, token] as const,
  );
}
