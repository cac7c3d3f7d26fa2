/**
 * Figure 13: reading a PDF (`npm run bench:pdf`, `-- --quick` for a short run). Issue 32
 * item 8: Isolink's PDF reader (src/readers/pdf.ts's `readPdf`, as the command runs it,
 * pages not drawn) against pdf.js's own work on the same bytes: the document loaded, then
 * each page's annotations and text (the same first 50 pages), with the same switches.
 * Budget: at most 1.3 times. Two inputs: the PDF corpus of the tests (test/fixtures/pdf,
 * the files pdf.js opens) read in turn, and a generated 50-page document with 20 links and
 * 40 lines of text a page. Drawing a page for codes is timed apart, per page, as
 * information (with @napi-rs/canvas, as the command draws when it is installed).
 *
 * Writes bench/results-pdf.json (quick: results-pdf-quick.json); exits 1 when the budget is
 * broken in the full run. See bench/README.md, figure 13.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { nodePixelDecoder } from '../src/decoders';
import { pdfParameters, readPdf, type PdfJs, type PdfPage } from '../src/readers/pdf';
import { generatePdf } from './pdfgen';
import { formatTable, judge, row, type Row } from './report';
import { inTurn, median, ratioOfMedians, round, summary, withInterval } from './stats';

const ROOT = resolve(import.meta.dirname, '..');
const CORPUS = join(ROOT, 'test/fixtures/pdf');
const quick = process.argv.includes('--quick');
const PLAN = quick ? { pairs: 10, warmup: 3, drawn: 3 } : { pairs: 40, warmup: 10, drawn: 10 };
const BUDGET = 1.3;
/** The pages pdf.js reads on the peer's side: readPdf's limit (PDF_LIMITS.pagesRead). */
const PAGES = 50;

interface PeerDocument {
  readonly numPages: number;
  getPage(number: number): Promise<PdfPage>;
}

interface Loaded {
  readonly pdfjs: PdfJs;
}

