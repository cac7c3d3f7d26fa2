/**
 * Figure 1: bundle sizes of the production Chrome build.
 *
 * A page's bundle is every JavaScript and CSS file it loads: the `<script src>` and
 * `<link rel="stylesheet|modulepreload">` of its HTML, then the static `import` /
 * `export … from` statements of each JavaScript file, transitively (parsed with the
 * TypeScript parser, not a regular expression), and `@import` of CSS. The background is
 * the manifest's service worker and its static imports. Dynamic `import()`s are listed
 * but not counted: they are not loaded at start. Each file is gzipped on its own (zlib
 * level 9, as each is fetched on its own) and the sizes are summed.
 *
 * Composition: a second build with hidden source maps (bench/analyze-build.ts) whose
 * JavaScript is checked to be byte-identical to the measured build; each byte of
 * minified output is attributed to the source its mapping segment points at.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, posix, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import ts from 'typescript';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '..');
export const BENCH_OUT = join(ROOT, '.bench-output');

export interface BundleFile {
  readonly path: string;
  readonly raw: number;
  readonly gzip: number;
}

export interface Bundle {
  readonly name: string;
  readonly entry: string;
  readonly files: BundleFile[];
  readonly raw: number;
  readonly gzip: number;
  /** For comparison only: gzip -9 of all its files concatenated (as if it were one file). */
  readonly gzipConcatenated: number;
  /** Loaded later by `import()`: not counted. */
  readonly lazy: string[];
}

export interface SourceShare {
  readonly source: string;
  readonly bytes: number;
  readonly share: number;
}

export interface Composition {
  readonly bundle: string;
  readonly sources: SourceShare[];
  /** Bytes no mapping segment points at (runtime glue, import statements). */
  readonly unmapped: number;
}

/** Runs `wxt build` for Chrome into `.bench-output/` (ISOLINK_OUT_DIR), never the tests' `.output/`. */
export async function buildForBench(): Promise<{ dir: string; ms: number }> {
  const start = performance.now();
  await run(join(ROOT, 'node_modules/.bin/wxt'), ['build'], {
    cwd: ROOT,
    env: { ...process.env, ISOLINK_OUT_DIR: BENCH_OUT },
    maxBuffer: 16 * 1024 * 1024,
  });
  const dir = join(BENCH_OUT, 'chrome-mv3');
  if (!existsSync(join(dir, 'manifest.json'))) throw new Error(`wxt build left no manifest in ${dir}`);
  return { dir, ms: performance.now() - start };
}

/** The same build with hidden source maps, for the composition; its own directory. */
export async function buildWithSourceMaps(): Promise<{ dir: string; ms: number }> {
  const start = performance.now();
  const out = join(BENCH_OUT, 'analyze');
  rmSync(out, { recursive: true, force: true });
  await run(join(ROOT, 'node_modules/.bin/tsx'), [join(ROOT, 'bench/analyze-build.ts'), out], { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 });
  return { dir: join(out, 'chrome-mv3'), ms: performance.now() - start };
}

