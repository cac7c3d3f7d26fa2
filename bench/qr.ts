/**
 * Figure 10: QR codes. Isolink's decoder (ZXing-C++ through zxing-wasm, src/readers/zxing.ts)
 * beside jsQR 1.4.0, the decoder most extensions ship, in the same run and on the same pixels:
 * headless Chromium loads a page (qr-page.ts, bundled by esbuild, served on 127.0.0.1) that
 * decodes each image of test/fixtures/qr once to ImageData on white, as the extension's page
 * will, and hands that ImageData to both. Three figures: how many images of the corpus each
 * reads (judged: zxing at least as many as jsQR), the time of each on the 1920×1080 mail
 * screenshot with one code (the median of per-pair ratios zxing / jsQR, pairs interleaved,
 * order alternating), and the time over the whole corpus (information). Beside them, the same
 * screenshot read in Node by `linksInImage` with `nodeDecoder` (the command's path, file bytes
 * to links), and the service worker checked for the decoder's code.
 */
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { nodeDecoder } from '../src/decoders';
import { linksInImage } from '../src/readers';
import { CHROMIUM_ARGS, findChromium } from '../test/support/chromium';
import type { PagePair, QrPage } from './qr-page';
import { judge, row, type Row } from './report';
import type { Bundle } from './sizes';
import { kB, median, medianRatio, round, summary, withInterval, type MedianRatio } from './stats';

const ROOT = resolve(import.meta.dirname, '..');
const CORPUS = join(ROOT, 'test/fixtures/qr');
/** The image of the time figure: a webmail page with one code of 5 pixels a module (the corpus README). */
const SCREENSHOT = 'screenshot-1920x1080.png';
/** Symbologies the corpus holds that Isolink's decoder leaves out on purpose (src/readers/zxing.ts reads 2D codes only). */
const LINEAR = new Set(['Code128']);

/** The page's global, as qr-page.ts sets it. */
interface Host {
  readonly qrBench: QrPage;
}

/** How much figure 10 measures (plan.ts's qr* numbers). */
export interface QrOptions {
  /** Timed pairs on the screenshot, after `warmup` untimed ones. */
  readonly pairs: number;
  readonly warmup: number;
  /** Passes over the whole corpus, one pair an image each; the first also gives the counts. */
  readonly rounds: number;
  /** Timed reads of the screenshot in Node, after two untimed ones. */
  readonly nodeRuns: number;
}

/** One decoder's reading of the corpus. */
export interface QrCount {
  /** Images with at least one 2D code that the decoder read correctly (see README: exactly its texts; jsQR: one of them). */
  readonly read: number;
  /** Codes whose text the decoder gave (jsQR gives one an image at most). */
  readonly codes: number;
  /** Images without a 2D code in which it found nothing. */
  readonly clean: number;
  /** Images it did not read, or in which it found a code where there is none. */
  readonly missed: string[];
}

/** Two sides' times, interleaved in pairs, and the median of the per-pair ratios zxing / jsQR. */
export interface QrTimes extends MedianRatio {
  readonly pairs: number;
  readonly zxingMs: ReturnType<typeof summary>;
  readonly jsqrMs: ReturnType<typeof summary>;
}

/** Figure 10's measurements, as results.json keeps them under `details.qr`. */
export interface QrResult {
  readonly chromium: string;
  /** The corpus: images, those with a 2D code, their codes; each decoder's count. */
  readonly corpus: { readonly images: number; readonly withCodes: number; readonly codes: number; readonly zxing: QrCount; readonly jsqr: QrCount };
  readonly screenshot: QrTimes & { readonly width: number; readonly height: number; readonly zxingTexts: string[]; readonly jsqrTexts: string[] };
  /**
   * The corpus timed: per round, every image once as a pair; the ms are a round's sums (one
   * pass over the corpus), the ratio the median over the rounds of zxing's sum / jsQR's, and
   * `medianImageRatio` the median over the images of each one's median ratio.
   */
  readonly wholeCorpus: QrTimes & { readonly rounds: number; readonly medianImageRatio: number };
  /** `linksInImage(bytes, { decoder: nodeDecoder })` on the screenshot's file in this process. */
  readonly node: { readonly runs: number; readonly ms: ReturnType<typeof summary>; readonly codes: number; readonly target: string | null };
  /** Fetching and decoding the corpus to ImageData in the page, and the decoders' first load (untimed by the figures). */
  readonly loadMs: number;
}

