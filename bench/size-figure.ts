/**
 * Figure 1: the bundles' sizes (gzip -9) against their budgets, and with --full, what each
 * bundle is made of (from source maps of an identical build).
 */
import { relative, resolve } from 'node:path';
import { BUDGETS, PLAN } from './plan';
import { judge, row, type Row } from './report';
import {
  areasOf,
  buildForBench,
  buildWithSourceMaps,
  bundleOf,
  compositionOf,
  manifestEntries,
  sameJavaScript,
  type Bundle,
  type Composition,
  type SourceShare,
} from './sizes';
import { kB } from './stats';

const ROOT = resolve(import.meta.dirname, '..');
const NAMES = ['background', 'popup', 'options'] as const;

type Compositions = { bundles: (Composition & { areas: SourceShare[] })[]; sameJavaScriptAsMeasured: { identical: boolean } };

/** Budget text of a size row; the service worker's says that its budget was revised. */
function sizeBudgetText(name: keyof typeof BUDGETS.gzip): string {
  return `<= ${kB(BUDGETS.gzip[name])}${name === 'background' ? ' (a guard: bench/README)' : name === 'popup' ? ' (the preview in it: bench/README)' : ''}`;
}

/** The rows the section shows when it fails. */
export function sizeFailRows(): { id: string; figure: string; budget: string; sizeBudget: boolean }[] {
  return NAMES.map((name) => ({ id: `size.${name}`, figure: `1 ${name} bundle, gzip -9`, budget: sizeBudgetText(name), sizeBudget: true }));
}

/** Builds the extension for the bench and measures its bundles (and, in full mode, their composition). */
export async function measureSizes(log: (message: string) => void): Promise<{ dir: string; rows: Row[]; details: unknown; composition?: Compositions }> {
  const built = await buildForBench();
  log(`built ${relative(ROOT, built.dir)} in ${(built.ms / 1000).toFixed(1)} s`);
  const entries = manifestEntries(built.dir);
  const bundles: Bundle[] = NAMES.map((name) => bundleOf(built.dir, name, entries[name]));
  const rows = bundles.map((bundle) => {
    const name = bundle.name as (typeof NAMES)[number];
    const budget = BUDGETS.gzip[name];
    return row(
      `size.${name}`,
      `1 ${name} bundle, gzip -9`,
      `${kB(bundle.gzip)} (raw ${kB(bundle.raw)}, ${bundle.files.length} files)`,
      sizeBudgetText(name),
      judge(bundle.gzip, (v) => v <= budget),
      { numeric: bundle.gzip, sizeBudget: true },
    );
  });
  const details = { buildMs: Math.round(built.ms), dir: relative(ROOT, built.dir), bundles };
  if (!PLAN.composition) return { dir: built.dir, rows, details };
  const analysis = await buildWithSourceMaps();
  log(`built with source maps in ${(analysis.ms / 1000).toFixed(1)} s`);
  const files = [...new Set(bundles.flatMap((b) => b.files.map((f) => f.path).filter((p) => p.endsWith('.js'))))];
  const same = sameJavaScript(built.dir, analysis.dir, files);
  const compositions = bundles.map((b) => {
    const c = compositionOf(analysis.dir, b);
    return { ...c, areas: areasOf(c) };
  });
  return { dir: built.dir, rows, details, composition: { sameJavaScriptAsMeasured: same, bundles: compositions } };
}

/** The composition of each bundle, as the table's footnote. */
export function printComposition(details: Readonly<Record<string, unknown>>): void {
  const composition = details['composition'] as Compositions | undefined;
  if (!composition) return;
  console.log(
    `Bundle composition (minified bytes by source, from source maps; maps' build identical to the measured one: ${composition.sameJavaScriptAsMeasured.identical}):`,
  );
  const sized = (details['sizes'] as { bundles: Bundle[] } | undefined)?.bundles ?? [];
  for (const c of composition.bundles) {
    const top = c.areas.slice(0, 8).map((a) => `${a.source} ${kB(a.bytes)} (${(a.share * 100).toFixed(0)}%)`);
    const bundle = sized.find((b) => b.name === c.bundle);
    const concat = bundle ? ` [gzip as one file: ${kB(bundle.gzipConcatenated)}]` : '';
    console.log(`  ${c.bundle}${concat}: ${top.join(', ')}`);
  }
  console.log('');
}
