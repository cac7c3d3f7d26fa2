/**
 * Figure 12: `isolink mail` over many reports (`npm run bench:mailbox`, `-- --quick` for a
 * short run). Three questions, each on the built command (dist/cli.js) and generated mails:
 *
 * 1. A folder of 1,000 mails read by ONE `isolink mail` against one process per mail (what a
 *    shell loop over the files does): budget, one process at least 10x faster. Paired rounds:
 *    the folder, then single-mail processes over an even sample of its files (200 of the
 *    1,000; quick mode 20 of 200), their total scaled to the whole folder, in turn.
 * 2. The speed-up on all cores (`--jobs` = the machine's) against one (`--jobs 1`), paired,
 *    as information: it is bounded by the cores the machine has.
 * 3. Peak memory (the process's maxRSS, worker threads included) reading an mbox of 10,000
 *    mails against one of 1,000: flat, within 1.2x.
 *
 * Writes bench/results-mailbox.json (quick: results-mailbox-quick.json) and exits 1 when a
 * budget is broken in the full run. See bench/README.md, figure 12.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, openSync, closeSync, writeFileSync, writeSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { generateMail } from './mailgen';
import { formatTable, judge, row, type Row } from './report';
import { medianRatio, round, summary, withInterval } from './stats';

const ROOT = resolve(import.meta.dirname, '..');
const CLI = join(ROOT, 'dist/cli.js');
const quick = process.argv.includes('--quick');

const PLAN = quick
  ? { folder: 200, sampled: 20, rounds: 2, mboxSmall: 500, mboxLarge: 5_000 }
  : { folder: 1_000, sampled: 200, rounds: 3, mboxSmall: 1_000, mboxLarge: 10_000 };
const BUDGET = { processes: 10, memory: 1.2 } as const;

/** A small reported mail: an Outlook-style body with ten links, no large attachment. */
function mail(seed: number): Uint8Array {
  return generateMail({ size: 12_000, links: 10, seed }).bytes;
}

/** The time and peak memory of one run of the command, its output thrown away. */
interface Run {
  readonly ms: number;
  readonly maxRssMb: number;
}

/** Prints the process's peak resident memory (kB) on stderr as it exits; main thread only. */
const PROBE = `const { isMainThread } = require('node:worker_threads');
if (isMainThread) process.on('exit', () => process.stderr.write('\\nmaxrss ' + process.resourceUsage().maxRSS + '\\n'));
`;

