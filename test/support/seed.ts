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
  const settings = { serviceUrl: sim.url, launchUrl: sim.launchBase, username: ANALYST, org: '', ...overrides };
  // The token bound to the service it is for, as the options page stores it.
  const bound = token === null ? null : { token, origin: new URL(settings.serviceUrl).origin };
  await worker.evaluate(
    async ([values, sessionToken]) => {
      await chrome.storage.local.set({ settings: values, settings$: { v: 1 } });
      if (sessionToken === null) await chrome.storage.session.remove('token');
      else await chrome.storage.session.set({ token: sessionToken });
      await chrome.storage.local.remove('token');
    },
    [settings, bound] as const,
  );
}
