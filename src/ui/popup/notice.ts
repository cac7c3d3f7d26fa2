/**
 * The popup's words for failures and copying; the notices themselves are common.
 */
import { t } from '../../i18n';
import { errorNotice, failureNotice, okNotice, type Notice } from '../common/notice';

/** An error as a notice; anything but a background error means the background did not answer. */
export function failed(error: unknown): Notice {
  return failureNotice(error, t('popupErrorNoAnswer'));
}

/** Copies text and says whether it worked. */
export async function copyNotice(copyText: (text: string) => Promise<void>, text: string): Promise<Notice> {
  try {
    await copyText(text);
    return okNotice(t('popupCopied'));
  } catch {
    return errorNotice(t('popupCopyFailed'));
  }
}
