/**
 * The analyst's words for the errors Isolink builds. The client, the URL checks, the
 * policy rules and the settings are pure and speak English to developers
 * (Error.message); each error also carries a stable `code` and its `params`. These are
 * the tables from code to message key: the values are substituted as `$1`, `$2`, ... A
 * code without a key, or a key that messages.json lacks, fails the type check.
 *
 * Text from the service itself (a command error, an HTTP error body) cannot be
 * translated: it only ever appears as a param inside a frame of Isolink's own words,
 * already sanitised by the client (sanitizeServiceText: never the token).
 */
import { isApiError, type ApiError, type ApiErrorCode } from '../service/errors';
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

export const ERROR_MESSAGE_KEYS = {
  // Validation: $1 is the field, then the values of the reason.
  empty: 'apiEmpty',
  tooLong: 'apiTooLong',
  tooMany: 'apiTooMany',
  tooBig: 'apiTooBig',
  tooShort: 'apiTooShort',
  tooFew: 'apiTooFew',
  tooSmall: 'apiTooSmall',
  notPositive: 'apiNotPositive',
  notInteger: 'apiNotInteger',
  notPositiveInteger: 'apiNotPositiveInteger',
  notText: 'apiNotText',
  notNumber: 'apiNotNumber',
  notBoolean: 'apiNotBoolean',
  notObject: 'apiNotObject',
  notList: 'apiNotList',
  notDate: 'apiNotDate',
  wrongType: 'apiWrongType',
  notOneOf: 'apiNotOneOf',
  unknownParameter: 'apiUnknownParameter',
  unsupportedForm: 'apiUnsupportedForm',
  invalid: 'apiInvalid',
  notIpOrCidr: 'apiNotIpOrCidr',
  notTimeZone: 'apiNotTimeZone',
  notAcceptLanguage: 'apiNotAcceptLanguage',
  notCategory: 'apiNotCategory',
  notEgressLocation: 'apiNotEgressLocation',
  notIpOrFqdn: 'apiNotIpOrFqdn',
  notPort: 'apiNotPort',
  identityBoth: 'apiIdentityBoth',
  identityMissing: 'apiIdentityMissing',
  urlRequired: 'apiUrlRequired',
  researchOnly: 'apiResearchOnly',
  notResearchParameter: 'apiNotResearchParameter',
  researchRequired: 'apiResearchRequired',
  noChange: 'apiNoChange',
  bulkUseUrls: 'apiBulkUseUrls',
  notTokenSource: 'apiNotTokenSource',
  notFile: 'apiNotFile',
  notCommandName: 'apiNotCommandName',
  setauthReserved: 'apiSetauthReserved',
  duplicateProxy: 'apiDuplicateProxy',
  expiresInvalid: 'apiExpiresInvalid',
  expiresPast: 'apiExpiresPast',
  expiresNotEpoch: 'apiExpiresNotEpoch',
  expiresBadDate: 'apiExpiresBadDate',
  expiresNotIso: 'apiExpiresNotIso',
  expiresBadSeconds: 'apiExpiresBadSeconds',
  urlTooLong: 'apiUrlTooLong',
  urlNotAbsolute: 'apiUrlNotAbsolute',
  urlScheme: 'apiUrlScheme',
  urlNoHost: 'apiUrlNoHost',
  baseNotHttps: 'apiBaseNotHttps',
  baseUserinfo: 'apiBaseUserinfo',
  baseQuery: 'apiBaseQuery',
  policyChoice: 'apiPolicyChoice',
  policyAtLeastOne: 'apiPolicyAtLeastOne',
  policyRepeat: 'apiPolicyRepeat',
  policyExclusive: 'apiPolicyExclusive',
  policyNoDomain: 'apiPolicyNoDomain',
  policyBadDomain: 'apiPolicyBadDomain',
  policyColor: 'apiPolicyColor',
  policyOneText: 'apiPolicyOneText',
  // The admin token.
  authRejected: 'apiAuthRejected',
  authRejectedSaying: 'apiAuthRejectedSaying',
  authRefusedHttp: 'apiAuthRefusedHttp',
  authNoToken: 'apiAuthNoToken',
  authMalformedToken: 'apiAuthMalformedToken',
  // The service's answers: $1 the command, $2 the service's own (sanitised) text.
  commandRefused: 'apiCommandRefused',
  timeout: 'apiTimeout',
  unreachable: 'apiUnreachable',
  httpStatus: 'apiHttpStatus',
  httpStatusText: 'apiHttpStatusText',
  replyTooLarge: 'apiReplyTooLarge',
  replyNotJson: 'apiReplyNotJson',
  replyNotArray: 'apiReplyNotArray',
  replySlotCount: 'apiReplySlotCount',
  replyBadSetauth: 'apiReplyBadSetauth',
  replySlotNotObject: 'apiReplySlotNotObject',
  replySlotIdMismatch: 'apiReplySlotIdMismatch',
  replySlotNoOutcome: 'apiReplySlotNoOutcome',
  replyErrorNotText: 'apiReplyErrorNotText',
  replyNoSlot: 'apiReplyNoSlot',
  replyShape: 'apiReplyShape',
  fileReplyNotJson: 'apiFileReplyNotJson',
  launchOutsideBase: 'apiLaunchOutsideBase',
  // Proxy warnings: $1 is the proxy's name.
  https_certificate_name: 'proxyWarnHttpsCertificate',
  socks4_no_auth: 'proxyWarnSocks4',
  socks5_no_auth_chrome: 'proxyWarnSocks5',
} as const satisfies Record<ErrorCode, MessageKey>;

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
  return typeof value === 'string' && Object.hasOwn(ERROR_MESSAGE_KEYS, value);
}

function isStringList(value: unknown): value is readonly string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

/** The analyst's words for a code and its params. */
export function codeText(code: ErrorCode, params: readonly string[]): string {
  return t(ERROR_MESSAGE_KEYS[code], [...params]);
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