/** pdf.js's legacy build with its parser in this thread, as src/decoders loads it. */
async function loadPdfjs(): Promise<Loaded> {
  (globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = await import('pdfjs-dist/legacy/build/pdf.worker.mjs');
  return { pdfjs: (await import('pdfjs-dist/legacy/build/pdf.mjs')) as unknown as PdfJs };
}

/** The switches readPdf opens every document with, on a copy of the bytes (pdf.js may take the buffer over). */
function switches(bytes: Uint8Array): ReturnType<typeof pdfParameters> {
  return pdfParameters(new Uint8Array(bytes));
}

/** The peer: pdf.js loads the document, then gives each page's annotations and text. */
async function peer(pdfjs: PdfJs, bytes: Uint8Array): Promise<number> {
  const loading = pdfjs.getDocument(switches(bytes));
  let items = 0;
  try {
    const document = (await loading.promise) as unknown as PeerDocument;
    for (let number = 1; number <= Math.min(document.numPages, PAGES); number++) {
      const page = await document.getPage(number);
      const [annotations, text] = await Promise.all([page.getAnnotations(), page.getTextContent()]);
      items += annotations.length + text.items.length;
      page.cleanup();
    }
  } finally {
    await loading.destroy();
  }
  return items;
}

async function isolink(pdfjs: PdfJs, bytes: Uint8Array): Promise<number> {
  const reading = await readPdf(bytes, { pdfjs, noDrawing: 'not drawn in this figure' });
  if (!reading.ok) throw new Error(`readPdf could not read a file the peer reads: ${reading.code}`);
  return reading.links.length;
}

async function time(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

async function versus(pdfjs: PdfJs, inputs: readonly Uint8Array[]): Promise<{ ratio: number; text: string }> {
  const a = (): Promise<void> => inputs.reduce((done, bytes) => done.then(() => isolink(pdfjs, bytes).then(() => undefined)), Promise.resolve());
  const b = (): Promise<void> => inputs.reduce((done, bytes) => done.then(() => peer(pdfjs, bytes).then(() => undefined)), Promise.resolve());
  for (let i = 0; i < PLAN.warmup; i++) await inTurn(i, a, b);
  const mine: number[] = [];
  const theirs: number[] = [];
  for (let i = 0; i < PLAN.pairs; i++) {
    const [x, y] = await inTurn(
      i,
      () => time(a),
      () => time(b),
    );
    mine.push(x);
    theirs.push(y);
  }
  const { ratio, interval } = ratioOfMedians(mine, theirs);
  return {
    ratio,
    text: `${withInterval(ratio, interval)} (Isolink ${round(median(mine), 2)} ms, pdf.js ${round(median(theirs), 2)} ms; ${PLAN.pairs} pairs)`,
  };
}

/** A page drawn as the command draws it (scale 2, white under it), then read by ZXing: ms per page, each part. */
async function drawing(pdfjs: PdfJs, bytes: Uint8Array): Promise<{ draw: number[]; decode: number[] } | string> {
  let createCanvas: (
    width: number,
    height: number,
  ) => {
    getContext(kind: '2d'): {
      fillStyle: string;
      fillRect(x: number, y: number, w: number, h: number): void;
      getImageData(x: number, y: number, w: number, h: number): ImageData;
    };
  };
  try {
    const name = '@napi-rs/canvas';
    ({ createCanvas } = (await import(name)) as { createCanvas: typeof createCanvas });
  } catch {
    return '@napi-rs/canvas is not installed';
  }
  const draw: number[] = [];
  const decode: number[] = [];
  const loading = pdfjs.getDocument(switches(bytes));
  try {
    const document = (await loading.promise) as unknown as PeerDocument;
    for (let i = 0; i < PLAN.drawn; i++) {
      const page = (await document.getPage(1)) as PdfPage & {
        render(p: { canvasContext: unknown; canvas: unknown; viewport: unknown }): { promise: Promise<void> };
      };
      const viewport = page.getViewport({ scale: 2 });
      const start = performance.now();
      const canvas = createCanvas(Math.floor(viewport.width), Math.floor(viewport.height));
      const context = canvas.getContext('2d');
      context.fillStyle = '#fff';
      context.fillRect(0, 0, Math.floor(viewport.width), Math.floor(viewport.height));
      await page.render({ canvasContext: context, canvas, viewport }).promise;
      const pixels = context.getImageData(0, 0, Math.floor(viewport.width), Math.floor(viewport.height));
      const drawn = performance.now();
      await nodePixelDecoder(pixels);
      decode.push(performance.now() - drawn);
      draw.push(drawn - start);
      page.cleanup();
    }
  } finally {
    await loading.destroy();
  }
  return { draw, decode };
}

async function main(): Promise<void> {
  const { pdfjs } = await loadPdfjs();
  const files = readdirSync(CORPUS)
    .filter((name) => name.endsWith('.pdf'))
    .sort()
    .map((name) => ({ name, bytes: new Uint8Array(readFileSync(join(CORPUS, name))) }));
  // The files pdf.js itself opens (not the encrypted or truncated ones): the same inputs on both sides.
  const opened: typeof files = [];
  for (const file of files) {
    try {
      await peer(pdfjs, file.bytes);
      opened.push(file);
    } catch {
      // Refused by pdf.js: read by neither side here (the tests check what Isolink says of it).
    }
  }
  const generated = generatePdf({ pages: PAGES, linksPerPage: 20, linesPerPage: 40 });
  const corpus = await versus(
    pdfjs,
    opened.map((file) => file.bytes),
  );
  const big = await versus(pdfjs, [generated]);
  const rows: Row[] = [
    row(
      'pdf.generated',
      `13 readPdf / pdf.js load + annotations + text, generated ${String(PAGES)} pages (${(generated.length / 1024).toFixed(0)} kB, ${String(PAGES * 20)} links)`,
      big.text,
      `≤ ${String(BUDGET)}`,
      judge(big.ratio, (v) => v <= BUDGET),
    ),
    row(
      'pdf.corpus',
      `13 readPdf / pdf.js, corpus (${String(opened.length)} of ${String(files.length)} files pdf.js opens: ${opened.map((f) => f.name).join(', ')})`,
      corpus.text,
      `≤ ${String(BUDGET)}`,
      judge(corpus.ratio, (v) => v <= BUDGET),
    ),
  ];
  for (const name of ['qr-vector.pdf', 'qr-image.pdf']) {
    const file = files.find((f) => f.name === name);
    if (file === undefined) continue;
    const drawn = await drawing(pdfjs, file.bytes);
    rows.push(
      row(
        `pdf.draw.${name}`,
        `13 a page of ${name} drawn at scale 2, then read by ZXing (median of ${String(PLAN.drawn)})`,
        typeof drawn === 'string'
          ? `not measured: ${drawn}`
          : `draw ${String(summary(drawn.draw, 1).median)} ms + decode ${String(summary(drawn.decode, 1).median)} ms`,
        '-',
        'info',
      ),
    );
  }
  console.log(formatTable(rows, () => !quick));
  const out = join(ROOT, 'bench', quick ? 'results-pdf-quick.json' : 'results-pdf.json');
  writeFileSync(out, `${JSON.stringify({ quick, plan: PLAN, rows }, null, 2)}\n`);
  if (!quick && rows.some((r) => r.verdict === 'fail')) process.exitCode = 1;
}

await main();
