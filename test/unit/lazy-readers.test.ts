/**
 * The pages never load the parsers (postal-mime, parse5, the .msg reader, fflate): a mail
 * is read where the QR decoder runs (src/ui/decoder/sandbox, a sandboxed frame; a worker in
 * Firefox), which is the one module of src/ui that imports the mail reader. The mail page
 * loads the decoder's frame with the first file and gets the reading as checked data
 * (test/e2e/mail.test.ts sees no readers chunk load). One value imported from the readers
 * anywhere else in src/ui, statically or not, would put them in a page with extension API
 * access: the pages may import their types only.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const READERS = join(ROOT, 'src/readers');

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? files(join(dir, entry.name)) : /\.tsx?$/.test(entry.name) ? [join(dir, entry.name)] : [],
  );
}

/** The parsers that make the readers heavy: what must load with the first file, not the page. */
const PARSERS = ['postal-mime', 'parse5', '@kenjiuno/msgreader', 'fflate'];

/** Where the parsers run: the decoder's side (the mail reader, pdf.js's glue), in a sandboxed frame or a worker. */
const DECODER_SIDE = [join(ROOT, 'src/ui/decoder/sandbox.ts'), join(ROOT, 'src/ui/decoder/pdf.ts')];

function importsOf(file: string, text: string): ts.ImportDeclaration[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ESNext, true);
  return source.statements.filter((statement): statement is ts.ImportDeclaration => ts.isImportDeclaration(statement));
}

function specifier(statement: ts.ImportDeclaration): string {
  return ts.isStringLiteral(statement.moduleSpecifier) ? statement.moduleSpecifier.text : '';
}

/** Whether a statement brings only types: `import type`, `export type`, or only `type` specifiers. */
function typesOnly(statement: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isImportDeclaration(statement)) {
    const clause = statement.importClause;
    if (clause === undefined) return false;
    const bindings = clause.namedBindings;
    return (
      clause.phaseModifier === ts.SyntaxKind.TypeKeyword ||
      (clause.name === undefined && bindings !== undefined && ts.isNamedImports(bindings) && bindings.elements.every((element) => element.isTypeOnly))
    );
  }
  const clause = statement.exportClause;
  return statement.isTypeOnly || (clause !== undefined && ts.isNamedExports(clause) && clause.elements.every((element) => element.isTypeOnly));
}

/** What a module imports or re-exports values from (type-only imports are erased and load nothing). */
function dependenciesOf(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ESNext, true);
  return source.statements.flatMap((statement) =>
    (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) &&
    statement.moduleSpecifier !== undefined &&
    ts.isStringLiteral(statement.moduleSpecifier) &&
    !typesOnly(statement)
      ? [statement.moduleSpecifier.text]
      : [],
  );
}

/** The readers' modules that bring a parser, directly or through another module of theirs (and the barrel). */
function heavyReaders(): Set<string> {
  const modules = new Map(files(READERS).map((file) => [file.replace(/\.tsx?$/, ''), dependenciesOf(file)]));
  const heavy = new Set<string>();
  for (let grew = true; grew;) {
    grew = false;
    for (const [module, specifiers] of modules) {
      if (heavy.has(module)) continue;
      const local = specifiers.filter((text) => text.startsWith('.')).map((text) => resolve(dirname(module), text));
      if (specifiers.some((text) => PARSERS.includes(text)) || local.some((target) => heavy.has(target) || heavy.has(join(target, 'index')))) {
        heavy.add(module);
        grew = true;
      }
    }
  }
  return heavy;
}

const HEAVY = heavyReaders();

/** The modules a file imports with `import('…')`, resolved. */
function dynamicImportsOf(file: string, text = readFileSync(file, 'utf8')): string[] {
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [argument] = node.arguments;
      if (argument !== undefined && ts.isStringLiteral(argument)) found.push(resolve(dirname(file), argument.text));
    }
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile(file, text, ts.ScriptTarget.ESNext, true));
  return found;
}

function isHeavy(target: string): boolean {
  return HEAVY.has(target) || HEAVY.has(join(target, 'index'));
}

