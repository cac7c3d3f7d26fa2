/**
 * Why an action failed, in words an analyst can act on, and what to offer next.
 * Every failure ends here: the suspicious link is never opened locally.
 */
import { isApiError, isAuthError, isCommandError, isHttpError, isNetworkError, isProtocolError, isTimeoutError, isValidationError } from '../api';
import { t } from '../i18n';
import { apiErrorText } from '../i18n/errors';
import type { TargetUrlProblemCode } from '../net/url';
import { ManagedPolicyUnavailableError } from '../settings/store';

/** The set-up is incomplete: no service URL, identity or token. */
export class NotConfiguredError extends Error {
  override readonly name = 'NotConfiguredError';
}

/** The extension may not reach the service's origin (not granted, or revoked). */
export class PermissionMissingError extends Error {
  override readonly name = 'PermissionMissingError';
  constructor(readonly origin: string) {
    super(t('errorPermission', origin));
  }
}

/** The input is not a link Isolink isolates (scheme, length, not a URL). `code` says why, when a URL check refused it. */
export class RefusedUrlError extends Error {
  override readonly name = 'RefusedUrlError';
  constructor(
    message: string,
    readonly code?: TargetUrlProblemCode,
  ) {
    super(message);
  }
}

/** A request the background will not carry out (a managed token, malformed choices). */
export class RequestRefusedError extends Error {
  override readonly name = 'RequestRefusedError';
}

/** The service answered with a launch URL outside the configured launch base. */
export class LaunchRefusedError extends Error {
  override readonly name = 'LaunchRefusedError';
  constructor() {
    super(t('errorLaunchRefused'));
  }
}

/** What the notification offers. */
export type NextStep = 'options' | 'retry' | 'none';

export interface Failure {
  readonly title: string;
  readonly message: string;
  readonly next: NextStep;
}

/**
 * The analyst's words for an error that is sent to a page or shown: the client's errors
 * from their code (never their English message), Isolink's own background errors as
 * they are (built with t()), anything else as little as is safe.
 */
export function errorText(error: unknown): string {
  const api = apiErrorText(error);
  if (api !== undefined) return api;
  return error instanceof Error && error.message !== '' ? error.message : t('errorSomethingWrong');
}

/** Turns any error into a notification's words. Unknown errors say as little as is safe. */
export function describeFailure(error: unknown): Failure {
  if (error instanceof NotConfiguredError) return { title: t('failNotConfigured'), message: error.message, next: 'options' };
  if (error instanceof PermissionMissingError) return { title: t('failPermission'), message: error.message, next: 'options' };
  if (error instanceof RefusedUrlError) return { title: t('failRefusedUrl'), message: error.message, next: 'none' };
  if (error instanceof ManagedPolicyUnavailableError) return { title: t('failRefused'), message: error.message, next: 'retry' };
  if (error instanceof RequestRefusedError) return { title: t('failRefused'), message: error.message, next: 'none' };
  if (error instanceof LaunchRefusedError) return { title: t('failLaunchRefused'), message: error.message, next: 'options' };
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
