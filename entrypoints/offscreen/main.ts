// Chrome only: copies text for the service worker, which has no DOM.
import { browser } from 'wxt/browser';
import { isOffscreenCopy } from '../../src/messaging/offscreen';

function copy(text: string): boolean {
  const area = document.createElement('textarea');
  area.value = text;
  document.body.append(area);
  area.select();
  // eslint-disable-next-line @typescript-eslint/no-deprecated -- the one copy that works without focus, which an offscreen document never has
  const ok = document.execCommand('copy');
  area.remove();
  return ok;
}

browser.runtime.onMessage.addListener((message: unknown, sender, sendResponse) => {
  // Only the background of this extension may ask (pages have their own clipboard).
  if (sender.id !== browser.runtime.id || sender.url !== browser.runtime.getURL('/background.js')) return false;
  if (!isOffscreenCopy(message)) return false;
  sendResponse(copy(message.text));
  return false;
});
