/** The options page's words for errors; the rules are common (see ../common/notice). */
import { t } from '../../i18n';
import { errorText as commonErrorText, failureNotice, type Notice } from '../common/notice';

/** Words for an error; anything but a background error asks to reload the page. */
export function errorText(error: unknown): string {
  return commonErrorText(error, t('optionsErrorUnknown'));
}

/** An error as a notice. */
export function failed(error: unknown): Notice {
  return failureNotice(error, t('optionsErrorUnknown'));
}
