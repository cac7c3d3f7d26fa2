// @ts-check
/**
 * The layers of src/, bottom first: each folder, what it is, and the folders of src/ it
 * may import (besides its own files). Written once, here; ESLint enforces it
 * (eslint.config.js) and test/unit/architecture.test.ts checks that every folder is
 * listed and that no module imports itself round a cycle. CONTRIBUTING.md explains it.
 *
 * `browser`: may use browser APIs (wxt). `node`: may use Node built-ins. Neither: pure,
 * runs in the extension, in Node and in tests alike.
 */

/** @typedef {{ readonly what: string; readonly uses: readonly string[]; readonly browser?: true; readonly node?: true }} Layer */

/** @type {Readonly<Record<string, Layer>>} */
export const LAYERS = {
  net: { what: 'URL, host and IP checks', uses: [] },
  fang: { what: 'refang, defang, extract, unwrap', uses: [] },
  egress: { what: 'the egress location table', uses: [] },
  policy: { what: 'policy entries and their rules', uses: ['net'] },
  target: { what: 'from a link or text to the target isolated', uses: ['fang', 'net'] },
  api: { what: 'the service client (zod, fetch)', uses: ['net', 'policy', 'egress'] },
  settings: { what: 'settings, token and recent contexts in storage', uses: ['api', 'net', 'policy', 'egress', 'fang', 'target'], browser: true },
  i18n: { what: 'translation: the words shown', uses: ['api', 'net', 'settings'], browser: true },
  messaging: { what: 'the typed messages between pages and the background', uses: ['api', 'settings'], browser: true },
  background: {
    what: 'the service worker: entries, router, actions',
    uses: ['api', 'net', 'policy', 'egress', 'fang', 'target', 'settings', 'i18n', 'messaging'],
    browser: true,
  },
  ui: {
    what: 'the popup and the options page (Preact)',
    uses: ['api', 'net', 'policy', 'egress', 'fang', 'target', 'settings', 'i18n', 'messaging'],
    browser: true,
  },
  lib: { what: "the npm package's entry", uses: ['api', 'fang', 'egress'] },
  cli: { what: 'the isolink command', uses: ['api', 'net', 'policy', 'egress', 'fang', 'target'], node: true },
};
