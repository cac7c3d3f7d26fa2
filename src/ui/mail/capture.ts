/**
 * The pixels a scan reads: the visible part of the tab, as the browser already drew it
 * (tabs.captureVisibleTab, under the grant the click or the shortcut gave). Nothing is
 * fetched from the page's site again, and nothing runs in the tab: Isolink has no scripting
 * permission, so a scan for one image reads the whole visible tab too, and when it shows
 * several codes they are all listed and none opens until chosen.
 */
import { browser } from 'wxt/browser';

import type { ScanRequest } from '../../messaging/scan';
import { base64ToBytes } from '../common/bytes';
import type { MailFile } from './deps';

/** The scan's pixels as a PNG file named for what it shows; rejects when the browser gives no capture (no grant). */
export async function captureScan(request: ScanRequest, names: { readonly tab: string; readonly image: string }): Promise<MailFile> {
  // A base64 data: URL, decoded here: the pages' policy lets them fetch no data: URL.
  const dataUrl = await browser.tabs.captureVisibleTab(request.windowId, { format: 'png' });
  const bytes = base64ToBytes(dataUrl.slice(dataUrl.indexOf(',') + 1));
  return { name: request.image ? names.image : names.tab, size: bytes.length, arrayBuffer: () => Promise.resolve(bytes.buffer) };
}
