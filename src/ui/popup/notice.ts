/**
 * Inline messages: results and errors of requests, as text.
 */
import { RemoteError } from '../../messaging/page';
import { t } from '../../i18n';

/** Longest error text shown; the background already truncates, this is a second guard. */
const MAX_ERROR_LENGTH = 400;

/** A message shown under the controls that caused it. */
export interface Notice {
  readonly kind: 'ok' | 'error';
  readonly message: string;
  /** For validation errors: the field the background named. */
  readonly field?: string;
}

export function okNotice(message: string): Notice {
  return { kind: 'ok', message };
}

function clip(text: string): string {
  return text.length > MAX_ERROR_LENGTH ? `${text.slice(0, MAX_ERROR_LENGTH)}…` : text;
}

/**
 * Errors from the background carry words for the analyst (what failed, what to do).
 * Anything else means the background did not answer as expected.
 */
export function errorNotice(error: unknown): Notice {
  if (error instanceof RemoteError && error.message !== '') {
    const message = clip(error.message);
    return error.field === undefined ? { kind: 'error', message } : { kind: 'error', message, field: error.field };
  }
  return { kind: 'error', message: t('popupErrorNoAnswer') };
}

/** Copies text and says whether it worked. */
export async function copyNotice(copyText: (text: string) => Promise<void>, text: string): Promise<Notice> {
  try {
    await copyText(text);
    return okNotice(t('popupCopied'));
  } catch {
    return { kind: 'error', message: t('popupCopyFailed') };
  }
}
