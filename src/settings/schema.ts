/**
 * The settings: one zod schema is the source of their types, defaults and checks.
 * Every source (storage, the options page, an import file, enterprise policy) parses
 * through it. Each top-level key parses on its own, so one bad value falls back to its
 * default without losing the rest.
 *
 * The token is NOT a setting: it lives apart (see ./token.ts), is never synced and
 * never exported.
 */
import * as z from 'zod/mini';
import type { ValidationCode } from '../service/errors';
import { MAX_LIST_LENGTH } from '../service/values';
import { BROWSER_NAMES, BROWSER_OS, isAcceptLanguage, isIanaTimeZone, problemOf } from '../api/params';
import { isEgressLocation } from '../egress';
import { UNWRAP_MODES } from '../resolve/modes';
import { PolicyIssue, normalizePolicy, MAX_POLICY_PARAM_LENGTH, MAX_POLICY_TYPE_LENGTH } from '../policy';
import { AUTO_ISOLATE_LIMITS, isDomainEntry } from '../autoisolate';
import { isSettingCode, settingIssue, type SettingCode, type SettingsIssue } from './errors';
import {
  EXPIRY_PRESETS,
  EXPIRY_PRESET_SECONDS,
  MAX_BASE_URL_LENGTH,
  MAX_BULK_THRESHOLD,
  MAX_CUSTOM_EXPIRY_MINUTES,
  MAX_IDENTITY_LENGTH,
  MAX_USES,
  isServiceBaseSetting,
  isTrimmed,
} from './limits';

// The zod-free parts live in ./limits (the options page imports them from there).
export type { SettingsIssue } from './errors';

// A check's own message is a code (a setting's code, or the client's validation code):
// issueOf reads it back, and the analyst is told from it.
const code = (value: SettingCode | ValidationCode): string => value;

const serviceBase = z.string().check(z.maxLength(MAX_BASE_URL_LENGTH), z.refine(isServiceBaseSetting, code('settingServiceBase')));

const identityName = z.string().check(z.maxLength(MAX_IDENTITY_LENGTH), z.refine(isTrimmed, code('settingSpaces')));

const policyEntries = z
  .array(
    z.strictObject({
      type: z.string().check(z.minLength(1), z.maxLength(MAX_POLICY_TYPE_LENGTH)),
      params: z.array(z.string().check(z.maxLength(MAX_POLICY_PARAM_LENGTH))).check(z.maxLength(MAX_LIST_LENGTH)),
    }),
  )
  .check(
    z.maxLength(200),
    z.superRefine((entries, ctx) => {
      const result = normalizePolicy(entries, 'policy');
      // The issue names the entry (`policy[0].params`), and carries the policy rule's code and values.
      if (result instanceof PolicyIssue) {
        ctx.addIssue({ code: 'custom', message: result.code, input: entries, params: { field: result.path, details: result.params.slice(1) } });
      }
    }),
  );

const categoryList = z.array(z.string().check(z.minLength(1), z.maxLength(64))).check(z.maxLength(16));

const browserProfile = z.strictObject({
  os: z.enum(BROWSER_OS),
  browser: z.enum(BROWSER_NAMES),
  timezone: z.string().check(z.refine((value) => value === '' || isIanaTimeZone(value), code('notTimeZone'))),
  languages: z.string().check(z.refine((value) => value === '' || isAcceptLanguage(value), code('notAcceptLanguage'))),
});

const domainList = (max: number) =>
  z.optional(z.array(z.string().check(z.maxLength(253), z.refine(isDomainEntry, code('settingDomain')))).check(z.maxLength(max)));

/** Isolate by policy (src/autoisolate): the managed key's shape, each field optional (autoIsolateOf fills them in). */
const autoIsolate = z.strictObject({
  from: domainList(AUTO_ISOLATE_LIMITS.from),
  to: domainList(AUTO_ISOLATE_LIMITS.to),
  except: domainList(AUTO_ISOLATE_LIMITS.except),
  ask: z.optional(z.boolean()),
});

/** The schema of each setting, key by key. */
export const settingShapes = {
  /** The service's base URL; empty until configured. */
  serviceUrl: serviceBase,
  /** The launch base; empty means "same as the service URL". */
  launchUrl: serviceBase,
  /** Identity: a username or an organisation, exactly one when isolating. */
  username: identityName,
  org: identityName,
  /** Keep the token across browser restarts (storage.local) instead of the session only. */
  rememberToken: z.boolean(),
  /** Default policy entries sent with every context. */
  policy: policyEntries,
  /** max_uses sent with each context; null lets the service decide. */
  maxUses: z.nullable(z.int().check(z.positive(), z.lte(MAX_USES))),
  /** Expiry of each context: a preset, or a custom number of minutes. */
  expiry: z.strictObject({
    preset: z.enum(EXPIRY_PRESETS),
    customMinutes: z.int().check(z.positive(), z.lte(MAX_CUSTOM_EXPIRY_MINUTES)),
  }),
  /** Add a domain_allow entry for the link's own host when isolating from a menu. */
  autoDomainAllow: z.boolean(),
  /** A link rewritten by a mail gateway or redirector: isolate its real target, ask first, or keep the wrapper. */
  unwrap: z.enum(UNWRAP_MODES),
  /** Research session defaults. */
  research: z.strictObject({
    egressRegion: z.string().check(z.refine((value) => value === '' || isEgressLocation(value), code('notEgressLocation'))),
    browserProfile: z.nullable(browserProfile),
    availability: categoryList,
    connectivity: categoryList,
  }),
  /** Open isolated tabs in the foreground or the background. */
  tabPlacement: z.enum(['foreground', 'background']),
  /** Ask before opening more than this many tabs at once. */
  bulkConfirmThreshold: z.int().check(z.gte(1), z.lte(MAX_BULK_THRESHOLD)),
  /** Navigations isolated before anything loads: from chosen sites, to chosen domains. */
  autoIsolate,
};

