/**
 * What the background needs from outside itself: one object, built once by index.ts from
 * the browser and storage; tests build the same shape from plain fakes
 * (test/support/background-fakes.ts). Nothing else reaches the browser or storage, so
 * every action, entry and handler runs in Node against the simulator.
 */
import type { NetRule } from '../autoisolate';
import type { ScanRequest } from '../messaging/scan';
import type { LaunchUrl } from '../service/launch';
import type { RecentContext } from '../settings/recent';
import type { ImportConnection, ImportPreview, SettingsExport, SettingsView } from '../settings/store';
import type { StoredToken } from '../settings/token';
import type { Notifier } from './notify';
import type { SingleFlight } from './single-flight';

export interface Deps {
  readonly store: Store;
  readonly browser: BrowserSide;
  /** Joins a request already in flight for the same thing (a double click, the popup and a menu at once). */
  readonly inFlight: SingleFlight;
  /** The clock, in milliseconds since the epoch. */
  now(): number;
  /** Per-request limit in ms; the client's default (DEFAULT_TIMEOUT_MS) unless a test shortens it. */
  readonly requestTimeoutMs?: number;
}

/** Storage: the settings in force, the token and the recent contexts (src/settings). */
export interface Store {
  readSettings(): Promise<SettingsView>;
  saveSettings(patch: unknown): Promise<SettingsView>;
  exportSettings(): Promise<SettingsExport>;
  previewImport(json: string): Promise<ImportPreview>;
  importSettings(json: string, confirmed: ImportConnection): Promise<SettingsView>;
  readToken(): Promise<StoredToken | null>;
  writeToken(token: string, remember: boolean, origin: string): Promise<void>;
  moveToken(remember: boolean): Promise<void>;
  clearToken(): Promise<void>;
  listRecent(): Promise<RecentContext[]>;
  addRecent(entries: readonly RecentContext[]): Promise<void>;
  updateRecent(id: string, change: { name: string }): Promise<void>;
  removeRecent(id: string): Promise<void>;
}

/** The browser's side: tabs, host access, notifications, the clipboard, the options page. */
export interface BrowserSide {
  /** Opens a launch URL in a new tab: only a URL checkLaunchUrl accepted can be passed. */
  openTab(url: LaunchUrl, options: OpenTabOptions): Promise<void>;
  /** The active tab of the current window (its URL is readable under activeTab). */
  activeTab(): Promise<ClickedTab | undefined>;
  /** True when the extension may reach `origin` (granted, or loopback by manifest). */
  hasHostPermission(origin: string): Promise<boolean>;
  readonly notifier: Notifier;
  copyText(text: string): Promise<void>;
  /** Opens the options page at its connection section (focusing one already open). */
  openOptions(): Promise<void>;
  /** Opens the page that scans `from`'s visible pixels for QR codes, behind it (see src/messaging/scan). */
  openScan(from: ClickedTab, request: ScanRequest): Promise<void>;
  /** The landing page's URL, where isolate-by-policy rules send a navigation (chrome-extension://<id>/isolate.html). */
  readonly landingPage: string;
  /** True when every one of these host permissions (match patterns) is granted. */
  hasAccess(origins: readonly string[]): Promise<boolean>;
  /** The extension's dynamic network rules in force. */
  rules(): Promise<NetRule[]>;
  /** Replaces the extension's dynamic network rules with these (none: isolate by policy is off). */
  setRules(rules: readonly NetRule[]): Promise<void>;
}

export interface OpenTabOptions {
  readonly active: boolean;
  /** Position: right after the tab the action came from. */
  readonly index?: number | undefined;
  readonly windowId?: number | undefined;
  readonly openerTabId?: number | undefined;
}

/** Where an action came from, for tab placement. */
export interface SourceTab {
  readonly id?: number | undefined;
  readonly index?: number | undefined;
  readonly windowId?: number | undefined;
}

/** A tab as a menu click, the shortcut or activeTab gives it. */
export interface ClickedTab extends SourceTab {
  readonly url?: string | undefined;
}
