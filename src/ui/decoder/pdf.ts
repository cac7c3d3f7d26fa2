/**
 * pdf.js where the decoder runs (./sandbox: Chrome's sandboxed frame, Firefox's worker):
 * the browser build and its parser, both bundled into the decoder's classic script and
 * loaded on the first PDF. A sandboxed frame's opaque origin cannot start an extension
 * worker, so the parser runs in the same thread (`globalThis.pdfjsWorker`). Pages are
 * drawn on an OffscreenCanvas (there is no document in a worker), so is every canvas
 * pdf.js makes for itself, and read by the same ZXing decoder as images. Nothing is
 * fetched: pdf.js is given the bytes only, with no font, CMap or WebAssembly address.
 */
import { readPdf, type PagePixels, type PdfJs, type PdfPage, type PdfReader, type PixelDecoder } from '../../readers/pdf';

/** A canvas and its context, as pdf.js's canvas factory hands them out. */
interface CanvasAndContext {
  canvas: OffscreenCanvas | null;
  context: OffscreenCanvasRenderingContext2D | null;
}

/** pdf.js's canvas factory on OffscreenCanvas: the methods of its BaseCanvasFactory. */
class OffscreenCanvasFactory {
  create(width: number, height: number): CanvasAndContext {
    if (width <= 0 || height <= 0) throw new Error('canvasSizeInvalid');
    const canvas = new OffscreenCanvas(width, height);
    return { canvas, context: canvas.getContext('2d', { willReadFrequently: true }) };
  }

  reset(target: CanvasAndContext, width: number, height: number): void {
    if (target.canvas === null) throw new Error('canvasMissing');
    target.canvas.width = width;
    target.canvas.height = height;
  }

  destroy(target: CanvasAndContext): void {
    if (target.canvas !== null) target.canvas.width = target.canvas.height = 0;
    target.canvas = null;
    target.context = null;
  }
}

/** pdf.js's render, as called here. */
interface RenderablePage extends PdfPage {
  render(parameters: { canvasContext: unknown; canvas: unknown; viewport: unknown; intent: 'print' }): { readonly promise: Promise<void> };
}

async function draw(page: PdfPage, scale: number): Promise<PagePixels> {
  const renderable = page as RenderablePage;
  const viewport = renderable.getViewport({ scale });
  const width = Math.max(1, Math.floor(viewport.width));
  const height = Math.max(1, Math.floor(viewport.height));
  const canvas = new OffscreenCanvas(width, height);
  const context = canvas.getContext('2d', { willReadFrequently: true });
  if (context === null) throw new Error('noCanvas');
  context.fillStyle = '#fff';
  context.fillRect(0, 0, width, height);
  // The print intent: for the display one pdf.js draws on animation frames, which a hidden frame never gets.
  await renderable.render({ canvasContext: context, canvas, viewport, intent: 'print' }).promise;
  return context.getImageData(0, 0, width, height);
}

async function load(): Promise<PdfJs> {
  (globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = await import('pdfjs-dist/build/pdf.worker.mjs');
  return (await import('pdfjs-dist/build/pdf.mjs')) as unknown as PdfJs;
}

/** The decoder's PDF reader: pdf.js loaded on the first PDF, its pages' codes read by `decode`. */
export function sandboxPdfReader(decode: PixelDecoder): PdfReader {
  let pdfjs: Promise<PdfJs> | undefined;
  return async (bytes) => {
    pdfjs ??= load();
    return readPdf(bytes, { pdfjs: await pdfjs, draw, decode, canvasFactory: OffscreenCanvasFactory });
  };
}
