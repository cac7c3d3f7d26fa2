import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';

import { defineConfig } from 'tsup';

const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
const resolvePath = createRequire(import.meta.url).resolve;

/** What the bundled decoder needs beside it in dist/: its WebAssembly, and the licences of the code bundled. */
const ZXING_WASM = resolvePath('zxing-wasm/reader/zxing_reader.wasm');
const WEBP_WASM = resolvePath('@jsquash/webp/codec/dec/webp_dec.wasm');
const PDFJS = resolvePath('pdfjs-dist/legacy/build/pdf.mjs');
const BESIDE: Readonly<Record<string, string>> = {
  'zxing_reader.wasm': ZXING_WASM,
  'webp_dec.wasm': WEBP_WASM,
  'licenses/zxing-wasm.txt': resolve(ZXING_WASM, '../../../LICENSE'),
  'licenses/jsquash-webp.txt': resolve(WEBP_WASM, '../../../LICENSE'),
  'licenses/pdfjs-dist.txt': resolve(PDFJS, '../../../LICENSE'),
};

/**
 * The npm package: the library (`dist/index.js` with bundled declarations) and the
 * `isolink` command (`dist/cli.js`, with `dist/mail-worker.js`, the thread it reads many
 * mails on), sharing one chunk of client code. The runtime
 * dependencies (zod; the mail reader's postal-mime, @kenjiuno/msgreader, parse5 and tldts)
 * stay external: tsup leaves every package in `dependencies` out of the bundle. The image
 * decoder (zxing-wasm's reader, and @jsquash/webp for WebP) is bundled instead, its
 * `.wasm` files and licences copied beside it: the package installs no more packages for
 * it, and src/decoders reads the files from `dist/`. pdf.js (pdfjs-dist's legacy build and
 * its parser, for PDF attachments) is bundled the same way, with its licence; its optional
 * @napi-rs/canvas stays outside (imported by name when installed, never required). The
 * extension's build (WXT) does not use this.
 */
export default defineConfig({
  entry: { index: 'src/lib/index.ts', cli: 'src/cli/main.ts', 'mail-worker': 'src/cli/mail-worker.ts' },
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
  noExternal: ['zxing-wasm', '@jsquash/webp', 'pdfjs-dist'],
  onSuccess: async () => {
    mkdirSync('dist/licenses', { recursive: true });
    for (const [name, from] of Object.entries(BESIDE)) copyFileSync(from, `dist/${name}`);
    return Promise.resolve();
  },
});
