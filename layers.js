// @ts-check
/**
 * The layers of src/, bottom first: each folder, what it is, and the folders of src/ it
 * may import (besides its own files). Written once, here; ESLint enforces it
 * (eslint.config.js) and test/unit/architecture.test.ts checks that every folder is
 * listed, that the imports match, that no module imports itself round a cycle, and that
 * CONTRIBUTING.md shows this table.
 *
 * `types`: folders it may import types from, and nothing else (the pages know the shapes
 * the client returns, never the client). `browser`: may use browser APIs (wxt). `node`:
 * may use Node built-ins. Neither: pure, runs in the extension, in Node and in tests alike.
 */

/** @typedef {{ readonly what: string; readonly uses: readonly string[]; readonly types?: readonly string[]; readonly browser?: true; readonly node?: true }} Layer */

/** @type {Readonly<Record<string, Layer>>} */
export const LAYERS = {
  net: { what: 'URL, host and IP checks', uses: [] },
  fang: { what: 'refang, defang, extract, unwrap', uses: [] },
  egress: { what: 'the egress location table', uses: [] },
  policy: { what: 'policy entries and their rules', uses: ['net'] },
  autoisolate: { what: 'isolate by policy: which navigations go to isolation, and the network rules that stop them', uses: ['net'] },
  resolve: { what: 'from a link or text to the target isolated', uses: ['fang', 'net'] },
  readers: { what: 'reported mails (.eml, .msg) and images (QR codes): their links, read without loading anything', uses: ['fang', 'net', 'resolve'] },
  service: { what: "the service's vocabulary: values, codes, limits, wire names (no zod, no fetch)", uses: ['net', 'policy'] },
  api: { what: 'the service client (zod, fetch)', uses: ['service', 'net', 'policy', 'egress'] },
  settings: {
    what: 'settings, token and recent contexts in storage',
    uses: ['service', 'api', 'net', 'policy', 'egress', 'fang', 'resolve', 'autoisolate'],
    browser: true,
  },
  i18n: { what: 'translation: the words shown', uses: ['service', 'net', 'settings'], types: ['api'], browser: true },
  messaging: { what: 'the typed messages between pages and the background', uses: ['service', 'settings'], types: ['api', 'autoisolate'], browser: true },
  background: {
    what: 'the service worker: entries, router, actions',
    uses: ['service', 'api', 'net', 'policy', 'egress', 'fang', 'resolve', 'autoisolate', 'settings', 'i18n', 'messaging'],
    browser: true,
  },
  ui: {
    what: 'the popup, the options page and the reported mail page (Preact)',
    uses: ['service', 'net', 'policy', 'egress', 'fang', 'resolve', 'autoisolate', 'readers', 'settings', 'i18n', 'messaging'],
    types: ['api'],
    browser: true,
  },
  decoders: { what: "the image decoder and the PDF reader in Node: ZXing's WebAssembly and pdf.js from the package's files", uses: ['readers'], node: true },
  lib: { what: "the npm package's entry", uses: ['service', 'api', 'fang', 'egress', 'readers', 'decoders'] },
  cli: { what: 'the isolink command', uses: ['service', 'api', 'net', 'policy', 'egress', 'fang', 'resolve', 'readers', 'decoders'], node: true },
};
