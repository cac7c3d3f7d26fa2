/**
 * Figure 10's page: what runs in Chromium, bundled by qr.ts with esbuild and served on
 * 127.0.0.1. Each image is decoded once as the extension's page will decode it (the file's
 * header read by src/readers, the browser's decoder through `createImageBitmap`, drawn on a
 * white canvas, its ImageData taken), then both decoders read that same ImageData: Isolink's
 * `zxingDecoder` (src/readers/zxing.ts, its reader options as shipped, handed the ImageData
 * as its pixels) and jsQR 1.4.0 (`jsQR(data, width, height)`, its default options). The
 * decoder's WebAssembly comes from the bench's server as bytes, never from zxing-wasm's CDN.
 *
 * Node drives it through `page.evaluate` on `globalThis.qrBench` (QrPage).
 */
import jsQR from 'jsqr';

import { imageHeader, type ImageHeader } from '../src/readers/picture';
import { browserPixels } from '../src/ui/decoder/pixels';
import { zxingDecoder } from '../src/readers/zxing';

/** An image as the page holds it: decoded once, read many times. */
interface Loaded {
  readonly header: ImageHeader;
  readonly pixels: ImageData;
}

/** An image as loaded: its size once decoded. */
export interface PageImage {
  readonly file: string;
  readonly width: number;
  readonly height: number;
}

/** One pair on one image: each decoder's time (ms) and the texts it gave, in its order. */
export interface PagePair {
  readonly zxingMs: number;
  readonly jsqrMs: number;
  readonly zxing: string[];
  readonly jsqr: string[];
}

/** The page's interface, as `globalThis.qrBench`. */
export interface QrPage {
  /** Fetches and decodes every file once (white background), then warms both decoders up on the first. */
  load(files: readonly string[]): Promise<PageImage[]>;
  /** One pair a file, in turn; zxing goes first when `first` + the file's index is even. */
  pairs(files: readonly string[], first: number): Promise<PagePair[]>;
}

const images = new Map<string, Loaded>();
let current: ImageData | undefined;

const wasm = fetch('/zxing_reader.wasm').then(async (reply) => {
  if (!reply.ok) throw new Error(`the bench's server gave ${reply.status} for the decoder's WebAssembly`);
  return reply.arrayBuffer();
});
/** Isolink's decoder, given the ImageData under test as its pixels (as the extension's page gives the canvas's). */
const zxing = zxingDecoder(
  () => wasm,
  () => Promise.resolve(current ?? null),
);
const NO_BYTES = new Uint8Array(0);

function loaded(file: string): Loaded {
  const image = images.get(file);
  if (!image) throw new Error(`${file} was not loaded`);
  return image;
}

/** The file's pixels on white, as a canvas gives them (transparent areas would be black). */
async function decode(file: string): Promise<Loaded> {
  const reply = await fetch(`/qr/${encodeURIComponent(file)}`);
  if (!reply.ok) throw new Error(`${file}: ${reply.status}`);
  const bytes = new Uint8Array(await reply.arrayBuffer());
  const header = imageHeader(bytes);
  if (header === null) throw new Error(`${file}: not an image src/readers knows`);
  // The extension's own step (the decoder frame's), so both decoders get what the extension gives ZXing.
  return { header, pixels: await browserPixels(bytes, header) };
}

async function zxingTexts(image: Loaded): Promise<string[]> {
  current = image.pixels;
  try {
    return (await zxing(NO_BYTES, image.header)).map((code) => code.text);
  } finally {
    current = undefined;
  }
}

function jsqrTexts(image: Loaded): string[] {
  const { data, width, height } = image.pixels;
  const code = jsQR(data, width, height);
  return code === null ? [] : [code.data];
}

/** One pair: each side timed around its call alone, in the order given. */
async function pair(image: Loaded, zxingFirst: boolean): Promise<PagePair> {
  let zxingMs = 0;
  let jsqrMs = 0;
  let zxingFound: string[] = [];
  let jsqrFound: string[] = [];
  const runZxing = async (): Promise<void> => {
    const start = performance.now();
    zxingFound = await zxingTexts(image);
    zxingMs = performance.now() - start;
  };
  const runJsqr = (): void => {
    const start = performance.now();
    jsqrFound = jsqrTexts(image);
    jsqrMs = performance.now() - start;
  };
  if (zxingFirst) {
    await runZxing();
    runJsqr();
  } else {
    runJsqr();
    await runZxing();
  }
  return { zxingMs, jsqrMs, zxing: zxingFound, jsqr: jsqrFound };
}

/** Untimed reads of the first image before any timed one: the WebAssembly module instantiated, both decoders compiled. */
const WARM_UP_READS = 3;

const page: QrPage = {
  async load(files) {
    for (const file of files) images.set(file, await decode(file));
    const first = files[0];
    if (first !== undefined) for (let i = 0; i < WARM_UP_READS; i++) await pair(loaded(first), i % 2 === 0);
    return files.map((file) => ({ file, width: loaded(file).pixels.width, height: loaded(file).pixels.height }));
  },
  async pairs(files, first) {
    const pairs: PagePair[] = [];
    for (const [i, file] of files.entries()) pairs.push(await pair(loaded(file), (first + i) % 2 === 0));
    return pairs;
  },
};

(globalThis as unknown as { qrBench: QrPage }).qrBench = page;
