/**
 * Plain fakes for the background's dependencies (Deps: storage, the browser, the clock). Every side effect is recorded in `FakeState`; every read comes from
 * it at call time, so a test changes the set-up by assigning to `state`.
 *
 * The network is NOT faked: settings point at the simulator, and the real client talks
 * to it over HTTP on 127.0.0.1.
 */
import type { NetRule } from '../../src/autoisolate';
import type { ClickedTab, Deps, OpenTabOptions } from '../../src/background/deps';
import type { Failure } from '../../src/background/failures';
import type { Notifier } from '../../src/background/notify';
import { SingleFlight } from '../../src/background/single-flight';
import type { ScanRequest } from '../../src/messaging/scan';
import type { PendingAction } from '../../src/settings/pending';
import type { RecentContext } from '../../src/settings/recent';
import { DEFAULT_SETTINGS, type SettingKey, type Settings } from '../../src/settings/schema';
import type { SettingsExport, SettingsView } from '../../src/settings/store';
import type { StoredToken } from '../../src/settings/token';
import type { RecordedRequest, Simulator } from '../simulator';

export const USER = 'analyst@acme.example';

/** The fake clock: 2030-01-01T00:00:00Z, in the future so expiries built from it pass the client's check. */
export const NOW = Date.UTC(2030, 0, 1);
export const NOW_SECONDS = NOW / 1000;

/** The tab an action came from. */
export const SOURCE_TAB = { id: 7, index: 2, windowId: 1, url: 'https://mail.example/inbox' } as const;
export const SOURCE = { id: 7, index: 2, windowId: 1 } as const;

/** Settings pointing at the simulator, for the analyst, with nothing else set. */
export function simSettings(sim: Simulator, overrides: Partial<Settings> = {}): Settings {
  return { ...DEFAULT_SETTINGS, serviceUrl: sim.url, username: USER, ...overrides };
}

export function viewOf(settings: Settings, extra: Partial<Omit<SettingsView, 'settings'>> = {}): SettingsView {
  return { settings, locked: [], tokenManaged: false, managedIssues: [], managedBroken: [], ...extra };
}

export type Notice =
  | { readonly kind: 'failure'; readonly failure: Failure; readonly retry: PendingAction | undefined }
  | { readonly kind: 'info'; readonly title: string; readonly message: string }
  | {
      readonly kind: 'ask';
      readonly title: string;
      readonly message: string;
      readonly button: string;
      readonly action: PendingAction;
      readonly second?: { readonly label: string; readonly action: PendingAction };
    };

export interface OpenedTab {
  readonly url: string;
  readonly options: OpenTabOptions;
}

/** Everything the fakes read and record. */
export interface FakeState {
  settings: Settings;
  locked: SettingKey[];
  tokenManaged: boolean;
  token: StoredToken | null;
  /** Answer of hasHostPermission. */
  permission: boolean;
  activeTab: ClickedTab | undefined;
  /** When set, copyText rejects with it. */
  copyError: Error | undefined;
  readonly permissionChecks: string[];
  readonly tabs: OpenedTab[];
  readonly notices: Notice[];
  readonly copied: string[];
  /** Newest first, as the real store keeps it. */
  recent: RecentContext[];
  readonly recentUpdates: { id: string; change: { name: string } }[];
  readonly recentRemovals: string[];
  readonly optionsOpened: number[];
  /** Every scan page opened: the tab it came from and what it scans. */
  readonly scans: { readonly from: ClickedTab; readonly request: ScanRequest }[];
  /** Answer of hostAccess: the host permissions granted, as match patterns. */
  hostAccess: string[];
  /** Every rule set installed with setRules, in order. */
  readonly ruleSets: NetRule[][];
  readonly savedPatches: unknown[];
  readonly tokenWrites: { token: string; remember: boolean; origin: string }[];
  readonly tokenMoves: boolean[];
  tokenClears: number;
  readonly imports: string[];
}

export interface Fakes {
  readonly deps: Deps;
  readonly state: FakeState;
}

export interface FakeOptions {
  readonly token?: StoredToken | null;
  readonly permission?: boolean;
  readonly activeTab?: ClickedTab | undefined;
  readonly locked?: SettingKey[];
  readonly tokenManaged?: boolean;
  readonly recent?: RecentContext[];
  readonly managedBroken?: SettingsView['managedBroken'];
}

function recordingNotifier(notices: Notice[]): Notifier {
  return {
    failure: (failure, retry) => {
      notices.push({ kind: 'failure', failure, retry });
      return Promise.resolve();
    },
    info: (title, message) => {
      notices.push({ kind: 'info', title, message });
      return Promise.resolve();
    },
    ask: (title, message, button, action, second) => {
      notices.push({ kind: 'ask', title, message, button, action, ...(second ? { second } : {}) });
      return Promise.resolve();
    },
  };
}

/**
 * Deps backed by plain data. The token defaults to the simulator's admin token
 * (in the session), host permission to granted, the active tab to SOURCE_TAB.
 */
