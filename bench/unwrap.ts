/**
 * Figure 8: unwrap. Its conformance corpus, its throughput on a list of wrapped links as
 * a reported mail holds them, and hostile 1 MiB inputs against an ordinary wrapped link
 * of the same length (the budget: no flood costs more than twice the ordinary input).
 * A chain of nested wrappers is judged per layer: each layer is parsed once.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { wrap, wrapperFloods } from '../test/support/wrap';
import { median, round } from './stats';
import { shippedFang } from './shipped';
import { floodRatio, type FloodResult, type Throughput } from './text';

const { MAX_UNWRAP_DEPTH, unwrap } = await shippedFang();

const CORPUS = resolve(import.meta.dirname, '../test/fixtures/unwrap-cases.json');

export interface UnwrapResult {
  readonly corpus: { readonly cases: number; readonly passed: number; readonly failed: string[] };
  readonly throughput: Throughput & { readonly links: number; readonly bytes: number };
  readonly floods: FloodResult[];
  /** A chain of MAX_UNWRAP_DEPTH + 1 wrappers, per layer against one ordinary layer of the same length. */
  readonly nesting: FloodResult & { readonly layers: number };
}

function corpusCounts(): UnwrapResult['corpus'] {
  const { cases } = JSON.parse(readFileSync(CORPUS, 'utf8')) as {
    cases: { id: string; input: string; expected: { url: string; layers: string[]; opaque?: string } }[];
  };
  const failed = cases
    .filter((c) => {
      const actual = unwrap(c.input);
      return actual.url !== c.expected.url || actual.layers.join() !== c.expected.layers.join() || actual.opaque !== c.expected.opaque;
    })
    .map((c) => c.id);
  return { cases: cases.length, passed: cases.length - failed.length, failed };
}

/** A deterministic list of wrapped links: every format around targets with paths, queries and fragments. */
function wrappedLinks(count: number): string[] {
  const formats = Object.values(wrap);
  const links: string[] = [];
  for (let i = 0; i < count; i++) {
    const target = `https://host-${i % 97}.example/path/${i}/page.php?id=${i * 7919}&ref=mail#s${i % 13}`;
    const format = formats[i % formats.length] ?? wrap.safelinks;
    links.push(i % 5 === 0 ? wrap.safelinks(format(target)) : format(target));
  }
  return links;
}

/** An ordinary wrapped link `length` characters long: a Safe Link of a long, plain target. */
function ordinaryOfLength(length: number): string {
  const shell = wrap.safelinks('https://evil.example/');
  return wrap.safelinks(`https://evil.example/${'a'.repeat(Math.max(0, length - shell.length))}`).slice(0, length);
}

export function unwrapBench(options: { readonly floodSize: number; readonly repeats: number; readonly links: number }): UnwrapResult {
  const corpus = corpusCounts();

  const links = wrappedLinks(options.links);
  const bytes = links.reduce((sum, link) => sum + link.length, 0);
  const all = (): number => links.reduce((sum, link) => sum + unwrap(link).url.length, 0);
  for (let i = 0; i < 3; i++) all();
  const runs: number[] = [];
  for (let i = 0; i < options.repeats; i++) {
    const start = performance.now();
    all();
    runs.push(performance.now() - start);
  }
  const ms = median(runs);

  const floods = Object.entries(wrapperFloods(options.floodSize)).map(([name, flood]) =>
    floodRatio('unwrap', unwrap, `${name} x N`, flood, ordinaryOfLength(flood.length), options.repeats),
  );

  // MAX_UNWRAP_DEPTH + 1 Google redirects around a long plain target: every layer is peeled but the last.
  const layers = MAX_UNWRAP_DEPTH + 1;
  let chain = `https://e.example/${'b'.repeat(options.floodSize)}`;
  for (let i = 0; i < layers; i++) chain = wrap.google(chain);
  const once = floodRatio('unwrap', unwrap, 'nesting', chain, ordinaryOfLength(chain.length), options.repeats);
  const perLayer = round(once.ratio / layers, 2);

  return {
    corpus,
    throughput: { medianMs: round(ms, 2), runsMs: runs.map((r) => round(r, 2)), mbPerS: round(bytes / 1e6 / (ms / 1000), 2), links: links.length, bytes },
    floods,
    nesting: { ...once, ratio: perLayer, layers },
  };
}
