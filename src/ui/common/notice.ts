/**
 * Inline messages under the controls that caused them, and the words for an error.
 * Both pages use these; each gives its own fallback text (what to do when the
 * background did not answer as expected).
 */
import { RemoteError } from '../../messaging/page';

/** Longest error text shown; the background already truncates, this is a second guard. */
const MAX_ERROR_LENGTH = 400;

/** A message shown under the controls that caused it. */
export interface Notice {
  readonly kind: 'ok' | 'error' | 'info';
  readonly text: string;
  /** For validation errors: the field the background named. */
  readonly field?: string;
}

export function okNotice(text: string): Notice {
  return { kind: 'ok', text };
}

export function infoNotice(text: string): Notice {
  return { kind: 'info', text };
}

export function errorNotice(text: string, field?: string): Notice {
  return field === undefined ? { kind: 'error', text } : { kind: 'error', text, field };
}

function clip(text: string): string {
  return text.length > MAX_ERROR_LENGTH ? `${text.slice(0, MAX_ERROR_LENGTH)}…` : text;
}

/** The field an error names, when it names one (RemoteError and ValidationError carry `field`). */
export function errorField(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('field' in error)) return undefined;
  const field: unknown = error.field;
  return typeof field === 'string' && field !== '' ? field : undefined;
}

/**
 * Words for an error. Errors from the background carry words for the user (what failed,
 * what to do), with the field they name put first when the message leaves it out.
 * Anything else (the messaging layer failing, a bug) gets `fallback`, which says what to do.
 */
export function errorText(error: unknown, fallback: string): string {
  if (!(error instanceof RemoteError)) return fallback;
  const message = error.message.trim();
  if (message === '') return fallback;
  const field = errorField(error);
  return clip(field !== undefined && !message.includes(field) ? `${field}: ${message}` : message);
}

/** An error as a notice: its words, and the field it names. */
export function failureNotice(error: unknown, fallback: string): Notice {
  return errorNotice(errorText(error, fallback), error instanceof RemoteError ? errorField(error) : undefined);
}
