/**
 * Where figure 9's time goes: `npx tsx bench/mail-profile.ts [runs] [corpus[=part]]`. Reads
 * the generated 10 MB mail (or, with `corpus`, every test/fixtures/mail/eml/*.eml, or those
 * whose name holds `part`) with
 * linksInMail, then with PostalMime.parse alone, each under V8's CPU profiler (node:inspector,
 * the profiler behind `node --cpu-prof`, started after five warm-up reads so that only warm
 * code is sampled). The code is the figure's bundle, not minified: esbuild writes each
 * module's path above its code, which gives every sample its module.
 *
 * Each sample goes to the first frame, from the leaf up, that is postal-mime, parse5 (with
 * entities), tldts, extractUrls (split by caller), resolveLink (unwrap and the URL checks
 * inside it) or src/readers by module (hosts.ts: the shown-text check's own regexes and URL
 * parsing, its extractUrls and tldts counted under those; html.ts: the walk of the tree;
 * found.ts: the link list); GC and the rest apart. Then the two sides unprofiled,
 * alternating: the figure's ratio on this machine now. Writes .bench-output/mail.cpuprofile
 * (linksInMail's; open it in Chrome's DevTools).
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { bundleMail } from './mail';
import { generateMail } from './mailgen';
import { BENCH_OUT } from './sizes';
import { inTurn, median } from './stats';

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly children?: number[];
}

interface Profile {
  readonly nodes: ProfileNode[];
  readonly samples: number[];
  readonly timeDeltas: number[];
}

const runs = Number(process.argv[2] ?? 10);
const corpusArg = process.argv.find((arg) => arg === 'corpus' || arg.startsWith('corpus='));
const onCorpus = corpusArg !== undefined;
mkdirSync(BENCH_OUT, { recursive: true });
const outfile = join(BENCH_OUT, 'mail-profile.mjs');
const { linksInMail, PostalMime } = await bundleMail(outfile, false);
const corpusDir = resolve(import.meta.dirname, '../test/fixtures/mail/eml');
const mails = onCorpus
  ? readdirSync(corpusDir)
      .filter((name) => name.endsWith('.eml') && name.includes(corpusArg.slice('corpus='.length)))
      .map((name) => new Uint8Array(readFileSync(join(corpusDir, name))))
  : [generateMail({ size: 10_000_000, links: 2000, seed: 0x3a11b0c5 }).bytes];
const bytes = mails.reduce((sum, mail) => sum + mail.length, 0);
// The options linksInMail gives postal-mime (src/readers/mime.ts; the figure reads them from a call).
const options = {
  forceRfc822Attachments: true,
  maxRfc822NestingDepth: 0,
  maxNestingDepth: 50,
  maxHeadersSize: 1024 * 1024,
  attachmentEncoding: 'arraybuffer',
} as const;
const sides = {
  linksInMail: async (): Promise<void> => {
    for (const mail of mails) await linksInMail(mail);
  },
  postal: async (): Promise<void> => {
    for (const mail of mails) await PostalMime.parse(mail, options);
  },
};

// The module of each line of the bundle, from esbuild's `// path` comments.
const bundleUrl = pathToFileURL(outfile).href;
const starts: { line: number; module: string }[] = [];
readFileSync(outfile, 'utf8')
  .split('\n')
  .forEach((text, line) => {
    const path = /^\/\/ ((?:node_modules|src)\/\S+)$/.exec(text)?.[1];
    if (path !== undefined) starts.push({ line, module: path });
  });
function moduleAt(line: number): string {
  let found = '';
  for (const s of starts) {
    if (s.line > line) break;
    found = s.module;
  }
  return found;
}

/** The category of one frame, or undefined to look further up the stack. */
function category(node: ProfileNode): string | undefined {
  const { functionName, url, lineNumber } = node.callFrame;
  if (functionName === '(garbage collector)') return 'GC';
  if (url !== bundleUrl) return undefined;
  const module = moduleAt(lineNumber);
  const named = (name: string): boolean => new RegExp(`^${name}\\d*$`).test(functionName);
  if (module.startsWith('node_modules/postal-mime/')) return 'postal-mime';
  if (module.startsWith('node_modules/parse5/') || module.startsWith('node_modules/entities/')) return 'parse5';
  if (module.startsWith('node_modules/tldts')) return 'tldts';
  if (module === 'src/fang/index.ts' && named('extractUrls')) return 'extractUrls';
  if (module === 'src/resolve/index.ts' && named('resolveLink')) return 'resolveLink';
  if (module === 'src/readers/hosts.ts') return 'shown-text check (hosts.ts)';
  if (module === 'src/readers/html.ts') return 'tree walk (html.ts)';
  if (module === 'src/readers/found.ts') return 'link list (found.ts)';
  if (module.startsWith('src/readers/')) return `src/readers/${module.slice('src/readers/'.length)}`;
  return undefined;
}

