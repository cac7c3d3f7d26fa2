/**
 * The landing page's address, as isolate-by-policy rules redirect to it and as the background
 * checks them: the extension's fixed origin (`chrome-extension://<id>`). Not
 * runtime.getURL('/isolate.html'): for a page web-accessible only through a dynamic URL,
 * Chrome answers that per-session address, which a rule must not carry (it changes at every
 * browser start, and the rules persist) and no web page should ever see.
 */
import { browser } from 'wxt/browser';

export function landingPage(): string {
  return new URL('/isolate.html', browser.runtime.getURL('/')).href;
}
