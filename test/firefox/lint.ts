/**
 * `web-ext lint` on the Firefox MV3 release zip, offline.
 *
 *   npx tsx test/firefox/lint.ts [--source-dir <unpacked build>]
 *
 * Builds the zip (unless --source-dir is given), unpacks it and lints what would be
 * uploaded. Prints every message. Fails on any error, and on any warning whose code is
 * not explained in lint-expectations.json (or that shows up in a file its explanation
 * does not cover). Notices are printed only.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, buildFirefoxZip, sourceDirArgument } from './build';

interface LintMessage {
  readonly _type: 'error' | 'warning' | 'notice';
  readonly code: string;
  readonly message: string;
  readonly description?: string | string[];
  readonly file?: string;
  readonly line?: number;
  readonly column?: number;
}

interface LintReport {
  readonly summary: { readonly errors: number; readonly warnings: number; readonly notices: number };
  readonly errors: LintMessage[];
  readonly warnings: LintMessage[];
  readonly notices: LintMessage[];
}

interface Expectation {
  readonly reason: string;
  /** A regular expression the warning's file must match. */
  readonly file?: string;
  /** A regular expression the flagged code (from the warning's line and column on) must match. */
  readonly source?: string;
}

/** Each warning code's explanations: one, or a list when the same code stands in unrelated places. */
function loadExpectations(): Map<string, readonly Expectation[]> {
  const raw = JSON.parse(readFileSync(join(import.meta.dirname, 'lint-expectations.json'), 'utf8')) as {
    warnings?: Record<string, Expectation | Expectation[]>;
  };
  const entries = Object.entries(raw.warnings ?? {}).map(([code, given]) => [code, Array.isArray(given) ? given : [given]] as const);
  for (const [code, list] of entries) {
    for (const expectation of list) {
      if (typeof expectation.reason !== 'string' || expectation.reason.trim() === '') throw new Error(`lint-expectations.json: ${code} has no reason`);
    }
  }
  return new Map(entries);
}

function where(message: LintMessage): string {
  if (message.file === undefined) return '';
  return ` (${message.file}${message.line === undefined ? '' : `:${message.line}`}${message.column === undefined ? '' : `:${message.column}`})`;
}

function describe(message: LintMessage): string {
  const description = Array.isArray(message.description) ? message.description.join(' ') : (message.description ?? '');
  return `${message.code}${where(message)}: ${message.message}${description === '' ? '' : `\n      ${description}`}`;
}

/** Up to 200 characters of the flagged code, from the warning's line and column (both 1-based). */
function flaggedSource(dir: string, message: LintMessage): string {
  if (message.file === undefined || message.line === undefined) return '';
  try {
    const line = readFileSync(join(dir, message.file), 'utf8').split('\n')[message.line - 1] ?? '';
    return line.slice(Math.max(0, (message.column ?? 1) - 1), (message.column ?? 1) - 1 + 200);
  } catch {
    return '';
  }
}

/** Why a warning is accepted (the first of its code's explanations that covers it), or undefined when none does. */
function explain(dir: string, warning: LintMessage, list: readonly Expectation[] | undefined): string | undefined {
  for (const expectation of list ?? []) {
    if (expectation.file !== undefined && !new RegExp(expectation.file, 'u').test(warning.file ?? '')) continue;
    if (expectation.source !== undefined && !new RegExp(expectation.source, 'u').test(flaggedSource(dir, warning))) continue;
    return expectation.reason;
  }
  return undefined;
}

function runLint(dir: string): LintReport {
  let stdout: string;
  try {
    stdout = execFileSync(join(ROOT, 'node_modules/.bin/web-ext'), ['lint', '--source-dir', dir, '--output', 'json', '--no-config-discovery'], {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
      maxBuffer: 16 * 1024 * 1024,
    });
  } catch (error) {
    // web-ext exits non-zero when the linter finds errors; the JSON is still on stdout.
    const out = (error as { stdout?: unknown }).stdout;
    if (typeof out !== 'string' || out.trim() === '') throw error;
    stdout = out;
  }
  const start = stdout.indexOf('{');
  if (start === -1) throw new Error(`web-ext lint printed no JSON:\n${stdout}`);
  return JSON.parse(stdout.slice(start)) as LintReport;
}

function main(): number {
  const given = sourceDirArgument(process.argv.slice(2));
  const dir = given ?? buildFirefoxZip().dir;
  console.log(`== web-ext lint --source-dir ${dir}`);
  const report = runLint(dir);
  const expectations = loadExpectations();
  const { errors, warnings, notices } = report;
  console.log(`   ${errors.length} errors, ${warnings.length} warnings, ${notices.length} notices`);

  const problems: string[] = [];
  for (const error of errors) {
    console.log(`   ERROR    ${describe(error)}`);
    problems.push(`error ${error.code}${where(error)}`);
  }
  const seen = new Set<string>();
  for (const warning of warnings) {
    const expectation = expectations.get(warning.code);
    const reason = explain(dir, warning, expectation);
    if (reason !== undefined) {
      seen.add(warning.code);
      console.log(`   WARNING  ${describe(warning)}\n      -> explained: ${reason}`);
    } else {
      const flagged = flaggedSource(dir, warning).slice(0, 80);
      const scope =
        expectation === undefined
          ? ''
          : ` (the explanations cover only ${expectation.map((e) => `file ${e.file ?? '*'}, code ${e.source ?? '*'}`).join('; ')})`;
      console.log(`   WARNING  ${describe(warning)}${flagged === '' ? '' : `\n      code: ${flagged}`}\n      -> NOT EXPLAINED${scope}`);
      problems.push(`unexplained warning ${warning.code}${where(warning)}`);
    }
  }
  for (const notice of notices) console.log(`   NOTICE   ${describe(notice)}`);
  for (const code of expectations.keys()) {
    if (!seen.has(code)) console.log(`   note: lint-expectations.json explains ${code}, which no longer occurs; remove it.`);
  }

  if (problems.length > 0) {
    console.log(`\nFAIL: ${problems.length} problem(s):\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    console.log('Fix each one, or explain a warning in test/firefox/lint-expectations.json (code -> reason).');
    return 1;
  }
  console.log(`\nOK: no errors; ${warnings.length} warning(s), all explained.`);
  return 0;
}

try {
  process.exitCode = main();
} catch (error) {
  console.error(`\nFAIL: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
