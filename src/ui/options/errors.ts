/** The options page's words for errors; the rules are common (see ../common/notice). */
import { t } from '../../i18n';
import { NoAnswerError } from '../../messaging/page';
import { errorText as commonErrorText, failureNotice, type Notice } from '../common/notice';

/** What to do when there are no words from the background: reload, and say so when it did not answer at all. */
function fallback(error: unknown): string {
  return error instanceof NoAnswerError ? t('optionsErrorNoAnswer') : t('optionsErrorUnknown');
}

/** Words for an error; anything but a background error asks to reload the page. */
export function errorText(error: unknown): string {
  return commonErrorText(error, fallback(error));
}

/** An error as a notice. */
export function failed(error: unknown): Notice {
  return failureNotice(error, fallback(error));
}
