import { readFileSync } from 'node:fs';

import { defineConfig } from 'tsup';

const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };

/**
 * The npm package: the library (`dist/index.js` with bundled declarations) and the
 * `isolink` command (`dist/cli.js`), sharing one chunk of client code. The runtime
 * dependencies (zod; the mail reader's postal-mime, @kenjiuno/msgreader, parse5 and tldts)
 * stay external: tsup leaves every package in `dependencies` out of the bundle. The
 * extension's build (WXT) does not use this.
 */
export default defineConfig({
  entry: { index: 'src/lib/index.ts', cli: 'src/cli/main.ts' },
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  outDir: 'dist',
  clean: true,
  splitting: true,
  treeshake: true,
  sourcemap: false,
  define: { __ISOLINK_VERSION__: JSON.stringify(version) },
  dts: { entry: { index: 'src/lib/index.ts' } },
});
