/**
 * The client's error taxonomy. One class per failure kind, each with a stable `name`
 * so that guards still work when an error has crossed a realm (a message between
 * extension pages, a structured clone) and lost its prototype.
 *
 * No message, stack or cause ever holds the token: service text is passed through
 * `sanitizeServiceText`, and transport causes are replaced by a redacted summary.
 */
import { URL_PROBLEMS, type UrlProblemCode } from '../net/url';
import { REDACTED, redactSecrets } from './redact';
import { POLICY_PROBLEMS, type PolicyProblemCode } from '../policy';
import { fillTemplate } from '../net/template';

/** Longest piece of service-supplied text kept in an error message. */
export const MAX_SERVICE_TEXT = 300;

/** How many times longer than itself a secret can be once encoded and nested (a UTF-8 character as \u-escapes, percent-encoded twice). */
const ENCODED_GROWTH = 40;

/**
 * Anything that looks like a credential: a long run of token characters. Context ids
 * and ordinary words are shorter; this errs on the side of hiding.
 */
const TOKEN_SHAPED = /[\w+=~-]{32,}/g;

/** Service text beyond this is not even read: the message keeps far less. */
const MAX_SCANNED_TEXT = 10_000;

/**
 * Makes service-supplied text safe to show: removes the token in any encoding (raw,
 * percent-encoded, JSON-escaped, HTML entities, base64, nested), anything token-shaped,
 * and control characters, then truncates.
 */
export function sanitizeServiceText(text: string, secrets: readonly string[] = []): string {
  // The known secret is removed, in every encoding (./redact), from a window that runs past
  // what is kept by more than the longest form a secret can take; only the text before
  // that margin is kept, so a secret cut by the window's end can never show.
  const margin = ENCODED_GROWTH * Math.max(0, ...secrets.map((secret) => secret.length));
  let out = redactSecrets(text.slice(0, MAX_SCANNED_TEXT + 2 * margin), secrets, Math.min(text.length, MAX_SCANNED_TEXT + margin));
  out = out.slice(0, MAX_SCANNED_TEXT).replace(TOKEN_SHAPED, REDACTED);
  // eslint-disable-next-line no-control-regex -- stripping control characters is the point
  out = out.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
  return out.length > MAX_SERVICE_TEXT ? `${out.slice(0, MAX_SERVICE_TEXT)}…` : out;
}

/** The `name` of each of the client's error classes: what the is*Error guards test. */
export type ApiErrorName = 'ValidationError' | 'AuthError' | 'CommandError' | 'TimeoutError' | 'NetworkError' | 'HttpError' | 'ProtocolError';

export { fillTemplate };

// ---- codes -------------------------------------------------------------------------
//
// Every error the client builds has a stable, machine-readable `code` and `params`
// (strings): its message is English, for developers and scripts; the extension says
// the same in the analyst's language from the code (src/i18n/errors.ts). Service text
// only ever travels in a param, sanitised, inside a frame of Isolink's own words.

/**
 * The client's own validation codes and their English reasons, which follow the field
 * name ("max_uses must be a whole number"). `$1`.. are the details after the field.
 */