export type SettingKey = keyof typeof settingShapes;
export const SETTING_KEYS = Object.keys(settingShapes) as SettingKey[];

export const settingsSchema = z.strictObject(settingShapes);
export type Settings = z.infer<typeof settingsSchema>;

export const DEFAULT_SETTINGS: Settings = {
  serviceUrl: '',
  launchUrl: '',
  username: '',
  org: '',
  rememberToken: false,
  policy: [],
  maxUses: null,
  expiry: { preset: '24h', customMinutes: 60 },
  autoDomainAllow: true,
  unwrap: 'unwrap',
  research: { egressRegion: '', browserProfile: null, availability: [], connectivity: [] },
  tabPlacement: 'foreground',
  bulkConfirmThreshold: 5,
  autoIsolate: {},
};

/** A key that would reach Object.prototype or a constructor if copied blindly. */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * Reads stored settings leniently: each known key parses on its own and falls back to
 * its default when invalid; unknown keys are dropped. Never throws.
 */
export function parseStoredSettings(value: unknown): Settings {
  const out: Record<string, unknown> = { ...DEFAULT_SETTINGS };
  if (!isPlainRecord(value)) return out as Settings;
  for (const key of SETTING_KEYS) {
    if (!Object.hasOwn(value, key)) continue;
    const parsed = settingShapes[key].safeParse(value[key]);
    if (parsed.success) out[key] = parsed.data;
  }
  return out as Settings;
}

/** `root` followed by a zod path: `research.browserProfile.timezone`, `policy[0]`. */
function pathOf(root: string, path: readonly PropertyKey[]): string {
  let out = root;
  for (const key of path) out += typeof key === 'number' ? `[${key}]` : `.${String(key)}`;
  return out;
}

function isStringList(value: unknown): value is readonly string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

/**
 * A zod issue of one setting as a settings issue: the setting's own code when its check
 * has one, else the client's validation code read from the issue; the field is the path
 * inside the key (or the one a check names); the English words are the code's.
 */
function issueOf(key: SettingKey, issue: z.core.$ZodIssue | undefined): SettingsIssue {
  if (issue === undefined) return settingIssue(key, 'invalid');
  const custom = issue.code === 'custom' ? (issue.params ?? {}) : {};
  // An unknown key inside a setting is named, cut as an unknown setting's name is.
  const path = issue.code === 'unrecognized_keys' ? [...issue.path, (issue.keys[0] ?? '').slice(0, 64)] : issue.path;
  const field = typeof custom['field'] === 'string' ? custom['field'] : pathOf(key, path);
  if (isSettingCode(issue.message)) {
    const details = isStringList(custom['details']) ? custom['details'] : [];
    return settingIssue(key, issue.message, details, field);
  }
  const { code: problem, details } = problemOf(issue);
  return settingIssue(key, problem, details, field);
}

/**
 * Parses a partial settings object strictly (from the options page, an import, or a
 * managed policy): unknown keys, `__proto__`-style keys and wrong types are issues.
 * Returns the valid values and the issues; callers decide whether any issue is fatal.
 */
export function parsePartialSettings(value: unknown): { values: Partial<Settings>; issues: SettingsIssue[] } {
  const issues: SettingsIssue[] = [];
  const values: Record<string, unknown> = {};
  if (!isPlainRecord(value)) return { values: {}, issues: [settingIssue('', 'notObject')] };
  for (const key of Object.keys(value)) {
    if (FORBIDDEN_KEYS.has(key) || !Object.hasOwn(settingShapes, key)) {
      issues.push(settingIssue(key.slice(0, 64), 'settingUnknown'));
      continue;
    }
    const settingKey = key as SettingKey;
    const parsed = settingShapes[settingKey].safeParse(value[key]);
    if (parsed.success) values[settingKey] = parsed.data;
    else issues.push(issueOf(settingKey, parsed.error.issues[0]));
  }
  return { values, issues };
}

/** Settings with the launch base filled in (empty launch URL means the service URL). */
export function launchBaseOf(settings: Pick<Settings, 'serviceUrl' | 'launchUrl'>): string {
  return settings.launchUrl === '' ? settings.serviceUrl : settings.launchUrl;
}

/** Expiry in seconds from now for the settings' preset, or undefined for "none". */
export function expirySeconds(expiry: Settings['expiry']): number | undefined {
  if (expiry.preset === 'none') return undefined;
  if (expiry.preset === 'custom') return expiry.customMinutes * 60;
  return EXPIRY_PRESET_SECONDS[expiry.preset];
}
