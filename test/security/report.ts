/**
 * The security suite's closing table: property, how it was tested, cases tried, result.
 * Printed after every run (the global setup's teardown calls writeReport); written into
 * SECURITY.md between its table markers only when every property of the catalog ran in
 * this run, so the file never shows a partial or stale run.
 *
 *   npx tsx test/security/report.ts        # print the table of the last run again
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CATALOG } from './catalog';
import { readLedger, RESULTS_DIR, type Entry } from './ledger';

const SECURITY_MD = resolve(import.meta.dirname, '../../SECURITY.md');
export const TABLE_START = '<!-- security-table:start -->';
export const TABLE_END = '<!-- security-table:end -->';

function cell(text: string): string {
  return text.replaceAll('|', '\\|').replaceAll('\n', ' ');
}

function resultOf(entry: Entry | undefined): string {
  if (!entry) return 'NOT RUN';
  if (entry.outcome === 'held') return 'held';
  if (entry.outcome === 'skipped') return `skipped: ${entry.note ?? ''}`;
  return `**FAILED**: ${entry.note ?? ''}`;
}

export interface Report {
  readonly markdown: string;
  readonly complete: boolean;
  readonly held: number;
  readonly total: number;
  readonly requestsScanned: number;
  readonly inputs: number;
}

export function buildReport(): Report {
  const ledger = readLedger();
  const rows = CATALOG.map((property) => {
    const entry = ledger.get(property.id);
    const cases = entry && entry.outcome === 'held' ? `${entry.cases}${entry.detail ? ` (${entry.detail})` : ''}` : '–';
    return `| ${property.item} | ${cell(property.title)} | ${cell(property.how)} | ${cell(cases)} | ${cell(resultOf(entry))} |`;
  });
  const entries = CATALOG.map((property) => ledger.get(property.id));
  const held = entries.filter((entry) => entry?.outcome === 'held').length;
  // Every Chromium session records its requests once, under ctx-never (browser side and
  // as the service received them); the other rows count inputs and cases.
  const requests = entries.reduce((sum, entry) => sum + (entry?.requestsScanned ?? 0), 0);
  const COUNTED_AS_EVIDENCE = new Set(['ctx-never', 'no-unhandled']);
  const inputs = entries.reduce((sum, entry) => sum + (entry?.outcome === 'held' && !COUNTED_AS_EVIDENCE.has(entry.id) ? entry.cases : 0), 0);
  const runAt =
    entries
      .map((entry) => entry?.at ?? '')
      .sort()
      .at(-1) ?? '';
  const markdown = [
    '| # | Property | How it was tested | Cases tried | Result |',
    '| --- | --- | --- | --- | --- |',
    ...rows,
    '',
    `**${held} of ${CATALOG.length} properties held**; ${requests} requests scanned (as the browser sent them and as the services received them); ${inputs} inputs, runs and cases tried in the properties that held (run of ${runAt.slice(0, 16).replace('T', ' ')} UTC).`,
  ].join('\n');
  return { markdown, complete: entries.every((entry) => entry !== undefined), held, total: CATALOG.length, requestsScanned: requests, inputs };
}

export function writeReport(): Report {
  const report = buildReport();
  writeFileSync(resolve(RESULTS_DIR, 'table.md'), `${report.markdown}\n`);
  const ledger = readLedger();
  const rows = CATALOG.map((property) => ({ ...property, ...(ledger.get(property.id) ?? { outcome: 'NOT RUN' }) }));
  const summary = { held: report.held, total: report.total, requestsScanned: report.requestsScanned, inputs: report.inputs, complete: report.complete, rows };
  writeFileSync(resolve(RESULTS_DIR, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
  console.log(`\n== Security properties (test-results/security/table.md, summary.json)\n\n${report.markdown}\n`);
  if (!report.complete) {
    console.log('Not every property ran in this run: SECURITY.md was left as it was.');
    return report;
  }
  let doc: string;
  try {
    doc = readFileSync(SECURITY_MD, 'utf8');
  } catch {
    console.log('SECURITY.md not found: the table was not written into it.');
    return report;
  }
  const start = doc.indexOf(TABLE_START);
  const end = doc.indexOf(TABLE_END);
  if (start < 0 || end < start) {
    console.log('SECURITY.md has no table markers: the table was not written into it.');
    return report;
  }
  const next = `${doc.slice(0, start + TABLE_START.length)}\n${report.markdown}\n${doc.slice(end)}`;
  if (next !== doc) writeFileSync(SECURITY_MD, next);
  console.log('SECURITY.md: table updated from this run.');
  return report;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const report = buildReport();
  console.log(report.markdown);
}