/** An image of the corpus as expected.json lists it. */
interface Expected {
  readonly file: string;
  readonly texts: string[];
  readonly formats: string[];
}

/** The corpus's images and their 2D codes' texts (linear ones left out, as the decoder leaves them). */
function corpus(): Expected[] {
  const { images } = JSON.parse(readFileSync(join(CORPUS, 'expected.json'), 'utf8')) as { images: Expected[] };
  return images.map((image) => {
    const kept = image.texts.flatMap((text, i) => (LINEAR.has(image.formats[i] ?? '') ? [] : [text]));
    return { file: image.file, texts: kept, formats: image.formats.filter((format) => !LINEAR.has(format)) };
  });
}

/** How many of `expected` are in `found`, each found text counted once (a multiset intersection). */
function matched(found: readonly string[], expected: readonly string[]): number {
  const left = [...found];
  let n = 0;
  for (const text of expected) {
    const at = left.indexOf(text);
    if (at >= 0) {
      left.splice(at, 1);
      n += 1;
    }
  }
  return n;
}

/** Counts one decoder's readings (one pass, in the corpus's order); jsQR reads one code an image at most. */
function count(readings: readonly PagePair[], expected: readonly Expected[], side: 'zxing' | 'jsqr'): QrCount {
  let read = 0;
  let codes = 0;
  let clean = 0;
  const missed: string[] = [];
  for (const [i, image] of expected.entries()) {
    const found = readings[i]?.[side] ?? [];
    const hits = matched(found, image.texts);
    codes += hits;
    if (image.texts.length === 0) {
      if (found.length === 0) clean += 1;
      else missed.push(image.file);
    } else if (side === 'jsqr' ? hits === 1 : hits === image.texts.length && found.length === hits) read += 1;
    else missed.push(image.file);
  }
  return { read, codes, clean, missed };
}

/** zxing's and jsQR's times, pair by pair, as a figure: the median of the ratios zxing / jsQR. */
function times(pairs: readonly [number, number][]): QrTimes {
  return {
    ...medianRatio(pairs.map(([z, j]) => z / j)),
    pairs: pairs.length,
    zxingMs: summary(
      pairs.map(([z]) => z),
      2,
    ),
    jsqrMs: summary(
      pairs.map(([, j]) => j),
      2,
    ),
  };
}

// ---- the page and its server ----------------------------------------------------------------

/** The page's bundle as served, kept for the service worker's check. */
let pageScript: string | undefined;

const HEADERS = {
  // Cross-origin isolated: the page's clock has 5 µs steps instead of 100 µs.
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-embedder-policy': 'require-corp',
  'cross-origin-resource-policy': 'same-origin',
  'cache-control': 'no-store',
};

