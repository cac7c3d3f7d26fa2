/**
 * The bundle-size figure alone, into a directory of your choice (so several builds can run
 * side by side without touching `.bench-output/` or the tests' `.output/`):
 *
 *   tsx bench/sizes-cli.ts [outDir] [--composition]
 *
 * outDir defaults to `.bench-output/sizes`. With `--composition`, a second build with
 * hidden source maps attributes each minified byte of each bundle to its source.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { areasOf, bundleOf, compositionOf, manifestEntries } from './sizes';
import { kB } from './stats';

const ROOT = resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const withComposition = args.includes('--composition');
const outDir = resolve(args.find((a) => !a.startsWith('--')) ?? join(ROOT, '.bench-output/sizes'));

function build(dir: string, analyze: boolean): string {
  if (analyze) {
    execFileSync(join(ROOT, 'node_modules/.bin/tsx'), [join(ROOT, 'bench/analyze-build.ts'), dir], { cwd: ROOT, stdio: 'ignore' });
  } else {
    execFileSync(join(ROOT, 'node_modules/.bin/wxt'), ['build'], { cwd: ROOT, env: { ...process.env, ISOLINK_OUT_DIR: dir }, stdio: 'ignore' });
  }
  const chrome = join(dir, 'chrome-mv3');
  if (!existsSync(join(chrome, 'manifest.json'))) throw new Error(`the build left no manifest in ${chrome}`);
  return chrome;
}

const dir = build(outDir, false);
const entries = manifestEntries(dir);
const bundles = [bundleOf(dir, 'background', entries.background), bundleOf(dir, 'popup', entries.popup), bundleOf(dir, 'options', entries.options)];
for (const b of bundles) {
  console.log(
    `${b.name.padEnd(10)} gzip ${kB(b.gzip).padStart(9)}  raw ${kB(b.raw).padStart(9)}  ${b.files.length} files${b.lazy.length > 0 ? `, lazy: ${b.lazy.join(' ')}` : ''}`,
  );
}
if (withComposition) {
  const analyzeDir = build(join(outDir, 'analyze'), true);
  for (const b of bundles) {
    console.log(`\n${b.name}: minified bytes by area`);
    for (const area of areasOf(compositionOf(analyzeDir, b))) console.log(`  ${String(area.bytes).padStart(7)}  ${area.source}`);
  }
}
