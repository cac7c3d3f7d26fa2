/**
 * The background's view of the set-up: settings in force, the token, host access, and
 * a client built from them. Read afresh for every action: nothing lives only in
 * globals, so a restarted service worker behaves the same.
 */
import { createClient, type IsolinkClient } from '../api';
import { t } from '../i18n';
import { checkServiceBase } from '../net/url';
import { launchBaseOf, type Settings } from '../settings/schema';
import type { SettingsView } from '../settings/store';
import type { StoredToken } from '../settings/token';
import type { Status } from '../messaging/protocol';
import type { Deps } from './deps';
import { NotConfiguredError, PermissionMissingError } from './failures';

export interface Connection {
  readonly client: IsolinkClient;
  readonly settings: Settings;
  readonly launchBase: string;
}

function originOf(base: string): string | null {
  const check = checkServiceBase(base);
  return check.ok ? new URL(check.base).origin : null;
}

/** The origin launch tabs open on (the launch base, or the service's), or null when it is not a valid base. */
export function launchOrigin(settings: Pick<Settings, 'serviceUrl' | 'launchUrl'>): string | null {
  const base = launchBaseOf(settings);
  return base === '' ? null : originOf(base);
}

/** The origin of the service in force, or null when none is set or it is not a valid base. */
export function serviceOrigin(settings: Pick<Settings, 'serviceUrl'>): string | null {
  return settings.serviceUrl === '' ? null : originOf(settings.serviceUrl);
}

/** Why `token` may not be sent to `origin`, in the analyst's words; undefined when it may. */
function tokenProblem(token: StoredToken, origin: string): NotConfiguredError | undefined {
  // A policy token goes to the policy's service only: never to a URL the user chose.
  if (token.source === 'managed' && token.origin === null) return new NotConfiguredError('problemManagedTokenNoService');
  if (token.origin !== origin) return new NotConfiguredError('problemTokenOtherService', [token.origin ?? '', origin]);
  return undefined;
}

/** The identity contexts are created for: exactly one of username and org. */
export function identityOf(settings: Settings): { username: string } | { org: string } | null {
  if (settings.username !== '' && settings.org === '') return { username: settings.username };
  if (settings.org !== '' && settings.username === '') return { org: settings.org };
  return null;
}

/** The status a page may see; never the token. */
export async function readStatus(deps: Deps): Promise<Status> {
  const [{ settings, managedBroken }, token] = await Promise.all([deps.store.readSettings(), deps.store.readToken()]);
  const problems: string[] = [];
  if (managedBroken.length > 0) problems.push(t('problemManagedBroken', managedBroken.join(', ')));
  const origin = serviceOrigin(settings);
  if (settings.serviceUrl === '') problems.push(t('problemNoService'));
  else if (origin === null) problems.push(t('problemBadService'));
  if (settings.launchUrl !== '' && originOf(settings.launchUrl) === null) problems.push(t('problemBadLaunch'));
  const identity = identityOf(settings);
  if (!identity) problems.push(t('problemNoIdentity'));
  if (!token) problems.push(t('problemNoToken'));
  else if (origin !== null) {
    const problem = tokenProblem(token, origin);
    if (problem !== undefined) problems.push(t(problem.key, [...problem.params]));
  }
  const hostPermission = origin !== null && (await deps.browser.hasHostPermission(origin));
  if (origin !== null && !hostPermission) problems.push(t('problemNoPermission', origin));
  return {
    configured: problems.length === 0,
    serviceHost: origin === null ? null : new URL(origin).host,
    serviceOrigin: origin,
    hasToken: token !== null,
    tokenSource: token?.source ?? null,
    hostPermission,
    identity: identity === null ? null : 'username' in identity ? identity.username : t('identityOrg', identity.org),
    problems,
  };
}

/** The settings in force and where they send requests and open tabs, once checked. */
export interface CheckedSettings {
  readonly settings: Settings;
  /** The service's origin: the only one the token goes to. */
  readonly origin: string;
  readonly launchBase: string;
}

/**
 * The settings in force, checked for a call to the service or a launch tab: a
 * NotConfiguredError or PermissionMissingError says what is missing. Host access is
 * checked every time (users can revoke it). Reads no token.
 */
export async function checkSettings(deps: Deps, read: Promise<SettingsView> = deps.store.readSettings()): Promise<CheckedSettings> {
  const { settings, managedBroken } = await read;
  // An invalid value the organisation set stops everything: the user's value never takes its place.
  if (managedBroken.length > 0) throw new NotConfiguredError('problemManagedBroken', [managedBroken.join(', ')]);
  const origin = serviceOrigin(settings);
  if (origin === null) throw new NotConfiguredError('problemNoService');
  const launchBase = launchBaseOf(settings);
  if (originOf(launchBase) === null) throw new NotConfiguredError('problemBadLaunch');
  if (!(await deps.browser.hasHostPermission(origin))) throw new PermissionMissingError(origin);
  return { settings, origin, launchBase };
}

/**
 * A client for the service, on settings checked as checkSettings does; the token is read when a
 * request leaves. `read`: the settings already being read by the caller, not read again.
 */
export async function connect(deps: Deps, read?: Promise<SettingsView>): Promise<Connection> {
  // The token is read beside the settings, not after them: one storage round trip less
  // between the click and the request. Only the first request uses this read; any later
  // one (a retry) reads again. Marked handled here: a failure surfaces where it is awaited.
  let tokenRead: Promise<StoredToken | null> | undefined = deps.store.readToken();
  tokenRead.catch(() => undefined);
  const { settings, origin, launchBase } = await checkSettings(deps, read);
  const client = createClient({
    baseUrl: settings.serviceUrl,
    launchBase,
    // Read at request time: a token saved a moment ago is used, none is cached here.
    token: async () => {
      const read = tokenRead ?? deps.store.readToken();
      tokenRead = undefined;
      const stored = await read;
      if (!stored) throw new NotConfiguredError('problemNoToken');
      // The last gate before the token is sent: only to the origin it was entered for.
      const problem = tokenProblem(stored, origin);
      if (problem !== undefined) throw problem;
      return stored.token;
    },
    ...(deps.requestTimeoutMs === undefined ? {} : { timeoutMs: deps.requestTimeoutMs }),
  });
  return { client, settings, launchBase };
}
