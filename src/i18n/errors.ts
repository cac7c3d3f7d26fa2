/**
 * The analyst's words for the errors Isolink builds. The client, the URL checks, the
 * policy rules and the settings are pure and speak English to developers
 * (Error.message); each error also carries a stable `code` and its `params`. These are
 * the tables from code to message key (for the client's codes, one rule: see
 * errorMessageKey): the values are substituted as `$1`, `$2`, ... A code without a key,
 * or a key that messages.json lacks, fails the type check.
 *
 * Text from the service itself (a command error, an HTTP error body) cannot be
 * translated: it only ever appears as a param inside a frame of Isolink's own words,
 * already sanitised by the client (sanitizeServiceText: never the token).
 */
import { isApiError, isApiErrorCode, type ApiError, type ApiErrorCode } from '../service/errors';
import type { BulkFailure } from '../api/types';
import type { ProxyWarning, ProxyWarningCode } from '../service/values';
import type { TargetUrlProblemCode } from '../net/url';
import {
  isImportCode,
  isSettingCode,
  isSettingsError,
  isSettingsIssueCode,
  isTokenError,
  type ImportCode,
  type SettingCode,
  type SettingsIssue,
  type TokenCode,
} from '../settings/errors';
import type { TextSettingProblem, TextSettingProblemCode } from '../settings/limits';
import { t, type MessageKey } from '.';

/** Every code an error or warning of the client carries. */
export type ErrorCode = ApiErrorCode | ProxyWarningCode;

/** The proxy warnings' keys: $1 is the proxy's name. */
const PROXY_WARNING_KEYS = {
  https_certificate_name: 'proxyWarnHttpsCertificate',
  socks4_no_auth: 'proxyWarnSocks4',
  socks5_no_auth_chrome: 'proxyWarnSocks5',
} as const satisfies Record<ProxyWarningCode, MessageKey>;

function isProxyWarningCode(value: string): value is ProxyWarningCode {
  return Object.hasOwn(PROXY_WARNING_KEYS, value);
}

/**
 * The message key of a code. A code of the client's errors is said by `api` and the code
 * (`tooLong` by `apiTooLong`, `replyShape` by `apiReplyShape`): derived, not listed, and
 * a code whose key messages.json lacks fails the type check here. The values: for
 * validation, the field and then the values of the reason; for the service's answers,
 * the command and then the service's own (sanitised) text.
 */
export function errorMessageKey(code: ErrorCode): MessageKey {
  if (isProxyWarningCode(code)) return PROXY_WARNING_KEYS[code];
  const key = `api${code.charAt(0).toUpperCase()}${code.slice(1)}` as `api${Capitalize<ApiErrorCode>}`;
  return key;
}

/**
 * A link refused before anything was sent, in full sentences: the values of the check
 * (no field name; the analyst gave a link, not a parameter).
 */
export const REFUSED_URL_MESSAGE_KEYS = {
  urlTooLong: 'errorRefusedUrlTooLong',
  urlNotAbsolute: 'errorRefusedUrlNotAbsolute',
  urlScheme: 'errorRefusedUrlScheme',
  urlNoHost: 'errorRefusedUrlNoHost',
} as const satisfies Record<TargetUrlProblemCode, MessageKey>;

/** The settings' own codes: $1 is the setting (or the path inside it), then the values of the reason. */
export const SETTING_MESSAGE_KEYS = {
  settingUnknown: 'settingsUnknown',
  settingLocked: 'settingsLocked',
  settingIdentityBoth: 'settingsIdentityBoth',
  settingServiceBase: 'settingsServiceBase',
  settingSpaces: 'settingsSpaces',
  settingTokenText: 'settingsTokenText',
  settingDomain: 'settingsDomain',
} as const satisfies Record<SettingCode, MessageKey>;

/** An import file refused as a whole: its params are the values of the words (no field). */
export const IMPORT_MESSAGE_KEYS = {
  importTooLarge: 'settingsImportTooLarge',
  importNotJson: 'settingsImportNotJson',
  importNotExport: 'settingsImportNotExport',
  importWrongFormat: 'settingsImportWrongFormat',
  importIncomplete: 'settingsImportIncomplete',
  importNotConfirmed: 'settingsImportNotConfirmed',
} as const satisfies Record<ImportCode, MessageKey>;

