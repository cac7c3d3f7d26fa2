/**
 * The cold floor: a minimal MV3 extension that does for a menu click only what any
 * extension must. Its worker (a classic script, as Isolink's) registers the same listener in its
 * first turn; on a click it makes one storage read (the service's URL and the request
 * body Isolink sent, token included), POSTs that body, reads the context id from the
 * reply and opens the same launch URL beside the source tab. No validation, no settings,
 * no client, no messages: what Isolink's cold click is compared with (figure 3).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const FLOOR_WORKER = 'floor-worker.js';

/** What the floor's one storage read returns (storage.local key `floor`). */
export interface FloorConfig {
  readonly apiUrl: string;
  readonly body: string;
  readonly launchPrefix: string;
}

const WORKER = String.raw`chrome.runtime.onInstalled.addListener(() => {
  chrome.contextMenus.create({ id: 'isolate-link', title: 'Open in isolation (floor)', contexts: ['link'] });
});
chrome.contextMenus.onClicked.addListener(async (info, tab) => {
  const { floor } = await chrome.storage.local.get('floor');
  const response = await fetch(floor.apiUrl, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: floor.body,
  });
  const reply = await response.json();
  const id = reply[1].result.browse_context_id;
  await chrome.tabs.create({
    url: floor.launchPrefix + encodeURIComponent(id),
    active: true,
    index: tab.index + 1,
    windowId: tab.windowId,
    openerTabId: tab.id,
  });
});
`;

/** Writes the floor extension into dir (created); returns dir. */
export function writeFloorExtension(dir: string): string {
  mkdirSync(dir, { recursive: true });
  const manifest = {
    manifest_version: 3,
    name: 'Isolink bench floor',
    version: '1.0.0',
    permissions: ['storage', 'contextMenus'],
    host_permissions: ['http://127.0.0.1/*'],
    background: { service_worker: FLOOR_WORKER },
  };
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2));
  writeFileSync(join(dir, FLOOR_WORKER), WORKER);
  return dir;
}
