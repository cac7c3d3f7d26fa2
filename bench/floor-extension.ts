/**
 * The floor: a minimal MV3 extension that does only what any extension must, loaded beside
 * Isolink in the same browser.
 *
 * - The cold floor (figure 3). Its worker (a classic script, as Isolink's) registers the
 *   same menu listener in its first turn; on a click it makes one storage read (the
 *   service's URL and the request body Isolink sent, token included), POSTs that body,
 *   reads the context id from the reply and opens the same launch URL beside the source
 *   tab. No validation, no settings, no client.
 * - The floor page (figure 4). A page with a script and a style sheet, as Isolink's pages
 *   have, that asks its worker the two questions Isolink's pages ask first (getStatus and
 *   getSettings, side by side); the worker answers each from one storage read, and the
 *   page shows the answer and marks itself ready. What any page that shows what its
 *   worker knows must wait for.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const FLOOR_WORKER = 'floor-worker.js';
export const FLOOR_PAGE = 'floor-page.html';

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
chrome.runtime.onMessage.addListener((message, sender, sendResponse) => {
  chrome.storage.local.get('floor').then(({ floor }) => sendResponse({ ok: true, value: { type: message.type, floor: floor ?? null } }));
  return true;
});
`;

const PAGE = String.raw`<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <title>Isolink bench floor</title>
    <script type="module" src="/floor-page.js"></script>
    <link rel="stylesheet" href="/floor-page.css">
  </head>
  <body>
    <div id="app"></div>
  </body>
</html>
`;

const PAGE_SCRIPT = String.raw`const ask = (type) => chrome.runtime.sendMessage({ type, data: {} });
Promise.all([ask('getStatus'), ask('getSettings')]).then((answers) => {
  const app = document.getElementById('app');
  app.textContent = answers.map((answer) => answer.value.type).join(', ');
  app.setAttribute('data-ready', 'true');
});
`;

const PAGE_STYLE = 'body { font: 14px system-ui, sans-serif; margin: 0; min-width: 360px; }\n';

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
  writeFileSync(join(dir, FLOOR_PAGE), PAGE);
  writeFileSync(join(dir, 'floor-page.js'), PAGE_SCRIPT);
  writeFileSync(join(dir, 'floor-page.css'), PAGE_STYLE);
  return dir;
}
