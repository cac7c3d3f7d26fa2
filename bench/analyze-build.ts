/**
 * A second production build for the composition analysis only: the same configuration
 * (wxt.config.ts), into the directory given as the first argument, with hidden source maps
 * (`.map` files beside the chunks, no `sourceMappingURL` comment, so the JavaScript is
 * byte-for-byte what the measured build ships; sizes.ts checks that).
 *
 *   tsx bench/analyze-build.ts .bench-output/analyze
 */
import { resolve } from 'node:path';
import { build } from 'wxt';

const outDir = process.argv[2];
if (outDir === undefined || outDir === '') {
  console.error('usage: tsx bench/analyze-build.ts <outDir>');
  process.exit(2);
}

await build({
  root: resolve(import.meta.dirname, '..'),
  outDir: resolve(outDir),
  browser: 'chrome',
  vite: () => ({ build: { sourcemap: 'hidden' } }),
});
