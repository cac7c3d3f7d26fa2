/**
 * The client's error taxonomy. One class per failure kind, each with a stable `name`
 * so that guards still work when an error has crossed a realm (a message between
 * extension pages, a structured clone) and lost its prototype.
 *
 * No message, stack or cause ever holds the token: service text is passed through
 * `sanitizeServiceText`, and transport causes are replaced by a redacted summary.
 */

/** Longest piece of service-supplied text kept in an error message. */
export const MAX_SERVICE_TEXT = 300;

const REDACTED = '[redacted]';

/**
 * Anything that looks like a credential: a long run of token characters. Context ids
 * and ordinary words are shorter; this errs on the side of hiding.
 */
const TOKEN_SHAPED = /[\w+=~-]{32,}/g;

/** Service text beyond this is not even read: the message keeps far less. */
const MAX_SCANNED_TEXT = 10_000;

/**
 * Makes service-supplied text safe to show: removes the token (and its URL-encoded
 * and JSON-escaped forms), anything token-shaped, and control characters, then
 * truncates.
 */
export function sanitizeServiceText(text: string, secrets: readonly string[] = []): string {
  // The known secret is removed from the WHOLE text first (its plain, URL-encoded, and
  // once- and twice-JSON-escaped forms), so no cut can leave a piece of it behind.
  let out = text;
  for (const secret of secrets) {
    if (secret.length === 0) continue;
    const json = JSON.stringify(secret).slice(1, -1);
    for (const form of new Set([secret, encodeURIComponent(secret), json, JSON.stringify(json).slice(1, -1)])) {
      out = out.split(form).join(REDACTED);
    }
  }
  out = out.slice(0, MAX_SCANNED_TEXT).replace(TOKEN_SHAPED, REDACTED);
  // eslint-disable-next-line no-control-regex -- stripping control characters is the point
  out = out.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
  return out.length > MAX_SERVICE_TEXT ? `${out.slice(0, MAX_SERVICE_TEXT)}…` : out;
}

export type ApiErrorName =
  | 'ValidationError'
  | 'AuthError'
  | 'CommandError'
  | 'TimeoutError'
  | 'NetworkError'
  | 'HttpError'
  | 'ProtocolError';

/** Base of every error the client throws. */
export abstract class ApiError extends Error {
  abstract override readonly name: ApiErrorName;
}

/** Rejected on the client side before anything was sent. `field` names the parameter. */
export class ValidationError extends ApiError {
  override readonly name = 'ValidationError';
  constructor(
    readonly field: string,
    readonly reason: string,
  ) {
    super(`${field} ${reason}`);
  }
}

/** The service refused the admin token (an error slot after setauth, or HTTP 401/403), or none is set. */
export class AuthError extends ApiError {
  override readonly name = 'AuthError';
  constructor(
    message = 'The service rejected the admin token. Check the token in the options.',
    readonly status?: number,
  ) {
    super(message);
  }
}

/** What kind of service error a command error is, as far as the text tells. */
export type CommandErrorKind = 'not_found' | 'no_org' | 'other';

/** The service answered a command with an error slot. `serviceMessage` is sanitised text. */
export class CommandError extends ApiError {
  override readonly name = 'CommandError';
  constructor(
    readonly command: string,
    readonly serviceMessage: string,
    readonly kind: CommandErrorKind = 'other',
  ) {
    super(`The service refused ${command}: ${serviceMessage}`);
  }
}

/** No answer within the time limit. For a create, whether it happened is unknown. */
export class TimeoutError extends ApiError {
  override readonly name = 'TimeoutError';
  constructor(readonly timeoutMs: number) {
    super(`The service did not answer within ${Math.round(timeoutMs / 100) / 10} s. Try again, or check the service URL.`);
  }
}

/** The request did not complete: refused connection, DNS, TLS, or a refused redirect. */
export class NetworkError extends ApiError {
  override readonly name = 'NetworkError';
  constructor(message: string, cause?: { name: string; message: string }) {
    super(message, cause ? { cause } : undefined);
  }
}

/** The service answered with an HTTP status other than success. */
export class HttpError extends ApiError {
  override readonly name = 'HttpError';
  constructor(
    readonly status: number,
    readonly bodySnippet: string,
  ) {
    super(`The service answered HTTP ${status}${bodySnippet ? `: ${bodySnippet}` : ''}`);
  }
}

/** The reply did not have the shape the protocol requires. */
export class ProtocolError extends ApiError {
  override readonly name = 'ProtocolError';
}

function hasName(error: unknown, name: ApiErrorName): boolean {
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === name;
}

export const isApiError = (error: unknown): error is ApiError =>
  error instanceof ApiError ||
  (['ValidationError', 'AuthError', 'CommandError', 'TimeoutError', 'NetworkError', 'HttpError', 'ProtocolError'] as const).some(
    (name) => hasName(error, name),
  );
export const isValidationError = (error: unknown): error is ValidationError =>
  error instanceof ValidationError || hasName(error, 'ValidationError');
export const isAuthError = (error: unknown): error is AuthError => error instanceof AuthError || hasName(error, 'AuthError');
export const isCommandError = (error: unknown): error is CommandError =>
  error instanceof CommandError || hasName(error, 'CommandError');
export const isTimeoutError = (error: unknown): error is TimeoutError =>
  error instanceof TimeoutError || hasName(error, 'TimeoutError');
export const isNetworkError = (error: unknown): error is NetworkError =>
  error instanceof NetworkError || hasName(error, 'NetworkError');
export const isHttpError = (error: unknown): error is HttpError => error instanceof HttpError || hasName(error, 'HttpError');
export const isProtocolError = (error: unknown): error is ProtocolError =>
  error instanceof ProtocolError || hasName(error, 'ProtocolError');