// English words, for the library and the command; the extension says codes in the analyst's language (wxt.config.ts leaves these out of its worker).
const OWN_VALIDATION_REASONS = {
  empty: 'must not be empty',
  tooMany: 'must hold at most $1 entries',
  tooBig: 'must be at most $1',
  tooShort: 'must be at least $1 characters',
  tooFew: 'must hold at least $1 entries',
  tooSmall: 'must be at least $1',
  notPositive: 'must be positive',
  notInteger: 'must be a whole number',
  notPositiveInteger: 'must be a positive whole number',
  notText: 'must be text',
  notNumber: 'must be a number',
  notBoolean: 'must be true or false',
  notObject: 'must be an object',
  notList: 'must be a list',
  notDate: 'must be a date',
  wrongType: 'must be of type $1',
  unknownParameter: 'is not a known parameter',
  unsupportedForm: 'has an unsupported form',
  notIpOrCidr: 'must be an IPv4 or IPv6 address or CIDR',
  notTimeZone: 'must be an IANA time zone name such as Europe/Berlin',
  notAcceptLanguage: 'must be an Accept-Language value such as en-US,en;q=0.9',
  notCategory: 'must be a lower-case category name',
  notEgressLocation: 'must be a known egress location name',
  notIpOrFqdn: 'must be an IP address or a fully qualified domain name',
  notPort: 'must be 1 to 65535',
  identityBoth: 'and org are mutually exclusive: give one',
  identityMissing: 'or org is required',
  urlRequired: 'is required unless session_type is $1',
  researchOnly: 'is only for research sessions (session_type $1)',
  notResearchParameter: 'is not a parameter of a research context',
  researchRequired: 'is required for a research context',
  noChange: 'must change at least one property',
  bulkUseUrls: 'is not a bulk parameter; use urls',
  notTokenSource: 'must be a string or a function returning one',
  notFile: 'must be a Blob, ArrayBuffer or Uint8Array',
  notCommandName: 'must be a command name',
  setauthReserved: 'setauth is added by the client',
  duplicateProxy: 'repeats $1; proxy names must be unique',
  expiresInvalid: 'is not a valid expiry',
  expiresPast: 'is in the past',
  expiresNotEpoch: 'must be a positive whole number of epoch seconds',
  expiresBadDate: 'is an invalid Date',
  expiresNotIso: 'must be an ISO 8601 timestamp',
  expiresBadSeconds: 'in_seconds must be a positive whole number',
} as const satisfies Record<string, string>;

/** Every validation code, with its English reason: the client's, the URL checks' and the policy rules'. */
export const VALIDATION_REASONS: Readonly<Record<ValidationCode, string>> = {
  ...URL_PROBLEMS,
  ...POLICY_PROBLEMS,
  ...OWN_VALIDATION_REASONS,
};

/** Why a ValidationError refused a value: the client's own codes, the URL check's and the policy check's. */
export type ValidationCode = keyof typeof OWN_VALIDATION_REASONS | UrlProblemCode | PolicyProblemCode;

export function isValidationCode(value: unknown): value is ValidationCode {
  return typeof value === 'string' && Object.hasOwn(VALIDATION_REASONS, value);
}

/** Codes of AuthError. */
export type AuthCode = 'authRejected' | 'authRejectedSaying' | 'authRefusedHttp' | 'authNoToken' | 'authMalformedToken';
/** Codes of ProtocolError: what about the reply did not fit. */
export type ProtocolCode =
  | 'replyTooLarge'
  | 'replyNotJson'
  | 'replyNotArray'
  | 'replySlotCount'
  | 'replyBadSetauth'
  | 'replySlotNotObject'
  | 'replySlotIdMismatch'
  | 'replySlotNoOutcome'
  | 'replyErrorNotText'
  | 'replyNoSlot'
  | 'replyShape'
  | 'fileReplyNotJson'
  | 'launchOutsideBase';
/** CommandError's code. */
export type CommandCode = 'commandRefused';
/** TimeoutError's code. */
export type TimeoutCode = 'timeout';
/** NetworkError's code. */
export type NetworkCode = 'unreachable';
/** HttpError's codes: with or without the service's (sanitised) text. */
export type HttpCode = 'httpStatus' | 'httpStatusText';

/** Every code an error of the client carries. */
export type ApiErrorCode = ValidationCode | AuthCode | ProtocolCode | CommandCode | TimeoutCode | NetworkCode | HttpCode;

/** English words of each AuthError code; `$1`.. are its params. */
// English words, for the library and the command; the extension says codes in the analyst's language (wxt.config.ts leaves these out of its worker).
export const AUTH_MESSAGES: Readonly<Record<AuthCode, string>> = {
  authRejected: 'The service rejected the admin token. Check the token in the options.',
  authRejectedSaying: 'The service rejected the admin token ($1). Check the token in the options.',
  authRefusedHttp: 'The service refused the token (HTTP $1). Check the token in the options.',
  authNoToken: 'No admin token is set. Enter the token in the options.',
  authMalformedToken: 'The admin token is malformed. Enter it again in the options.',
};

