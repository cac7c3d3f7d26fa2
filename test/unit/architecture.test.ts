/**
 * The shape of src/: every folder is a layer of layers.js (which ESLint enforces), the
 * layers form an order (no two use each other, even through others), and no module
 * imports itself round a cycle. Imports are read with the TypeScript compiler.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

import { LAYERS } from '../../layers.js';

const ROOT = resolve('.');
const SRC = join(ROOT, 'src');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The file a relative import names, as the bundler resolves it. */
function resolveImport(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')]) {
    try {
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // Not this one.
    }
  }
  return undefined;
}

/** Each module of src/ and the modules of src/ it imports (types too: a cycle of types is still a knot). */
function moduleGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sources(SRC)) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = importedFiles
      .map((imported) => imported.fileName)
      .filter((specifier) => specifier.startsWith('.'))
      .map((specifier) => resolveImport(file, specifier))
      .filter((target): target is string => target !== undefined && target.startsWith(SRC));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** The strongly connected components with more than one member, or a member importing itself (Tarjan). */
function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(next) ?? 0));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node) ?? 0, index.get(next) ?? 0));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop();
      if (member === undefined) break;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(component.map((file) => relative(ROOT, file)).sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

describe('the layers of src/', () => {
  it('lists every folder of src/, and only those', () => {
    const folders = readdirSync(SRC).filter((name) => statSync(join(SRC, name)).isDirectory());
    expect(Object.keys(LAYERS).sort()).toEqual(folders.sort());
  });

  it("are CONTRIBUTING.md's table, row for row", () => {
    const contributing = readFileSync(join(ROOT, 'CONTRIBUTING.md'), 'utf8');
    const rows = [...contributing.matchAll(/^\| `src\/(\w+)` \| (.+?) \| (.+?) \| (\w+) \|$/gm)].map(([, folder, what, cell, runs]) => {
      const [uses = '', types] = (cell ?? '').split('; types of ');
      const names = (list: string): string[] => (list === '—' ? [] : list.split(', ').map((use) => use.replaceAll('`', '')));
      return { folder, what, uses: names(uses), types: types === undefined ? [] : names(types), runs };
    });
    const expected = Object.entries(LAYERS).map(([folder, layer]) => ({
      folder,
      what: layer.what,
      uses: [...layer.uses],
      types: [...(layer.types ?? [])],
      runs: layer.browser ? 'browser' : layer.node ? 'Node' : 'pure',
    }));
    expect(rows).toEqual(expected);
  });

  it('form an order: a layer uses only layers listed before it', () => {
    const order = Object.keys(LAYERS);
    for (const [folder, layer] of Object.entries(LAYERS)) {
      for (const use of [...layer.uses, ...(layer.types ?? [])]) {
        expect(order, `${folder} uses ${use}`).toContain(use);
        expect(order.indexOf(use), `${folder} uses ${use}, which is not below it`).toBeLessThan(order.indexOf(folder));
      }
    }
  });

  it('are what the imports do: every import across folders is one layers.js allows', () => {
    const graph = moduleGraph();
    const crossings: string[] = [];
    for (const [file, targets] of graph) {
      const from = relative(SRC, file).split('/')[0] ?? '';
      for (const target of targets) {
        const to = relative(SRC, target).split('/')[0] ?? '';
        // A `types` layer is allowed here: that its imports are type-only, ESLint checks.
        const allowed = [...(LAYERS[from]?.uses ?? []), ...(LAYERS[from]?.types ?? [])];
        if (from !== to && !allowed.includes(to)) crossings.push(`${relative(ROOT, file)} -> ${relative(ROOT, target)}`);
      }
    }
    expect(graph.size).toBeGreaterThan(80);
    expect(crossings).toEqual([]);
  });
});

/** Most lines a source file may have: a room a newcomer reads in one sitting. */
const MAX_LINES = 500;

/** The files of `dirs` longer than MAX_LINES, with their lengths. */
function longFiles(...dirs: readonly string[]): (readonly [string, number])[] {
  return dirs
    .flatMap((dir) => sources(dir))
    .map((file) => [relative(ROOT, file), readFileSync(file, 'utf8').split('\n').length] as const)
    .filter(([, lines]) => lines > MAX_LINES);
}

describe('the modules of src/', () => {
  it(`are at most ${MAX_LINES} lines, and so are the bench's`, () => {
    expect(longFiles(SRC, join(ROOT, 'bench'))).toEqual([]);
  });

  it('import no cycle', () => {
    expect(cycles(moduleGraph())).toEqual([]);
  });

  it('the cycle finder finds cycles (positive control)', () => {
    const graph = new Map([
      [join(SRC, 'a.ts'), [join(SRC, 'b.ts')]],
      [join(SRC, 'b.ts'), [join(SRC, 'a.ts')]],
      [join(SRC, 'c.ts'), [join(SRC, 'c.ts')]],
      [join(SRC, 'd.ts'), [join(SRC, 'a.ts')]],
    ]);
    expect(cycles(graph)).toEqual([['src/a.ts', 'src/b.ts'], ['src/c.ts']]);
  });
});