/** Serves the page, its bundle, the decoder's WebAssembly and the corpus's files by name, on 127.0.0.1 only. */
async function serve(files: ReadonlySet<string>): Promise<{ server: Server; url: string }> {
  const built = await build({
    entryPoints: [join(ROOT, 'bench/qr-page.ts')],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'error',
  });
  const script = built.outputFiles[0]?.contents;
  if (script === undefined) throw new Error('esbuild gave no bundle for the page');
  pageScript = new TextDecoder().decode(script);
  const wasm = readFileSync(createRequire(import.meta.url).resolve('zxing-wasm/reader/zxing_reader.wasm'));
  const html = '<!doctype html><meta charset="utf-8"><title>qr bench</title><script type="module" src="/page.js"></script>';
  const server = createServer((request, reply) => {
    let path: string;
    try {
      path = decodeURIComponent(new URL(request.url ?? '/', 'http://127.0.0.1').pathname);
    } catch {
      reply.writeHead(400, HEADERS).end();
      return;
    }
    const send = (type: string, body: Uint8Array | string): void => {
      reply.writeHead(200, { 'content-type': type, ...HEADERS }).end(body);
    };
    if (path === '/') send('text/html', html);
    else if (path === '/page.js') send('text/javascript', script);
    else if (path === '/zxing_reader.wasm') send('application/wasm', wasm);
    else if (path.startsWith('/qr/') && files.has(path.slice(4))) send('application/octet-stream', readFileSync(join(CORPUS, path.slice(4))));
    else reply.writeHead(404, HEADERS).end();
  });
  await new Promise<void>((resolvePromise) => server.listen(0, '127.0.0.1', resolvePromise));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` };
}

/** `linksInImage` in Node on the screenshot's bytes, as `isolink qr` reads a file. */
async function nodeRead(runs: number): Promise<QrResult['node']> {
  const bytes = new Uint8Array(readFileSync(join(CORPUS, SCREENSHOT)));
  const read = () => linksInImage(bytes, { decoder: nodeDecoder });
  await read();
  const last = await read();
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await read();
    ms.push(performance.now() - start);
  }
  const codes = last.ok ? last.codes : [];
  return { runs, ms: summary(ms, 2), codes: codes.length, target: codes[0]?.target ?? null };
}

/**
 * Figure 10 measured: the corpus read and timed in Chromium, the screenshot timed there, then
 * the screenshot read in Node. Throws when Chromium is missing, the page cannot be served or
 * asks for anything off the bench's server.
 */
export async function qrBench(options: QrOptions): Promise<QrResult> {
  const figures = await inChromium(options);
  return { ...figures, node: await nodeRead(options.nodeRuns) };
}

/** Everything but the Node read, in a Chromium of its own, closed before the Node read runs. */
async function inChromium(options: QrOptions): Promise<Omit<QrResult, 'node'>> {
  const expected = corpus();
  const files = expected.map((image) => image.file);
  if (!files.includes(SCREENSHOT)) throw new Error(`${SCREENSHOT} is not in test/fixtures/qr/expected.json`);
  const executablePath = findChromium();
  if (executablePath === undefined) throw new Error('Chromium is not installed: apt-get install chromium (or set CHROMIUM_PATH).');
  const { server, url } = await serve(new Set(files));
  // The tests' Chromium without an extension: outside hosts never resolve.
  const browser = await chromium.launch({ executablePath, headless: true, args: [...CHROMIUM_ARGS] });
  try {
    const page = await browser.newPage();
    const outside: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(url)) outside.push(request.url());
    });
    await page.goto(url);
    await page.waitForFunction(() => 'qrBench' in globalThis);
    if (!(await page.evaluate(() => globalThis.crossOriginIsolated))) throw new Error('the page is not cross-origin isolated: its clock would be coarse');

    const loadStart = performance.now();
    const loaded = await page.evaluate(async (names) => (globalThis as unknown as Host).qrBench.load(names), files);
    const loadMs = performance.now() - loadStart;
    const pairs = async (names: readonly string[], first: number): Promise<PagePair[]> =>
      page.evaluate(async ([n, f]) => (globalThis as unknown as Host).qrBench.pairs(n, f), [names, first] as const);

    // The corpus: `rounds` passes; image i of round r starts with zxing when r + i is even. The first gives the counts.
    const rounds: PagePair[][] = [];
    for (let r = 0; r < options.rounds; r++) rounds.push(await pairs(files, r));
    const readings = rounds[0] ?? [];
    // The screenshot: warm-up pairs, then timed pairs in batches of ten (one evaluate each).
    await pairs(Array<string>(options.warmup).fill(SCREENSHOT), 0);
    const shotPairs: PagePair[] = [];
    while (shotPairs.length < options.pairs)
      shotPairs.push(...(await pairs(Array<string>(Math.min(10, options.pairs - shotPairs.length)).fill(SCREENSHOT), shotPairs.length)));
    if (outside.length > 0) throw new Error(`the page asked for something off the bench's server: ${outside.slice(0, 3).join(' ')}`);

    const sum = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0);
    const roundTotals = rounds.map((round): [number, number] => [sum(round.map((p) => p.zxingMs)), sum(round.map((p) => p.jsqrMs))]);
    const imageRatios = files.map((_, i) => median(rounds.map((round) => (round[i]?.zxingMs ?? Number.NaN) / (round[i]?.jsqrMs ?? Number.NaN))));
    const shotImage = loaded.find((image) => image.file === SCREENSHOT);
    const shotReading = shotPairs[0];
    const withCodes = expected.filter((image) => image.texts.length > 0);
    return {
      chromium: browser.version(),
      corpus: {
        images: files.length,
        withCodes: withCodes.length,
        codes: sum(withCodes.map((image) => image.texts.length)),
        zxing: count(readings, expected, 'zxing'),
        jsqr: count(readings, expected, 'jsqr'),
      },
      screenshot: {
        ...times(shotPairs.map((p): [number, number] => [p.zxingMs, p.jsqrMs])),
        width: shotImage?.width ?? 0,
        height: shotImage?.height ?? 0,
        zxingTexts: shotReading?.zxing ?? [],
        jsqrTexts: shotReading?.jsqr ?? [],
      },
      wholeCorpus: {
        ...times(roundTotals),
        rounds: options.rounds,
        medianImageRatio: round(median(imageRatios), 3),
      },
      loadMs: round(loadMs, 0),
    };
  } finally {
    await browser.close().catch(() => undefined);
    await new Promise((resolvePromise) => server.close(resolvePromise));
  }
}

