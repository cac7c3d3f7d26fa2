import { defineConfig } from 'wxt';

/** Extension pages: only the extension's own code; the background reaches https services and loopback. */
const EXTENSION_PAGES_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src https: http://127.0.0.1:* http://localhost:*",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

// https://wxt.dev/api/config.html
export default defineConfig({
  srcDir: '.',
  // Manifest V3 for every browser (WXT would build Firefox as MV2 by default).
  manifestVersion: 3,
  // Benchmarks and parallel runs build elsewhere so they never race the tests' build.
  outDir: process.env['ISOLINK_OUT_DIR'] ?? '.output',
  // Explicit imports everywhere: a reader sees where every name comes from.
  imports: false,
  modules: ['@wxt-dev/webextension-polyfill'],
  webExt: { disabled: true },
  zip: {
    artifactTemplate: '{{name}}-{{packageVersion}}-{{browser}}-{{manifestVersion}}.zip',
    sourcesTemplate: '{{name}}-{{packageVersion}}-sources.zip',
    excludeSources: ['test-results/**', 'coverage/**'],
  },
  manifest: ({ browser }) => ({
    name: '__MSG_extName__',
    description: '__MSG_extDescription__',
    default_locale: 'en',
    icons: { 16: 'icons/16.png', 32: 'icons/32.png', 48: 'icons/48.png', 128: 'icons/128.png' },
    action: { default_title: '__MSG_actionTitle__', default_icon: { 16: 'icons/16.png', 32: 'icons/32.png' } },
    permissions: [
      'storage',
      'contextMenus',
      'notifications',
      'activeTab',
      'clipboardWrite',
      ...(browser === 'firefox' ? [] : ['offscreen']),
    ],
    // The bundled simulator runs on loopback: reachable without a prompt.
    host_permissions: ['http://127.0.0.1/*', 'http://localhost/*'],
    // A real service: its exact origin is requested from a click in the options page.
    optional_host_permissions: ['https://*/*'],
    commands: {
      'isolate-current-tab': {
        suggested_key: { default: 'Alt+Shift+I' },
        description: '__MSG_commandIsolateTab__',
      },
    },
    omnibox: { keyword: 'iso' },
    content_security_policy: { extension_pages: EXTENSION_PAGES_CSP },
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
