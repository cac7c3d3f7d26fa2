/**
 * Why an action failed, in words an analyst can act on, and what to offer next.
 * Every failure ends here: the suspicious link is never opened locally.
 */
import { isApiError, isAuthError, isCommandError, isHttpError, isNetworkError, isProtocolError, isTimeoutError, isValidationError } from '../api';
import { t, type MessageKey } from '../i18n';
import { REFUSED_URL_MESSAGE_KEYS, apiErrorText } from '../i18n/errors';
import type { TargetUrlProblemCode } from '../net/url';
import { ManagedPolicyUnavailableError } from '../settings/store';

/**
 * The background's own failures, as data: the locale message that says what went wrong
 * and its values. None holds translated text; errorText and describeFailure say it in
 * the analyst's language where it is shown (a notification, a reply to a page).
 */
abstract class BackgroundError extends Error {
  abstract override readonly name: 'NotConfiguredError' | 'PermissionMissingError' | 'RefusedUrlError' | 'RequestRefusedError' | 'LaunchRefusedError';
  constructor(
    readonly key: MessageKey,
    readonly params: readonly string[] = [],
  ) {
    super(key);
  }
}

/** The set-up is incomplete or refused: no service URL, identity or token, a broken policy. */
export class NotConfiguredError extends BackgroundError {
  override readonly name = 'NotConfiguredError';
}

/** The extension may not reach the service's origin (not granted, or revoked). */
export class PermissionMissingError extends BackgroundError {
  override readonly name = 'PermissionMissingError';
  constructor(readonly origin: string) {
    super('errorPermission', [origin]);
  }
}

/** The input is not a link Isolink isolates (scheme, length, not a URL). `code` says why, when a URL check refused it. */
export class RefusedUrlError extends BackgroundError {
  override readonly name = 'RefusedUrlError';
  constructor(
    key: MessageKey,
    params: readonly string[] = [],
    readonly code?: TargetUrlProblemCode,
  ) {
    super(key, params);
  }

  /** The refusal of a URL check, by its code. */
  static of(code: TargetUrlProblemCode, params: readonly string[]): RefusedUrlError {
    return new RefusedUrlError(REFUSED_URL_MESSAGE_KEYS[code], params, code);
  }
}

/** A request the background will not carry out (a managed token, malformed choices). */
export class RequestRefusedError extends BackgroundError {
  override readonly name = 'RequestRefusedError';
}

/** The service answered with a launch URL outside the configured launch base. */
export class LaunchRefusedError extends BackgroundError {
  override readonly name = 'LaunchRefusedError';
  constructor() {
    super('errorLaunchRefused');
  }
}

/** What the notification offers. */
type NextStep = 'options' | 'retry' | 'none';

export interface Failure {
  readonly title: string;
  readonly message: string;
  readonly next: NextStep;
}

/**
 * The analyst's words for an error that is sent to a page or shown: the client's errors
 * and the background's own from their codes (never an English message), anything else as
 * little as is safe.
 */
export function errorText(error: unknown): string {
  if (error instanceof BackgroundError) return t(error.key, [...error.params]);
  if (error instanceof ManagedPolicyUnavailableError) return t('errorManagedUnavailable');
  const api = apiErrorText(error);
  if (api !== undefined) return api;
  return error instanceof Error && error.message !== '' ? error.message : t('errorSomethingWrong');
}

/** Turns any error into a notification's words. Unknown errors say as little as is safe. */
export function describeFailure(error: unknown): Failure {
  if (error instanceof NotConfiguredError) return { title: t('failNotConfigured'), message: errorText(error), next: 'options' };
  if (error instanceof PermissionMissingError) return { title: t('failPermission'), message: errorText(error), next: 'options' };
  if (error instanceof RefusedUrlError) return { title: t('failRefusedUrl'), message: errorText(error), next: 'none' };
  if (error instanceof ManagedPolicyUnavailableError) return { title: t('failRefused'), message: errorText(error), next: 'retry' };
  if (error instanceof RequestRefusedError) return { title: t('failRefused'), message: errorText(error), next: 'none' };
  if (error instanceof LaunchRefusedError) return { title: t('failLaunchRefused'), message: errorText(error), next: 'options' };
  if (isApiError(error)) {
    // The client's words are English: the message comes from the error's code.
    const message = apiErrorText(error) ?? t('failUnknownMessage');
    if (isAuthError(error)) return { title: t('failAuth'), message, next: 'options' };
    // A create that timed out may have happened: say so, whatever the limit was.
    if (isTimeoutError(error)) return { title: t('failTimeout'), message: t('failTimeoutMessage'), next: 'retry' };
    if (isNetworkError(error)) return { title: t('failNetwork'), message, next: 'retry' };
    if (isHttpError(error)) return { title: t('failHttp'), message, next: 'retry' };
    if (isProtocolError(error)) return { title: t('failProtocol'), message, next: 'retry' };
    if (isCommandError(error)) return { title: t('failCommand'), message, next: 'none' };
    if (isValidationError(error)) return { title: t('failValidation'), message, next: 'options' };
  }
  return { title: t('failUnknown'), message: t('failUnknownMessage'), next: 'retry' };
}