/** English words of each ProtocolError code; `$1`.. are its params. */
// English words, for the library and the command; the extension says codes in the analyst's language (wxt.config.ts leaves these out of its worker).
export const PROTOCOL_MESSAGES: Readonly<Record<ProtocolCode, string>> = {
  replyTooLarge: "The service's reply is larger than $1 bytes.",
  replyNotJson: 'The service sent a reply that is not JSON.',
  replyNotArray: 'The service sent a reply that is not a command array.',
  replySlotCount: 'The service answered $1 slots for $2 commands.',
  replyBadSetauth: 'The service sent a malformed setauth slot.',
  replySlotNotObject: 'The service sent a slot that is not an object.',
  replySlotIdMismatch: 'The service answered command $1 with the command_id of another command.',
  replySlotNoOutcome: 'The service sent a slot with neither a result nor an error.',
  replyErrorNotText: 'The service sent an error slot that is not text.',
  replyNoSlot: 'The service sent no slot for $1.',
  replyShape: "The service's reply to $1 has an unexpected shape at $2.",
  fileReplyNotJson: 'The service sent a putfile reply that is not JSON.',
  launchOutsideBase: 'The context id would build a launch URL outside the launch base.',
};

/** The codes of the errors whose English words are written in their class: CommandError's, TimeoutError's, NetworkError's and HttpError's. */
const CLASS_CODES: Readonly<Record<CommandCode | TimeoutCode | NetworkCode | HttpCode, true>> = {
  commandRefused: true,
  timeout: true,
  unreachable: true,
  httpStatus: true,
  httpStatusText: true,
};

/** Whether value is a code an error of the client carries: one of ApiErrorCode. */
export function isApiErrorCode(value: unknown): value is ApiErrorCode {
  return typeof value === 'string' && [VALIDATION_REASONS, AUTH_MESSAGES, PROTOCOL_MESSAGES, CLASS_CODES].some((codes) => Object.hasOwn(codes, value));
}

/** Base of every error the client throws: English `message`, and the same as data in `code` and `params`. */
export abstract class ApiError extends Error {
  abstract override readonly name: ApiErrorName;
  abstract readonly code: ApiErrorCode;
  /** The values the message holds, in order: `$1`, `$2`, ... of the code's words. */
  abstract readonly params: readonly string[];
}

/**
 * Rejected on the client side before anything was sent. `field` names the parameter;
 * `reason` is the English words that follow it; `params` are the field and then the
 * reason's values.
 */
export class ValidationError extends ApiError {
  override readonly name = 'ValidationError';
  readonly params: readonly string[];
  readonly reason: string;
  constructor(
    readonly field: string,
    readonly code: ValidationCode,
    details: readonly string[] = [],
  ) {
    const reason = fillTemplate(VALIDATION_REASONS[code], details);
    super(`${field} ${reason}`);
    this.reason = reason;
    this.params = [field, ...details];
  }
}

/** The service refused the admin token (an error slot after setauth, or HTTP 401/403), or none is set. */
export class AuthError extends ApiError {
  override readonly name = 'AuthError';
  readonly params: readonly string[];
  /** The HTTP status of an authRefusedHttp. */
  readonly status: number | undefined;
  /**
   * `detail` is the HTTP status for authRefusedHttp and the service's own words (already
   * sanitised) for authRejectedSaying.
   */
  constructor(
    readonly code: AuthCode = 'authRejected',
    detail?: number | string,
  ) {
    const params = code === 'authRefusedHttp' || code === 'authRejectedSaying' ? [String(detail ?? '')] : [];
    super(fillTemplate(AUTH_MESSAGES[code], params));
    this.params = params;
    this.status = typeof detail === 'number' ? detail : undefined;
  }
}

/** What kind of service error a command error is, as far as the text tells. */
export type CommandErrorKind = 'not_found' | 'no_org' | 'other';

/**
 * The service answered a command with an error slot. `serviceMessage` is sanitised
 * text; `params` are the command and that text.
 */