// ---- the service worker ----------------------------------------------------------------------

/** Strings the page's bundle holds from the decoder's code and no other: in the worker, they would mean the decoder there. */
const MARKERS: Readonly<Record<string, string>> = {
  'zxing-wasm': 'makeClassHandle requires ptr and ptrType',
  'src/readers/zxing.ts': 'RMQRCode',
};

/** The service worker as figure 1 measured it (`bundle`), searched for the decoder's code. */
function workerCheck(extensionDir: string, bundle: Bundle): { readonly gzip: number; readonly decoderCode: string[] } {
  if (pageScript === undefined) throw new Error("the page's bundle was not built");
  const page = pageScript;
  const stale = Object.entries(MARKERS).filter(([, marker]) => !page.includes(marker));
  if (stale.length > 0) throw new Error(`markers not in the page's bundle, pick others: ${stale.map(([code]) => code).join(', ')}`);
  const code = bundle.files
    .filter((file) => file.path.endsWith('.js'))
    .map((file) => readFileSync(join(extensionDir, file.path), 'utf8'))
    .join('\n');
  return { gzip: bundle.gzip, decoderCode: Object.entries(MARKERS).flatMap(([name, marker]) => (code.includes(marker) ? [name] : [])) };
}

// ---- the rows ----------------------------------------------------------------------------------

/** The figure's budgets (plan.ts's BUDGETS). */
export interface QrBudgets {
  /** zxing / jsQR on the screenshot, at most. */
  readonly qrShotRatio: number;
}

interface FailRow {
  readonly id: string;
  readonly figure: string;
  readonly budget: string;
}

/** The rows with a budget, as run.ts shows them when the section fails. */
export function qrFailRows(budgets: QrBudgets): readonly [FailRow, FailRow, FailRow] {
  return [
    { id: 'qr.read', figure: '10 QR corpus images read, zxing vs jsQR (same ImageData)', budget: ">= jsQR's, nothing where no code" },
    { id: 'qr.screenshot', figure: `10 QR time on ${SCREENSHOT}, zxing / jsQR`, budget: `<= ${budgets.qrShotRatio}x` },
    { id: 'qr.worker', figure: "10 service worker: none of the decoder's code", budget: 'none' },
  ];
}

