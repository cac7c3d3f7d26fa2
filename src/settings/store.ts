/**
 * Where settings live: the user's values in storage.local (never sync), enterprise
 * values from storage.managed laid over them key by key. The background is the only
 * writer; pages ask it through messages.
 */
import { MAX_IMPORT_LENGTH } from './limits';
import { browser } from 'wxt/browser';
import { SettingsError, importIssue, settingIssue } from './errors';
import { defineItem } from './item';
import {
  DEFAULT_SETTINGS,
  SETTING_KEYS,
  launchBaseOf,
  parsePartialSettings,
  parseStoredSettings,
  settingsSchema,
  type SettingKey,
  type Settings,
  type SettingsIssue,
} from './schema';

// The settings' errors live in ./errors (the options page imports them from there).
export { SettingsError } from './errors';

/** The stored settings. Version 1; later versions add numbered migrations here. */
export const settingsItem = defineItem<unknown>('local', 'settings', {}, { version: 1, migrations: {} });

/**
 * How long a read waits for storage.managed. Chromium answers the first read after the
 * browser starts only after seconds (1.3 to 5.7 s measured), with or without a policy;
 * going on without it would ignore the organisation's values, so a read that takes
 * longer fails instead (fail closed) and the analyst is told to try again.
 */
export const MANAGED_READ_TIMEOUT_MS = 10_000;

/** The organisation's policy could not be read in time: nothing is done without it. Said where shown (errorManagedUnavailable). */
export class ManagedPolicyUnavailableError extends Error {
  override readonly name = 'ManagedPolicyUnavailableError';
  constructor() {
    super('The managed policy could not be read in time.');
  }
}

/** The managed-policy key that carries an admin token. */
export const MANAGED_TOKEN_KEY = 'token';

export interface ManagedPolicy {
  /** Values an administrator set; they win over the user's. */
  readonly values: Partial<Settings>;
  /** A token delivered by policy, if any. */
  readonly token?: string;
  /** Managed keys that did not parse (reported in the options page). */
  readonly issues: SettingsIssue[];
}

/**
 * Managed keys whose invalid value stops Isolink: where the token goes, where tabs open,
 * who contexts are for, and the organisation's policy list. The user's own value never
 * takes the place of one of these; isolation is refused until the policy is fixed.
 */
const MANAGED_CONNECTION_KEYS = ['serviceUrl', 'launchUrl', 'username', 'org', MANAGED_TOKEN_KEY, 'policy'] as const;
type ManagedConnectionKey = (typeof MANAGED_CONNECTION_KEYS)[number];

function isConnectionKey(key: string): key is ManagedConnectionKey {
  return (MANAGED_CONNECTION_KEYS as readonly string[]).includes(key);
}

const NO_POLICY: ManagedPolicy = { values: {}, issues: [] };

/** Firefox's answer where no policy exists for the add-on (Chrome answers {}). */
const FIREFOX_NO_POLICY = /managed storage manifest not found/i;