export function createFakes(sim: Simulator, settings: Settings = simSettings(sim), options: FakeOptions = {}): Fakes {
  const state: FakeState = {
    settings,
    locked: options.locked ?? [],
    tokenManaged: options.tokenManaged ?? false,
    token: options.token === undefined ? { token: sim.adminToken, source: 'session', origin: new URL(sim.url).origin } : options.token,
    permission: options.permission ?? true,
    activeTab: 'activeTab' in options ? options.activeTab : { ...SOURCE_TAB },
    copyError: undefined,
    permissionChecks: [],
    tabs: [],
    notices: [],
    copied: [],
    recent: options.recent ?? [],
    recentUpdates: [],
    recentRemovals: [],
    optionsOpened: [],
    scans: [],
    hostAccess: ['http://127.0.0.1/*', 'http://localhost/*'],
    ruleSets: [],
    savedPatches: [],
    tokenWrites: [],
    tokenMoves: [],
    tokenClears: 0,
    imports: [],
  };
  const view = (): SettingsView =>
    viewOf(state.settings, { locked: state.locked, tokenManaged: state.tokenManaged, managedBroken: options.managedBroken ?? [] });
  const deps: Deps = {
    store: {
      readSettings: () => Promise.resolve(view()),
      readToken: () => Promise.resolve(state.token),
      saveSettings: (patch) => {
        state.savedPatches.push(patch);
        state.settings = { ...state.settings, ...(patch as Partial<Settings>) };
        return Promise.resolve(view());
      },
      exportSettings: (): Promise<SettingsExport> => Promise.resolve({ format: 'isolink-settings', version: 1, settings: state.settings }),
      previewImport: (json) => {
        state.imports.push(json);
        return Promise.resolve({
          changes: [],
          service: null,
          launch: null,
          connection: { serviceUrl: state.settings.serviceUrl, launchUrl: state.settings.launchUrl },
          exceptAdded: [],
        });
      },
      importSettings: (json) => {
        state.imports.push(json);
        return Promise.resolve(view());
      },
      writeToken: (token, remember, origin) => {
        state.tokenWrites.push({ token, remember, origin });
        state.token = { token, source: remember ? 'local' : 'session', origin };
        return Promise.resolve();
      },
      moveToken: (remember) => {
        state.tokenMoves.push(remember);
        if (state.token && state.token.source !== 'managed') state.token = { ...state.token, source: remember ? 'local' : 'session' };
        return Promise.resolve();
      },
      clearToken: () => {
        state.tokenClears += 1;
        if (state.token?.source !== 'managed') state.token = null;
        return Promise.resolve();
      },
      listRecent: () => Promise.resolve([...state.recent]),
      addRecent: (entries) => {
        const ids = new Set(entries.map((entry) => entry.id));
        state.recent = [...entries, ...state.recent.filter((entry) => !ids.has(entry.id))];
        return Promise.resolve();
      },
      updateRecent: (id, change) => {
        state.recentUpdates.push({ id, change });
        state.recent = state.recent.map((entry) => (entry.id === id ? { ...entry, ...change } : entry));
        return Promise.resolve();
      },
      removeRecent: (id) => {
        state.recentRemovals.push(id);
        state.recent = state.recent.filter((entry) => entry.id !== id);
        return Promise.resolve();
      },
    },
    browser: {
      openTab: (url, tabOptions) => {
        state.tabs.push({ url, options: tabOptions });
        return Promise.resolve();
      },
      activeTab: () => Promise.resolve(state.activeTab),
      hasHostPermission: (origin) => {
        state.permissionChecks.push(origin);
        return Promise.resolve(state.permission);
      },
      notifier: recordingNotifier(state.notices),
      copyText: (text) => {
        if (state.copyError) return Promise.reject(state.copyError);
        state.copied.push(text);
        return Promise.resolve();
      },
      openScan: (from, request) => {
        state.scans.push({ from, request });
        return Promise.resolve();
      },
      openOptions: () => {
        state.optionsOpened.push(1);
        return Promise.resolve();
      },
      landingPage: 'chrome-extension://isolink-test/isolate.html',
      hasAccess: (origins) => Promise.resolve(origins.every((origin) => state.hostAccess.includes(origin))),
      rules: () => Promise.resolve([...(state.ruleSets.at(-1) ?? [])]),
      setRules: (rules) => {
        state.ruleSets.push([...rules]);
        return Promise.resolve();
      },
    },
    inFlight: new SingleFlight(),
    now: () => NOW,
  };
  return { deps, state };
}

/** Requests to POST /api/, oldest first. */
export function apiRequests(sim: Simulator): RecordedRequest[] {
  return sim.requests.filter((request) => request.path === '/api/');
}

/** The JSON command arrays posted to /api/, oldest first. */
export function apiBodies(sim: Simulator): unknown[][] {
  return apiRequests(sim).map((request) => {
    if (typeof request.body !== 'string') throw new Error('an /api/ body must be text');
    return JSON.parse(request.body) as unknown[];
  });
}

/** The ids of the contexts the simulator holds, in creation order. */
export function contextIds(sim: Simulator): string[] {
  return [...sim.state.contexts.keys()];
}

/** The one context the simulator holds; throws when there is not exactly one. */
export function onlyContextId(sim: Simulator): string {
  const ids = contextIds(sim);
  if (ids.length !== 1 || ids[0] === undefined) throw new Error(`expected one context, found ${ids.length}`);
  return ids[0];
}

/** A recent entry as the store keeps it. */
export function recentEntry(overrides: Partial<RecentContext> & Pick<RecentContext, 'id' | 'launchUrl'>): RecentContext {
  return {
    url: 'https://evil.example/',
    host: 'evil.example',
    sessionType: 'service-ruby',
    createdAt: NOW,
    expires: NOW_SECONDS + 3600,
    maxUses: 1000,
    name: '',
    ...overrides,
  };
}