/** Static and dynamic module specifiers of one JavaScript file. */
export function importsOf(code: string, fileName: string): { staticImports: string[]; dynamicImports: string[] } {
  const source = ts.createSourceFile(fileName, code, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const staticImports: string[] = [];
  const dynamicImports: string[] = [];
  for (const statement of source.statements) {
    if (
      (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) &&
      statement.moduleSpecifier &&
      ts.isStringLiteral(statement.moduleSpecifier)
    ) {
      staticImports.push(statement.moduleSpecifier.text);
    }
  }
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [arg] = node.arguments;
      if (arg && ts.isStringLiteralLike(arg)) dynamicImports.push(arg.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { staticImports, dynamicImports };
}

function attribute(tag: string, name: string): string | undefined {
  const match = new RegExp(`\\b${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(tag);
  return match ? (match[1] ?? match[2] ?? match[3]) : undefined;
}

/** Files an HTML page asks for: scripts, stylesheets and module preloads (paths from the extension root). */
export function htmlAssets(html: string, htmlPath: string): string[] {
  const out: string[] = [];
  for (const [tag] of html.matchAll(/<(?:script|link)\b[^>]*>/gi)) {
    const isScript = /^<script/i.test(tag);
    const rel = (attribute(tag, 'rel') ?? '').toLowerCase().split(/\s+/);
    const ref = isScript ? attribute(tag, 'src') : rel.includes('stylesheet') || rel.includes('modulepreload') ? attribute(tag, 'href') : undefined;
    if (ref !== undefined && !/^[a-z][a-z0-9+.-]*:/i.test(ref)) out.push(resolveRef(htmlPath, ref));
  }
  return out;
}

/** An extension-root path for a reference made from `fromPath` (both posix, root-relative). */
function resolveRef(fromPath: string, ref: string): string {
  const clean = ref.split(/[?#]/)[0] ?? ref;
  return clean.startsWith('/') ? posix.normalize(clean.slice(1)) : posix.normalize(posix.join(posix.dirname(fromPath), clean));
}

function gzipLength(bytes: Buffer): number {
  return gzipSync(bytes, { level: 9 }).length;
}

/** The bundle of one entry (an HTML page or a script), walked through static imports. */
export function bundleOf(dir: string, name: string, entry: string): Bundle {
  const seen = new Set<string>();
  const lazy = new Set<string>();
  const queue: string[] = entry.endsWith('.html') ? htmlAssets(readFileSync(join(dir, entry), 'utf8'), entry) : [entry];
  while (queue.length > 0) {
    const path = queue.shift() ?? '';
    if (seen.has(path)) continue;
    seen.add(path);
    const text = readFileSync(join(dir, path), 'utf8');
    if (path.endsWith('.js') || path.endsWith('.mjs')) {
      const { staticImports, dynamicImports } = importsOf(text, path);
      for (const spec of staticImports) queue.push(resolveRef(path, spec));
      for (const spec of dynamicImports) lazy.add(resolveRef(path, spec));
    } else if (path.endsWith('.css')) {
      for (const match of text.matchAll(/@import\s+(?:url\(\s*)?["']?([^"')\s;]+)/g)) {
        if (match[1] !== undefined && !/^[a-z][a-z0-9+.-]*:/i.test(match[1])) queue.push(resolveRef(path, match[1]));
      }
    }
  }
  const contents = [...seen].map((path) => ({ path, bytes: readFileSync(join(dir, path)) }));
  const files = contents.map(({ path, bytes }) => ({ path, raw: bytes.length, gzip: gzipLength(bytes) }));
  for (const path of seen) lazy.delete(path);
  return {
    name,
    entry,
    files,
    raw: files.reduce((s, f) => s + f.raw, 0),
    gzip: files.reduce((s, f) => s + f.gzip, 0),
    gzipConcatenated: gzipLength(Buffer.concat(contents.map((c) => c.bytes))),
    lazy: [...lazy],
  };
}

export function manifestEntries(dir: string): { background: string; popup: string; options: string } {
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as {
    background?: { service_worker?: string };
    action?: { default_popup?: string };
    options_ui?: { page?: string };
    options_page?: string;
  };
  return {
    background: manifest.background?.service_worker ?? 'background.js',
    popup: manifest.action?.default_popup ?? 'popup.html',
    options: manifest.options_ui?.page ?? manifest.options_page ?? 'options.html',
  };
}

// ---- source-map attribution -------------------------------------------------------

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const BASE64_VALUE = new Map([...BASE64].map((c, i) => [c, i]));

/** Decodes one mapping segment (Base64 VLQ) into its numbers. */
function decodeSegment(segment: string): number[] {
  const out: number[] = [];
  let value = 0;
  let shift = 0;
  for (const char of segment) {
    const digit = BASE64_VALUE.get(char);
    if (digit === undefined) throw new Error(`bad source-map character ${char}`);
    value += (digit & 31) << shift;
    if (digit & 32) {
      shift += 5;
    } else {
      out.push(value & 1 ? -(value >>> 1) : value >>> 1);
      value = 0;
      shift = 0;
    }
  }
  return out;
}

/** Bytes of one generated file per source, from its source map. */
export function attributeBytes(code: string, map: { sources: string[]; mappings: string }): { perSource: Map<number, number>; unmapped: number } {
  const lines = code.split('\n');
  const mapLines = map.mappings.split(';');
  const perSource = new Map<number, number>();
  let unmapped = 0;
  let source = 0;
  lines.forEach((line, lineIndex) => {
    const newline = lineIndex < lines.length - 1 ? 1 : 0;
    const segments = (mapLines[lineIndex] ?? '').split(',').filter((s) => s !== '');
    let column = 0;
    const marks: { column: number; source: number | null }[] = [];
    for (const segment of segments) {
      const fields = decodeSegment(segment);
      column += fields[0] ?? 0;
      if (fields.length >= 4) {
        source += fields[1] ?? 0;
        marks.push({ column, source });
      } else {
        marks.push({ column, source: null });
      }
    }
    const firstColumn = marks[0]?.column ?? line.length;
    unmapped += Buffer.byteLength(line.slice(0, firstColumn)) + newline;
    marks.forEach((mark, i) => {
      const end = marks[i + 1]?.column ?? line.length;
      const bytes = Buffer.byteLength(line.slice(mark.column, end));
      if (mark.source === null) unmapped += bytes;
      else perSource.set(mark.source, (perSource.get(mark.source) ?? 0) + bytes);
    });
  });
  return { perSource, unmapped };
}

/** A short label for a source path: `src/api/params.ts`, `zod/v4/core/schemas.js`, `preact`, … */
export function sourceLabel(path: string): string {
  const normal = path.replaceAll('\\', '/');
  const nm = normal.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = normal.slice(nm + 'node_modules/'.length);
    const parts = rest.split('/');
    const pkg = parts[0]?.startsWith('@') ? `${parts[0]}/${parts[1] ?? ''}` : (parts[0] ?? rest);
    const inner = parts.slice(pkg.split('/').length).join('/');
    // zod: keep the sub-area (v4/core, v4/mini, …); others: the file inside the package.
    if (pkg === 'zod') return `zod/${inner.split('/').slice(0, 3).join('/')}`;
    return `${pkg}/${inner}`;
  }
  const root = normal.indexOf('/src/');
  if (root >= 0) return normal.slice(root + 1);
  const entry = normal.indexOf('/entrypoints/');
  if (entry >= 0) return normal.slice(entry + 1);
  return normal.replace(/^(?:\.\.\/)+/, '');
}

/** Composition of a bundle: minified bytes per source file across its JavaScript files. */
export function compositionOf(analyzeDir: string, bundle: Bundle): Composition {
  const totals = new Map<string, number>();
  let unmapped = 0;
  for (const file of bundle.files) {
    if (!file.path.endsWith('.js')) {
      totals.set(`(css) ${file.path}`, (totals.get(`(css) ${file.path}`) ?? 0) + file.raw);
      continue;
    }
    const mapPath = join(analyzeDir, `${file.path}.map`);
    const code = readFileSync(join(analyzeDir, file.path), 'utf8');
    if (!existsSync(mapPath)) {
      unmapped += Buffer.byteLength(code);
      continue;
    }
    const map = JSON.parse(readFileSync(mapPath, 'utf8')) as { sources: string[]; mappings: string; sourceRoot?: string };
    const result = attributeBytes(code, map);
    unmapped += result.unmapped;
    for (const [index, bytes] of result.perSource) {
      const raw = map.sources[index] ?? '?';
      const abs = relative(ROOT, resolve(dirname(mapPath), map.sourceRoot ?? '', raw));
      const label = sourceLabel(abs.startsWith('..') ? raw : `/${abs}`);
      totals.set(label, (totals.get(label) ?? 0) + bytes);
    }
  }
  const total = bundle.raw;
  const sources = [...totals].map(([source, bytes]) => ({ source, bytes, share: bytes / total })).sort((a, b) => b.bytes - a.bytes);
  return { bundle: bundle.name, sources, unmapped };
}

/** Groups a composition into coarse areas (zod, preact, webextension-polyfill, src/<dir>, …). */
export function areasOf(composition: Composition): SourceShare[] {
  const totals = new Map<string, number>();
  let total = composition.unmapped;
  for (const item of composition.sources) {
    total += item.bytes;
    let area: string;
    if (item.source.startsWith('zod/')) area = 'zod (core + mini)';
    else if (item.source.startsWith('src/')) area = item.source.split('/').slice(0, 2).join('/');
    else if (item.source.startsWith('(css)')) area = 'css';
    else area = item.source.split('/')[0]?.startsWith('@') ? item.source.split('/').slice(0, 2).join('/') : (item.source.split('/')[0] ?? item.source);
    totals.set(area, (totals.get(area) ?? 0) + item.bytes);
  }
  totals.set('(unmapped glue)', composition.unmapped);
  return [...totals].map(([source, bytes]) => ({ source, bytes, share: bytes / total })).sort((a, b) => b.bytes - a.bytes);
}

/** True when every JavaScript file of `a` exists in `b` with the same bytes. */
export function sameJavaScript(a: string, b: string, files: readonly string[]): { identical: boolean; differing: string[] } {
  const differing = files.filter((f) => {
    const pb = join(b, f);
    return !existsSync(pb) || !readFileSync(join(a, f)).equals(readFileSync(pb));
  });
  return { identical: differing.length === 0, differing };
}