async function managedRaw(): Promise<Record<string, unknown>> {
  const area = (browser.storage as { managed?: { get(): Promise<Record<string, unknown>> } }).managed;
  if (!area) return {};
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      reject(new ManagedPolicyUnavailableError());
    }, MANAGED_READ_TIMEOUT_MS);
  });
  // Firefox rejects when no policy exists; any other failure to read is not "no policy".
  const read = area.get().catch((error: unknown) => {
    if (error instanceof Error && FIREFOX_NO_POLICY.test(error.message)) return {};
    throw new ManagedPolicyUnavailableError();
  });
  try {
    return await Promise.race([read, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The managed read in flight, shared by whoever asks meanwhile; never kept after it settles. */
let managedInFlight: Promise<ManagedPolicy> | undefined;

/**
 * Reads the enterprise policy: each key validated alone; bad keys are reported and ignored.
 * Callers at the same moment (an isolation reads the settings and the token side by side)
 * share one read of storage.managed; a later call reads again. The result is not mutated.
 */
export function readManagedPolicy(): Promise<ManagedPolicy> {
  managedInFlight ??= readManagedPolicyOnce().finally(() => {
    managedInFlight = undefined;
  });
  return managedInFlight;
}

async function readManagedPolicyOnce(): Promise<ManagedPolicy> {
  const raw = await managedRaw();
  const answer: unknown = raw;
  if (answer === null || typeof answer !== 'object' || Array.isArray(answer) || Object.keys(answer).length === 0) return NO_POLICY;
  const { [MANAGED_TOKEN_KEY]: token, ...rest } = raw;
  const { values, issues } = parsePartialSettings(rest);
  const goodToken = typeof token === 'string' && token.trim().length > 0 ? token : undefined;
  if (token !== undefined && goodToken === undefined) issues.push(settingIssue(MANAGED_TOKEN_KEY, 'settingTokenText'));
  return goodToken === undefined ? { values, issues } : { values, issues, token: goodToken };
}

/** The user's own settings, leniently parsed (bad values fall back to defaults). */
export async function readUserSettings(): Promise<Settings> {
  return parseStoredSettings(await settingsItem.getValue());
}

export interface SettingsView {
  /** What is in force: the user's settings with managed values laid over them. */
  readonly settings: Settings;
  /** Keys set by the organisation: shown locked, refused when changed. */
  readonly locked: SettingKey[];
  /** The organisation delivers the token. */
  readonly tokenManaged: boolean;
  /** Managed keys that did not parse. */
  readonly managedIssues: SettingsIssue[];
  /** Connection keys the organisation set to a value Isolink cannot use: nothing is isolated until they are fixed. */
  readonly managedBroken: ManagedConnectionKey[];
}

/**
 * Lays managed values over the user's, key by key. A managed key whose value is invalid
 * is locked all the same: a connection key (MANAGED_CONNECTION_KEYS) is reported as
 * broken, so that nothing is isolated, and any other takes its default, never the
 * user's value. A managed service URL locks the launch URL with it: the managed one, or
 * the default derived from the managed service.
 */
export function overlay(user: Settings, managed: ManagedPolicy): SettingsView {
  const invalid = [...new Set(managed.issues.map((issue) => issue.key))];
  const broken = invalid.filter(isConnectionKey);
  const defaults: Partial<Record<SettingKey, unknown>> = {};
  for (const key of invalid) if (Object.hasOwn(DEFAULT_SETTINGS, key)) defaults[key as SettingKey] = DEFAULT_SETTINGS[key as SettingKey];
  const launchFollowsService = Object.hasOwn(managed.values, 'serviceUrl') && !Object.hasOwn(managed.values, 'launchUrl') ? { launchUrl: '' } : {};
  const values: Partial<Settings> = { ...(defaults as Partial<Settings>), ...launchFollowsService, ...managed.values };
  return {
    settings: { ...user, ...values },
    locked: SETTING_KEYS.filter((key) => Object.hasOwn(values, key)),
    tokenManaged: managed.token !== undefined || broken.includes(MANAGED_TOKEN_KEY),
    managedIssues: managed.issues,
    managedBroken: broken,
  };
}

export async function readSettingsView(): Promise<SettingsView> {
  const [user, managed] = await Promise.all([readUserSettings(), readManagedPolicy()]);
  return overlay(user, managed);
}

function identityIssue(settings: Settings): SettingsIssue | undefined {
  return settings.username !== '' && settings.org !== '' ? settingIssue('username', 'settingIdentityBoth') : undefined;
}

/**
 * Applies a partial change from the options page. Strict: an unknown key, a bad value
 * or a key the organisation locked refuses the whole change, and storage is untouched.
 */
export async function saveSettings(patch: unknown): Promise<SettingsView> {
  const { values, issues } = parsePartialSettings(patch);
  const managed = await readManagedPolicy();
  for (const key of Object.keys(values)) {
    if (Object.hasOwn(managed.values, key)) issues.push(settingIssue(key, 'settingLocked'));
  }
  const next = { ...(await readUserSettings()), ...values };
  // Judged on what will be in force: a username set by policy and an org set here clash.
  const identity = identityIssue({ ...next, ...managed.values });
  if (identity) issues.push(identity);
  if (issues.length > 0) throw new SettingsError(issues);
  await settingsItem.setValue(next);
  return overlay(next, managed);
}

/** The export file: every setting, never the token. */
export interface SettingsExport {
  readonly format: 'isolink-settings';
  readonly version: 1;
  readonly settings: Settings;
}

export async function exportSettings(): Promise<SettingsExport> {
  return { format: 'isolink-settings', version: 1, settings: await readUserSettings() };
}

/** The settings an exported file holds, complete and valid; a SettingsError says what is wrong. Writes nothing. */
function readImportFile(json: string): Settings {
  if (json.length > MAX_IMPORT_LENGTH) throw new SettingsError([importIssue('importTooLarge', String(MAX_IMPORT_LENGTH / 1024))]);
  let data: unknown;
  try {
    data = JSON.parse(json);
  } catch {
    throw new SettingsError([importIssue('importNotJson')]);
  }
  const envelope = data as Partial<SettingsExport> | null;
  if (typeof envelope !== 'object' || envelope === null || Array.isArray(envelope)) {
    throw new SettingsError([importIssue('importNotExport')]);
  }
  const extra = Object.keys(envelope).filter((key) => !['format', 'version', 'settings'].includes(key));
  if (envelope.format !== 'isolink-settings' || envelope.version !== 1 || extra.length > 0) {
    throw new SettingsError([importIssue('importWrongFormat')]);
  }
  const { values, issues } = parsePartialSettings(envelope.settings);
  if (issues.length > 0) throw new SettingsError(issues);
  const full = settingsSchema.safeParse({ ...DEFAULT_SETTINGS, ...values });
  if (!full.success) throw new SettingsError([importIssue('importIncomplete')]);
  return full.data;
}

/** Where tokens go and where launch tabs open: what an import may change only when the analyst saw it. */
export interface ImportConnection {
  readonly serviceUrl: string;
  readonly launchUrl: string;
}

/** A change of origin an import would make, old and new ('' for none). */
interface OriginChange {
  readonly from: string;
  readonly to: string;
}

/** What importing a file would change, shown before anything is written. */
export interface ImportPreview {
  /** The settings whose values would change (those the organisation sets stay). */
  readonly changes: SettingKey[];
  /** The service's origin would change: the token is not sent to the new one. */
  readonly service: OriginChange | null;
  /** The origin launch tabs open on would change. */
  readonly launch: OriginChange | null;
  /** The file's connection values, which the import must be confirmed with. */
  readonly connection: ImportConnection;
  /** Domains the file would add to those never isolated by policy (autoIsolate.except): named, since they open links locally. */
  readonly exceptAdded: string[];
}

function originText(base: string): string {
  return URL.canParse(base) ? new URL(base).origin : '';
}

function originChange(from: string, to: string): OriginChange | null {
  const change = { from: originText(from), to: originText(to) };
  return change.from === change.to ? null : change;
}

/**
 * What an exported file would change, without writing anything: choosing a file changes
 * nothing by itself. The same checks as the import; managed keys keep their values.
 */
export async function previewImport(json: string): Promise<ImportPreview> {
  const file = readImportFile(json);
  const [user, managed] = await Promise.all([readUserSettings(), readManagedPolicy()]);
  const before = overlay(user, managed);
  const after = overlay(file, managed);
  return {
    changes: SETTING_KEYS.filter((key) => JSON.stringify(before.settings[key]) !== JSON.stringify(after.settings[key])),
    service: originChange(before.settings.serviceUrl, after.settings.serviceUrl),
    launch: originChange(launchBaseOf(before.settings), launchBaseOf(after.settings)),
    connection: { serviceUrl: file.serviceUrl, launchUrl: file.launchUrl },
    exceptAdded: (after.settings.autoIsolate.except ?? []).filter((domain) => !(before.settings.autoIsolate.except ?? []).includes(domain)),
  };
}

/**
 * Replaces the user's settings with an exported file's, once the analyst has seen what it
 * changes (previewImport): `confirmed` must be the file's service and launch URLs as they
 * were shown, so a file can never move the token or the launch tabs unseen. Atomic:
 * anything wrong (not JSON, another format, an unknown or invalid key, a token, another
 * connection than the one confirmed) refuses the whole import and storage is untouched.
 * Managed keys keep their managed values.
 */
export async function importSettings(json: string, confirmed: ImportConnection): Promise<SettingsView> {
  const file = readImportFile(json);
  if (file.serviceUrl !== confirmed.serviceUrl || file.launchUrl !== confirmed.launchUrl) {
    throw new SettingsError([importIssue('importNotConfirmed')]);
  }
  const managed = await readManagedPolicy();
  const identity = identityIssue({ ...file, ...managed.values });
  if (identity) throw new SettingsError([identity]);
  await settingsItem.setValue(file);
  return overlay(file, managed);
}
