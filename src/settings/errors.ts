/**
 * What can be wrong with a setting, an import file or the token, as data: a stable
 * `code` and its `params`, which the extension says in the analyst's language
 * (src/i18n/errors.ts), and English words for developers (`message`). No zod and no
 * browser APIs: the options page imports it, and the checks of ./limits build on it.
 */
import { VALIDATION_REASONS, fillTemplate, isValidationCode, type ValidationCode } from '../service/errors';

/**
 * The settings' own codes and their English words, which follow the setting's name
 * ("serviceUrl is set by your organisation"). `$1`.. are the details after the name.
 */
// English words, for the library and the command; the extension says codes in the analyst's language (wxt.config.ts leaves these out of its worker).
export const SETTING_REASONS = {
  settingUnknown: 'is not a setting',
  settingLocked: 'is set by your organisation',
  settingIdentityBoth: 'and organisation are mutually exclusive: fill in one',
  settingServiceBase: 'must be an https URL (http only on 127.0.0.1 or localhost)',
  settingSpaces: 'must not start or end with spaces',
  settingTokenText: 'must be non-empty text',
  settingDomain: 'must be a host name such as example.com (no scheme, path or port)',
} as const satisfies Record<string, string>;

/** What can be wrong with an import file as a whole, in English words that follow "settings". `$1`.. are its params. */
// English words, for the library and the command; the extension says codes in the analyst's language (wxt.config.ts leaves these out of its worker).
export const IMPORT_PROBLEMS = {
  importTooLarge: 'file is larger than $1 KiB',
  importNotJson: 'file is not JSON',
  importNotExport: 'file is not an Isolink settings export',
  importWrongFormat: 'file is not an Isolink settings export (format isolink-settings, version 1)',
  importIncomplete: 'settings are incomplete',
  importNotConfirmed: 'file names another service or launch URL than the one confirmed',
} as const satisfies Record<string, string>;

export type SettingCode = keyof typeof SETTING_REASONS;
export type ImportCode = keyof typeof IMPORT_PROBLEMS;

/** Every code a settings issue carries: the settings' own, the import's, and the client's validation codes (zod's findings). */
export type SettingsIssueCode = SettingCode | ImportCode | ValidationCode;

export function isSettingCode(value: unknown): value is SettingCode {
  return typeof value === 'string' && Object.hasOwn(SETTING_REASONS, value);
}

export function isImportCode(value: unknown): value is ImportCode {
  return typeof value === 'string' && Object.hasOwn(IMPORT_PROBLEMS, value);
}

export function isSettingsIssueCode(value: unknown): value is SettingsIssueCode {
  return isSettingCode(value) || isImportCode(value) || isValidationCode(value);
}

/**
 * One thing wrong with the settings. `key` is the setting ('' for the settings or the
 * file as a whole); `message` is English words that follow it, for developers. As data:
 * `code`, and `params` = the values its words hold: for a setting's code or a validation
 * code the field first (the key, or the path inside it), then the details; for an
 * import code just its details.
 */
export interface SettingsIssue {
  readonly key: string;
  readonly code: SettingsIssueCode;
  readonly params: readonly string[];
  readonly message: string;
}

/** The English words of a setting's or a validation code, with its details filled in. */
export function settingReason(code: SettingCode | ValidationCode, details: readonly string[] = []): string {
  return fillTemplate(isSettingCode(code) ? SETTING_REASONS[code] : VALIDATION_REASONS[code], details);
}

/**
 * An issue of one setting. `field` is what the words name: the key, or a path inside it
 * (`policy[0].params`); when it is not the key itself, the English words start with it.
 */
export function settingIssue(key: string, code: SettingCode | ValidationCode, details: readonly string[] = [], field = key || 'settings'): SettingsIssue {
  const reason = settingReason(code, details);
  return { key, code, params: [field, ...details], message: field === (key || 'settings') ? reason : `${field} ${reason}` };
}

/** An issue of an import file as a whole. */
export function importIssue(code: ImportCode, ...params: string[]): SettingsIssue {
  return { key: '', code, params, message: fillTemplate(IMPORT_PROBLEMS[code], params) };
}

/** A change or an import the settings refused: which keys and why (English `message`; as data, `issues`). */
export class SettingsError extends Error {
  override readonly name = 'SettingsError';
  constructor(readonly issues: readonly SettingsIssue[]) {
    super(issues.map((issue) => `${issue.key || 'settings'} ${issue.message}`).join('; '));
  }
}

export function isSettingsError(error: unknown): error is SettingsError {
  return error instanceof SettingsError || (typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'SettingsError');
}

/** English words of the token's problem; `$1` is the longest token accepted. */
const TOKEN_PROBLEM = 'The token must be 1 to $1 characters of text, without control characters.';

/** A token the options page sent that cannot be stored. As data: `code`, and `params` = the longest length. */
export class TokenError extends RangeError {
  override readonly name = 'TokenError';
  readonly code = 'tokenInvalid';
  readonly params: readonly string[];
  constructor(maxLength: number) {
    const params = [String(maxLength)];
    super(fillTemplate(TOKEN_PROBLEM, params));
    this.params = params;
  }
}

export type TokenCode = TokenError['code'];

export function isTokenError(error: unknown): error is TokenError {
  return error instanceof TokenError || (typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'TokenError');
}
