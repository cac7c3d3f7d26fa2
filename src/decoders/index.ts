/**
 * The image decoder as Node loads it, for the library and the command: ZXing-C++'s
 * `.wasm` and libwebp's (for WebP, which ZXing's own image reader cannot read) read from
 * the package's files, never fetched. In the npm package both sit beside the bundle in
 * `dist/`; in a checkout they are read from node_modules.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';

import type { ImageDecoder, ImageHeader } from '../readers';
import type { PixelDecoder } from '../readers/pdf';
import { zxingDecoders } from '../readers/zxing';

/** The bytes of a file as an ArrayBuffer of its own (the WebAssembly APIs take one). */
function own(bytes: Uint8Array): ArrayBuffer {
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}

/** A `.wasm` file of the package: beside this module once bundled, else where its package installed it. */
async function packaged(file: string, specifier: string): Promise<ArrayBuffer> {
  try {
    return own(await readFile(new URL(`./${file}`, import.meta.url)));
  } catch {
    return own(await readFile(createRequire(import.meta.url).resolve(specifier)));
  }
}

let webp: Promise<(bytes: ArrayBuffer) => Promise<ImageData>> | undefined;

/** libwebp's decoder, loaded on the first WebP image. It defines a global ImageData where Node has none. */
async function webpDecoder(): Promise<(bytes: ArrayBuffer) => Promise<ImageData>> {
  const { default: decode, init } = await import('@jsquash/webp/decode.js');
  await init(await WebAssembly.compile(await packaged('webp_dec.wasm', '@jsquash/webp/codec/dec/webp_dec.wasm')));
  return decode;
}

async function pixels(bytes: Uint8Array, header: ImageHeader): Promise<ImageData | null> {
  if (header.format !== 'webp') return null;
  webp ??= webpDecoder();
  return (await webp)(own(bytes));
}

const decoders = zxingDecoders(() => packaged('zxing_reader.wasm', 'zxing-wasm/reader/zxing_reader.wasm'), pixels);

/** The decoder the library and the command use: one for the process, its WebAssembly loaded on the first image. */
export const nodeDecoder: ImageDecoder = decoders.image;

/** The same decoder, for pixels already drawn (a PDF's pages). */
export const nodePixelDecoder: PixelDecoder = decoders.pixels;
