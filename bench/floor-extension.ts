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
export const FLOOR_LANDING = 'floor-landing.html';
/** In the landing floor's request body (`FloorLanding.body`): where the target goes, JSON-escaped. */
export const FLOOR_TARGET = '@@target@@';

/** What the floor's one storage read returns (storage.local key `floor`). */
export interface FloorConfig {
  readonly apiUrl: string;
  readonly body: string;
  readonly launchPrefix: string;
}

/** What the landing floor's one storage read returns (storage.local key `floorLanding`). */
export interface FloorLanding {
  readonly apiUrl: string;
  /** A create request's body with `FLOOR_TARGET` where the target URL goes. */
  readonly body: string;
  readonly launchPrefix: string;
}

/**
 * The landing floor's one network rule, as Isolink's `from` rules are built
 * (src/autoisolate): main frames started by a page of `site` to another site, redirected by
 * a regular expression to the landing page with the whole URL in its fragment.
 */
export function landingFloorRule(base: string, site: string): Record<string, unknown> {
  return {
    id: 1,
    priority: 2,
    action: { type: 'redirect', redirect: { regexSubstitution: `${base}/${FLOOR_LANDING}#u=\\0` } },
    condition: { regexFilter: '^https?://.*', initiatorDomains: [site], excludedRequestDomains: [site], resourceTypes: ['main_frame'] },
  };
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
  if (message.type === 'landed') {
    chrome.storage.local.get('floorLanding').then(async ({ floorLanding: floor }) => {
      const target = message.hash.slice('#u='.length);
      const response = await fetch(floor.apiUrl, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: floor.body.replace('${FLOOR_TARGET}', JSON.stringify(target).slice(1, -1)),
      });
      const reply = await response.json();
      sendResponse(floor.launchPrefix + encodeURIComponent(reply[1].result.browse_context_id));
    });
    return true;
  }
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

const LANDING = String.raw`<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <title>Isolink bench landing floor</title>
    <script src="/floor-landing.js"></script>
  </head>
</html>
`;

const LANDING_SCRIPT = String.raw`chrome.runtime.sendMessage({ type: 'landed', hash: location.hash }).then((url) => location.replace(url));
`;

const PAGE_STYLE = 'body { font: 14px system-ui, sans-serif; margin: 0; min-width: 360px; }\n';

/** Writes the floor extension into dir (created); returns dir. */
export function writeFloorExtension(dir: string): string {
  mkdirSync(dir, { recursive: true });
  const manifest = {
    manifest_version: 3,
    name: 'Isolink bench floor',
    version: '1.0.0',
    permissions: ['storage', 'contextMenus', 'declarativeNetRequest'],
    host_permissions: ['http://127.0.0.1/*', 'http://localhost/*'],
    background: { service_worker: FLOOR_WORKER },
    web_accessible_resources: [{ resources: [FLOOR_LANDING], matches: ['<all_urls>'] }],
  };
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2));
  writeFileSync(join(dir, FLOOR_WORKER), WORKER);
  writeFileSync(join(dir, FLOOR_PAGE), PAGE);
  writeFileSync(join(dir, 'floor-page.js'), PAGE_SCRIPT);
  writeFileSync(join(dir, 'floor-page.css'), PAGE_STYLE);
  writeFileSync(join(dir, FLOOR_LANDING), LANDING);
  writeFileSync(join(dir, 'floor-landing.js'), LANDING_SCRIPT);
  return dir;
}
