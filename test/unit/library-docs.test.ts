/**
 * The library is documented from its types: every export of the package entry
 * (src/lib/index.ts) carries a TSDoc comment, read with the TypeScript compiler as an
 * editor or a documentation tool reads it.
 */
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

describe('the library entry', () => {
  it('documents every export', () => {
    const entry = 'src/lib/index.ts';
    const program = ts.createProgram([entry], {
      strict: true,
      module: ts.ModuleKind.Preserve,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      target: ts.ScriptTarget.ESNext,
      noEmit: true,
    });
    const checker = program.getTypeChecker();
    const source = program.getSourceFile(entry);
    const module = source === undefined ? undefined : checker.getSymbolAtLocation(source);
    expect(module).toBeDefined();
    const exports = module === undefined ? [] : checker.getExportsOfModule(module);
    const undocumented = exports
      .filter((symbol) => {
        const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
        return ts.displayPartsToString(target.getDocumentationComment(checker)).trim() === '';
      })
      .map((symbol) => symbol.name);
    expect(exports.length).toBeGreaterThan(60);
    expect(undocumented).toEqual([]);
    // A whole compiler program: several seconds alone, over 20 s on a busy two-core machine.
  }, 120_000);
});