/** The static imports of a file that bring values (not `import type`, not only `type` specifiers) from a heavy reader module. */
function valueImportsOfReaders(file: string, text = readFileSync(file, 'utf8')): string[] {
  const found: string[] = [];
  for (const statement of importsOf(file, text)) {
    const target = resolve(dirname(file), specifier(statement));
    if (!HEAVY.has(target) && !HEAVY.has(join(target, 'index'))) continue;
    const onlyTypes = typesOnly(statement);
    if (!onlyTypes) found.push(`${relative(ROOT, file)}: ${statement.getText()}`);
  }
  return found;
}

describe('the readers stay out of the pages’ first load', () => {
  it('finds the heavy modules: the barrel, the mail reader and the header reader among them', () => {
    for (const module of ['index', 'mail', 'mime', 'msg', 'html', 'sender', 'zip', 'walk']) expect(HEAVY.has(join(READERS, module))).toBe(true);
    for (const module of ['limits', 'mail-codes', 'image', 'pdf-codes']) expect(HEAVY.has(join(READERS, module))).toBe(false);
  });

  it('src/ui imports only types from the readers that bring a parser, but for the decoder where they run', () => {
    const pages = files(join(ROOT, 'src/ui')).filter((file) => !DECODER_SIDE.includes(file));
    expect(pages.flatMap((file) => valueImportsOfReaders(file))).toEqual([]);
    const [sandbox, pdf] = DECODER_SIDE.map((file) => valueImportsOfReaders(file));
    expect(sandbox).toEqual([expect.stringContaining("from '../../readers/mail'")]);
    expect(pdf).toEqual([expect.stringContaining("from '../../readers/pdf'")]);
  });

  it('the decoder’s side is imported by nothing in src/ui but itself: no page carries it', () => {
    const side = DECODER_SIDE.map((file) => file.replace(/\.ts$/, ''));
    const reaching = files(join(ROOT, 'src/ui'))
      .filter((file) => !DECODER_SIDE.includes(file))
      .flatMap((file) => {
        const targets = [
          ...importsOf(file, readFileSync(file, 'utf8')).map((statement) => resolve(dirname(file), specifier(statement))),
          ...dynamicImportsOf(file),
        ];
        return targets.filter((target) => side.includes(target)).map((target) => `${relative(ROOT, file)}: ${relative(ROOT, target)}`);
      });
    expect(reaching).toEqual([]);
  });

  it('no page loads them later either: src/ui imports no reader with a parser dynamically', () => {
    const lazy = files(join(ROOT, 'src/ui')).flatMap((file) =>
      dynamicImportsOf(file)
        .filter(isHeavy)
        .map((target) => `${relative(ROOT, file)}: ${relative(ROOT, target)}`),
    );
    expect(lazy).toEqual([]);
    // The control: the mail page's reader is the decoder's frame, and an image's checks beside it.
    const app = join(ROOT, 'src/ui/mail/App.tsx');
    expect(dynamicImportsOf(app).map((target) => relative(ROOT, target))).toEqual(expect.arrayContaining(['src/ui/decoder/frame', 'src/readers/image']));
    expect(dynamicImportsOf(app, "const r = await import('../../readers');").filter(isHeavy)).toHaveLength(1);
  });

  it('sees a value import, and lets type imports pass (controls)', () => {
    const probe = join(ROOT, 'src/ui/mail/probe.ts');
    expect(valueImportsOfReaders(probe, "import { AUTH_METHODS, type MailReport } from '../../readers';")).toHaveLength(1);
    expect(valueImportsOfReaders(probe, "import { linksInMail } from '../../readers/mail';")).toHaveLength(1);
    expect(valueImportsOfReaders(probe, "import '../../readers';")).toHaveLength(1);
    expect(valueImportsOfReaders(probe, "import type { MailReport } from '../../readers';")).toEqual([]);
    expect(valueImportsOfReaders(probe, "import { type MailReport, type MailLink } from '../../readers';")).toEqual([]);
    expect(valueImportsOfReaders(probe, "import { t } from '../../i18n';")).toEqual([]);
    expect(valueImportsOfReaders(probe, "import { MAIL_LIMITS } from '../../readers/limits';")).toEqual([]);
  });
});
