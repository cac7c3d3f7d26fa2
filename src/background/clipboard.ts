/**
 * Clipboard writes from the background. Chrome's service worker has no DOM: it asks an
 * offscreen document (reason CLIPBOARD) to copy. Firefox's event page has a DOM and
 * the clipboardWrite permission, so it writes directly.
 */
import { browser } from 'wxt/browser';
import { t } from '../i18n';
import { OFFSCREEN_COPY, type OffscreenCopyMessage } from '../messaging/offscreen';

const OFFSCREEN_PATH = '/offscreen.html';

async function ensureOffscreenDocument(): Promise<void> {
  const url = chrome.runtime.getURL(OFFSCREEN_PATH);
  const contexts = await chrome.runtime.getContexts({
    contextTypes: [chrome.runtime.ContextType.OFFSCREEN_DOCUMENT],
    documentUrls: [url],
  });
  if (contexts.length > 0) return;
  try {
    await chrome.offscreen.createDocument({
      url: OFFSCREEN_PATH,
      reasons: [chrome.offscreen.Reason.CLIPBOARD],
      justification: t('offscreenJustification'),
    });
  } catch (error) {
    // Two copies at once may both try to create it; the second finds it there.
    const again = await chrome.runtime.getContexts({ contextTypes: [chrome.runtime.ContextType.OFFSCREEN_DOCUMENT], documentUrls: [url] });
    if (again.length === 0) throw error;
  }
}

/** Writes `text` to the clipboard; rejects when the browser refused. */
export async function copyText(text: string): Promise<void> {
  if (import.meta.env.FIREFOX) {
    await navigator.clipboard.writeText(text);
    return;
  }
  await ensureOffscreenDocument();
  const message: OffscreenCopyMessage = { target: OFFSCREEN_COPY, text };
  const ok: unknown = await browser.runtime.sendMessage(message);
  if (ok !== true) throw new Error(t('errorClipboardRefused'));
}
