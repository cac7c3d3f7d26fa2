import { defineConfig } from 'wxt';

// https://wxt.dev/api/config.html
export default defineConfig({
  srcDir: '.',
  // Explicit imports everywhere: a reader sees where every name comes from.
  imports: false,
  modules: ['@wxt-dev/webextension-polyfill'],
  webExt: { disabled: true },
  zip: {
    artifactTemplate: '{{name}}-{{packageVersion}}-{{browser}}-mv{{manifestVersion}}.zip',
  },
  manifest: ({ browser }) => ({
    name: 'Isolink',
    description: 'Open suspicious links in a remote isolated browser, never locally.',
    permissions: ['storage'],
    ...(browser === 'firefox'
      ? {
          browser_specific_settings: {
            gecko: {
              id: 'isolink@isolink.invalid',
              strict_min_version: '128.0',
              data_collection_permissions: { required: ['none'] },
            },
          },
        }
      : {}),
  }),
});
