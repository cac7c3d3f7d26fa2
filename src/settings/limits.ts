/**
 * The settings' fixed choices and limits, and the checks of their text values. No zod:
 * the options page checks what it sends with these and stays small; ./schema builds the
 * settings' zod schema from them, so both always agree.
 */
import { checkServiceBase } from '../net/url';

export const EXPIRY_PRESETS = ['none', '1h', '8h', '24h', '7d', 'custom'] as const;
export type ExpiryPreset = (typeof EXPIRY_PRESETS)[number];
export const EXPIRY_PRESET_SECONDS: Readonly<Record<Exclude<ExpiryPreset, 'none' | 'custom'>, number>> = {
  '1h': 3600,
  '8h': 8 * 3600,
  '24h': 24 * 3600,
  '7d': 7 * 24 * 3600,
};
/** Longest custom expiry: 90 days. */
export const MAX_CUSTOM_EXPIRY_MINUTES = 90 * 24 * 60;
export const MAX_BULK_THRESHOLD = 500;
/** Largest max_uses a setting may hold. */
export const MAX_USES = 1_000_000;

/** Longest service URL or launch URL. */
export const MAX_BASE_URL_LENGTH = 2048;
/** Longest username or organisation. */
export const MAX_IDENTITY_LENGTH = 256;

/** A service URL or launch URL setting: empty (unset), https, or http on a loopback host. */
export function isServiceBaseSetting(value: string): boolean {
  return value === '' || checkServiceBase(value).ok;
}

/** A username or organisation setting: no spaces around it. */
export function isTrimmed(value: string): boolean {
  return value === value.trim();
}

/** Why a text setting cannot be used: the code its schema reports, and the values its words hold after the name. */
export interface TextSettingProblem {
  readonly code: 'tooLong' | 'settingServiceBase' | 'settingSpaces';
  readonly details: readonly string[];
}

export type TextSettingProblemCode = TextSettingProblem['code'];

/**
 * Why a text setting cannot be used, or undefined: what its schema checks, with the
 * code and details the schema's issue carries (the options page says it from the code).
 */
export function textSettingProblem(key: 'serviceUrl' | 'launchUrl' | 'username' | 'org', value: string): TextSettingProblem | undefined {
  const base = key === 'serviceUrl' || key === 'launchUrl';
  const max = base ? MAX_BASE_URL_LENGTH : MAX_IDENTITY_LENGTH;
  if (value.length > max) return { code: 'tooLong', details: [String(max)] };
  if (base) return isServiceBaseSetting(value) ? undefined : { code: 'settingServiceBase', details: [] };
  return isTrimmed(value) ? undefined : { code: 'settingSpaces', details: [] };
}

/** Longest settings file an import reads (the pages check it before sending, the background again). */
export const MAX_IMPORT_LENGTH = 512 * 1024;