/** Milliseconds a run by category: each sample to the first frame with a category, from the leaf up. */
async function profiled(fn: () => Promise<void>, save?: string): Promise<{ ms: Map<string, number>; wallMs: number }> {
  for (let i = 0; i < 5; i++) await fn();
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  await session.post('Profiler.start');
  const start = performance.now();
  for (let i = 0; i < runs; i++) await fn();
  const wallMs = (performance.now() - start) / runs;
  const { profile } = (await session.post('Profiler.stop')) as unknown as { profile: Profile };
  session.disconnect();
  if (save !== undefined) writeFileSync(save, JSON.stringify(profile));

  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const stack = function* (id: number): Generator<ProfileNode> {
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const node = byId.get(at);
      if (node !== undefined) yield node;
    }
  };
  /** Where extractUrls was called from: the HTML's text, a shown text, or the text part. */
  const caller = (node: ProfileNode): string => {
    for (const up of stack(node.id)) {
      const name = up.callFrame.functionName;
      if (/^hostsNamed\d*$/.test(name)) return 'shown texts';
      if (/^readHtml\d*$/.test(name)) return 'HTML text';
      if (/^visit\d*$/.test(name)) return 'text part';
    }
    return '?';
  };
  const keys = new Map<number, string>();
  const ms = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    let key = keys.get(id);
    if (key === undefined) {
      key = 'other (Node, program)';
      for (const node of stack(id)) {
        const found = category(node);
        if (found !== undefined) {
          key = found === 'extractUrls' ? `extractUrls (${caller(node)})` : found;
          break;
        }
      }
      keys.set(id, key);
    }
    ms.set(key, (ms.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000 / runs);
  });
  return { ms, wallMs };
}

const what = onCorpus
  ? `the corpus (${mails.length} .eml${corpusArg === 'corpus' ? '' : ` named *${corpusArg.slice('corpus='.length)}*`})`
  : 'the generated mail';
const isolink = await profiled(sides.linksInMail, join(BENCH_OUT, 'mail.cpuprofile'));
const postal = await profiled(sides.postal);
console.log(`${what}, ${(bytes / 1e6).toFixed(2)} MB; ms a run, ${runs} profiled runs each (sampling every 100 us):`);
console.log(`  ${'category'.padEnd(32)} ${'linksInMail'.padStart(11)} ${'postal-mime'.padStart(11)} ${'added'.padStart(8)}`);
const keys = [...new Set([...isolink.ms.keys(), ...postal.ms.keys()])].sort((a, b) => (isolink.ms.get(b) ?? 0) - (isolink.ms.get(a) ?? 0));
const cell = (value: number): string => value.toFixed(1);
for (const key of keys) {
  const a = isolink.ms.get(key) ?? 0;
  const b = postal.ms.get(key) ?? 0;
  console.log(`  ${key.padEnd(32)} ${cell(a).padStart(11)} ${cell(b).padStart(11)} ${cell(a - b).padStart(8)}`);
}
console.log(
  `  ${'wall clock (profiled)'.padEnd(32)} ${cell(isolink.wallMs).padStart(11)} ${cell(postal.wallMs).padStart(11)} ${cell(isolink.wallMs - postal.wallMs).padStart(8)}`,
);

const a: number[] = [];
const b: number[] = [];
const time = async (fn: () => Promise<void>): Promise<number> => {
  const start = performance.now();
  await fn();
  return performance.now() - start;
};
for (let i = 0; i < runs * 2; i++) {
  const [x, y] = await inTurn(
    i,
    () => time(sides.linksInMail),
    () => time(sides.postal),
  );
  a.push(x);
  b.push(y);
}
console.log(
  `unprofiled, ${runs * 2} alternating pairs: linksInMail ${median(a).toFixed(1)} ms, PostalMime.parse ${median(b).toFixed(1)} ms, ratio ${(median(a) / median(b)).toFixed(2)}`,
);
console.log(`profile of linksInMail: ${join(BENCH_OUT, 'mail.cpuprofile')}`);