function run(args: readonly string[], probe: string): Promise<Run> {
  return new Promise((done, fail) => {
    const start = performance.now();
    const child = spawn(process.execPath, ['--require', probe, CLI, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', fail);
    child.on('close', (code) => {
      const ms = performance.now() - start;
      const rss = /maxrss (\d+)/.exec(stderr);
      if (code !== 0 || rss === null) fail(new Error(`isolink ${args.join(' ')} exited ${String(code)}: ${stderr.slice(-300)}`));
      else done({ ms, maxRssMb: Number(rss[1]) / 1024 });
    });
  });
}

function writeFolder(dir: string, count: number): string[] {
  mkdirSync(dir, { recursive: true });
  return Array.from({ length: count }, (_, i) => {
    const file = join(dir, `${String(i).padStart(5, '0')}.eml`);
    writeFileSync(file, mail(i));
    return file;
  });
}

/** An mbox (mboxo) of `count` mails, written a mail at a time; line ends made LF as mbox files keep them. */
function writeMbox(file: string, count: number): void {
  const fd = openSync(file, 'w');
  try {
    for (let i = 0; i < count; i++) {
      const text = new TextDecoder()
        .decode(mail(i))
        .replace(/\r\n/g, '\n')
        .replace(/^From /gm, '>From ');
      writeSync(fd, `From bench@sender.example Fri Mar  1 10:${String(i % 60).padStart(2, '0')}:00 2024\n${text}\n`);
    }
  } finally {
    closeSync(fd);
  }
}

async function main(): Promise<void> {
  execFileSync('npm', ['run', '--silent', 'build:lib'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  const dir = mkdtempSync(join(tmpdir(), 'isolink-mailbox-'));
  const rows: Row[] = [];
  try {
    const probe = join(dir, 'probe.cjs');
    writeFileSync(probe, PROBE);
    const files = writeFolder(join(dir, 'folder'), PLAN.folder);
    const sample = files.filter((_, i) => i % Math.max(1, Math.floor(files.length / PLAN.sampled)) === 0).slice(0, PLAN.sampled);
    const scale = files.length / sample.length;
    const threads = cpus().length;

    // 1 and 2: paired rounds, the order turned each round.
    const perProcess: number[] = [];
    const folderAll: number[] = [];
    const folderOne: number[] = [];
    for (let round = 0; round < PLAN.rounds; round++) {
      const steps = [
        async () => folderAll.push((await run(['mail', join(dir, 'folder'), '--json'], probe)).ms),
        async () => folderOne.push((await run(['mail', join(dir, 'folder'), '--json', '--jobs', '1'], probe)).ms),
        async () => {
          let total = 0;
          for (const file of sample) total += (await run(['mail', file, '--json'], probe)).ms;
          perProcess.push(total * scale);
        },
      ];
      for (const step of round % 2 === 0 ? steps : steps.reverse()) await step();
      console.log(
        `[mailbox] round ${String(round + 1)}: folder ${folderAll.at(-1)?.toFixed(0) ?? ''} ms, --jobs 1 ${folderOne.at(-1)?.toFixed(0) ?? ''} ms, one process per mail ${perProcess.at(-1)?.toFixed(0) ?? ''} ms`,
      );
    }
    const speed = medianRatio(perProcess.map((ms, i) => ms / (folderAll[i] ?? Number.NaN)));
    const cores = medianRatio(folderOne.map((ms, i) => ms / (folderAll[i] ?? Number.NaN)));
    rows.push(
      row(
        'mailbox.processes',
        `${String(files.length)} mails: one process per mail ÷ one isolink mail (${String(sample.length)} processes timed, scaled)`,
        withInterval(speed.ratio, speed.interval),
        `≥ ${String(BUDGET.processes)}`,
        judge(speed.ratio, (v) => v >= BUDGET.processes),
      ),
      row('mailbox.cores', `--jobs 1 ÷ --jobs ${String(threads)} (all cores), same folder`, withInterval(cores.ratio, cores.interval), '-', 'info'),
      row('mailbox.ms', `one isolink mail over the folder, median`, `${String(round(summary(folderAll, 0).median, 0))} ms`, '-', 'info'),
    );

    // 3: peak memory, each mbox read twice in turn.
    const small = join(dir, 'small.mbox');
    const large = join(dir, 'large.mbox');
    writeMbox(small, PLAN.mboxSmall);
    writeMbox(large, PLAN.mboxLarge);
    const smallRss: number[] = [];
    const largeRss: number[] = [];
    for (let round = 0; round < 2; round++) {
      smallRss.push((await run(['mail', small, '--json'], probe)).maxRssMb);
      largeRss.push((await run(['mail', large, '--json'], probe)).maxRssMb);
    }
    const memory = round(Math.max(...largeRss) / Math.max(...smallRss), 3);
    rows.push(
      row(
        'mailbox.memory',
        `peak memory, mbox of ${String(PLAN.mboxLarge)} mails ÷ ${String(PLAN.mboxSmall)} (${String(round(Math.max(...largeRss), 0))} ÷ ${String(round(Math.max(...smallRss), 0))} MB)`,
        String(memory),
        `≤ ${String(BUDGET.memory)}`,
        judge(memory, (v) => v <= BUDGET.memory),
      ),
    );
    console.log(formatTable(rows, () => !quick));
    const out = join(ROOT, 'bench', quick ? 'results-mailbox-quick.json' : 'results-mailbox.json');
    writeFileSync(out, `${JSON.stringify({ quick, plan: PLAN, threads, rows, samples: { folderAll, folderOne, perProcess, smallRss, largeRss } }, null, 2)}\n`);
    if (!quick && rows.some((r) => r.verdict === 'fail')) process.exitCode = 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
