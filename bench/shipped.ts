/**
 * The text functions as they ship: src/fang bundled into one minified module by esbuild,
 * as the extension's build ships it (one scope, no module boundaries, short names; the
 * library's tsup build bundles without minifying), then imported. Measuring the source through tsx instead would time each module's import
 * bindings, which no build ships. Built once per run into .bench-output/.
 */
import { build } from 'esbuild';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BENCH_OUT } from './sizes';

type Fang = typeof import('../src/fang');

const ENTRY = resolve(import.meta.dirname, '../src/fang/index.ts');

let loaded: Promise<Fang> | undefined;

/** src/fang as bundled and minified, built on first use. */
export function shippedFang(): Promise<Fang> {
  loaded ??= (async () => {
    const outfile = join(BENCH_OUT, 'fang.mjs');
    await build({ entryPoints: [ENTRY], bundle: true, minify: true, format: 'esm', platform: 'neutral', target: 'es2022', outfile, logLevel: 'error' });
    return (await import(pathToFileURL(outfile).href)) as Fang;
  })();
  return loaded;
}
