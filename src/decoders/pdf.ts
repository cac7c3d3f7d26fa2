/**
 * The PDF reader as Node loads it, for the library and the command: pdf.js's legacy build
 * (bundled into the package), its parser run in this thread (`globalThis.pdfjsWorker`, so
 * no worker file is looked for), given the bytes only. Codes drawn on pages are read when
 * `@napi-rs/canvas` is installed (pdf.js's own optional dependency, not Isolink's): pages
 * are drawn on its canvas and read by the same ZXing decoder as images. Without it the
 * links, text and scripts are still read, and each PDF says that its pages were not drawn.
 */
import type { PageDrawer, PagePixels, PdfJs, PdfPage, PdfReader, PdfTools } from '../readers/pdf';
import { readPdf } from '../readers/pdf';

import { nodePixelDecoder } from '.';

/** What a page is drawn on: @napi-rs/canvas's canvas, the fields used. */
interface NodeCanvas {
  getContext(kind: '2d'): {
    fillStyle: string;
    fillRect(x: number, y: number, width: number, height: number): void;
    getImageData(x: number, y: number, width: number, height: number): PagePixels;
  };
}

/** pdf.js's render, as Node calls it: the page of PdfPage with its render method. */
interface RenderablePage extends PdfPage {
  getViewport(options: { scale: number }): { readonly width: number; readonly height: number };
  render(parameters: { canvasContext: unknown; canvas: unknown; viewport: unknown }): { readonly promise: Promise<void> };
}

/** Said in the `pdfNotDrawn` problem when the canvas is not installed. */
export const NO_CANVAS = 'reading codes drawn on PDF pages needs the optional package @napi-rs/canvas installed';

/** A drawer on @napi-rs/canvas, or null when it is not installed (or cannot load on this platform). */
async function canvasDrawer(): Promise<PageDrawer | null> {
  let createCanvas: (width: number, height: number) => NodeCanvas;
  try {
    // Optional: a name in a variable, so neither the bundler nor the type checker requires the package.
    const name = '@napi-rs/canvas';
    ({ createCanvas } = (await import(name)) as { createCanvas: typeof createCanvas });
  } catch {
    return null;
  }
  return async (page, scale) => {
    const renderable = page as RenderablePage;
    const viewport = renderable.getViewport({ scale });
    const width = Math.max(1, Math.floor(viewport.width));
    const height = Math.max(1, Math.floor(viewport.height));
    const canvas = createCanvas(width, height);
    const context = canvas.getContext('2d');
    context.fillStyle = '#fff';
    context.fillRect(0, 0, width, height);
    await renderable.render({ canvasContext: context, canvas, viewport }).promise;
    return context.getImageData(0, 0, width, height);
  };
}

let tools: Promise<PdfTools> | undefined;

/** pdf.js and the drawer, loaded on the first PDF: not where the command starts. */
async function load(): Promise<PdfTools> {
  const draw = await canvasDrawer();
  // The parser in this thread: pdf.js takes a worker's handler from this global instead of starting a worker.
  const worker = (await import('pdfjs-dist/legacy/build/pdf.worker.mjs')) as unknown;
  (globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = worker;
  // Loading, pdf.js warns on stderr that it cannot polyfill DOMMatrix and the like without
  // the canvas; each PDF says so in its own words (`pdfNotDrawn`), so those lines are dropped.
  const warn = console.warn;
  console.warn = (...data: unknown[]) => {
    if (draw !== null || !/^Warning: Cannot (?:polyfill|load)/.test(String(data[0]))) warn(...data);
  };
  // pdf.js 5 makes one DOMMatrix as it loads (for drawing only) and throws where there is
  // none: without the canvas, which would have given it, a stand-in serves for the load
  // and is taken away after. Nothing is drawn then, so nothing else would use it.
  const global = globalThis as { DOMMatrix?: unknown };
  const standIn = draw === null && global.DOMMatrix === undefined;
  if (standIn)
    global.DOMMatrix = function DOMMatrixStandIn(): void {
      // Made once as pdf.js loads, never used: nothing is drawn without the canvas.
    };
  let pdfjs: PdfJs;
  try {
    pdfjs = (await import('pdfjs-dist/legacy/build/pdf.mjs')) as unknown as PdfJs;
  } finally {
    console.warn = warn;
    if (standIn) delete global.DOMMatrix;
  }
  return draw === null ? { pdfjs, noDrawing: NO_CANVAS } : { pdfjs, draw, decode: nodePixelDecoder };
}

/** The PDF reader the library and the command use: pdf.js loaded on the first PDF, kept for the process. */
export const nodePdfReader: PdfReader = async (bytes) => {
  tools ??= load();
  let loaded: PdfTools;
  try {
    loaded = await tools;
  } catch (error) {
    tools = undefined;
    return { ok: false, code: 'pdfUnreadable', params: [`pdf.js could not be loaded: ${error instanceof Error ? error.message : String(error)}`] };
  }
  return readPdf(bytes, loaded);
};
