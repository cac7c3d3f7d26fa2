import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { defineConfig } from 'wxt';

/**
 * Extension pages: only the extension's own code; the background reaches https services
 * and loopback; a page may frame the extension's own image decoder (and read its `.wasm`).
 * WebAssembly runs only in the decoder: in Chrome it is a sandboxed page with its own
 * policy (DECODER_CSP) and no other page may compile any; Firefox has no sandboxed pages,
 * so there the decoder is a worker under the one policy, which allows it, and every page
 * forbids it again in a `<meta>` policy of its own (test/unit/build-config.test.ts).
 */
function extensionPagesCsp(browser: string): string {
  return [
    "default-src 'none'",
    browser === 'firefox' ? "script-src 'self' 'wasm-unsafe-eval'" : "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self' https: http://127.0.0.1:* http://localhost:*",
    "frame-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** What each built page adds to the manifest's policy: its scripts are the extension's own, and no WebAssembly. */
const PAGE_META_CSP = "script-src 'self'";

/** The image decoder's page in Chrome: sandboxed (no extension API, an opaque origin), its own scripts and WebAssembly only. */
const DECODER_CSP = "sandbox allow-scripts; default-src 'none'; script-src 'self' 'wasm-unsafe-eval'";

/**
 * The service worker leaves out the English words of the error and settings codes: the
 * extension says every code in the analyst's language (src/i18n/errors.ts) and never shows
 * them; the library and the command keep them. Each table is marked by the comment line
 * WORDS_MARK; its quoted values become empty strings and its keys stay (the codes are
 * still checked with them). Measured: -0.84 kB gzip (bench/README.md, "The service
 * worker's budget"); test/unit/build-config.test.ts checks the built worker.
 */
const WORDS_MARK = '// English words, for the library and the command;';
function withoutEnglishWords(code: string): string {
  return code.replace(/^(\/\/ English words, for the library and the command;[^\n]*\n[^\n]*\{\n)([\s\S]*?)\n\}/gmu, (_table, head: string, body: string) => {
    const values = body.replace(/:\s*(?:'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")/gu, ": ''");
    return `${head}${values}\n}`;
  });
}

/** ZXing-C++'s WebAssembly, shipped in the extension beside the decoder's page. */
const DECODER_WASM = createRequire(import.meta.url).resolve('zxing-wasm/reader/zxing_reader.wasm');

// https://wxt.dev/api/config.html
export default defineConfig({
  srcDir: '.',
  // Manifest V3 for every browser (WXT would build Firefox as MV2 by default).
  manifestVersion: 3,
  // Benchmarks and parallel runs build elsewhere so they never race the tests' build.
  outDir: process.env['ISOLINK_OUT_DIR'] ?? '.output',
  // Explicit imports everywhere: a reader sees where every name comes from.
  imports: false,
  // No webextension-polyfill: every file imports WXT's `wxt/browser`, the browser's own
  // `browser` namespace where it has one (Firefox), else `chrome`. Every API Isolink calls
  // returns a promise natively in Chrome MV3 and Firefox (storage, tabs, permissions,
  // notifications, runtime.sendMessage/openOptionsPage/getContexts, offscreen; where a
  // browser gives no promise for contextMenus.removeAll the await passes at once and the
  // browser still runs it before the creates that follow; contextMenus.create and
  // omnibox.setDefaultSuggestion are not awaited) or is synchronous (i18n.getMessage, runtime.getURL, runtime.id); the one
  // runtime.onMessage listener of each side answers with sendResponse, never by returning a
  // promise, the case the polyfill exists for. Check any new browser API against this.
  webExt: { disabled: true },
  // The mail reader's Outlook parser decodes with iconv-lite, which needs Node's Buffer and
  // cannot load in a page: the pages decode with the browser's TextDecoder (src/readers/iconv-lite-pages.ts).
  vite: () => ({
    resolve: { alias: { 'iconv-lite': resolve(import.meta.dirname, 'src/readers/iconv-lite-pages.ts') } },
    plugins: [
      {
        // Every built page but the decoder's (public/, not built) forbids WebAssembly in its own
        // policy: in Firefox the manifest's policy allows it for the decoder. `wxt dev` loads
        // scripts from its server and is left alone.
        name: 'isolink-pages-no-wasm',
        apply: 'build',
        transformIndexHtml: () => [{ tag: 'meta', attrs: { 'http-equiv': 'Content-Security-Policy', content: PAGE_META_CSP }, injectTo: 'head-prepend' }],
      },
    ],
  }),
  hooks: {
    // The decoder's WebAssembly, from the zxing-wasm package into the extension's root.
    'build:publicAssets': (_wxt, files) => {
      files.push({ absoluteSrc: DECODER_WASM, relativeDest: 'zxing_reader.wasm' });
    },
    // Production builds make every entrypoint on its own instead of all in one group.
    // - The service worker: one file that imports nothing, holding only what the worker
    //   uses (shared chunks carried every export any page used, and six files gzip worse
    //   than one).
    // - Each page (popup, options, offscreen document): its own files, none shared with
    //   another page. A shared build split the pages' common code into small chunks (one of
    //   30 bytes); the options page loaded ten files and the popup five, and each file an
    //   extension page loads costs a round trip to the browser process before it runs.
    // `wxt dev` is left as WXT makes it.
    'entrypoints:grouped': (wxt, groups) => {
      if (wxt.config.command !== 'build') return;
      const alone: typeof groups = [];
      for (const group of groups) {
        if (!Array.isArray(group)) alone.push(group);
        else for (const entry of group) alone.push(entry.type === 'background' ? entry : [entry]);
      }
      groups.splice(0, groups.length, ...alone);
    },
    'vite:build:extendConfig': (entrypoints, config) => {
      if (entrypoints.length === 1 && entrypoints[0]?.type === 'background') {
        // The worker, built alone in production: minified by terser (two passes) rather than
        // Vite's default (Oxc). Its size has a guard (42 kB gzip, bench/README) and terser
        // takes 1.1% more out of it (the same source: 42,272 -> 41,825 bytes gzip -9), for
        // about five seconds more of build on this project's 2-core machines. The pages keep
        // the default: their budgets have room, and they are several times the code.
        const build = (config.build ??= {});
        build.minify = 'terser';
        build.terserOptions = { ecma: 2020, compress: { passes: 2, ecma: 2020 }, format: { ecma: 2020, comments: false } };
      }
      if (entrypoints.some((entry) => entry.type === 'background')) {
        (config.plugins ??= []).push({
          name: 'isolink-worker-without-english-words',
          enforce: 'pre',
          apply: 'build',
          transform: (code: string) => (code.includes(WORDS_MARK) ? { code: withoutEnglishWords(code), map: null } : undefined),
        });
      }
      if (entrypoints.length > 0 && entrypoints.every((entry) => entry.inputPath.endsWith('.html'))) {
        // The pages (popup, options, offscreen document), in production builds only (in
        // `wxt dev` the background shares the pages' group and all keeps WXT's defaults):
        // no modulepreload polyfill (0.3 kB gzip). Every browser Isolink supports (Chrome
        // 120+, Firefox 140+) has modulepreload, where the polyfill returns at once.
        // Preloading itself (the HTML's links, a lazy tab's dependencies) stays.
        const build = (config.build ??= {});
        if (build.modulePreload !== false) build.modulePreload = { ...(typeof build.modulePreload === 'object' ? build.modulePreload : {}), polyfill: false };
      }
    },
  },
  zip: {
    artifactTemplate: '{{name}}-{{packageVersion}}-{{browser}}-{{manifestVersion}}.zip',
    sourcesTemplate: '{{name}}-{{packageVersion}}-sources.zip',
    excludeSources: ['test-results/**', 'coverage/**', 'dist/**', '*.tgz'],
  },
  manifest: ({ browser }) => ({
    name: '__MSG_extName__',
    description: '__MSG_extDescription__',
    default_locale: 'en',
    icons: { 16: 'icons/16.png', 32: 'icons/32.png', 48: 'icons/48.png', 128: 'icons/128.png' },
    action: { default_title: '__MSG_actionTitle__', default_icon: { 16: 'icons/16.png', 32: 'icons/32.png' } },
    // declarativeNetRequest: isolate by policy stops navigations with network rules (src/autoisolate).
    permissions: [
      'storage',
      'contextMenus',
      'notifications',
      'activeTab',
      'clipboardWrite',
      'declarativeNetRequest',
      ...(browser === 'firefox' ? [] : ['offscreen']),
    ],
    // The bundled simulator runs on loopback: reachable without a prompt.
    host_permissions: ['http://127.0.0.1/*', 'http://localhost/*'],
    // A real service: its exact origin is requested from a click in the options page. Isolate
    // by policy redirects only where it has host access: every site (`from`) or the `to`
    // domains, requested from a click in the options page too.
    optional_host_permissions: ['https://*/*', 'http://*/*'],
    // The landing page a rule redirects a stopped navigation to: a redirect reaches only a
    // web-accessible page. In Chrome only through the per-session dynamic URL, which no rule
    // uses: the rules' static URL is reached by the browser's redirect and by no web page
    // (the router answers no page at the dynamic URL). Firefox has no dynamic URL; there the
    // page checks the key only the rules carry (src/autoisolate, landingOf and reasonOf).
    web_accessible_resources: [{ resources: ['isolate.html'], matches: ['<all_urls>'], ...(browser === 'firefox' ? {} : { use_dynamic_url: true }) }],
    commands: {
      'isolate-current-tab': {
        suggested_key: { default: 'Alt+Shift+I' },
        description: '__MSG_commandIsolateTab__',
      },
      'scan-tab-qr': {
        suggested_key: { default: 'Alt+Shift+Q' },
        description: '__MSG_commandScanTab__',
      },
    },
    omnibox: { keyword: 'iso' },
    content_security_policy: { extension_pages: extensionPagesCsp(browser), ...(browser === 'firefox' ? {} : { sandbox: DECODER_CSP }) },
    ...(browser === 'firefox' ? {} : { sandbox: { pages: ['qr-decoder.html'] } }),
    ...(browser === 'firefox'
      ? {
          browser_specific_settings: {
            gecko: {
              id: 'isolink@isolink.invalid',
              // data_collection_permissions needs Firefox 140.
              strict_min_version: '140.0',
              data_collection_permissions: { required: ['none'] },
            },
          },
        }
      : { storage: { managed_schema: 'managed_schema.json' } }),
  }),
});
