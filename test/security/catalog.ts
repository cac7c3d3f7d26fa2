/**
 * The properties the security suite proves, in the order of the issue. The report prints
 * one row per property: what held in this run, how it was tested, how many cases.
 */
export interface Property {
  readonly id: string;
  /** The item. */
  readonly item: number;
  readonly title: string;
  /** How it is tested, in one sentence. */
  readonly how: string;
}

export const CATALOG: readonly Property[] = [
  {
    id: 'canary-session',
    item: 1,
    title: 'The admin token never leaves the allowed places (session-only mode)',
    how: 'Chromium, production build, random canary token typed into the options page; every flow and error path; scanned every request (Playwright page+worker, CDP Network on the worker and offscreen document, simulator log), tab URL, console message, exception, notification, page DOM, reply to a page, clipboard, storage area and every file of the closed profile, for every form of the canary (plain, URL- and form-encoded, JSON-escaped once and twice, base64 and base64url at each alignment, UTF-16 on disk, any 16-character piece)',
  },
  {
    id: 'canary-remember',
    item: 1,
    title: 'The admin token never leaves the allowed places ("Remember on this device")',
    how: 'As above with "Remember on this device" ticked: the canary may be in storage.local and in the profile\'s Local Extension Settings (LevelDB) only; finding it there is the scanner\'s positive control',
  },
  {
    id: 'redirects',
    item: 2,
    title: '307/308 redirects are refused: the redirect target receives nothing, the user sees a clear error',
    how: 'Chromium: the simulator answers 307 and 308 towards a second local server for /api/, /getfile/ and /putfile/, through the menus, shortcut, omnibox, popup and options messages',
  },
  {
    id: 'ctx-never',
    item: 2,
    title: 'The GET /ctx/ shortcut (token in the query string) is never requested',
    how: 'Every simulator log and every browser request of every Chromium run of the suite',
  },
  {
    id: 'urls-refused',
    item: 3,
    title: 'Hostile inputs are refused at every entry point: a clear message, nothing sent, no tab',
    how: 'Chromium: a table of hostile inputs through the link, research, selection and page menus, the shortcut, the omnibox, the popup (isolate, bulk, current tab)',
  },
  {
    id: 'urls-real-host',
    item: 3,
    title: 'Deceptive http(s) links (userinfo, backslashes, IDN homographs, upper case) are judged by their real host and never opened locally',
    how: 'Chromium: the create is sent for the parsed URL, domain_allow names the real (punycode) host, the only tab is the launch URL',
  },
  {
    id: 'launch-outside',
    item: 3,
    title: 'A service reply that would build a launch URL outside the launch base opens nothing',
    how: 'Chromium against a scripted local service answering hostile context ids; fast-check over arbitrary URLs against isLaunchUrl and arbitrary ids against client.launchUrl',
  },
  {
    id: 'url-properties',
    item: 3,
    title: 'Target URL rules hold for arbitrary strings and URLs',
    how: 'fast-check: checkTargetUrl and the target resolver (resolveLink, resolveText, every unwrap mode) over arbitrary strings, web URLs, scheme-prefixed strings and links wrapped by every mail-gateway format (hostile targets inside); refused schemes spelled every way the URL parser accepts (case, tabs and newlines inside, leading control characters), alone and wrapping a link',
  },
  {
    id: 'messages-web',
    item: 4,
    title: 'A web page cannot reach the background: no externally_connectable, no framing, no fetch of extension files',
    how: 'Chromium: a real web page on 127.0.0.1 tries runtime.sendMessage(extensionId, …), framing options.html and mail.html and fetching manifest.json',
  },
  {
    id: 'messages-subframe',
    item: 4,
    title: 'An extension page cannot be framed, even by another extension page (no sub-frame sender can exist)',
    how: "Chromium: the popup frames options.html and mail.html, the options page frames the popup and itself, the reported mail page the options page and itself; every frame is blocked (frame-ancestors 'none'); unit tests cover a sub-frame sender at the router",
  },
  {
    id: 'messages-arbitrary',
    item: 4,
    title: 'Arbitrary payloads from real extension pages: no side effect, no throw, no pollution',
    how: "Chromium: fast-check payloads (JSON with __proto__/constructor keys) sent with runtime.sendMessage from the popup, options and reported mail pages, and from each page every message type it may not send (refused; the mail page may send only getStatus, getSettings, bulkCreate and openContexts); storage, simulator log and the worker's prototypes compared before and after",
  },
  {
    id: 'settings-import',
    item: 5,
    title: 'Arbitrary imports: a rejected import leaves storage byte-identical; an accepted one is valid; Object.prototype stays clean',
    how: 'fast-check over arbitrary JSON, mutated exports and hostile keys against importSettings (fake browser storage), with @fast-check/poisoning',
  },
  {
    id: 'settings-managed',
    item: 5,
    title: 'Arbitrary managed policies never throw, keep only valid keys and pollute nothing',
    how: 'fast-check over arbitrary managed storage contents against readManagedPolicy/readSettingsView, and storage.managed answering something other than an object',
  },
  {
    id: 'settings-e2e',
    item: 5,
    title: 'Hostile imports in Chromium leave every storage area byte-identical and the worker unpolluted',
    how: "Chromium: __proto__, constructor, wrong types, huge lists, unknown keys, a token field, over-size files imported through the options page's message",
  },
  {
    id: 'replies-client',
    item: 6,
    title: 'Arbitrary service replies: a valid result or an ApiError, never another throw, never the token',
    how: 'fast-check: a local HTTP server answers arbitrary JSON, status and content type to every client method',
  },
  {
    id: 'sanitize',
    item: 6,
    title: 'Service text shown to the user never carries the token',
    how: "fast-check over service texts built from the token's forms, its pieces and filler, against sanitizeServiceText",
  },
  {
    id: 'faults-e2e',
    item: 6,
    title: 'Every fault switch at every entry point: a typed error, a clear notification, no tab, settings intact',
    how: 'Chromium: every simulator fault switch through each entry point',
  },
  {
    id: 'lifecycle-restart',
    item: 7,
    title: 'Every entry point works after the service worker is stopped, five times in a row',
    how: 'Chromium: CDP ServiceWorker.stopAllWorkers before each use of each entry point',
  },
  {
    id: 'lifecycle-no-replay',
    item: 7,
    title: 'A worker stopped mid-request never replays a create',
    how: 'Chromium: the simulator holds the create; the worker is stopped, woken and watched',
  },
  {
    id: 'double-click',
    item: 7,
    title: 'A double click creates one context',
    how: 'Chromium: two clicks on the same link (menu) and two Opens (popup) while the create is held',
  },
  {
    id: 'concurrent-state',
    item: 7,
    title: "Concurrent actions keep every notification's Retry and every recent context",
    how: 'Chromium: ten failing and ten succeeding isolations fired at once from the link menu; the kept notification actions and the recent list are read back',
  },
  {
    id: 'popup-close',
    item: 7,
    title: 'Closing the popup right after "Open" still opens the tab',
    how: 'Chromium: the popup is closed while the create is held',
  },
  {
    id: 'no-unhandled',
    item: 7,
    title: 'No uncaught error or unhandled rejection in any context over the whole suite',
    how: 'pageerror and console errors of every extension page, console errors of the worker, CDP Runtime.exceptionThrown and Log errors of the worker and the offscreen document (with a positive control: a deliberate unhandled rejection in the worker must be seen)',
  },
  {
    id: 'manifest-chrome',
    item: 8,
    title: 'The Chrome manifest equals the reviewed snapshot',
    how: 'Production build (wxt build, output in .security-output), compared exactly (but for the version) with test/security/manifest.chrome.json; plus no content scripts, no web-accessible resource but the landing page (in Chrome through its dynamic URL only), no externally_connectable, no forbidden permission, and a strict CSP',
  },
  {
    id: 'manifest-firefox',
    item: 8,
    title: 'The Firefox manifest equals the reviewed snapshot (Manifest V3)',
    how: 'wxt build -b firefox into .security-output, compared exactly (but for the version) with test/security/manifest.firefox.json; same surface checks',
  },
  {
    id: 'bundle-sinks',
    item: 8,
    title: 'No eval, new Function, string timers or remote import() in the built bundles',
    how: "Every .js file (eval, new Function, Function(), string timers, remote or computed import()) and .html file (inline handlers and scripts, remote scripts, javascript: URLs) of the Chrome and Firefox builds, with a positive control per pattern; four sinks of pdf.js in the decoder's script are reviewed and allowed where they stand, each matched by its code (its check whether eval is allowed, PostScript compiled only with `isEvalSupported`, which is off, its JPEG 2000 and stand-in worker imports, never reached), and none could run code from a string under the decoder's policy (no `'unsafe-eval'`)",
  },
  {
    id: 'lint-rules',
    item: 8,
    title: 'The lint rules against HTML sinks, code from strings, storage.sync and super-linear regexes are configured',
    how: "ESLint's computed config for src/ and entrypoints/ files",
  },
  {
    id: 'audit',
    item: 8,
    title: 'No high or critical advisory in production dependencies',
    how: 'npm audit --omit=dev --audit-level=high as a child process',
  },
  {
    id: 'token-encodings',
    item: 10,
    title: 'The token never shows in service text, in any encoding',
    how: 'fast-check: generated tokens (token characters, and ones that need escaping) raw, percent-encoded (reserved only, every byte, either case), JSON-escaped (\\/, \\u), HTML entities (decimal, hex, named), nested (JSON in percent, percent in JSON, HTML in JSON) and base64 (standard and URL-safe, at every alignment inside a longer value), through redactSecrets and sanitizeServiceText, placed across the 10,000-character cut',
  },
  {
    id: 'linear-fang',
    item: 9,
    title: 'defang, refang, extractUrls and unwrap stay linear on adversarial floods',
    how: 'Time ratio between 1 MiB and 256 KiB inputs (text floods for the three, hostile wrapped links for unwrap), median of 3 runs (3 more, twice at most, while at or over the bound), must stay under 10 (quadratic gives ~16; a quadratic control must fail it)',
  },
  {
    id: 'mail-hostile',
    item: 9,
    title: 'A hostile mail never makes linksInMail throw, and every refusal says why',
    how: 'fast-check: arbitrary bytes, compound-file headers with arbitrary sectors, and real mails cut, spliced and corrupted at random places (boundaries, encodings, charsets, headers), through linksInMail with each format; every answer is a report or a failure with a known code and words',
  },
  {
    id: 'linear-mail',
    item: 9,
    title: 'linksInMail stays linear on hostile mails',
    how: 'Time ratio between 4 MiB and 1 MiB mails (links, nested elements, defanged text, parts, attribute floods, conditional comments, scripts in the body and in an attached SVG), median of 3 runs, must stay under 10 (quadratic gives ~16)',
  },
];

export const CATALOG_IDS = new Set(CATALOG.map((property) => property.id));