/** The token the options page sent cannot be stored: $1 is the longest token accepted. */
export const TOKEN_MESSAGE_KEYS = {
  tokenInvalid: 'settingsTokenInvalid',
} as const satisfies Record<TokenCode, MessageKey>;

/**
 * A text setting the options page refuses before sending, said beside its field in a
 * full sentence (no field name: the field is right there); the values of the reason.
 */
export const FIELD_PROBLEM_KEYS = {
  tooLong: 'optionsFieldTooLong',
  settingServiceBase: 'optionsFieldServiceBase',
  settingSpaces: 'optionsFieldSpaces',
} as const satisfies Record<TextSettingProblemCode, MessageKey>;

function isErrorCode(value: unknown): value is ErrorCode {
  return isApiErrorCode(value) || (typeof value === 'string' && isProxyWarningCode(value));
}

function isStringList(value: unknown): value is readonly string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

/** The analyst's words for a code and its params. */
export function codeText(code: ErrorCode, params: readonly string[]): string {
  return t(errorMessageKey(code), [...params]);
}

/** The analyst's words for a refused link. */
export function refusedUrlText(code: TargetUrlProblemCode, params: readonly string[]): string {
  return t(REFUSED_URL_MESSAGE_KEYS[code], [...params]);
}

/** The words for something that should be a settings issue; the generic words when it has no usable code. */
function issueText(issue: unknown): string {
  const { code, params } = (typeof issue === 'object' && issue !== null ? issue : {}) as { code?: unknown; params?: unknown };
  if (!isSettingsIssueCode(code) || !isStringList(params)) return t('errorSomethingWrong');
  if (isSettingCode(code)) return t(SETTING_MESSAGE_KEYS[code], [...params]);
  if (isImportCode(code)) return t(IMPORT_MESSAGE_KEYS[code], [...params]);
  return codeText(code, params);
}

/** The analyst's words for one settings issue, from its code and params (never its English message). */
export function settingsIssueText(issue: Pick<SettingsIssue, 'code' | 'params'>): string {
  return issueText(issue);
}

/** The words beside a text field the options page refuses before sending. */
export function fieldProblemText(problem: TextSettingProblem): string {
  return t(FIELD_PROBLEM_KEYS[problem.code], [...problem.details]);
}

/**
 * The analyst's words for an error Isolink built with a code: the client's (ApiError),
 * the settings' (SettingsError, every issue said) and the token's (TokenError), from
 * its code and params; undefined for anything else. Such an error without a usable code
 * (one that crossed a realm and lost it) gets the generic words, never its English
 * message.
 */
export function apiErrorText(error: unknown): string | undefined {
  if (isSettingsError(error)) {
    const { issues } = error as { issues?: unknown };
    if (!Array.isArray(issues) || issues.length === 0) return t('errorSomethingWrong');
    return (issues as unknown[]).map(issueText).join(' ');
  }
  if (isTokenError(error)) {
    const { code, params } = error as { code?: unknown; params?: unknown };
    return code === 'tokenInvalid' && isStringList(params) ? t(TOKEN_MESSAGE_KEYS[code], [...params]) : t('errorSomethingWrong');
  }
  if (!isApiError(error)) return undefined;
  const { code, params } = error as Partial<Pick<ApiError, 'code' | 'params'>>;
  if (isErrorCode(code) && isStringList(params)) return codeText(code, params);
  return t('errorSomethingWrong');
}

/** The analyst's words for a proxy warning. */
export function proxyWarningText(warning: Pick<ProxyWarning, 'code' | 'proxy'>): string {
  return codeText(warning.code, [warning.proxy]);
}

function isTargetUrlCode(code: string): code is keyof typeof REFUSED_URL_MESSAGE_KEYS {
  return Object.hasOwn(REFUSED_URL_MESSAGE_KEYS, code);
}

/**
 * The analyst's words for one URL of a bulk creation that failed: a refused link as
 * such (without the `urls[i]` field), anything else from its code.
 */
export function bulkFailureText(failure: Pick<BulkFailure, 'code' | 'params' | 'kind'>): string {
  if (failure.kind === 'ValidationError' && isTargetUrlCode(failure.code)) return refusedUrlText(failure.code, failure.params.slice(1));
  return codeText(failure.code, failure.params);
}