function sideText(c: QrCount, withCodes: number, noCode: number): string {
  return `${c.read}/${withCodes} images, ${c.codes} codes, ${c.clean}/${noCode} without a code left empty`;
}

/** The figure's rows; `sizes` and `extensionDir` are figure 1's details and build (empty when that section failed). */
export function qrRows(r: QrResult, budgets: QrBudgets, sizes: unknown, extensionDir: string): Row[] {
  const background = (sizes as { bundles?: Bundle[] } | undefined)?.bundles?.find((b) => b.name === 'background');
  const [readRow, shotRow, workerRow] = qrFailRows(budgets);
  const c = r.corpus;
  const noCode = c.images - c.withCodes;
  const s = r.screenshot;
  const w = r.wholeCorpus;
  const found = s.zxingTexts.length === 1 && s.jsqrTexts.length === 1 && s.zxingTexts[0] === s.jsqrTexts[0];
  const rows: Row[] = [
    row(
      readRow.id,
      `10 QR corpus (${c.images} images, ${c.withCodes} with ${c.codes} 2D codes) read, same ImageData`,
      `zxing ${sideText(c.zxing, c.withCodes, noCode)}; jsQR ${sideText(c.jsqr, c.withCodes, noCode)} (an image counts for jsQR when it gives one of its texts)`,
      readRow.budget,
      c.zxing.read >= c.jsqr.read && c.zxing.codes >= c.jsqr.codes && c.zxing.clean === noCode ? 'pass' : 'fail',
      { numeric: c.zxing.read },
    ),
    row(
      shotRow.id,
      `10 QR time on ${SCREENSHOT} (${s.width}x${s.height}, one code), zxing / jsQR (median of ${s.pairs} pair ratios)`,
      `${withInterval(s.ratio, s.interval)} (zxing ${s.zxingMs.median} ms, jsQR ${s.jsqrMs.median} ms${found ? '' : `; NOT BOTH READ IT: zxing ${JSON.stringify(s.zxingTexts)}, jsQR ${JSON.stringify(s.jsqrTexts)}`})`,
      shotRow.budget,
      found ? judge(s.ratio, (v) => v <= budgets.qrShotRatio) : 'fail',
      { numeric: s.ratio },
    ),
    row(
      'qr.corpusTime',
      `10 QR time over the corpus, zxing / jsQR (median of ${w.rounds} pass ratios)`,
      `${withInterval(w.ratio, w.interval)} (a pass: zxing ${w.zxingMs.median} ms, jsQR ${w.jsqrMs.median} ms; median image ratio ${w.medianImageRatio})`,
      '-',
      'info',
      { numeric: w.ratio },
    ),
    row(
      'qr.node',
      `10 QR linksInImage in Node (nodeDecoder) on ${SCREENSHOT}, file to links`,
      `${r.node.ms.median} ms (median of ${r.node.runs}); ${r.node.codes} code, target ${r.node.target ?? 'none'}`,
      '-',
      'info',
      { numeric: r.node.ms.median },
    ),
  ];
  if (background === undefined || extensionDir === '') {
    rows.push(row(workerRow.id, workerRow.figure, 'could not measure: no build (the sizes section failed)', workerRow.budget, 'error', { sizeBudget: true }));
  } else {
    const check = workerCheck(extensionDir, background);
    rows.push(
      row(
        workerRow.id,
        workerRow.figure,
        `${check.decoderCode.length === 0 ? `none of ${Object.keys(MARKERS).join(', ')} in it` : `DECODER CODE IN IT: ${check.decoderCode.join(', ')}`} (${kB(check.gzip)} gzip, figure 1)`,
        workerRow.budget,
        check.decoderCode.length === 0 ? 'pass' : 'fail',
        { numeric: check.decoderCode.length, sizeBudget: true },
      ),
    );
  }
  return rows;
}