export class CommandError extends ApiError {
  override readonly name = 'CommandError';
  readonly code = 'commandRefused';
  readonly params: readonly string[];
  constructor(
    readonly command: string,
    readonly serviceMessage: string,
    readonly kind: CommandErrorKind = 'other',
  ) {
    super(`The service refused ${command}: ${serviceMessage}`);
    this.params = [command, serviceMessage];
  }
}

/** No answer within the time limit. For a create, whether it happened is unknown. `params`: the limit in seconds. */
export class TimeoutError extends ApiError {
  override readonly name = 'TimeoutError';
  readonly code = 'timeout';
  readonly params: readonly string[];
  constructor(readonly timeoutMs: number) {
    const seconds = String(Math.round(timeoutMs / 100) / 10);
    super(`The service did not answer within ${seconds} s. Try again, or check the service URL.`);
    this.params = [seconds];
  }
}

/**
 * The request did not complete: refused connection, DNS, TLS, or a refused redirect.
 * `params`: the service's host. The cause is a redacted summary.
 */
export class NetworkError extends ApiError {
  override readonly name = 'NetworkError';
  readonly code = 'unreachable';
  readonly params: readonly string[];
  constructor(host: string, cause?: { name: string; message: string }) {
    super(`Could not reach the service at ${host}. Check the service URL and the network; Isolink refuses redirects.`, cause ? { cause } : undefined);
    this.params = [host];
  }
}

/** The service answered with an HTTP status other than success. `params`: the status, and the (sanitised) body when there is one. */
export class HttpError extends ApiError {
  override readonly name = 'HttpError';
  readonly code: HttpCode;
  readonly params: readonly string[];
  constructor(
    readonly status: number,
    readonly bodySnippet: string,
  ) {
    super(`The service answered HTTP ${status}${bodySnippet ? `: ${bodySnippet}` : ''}`);
    this.code = bodySnippet ? 'httpStatusText' : 'httpStatus';
    this.params = bodySnippet ? [String(status), bodySnippet] : [String(status)];
  }
}

/** The reply did not have the shape the protocol requires. */
export class ProtocolError extends ApiError {
  override readonly name = 'ProtocolError';
  readonly params: readonly string[];
  constructor(
    readonly code: ProtocolCode,
    ...params: string[]
  ) {
    super(fillTemplate(PROTOCOL_MESSAGES[code], params));
    this.params = params;
  }
}

function hasName(error: unknown, name: ApiErrorName): boolean {
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === name;
}

/** Whether `error` is any error the client throws (also across realms, by name). */
export const isApiError = (error: unknown): error is ApiError =>
  error instanceof ApiError ||
  (['ValidationError', 'AuthError', 'CommandError', 'TimeoutError', 'NetworkError', 'HttpError', 'ProtocolError'] as const).some((name) =>
    hasName(error, name),
  );
/** Whether `error` is a ValidationError (also across realms, by name). */
export const isValidationError = (error: unknown): error is ValidationError => error instanceof ValidationError || hasName(error, 'ValidationError');
/** Whether `error` is an AuthError (also across realms, by name). */
export const isAuthError = (error: unknown): error is AuthError => error instanceof AuthError || hasName(error, 'AuthError');
/** Whether `error` is a CommandError (also across realms, by name). */
export const isCommandError = (error: unknown): error is CommandError => error instanceof CommandError || hasName(error, 'CommandError');
/** Whether `error` is a TimeoutError (also across realms, by name). */
export const isTimeoutError = (error: unknown): error is TimeoutError => error instanceof TimeoutError || hasName(error, 'TimeoutError');
/** Whether `error` is a NetworkError (also across realms, by name). */
export const isNetworkError = (error: unknown): error is NetworkError => error instanceof NetworkError || hasName(error, 'NetworkError');
/** Whether `error` is an HttpError (also across realms, by name). */
export const isHttpError = (error: unknown): error is HttpError => error instanceof HttpError || hasName(error, 'HttpError');
/** Whether `error` is a ProtocolError (also across realms, by name). */
export const isProtocolError = (error: unknown): error is ProtocolError => error instanceof ProtocolError || hasName(error, 'ProtocolError');
