/**
 * The image decoder: ZXing-C++ compiled to WebAssembly (zxing-wasm's reader build). It
 * reads QR, Micro QR, rMQR, Data Matrix, Aztec and PDF417 codes that are small, rotated,
 * skewed, inverted or low in contrast, several to an image. Its `.wasm` comes from where
 * the caller says (the package's files in Node, the extension's own files in a page),
 * never from the network, and is instantiated on the first image, not before.
 */
import type { ReaderOptions, ReadResult } from 'zxing-wasm/reader';

import type { CodeBox, DecodedCode, ImageDecoder } from './image';
import { IMAGE_LIMITS } from './limits';
import type { PagePixels, PixelDecoder } from './pdf';
import type { ImageHeader } from './picture';

/** The decoder's WebAssembly, as bytes: read from a file in Node, from the extension's package in a page. */
export type WasmSource = () => Promise<ArrayBuffer>;

/**
 * An image's pixels, for the images the decoder's own image reader cannot read (its
 * stb_image reads no WebP) or, in a browser, for every image (the browser's decoders);
 * null leaves the bytes to the decoder.
 */
export type PixelSource = (bytes: Uint8Array, header: ImageHeader) => Promise<ImageData | null>;

/** The codes that can hold a link; linear barcodes are left out (noise in a photo reads as one). */
const READER: ReaderOptions = {
  formats: ['QRCode', 'MicroQRCode', 'RMQRCode', 'DataMatrix', 'Aztec', 'PDF417'],
  tryHarder: true,
  tryRotate: true,
  tryInvert: true,
  tryDownscale: true,
  maxNumberOfSymbols: IMAGE_LIMITS.codes,
};

function boxOf(result: ReadResult): CodeBox | null {
  const { topLeft, topRight, bottomRight, bottomLeft } = result.position;
  const xs = [topLeft.x, topRight.x, bottomRight.x, bottomLeft.x];
  const ys = [topLeft.y, topRight.y, bottomRight.y, bottomLeft.y];
  const x = Math.min(...xs);
  const y = Math.min(...ys);
  return Number.isFinite(x) && Number.isFinite(y) ? { x, y, width: Math.max(...xs) - x, height: Math.max(...ys) - y } : null;
}

/**
 * A decoder that reads with ZXing-C++. One WebAssembly module serves every decoder of a
 * page or process (zxing-wasm keeps one), so make one decoder and keep it.
 */
export function zxingDecoder(wasm: WasmSource, pixels?: PixelSource): ImageDecoder {
  return zxingDecoders(wasm, pixels).image;
}

/** The codes of a module's results: throws the decoder's error for an image it could not load. */
function decoded(results: readonly ReadResult[]): readonly DecodedCode[] {
  // An image it cannot load is one result with no format and the error.
  const unread = results.find((result) => !result.isValid && (result.format as string) === '' && result.error !== '');
  if (unread !== undefined) throw new Error(unread.error);
  return results.filter((result) => result.isValid).map((result) => ({ text: result.text, format: result.format, box: boxOf(result) }));
}

/**
 * Both decoders of one ZXing module: of an image file (`image`), and of pixels already
 * drawn (`pixels`: a PDF's page), the WebAssembly loaded once for both.
 */
export function zxingDecoders(wasm: WasmSource, pixels?: PixelSource): { readonly image: ImageDecoder; readonly pixels: PixelDecoder } {
  let ready: Promise<typeof import('zxing-wasm/reader')> | undefined;
  /** The decoder's code and WebAssembly, loaded on the first image: not where a page or the command starts. */
  const load = async (): Promise<typeof import('zxing-wasm/reader')> => {
    const [zxing, wasmBinary] = await Promise.all([import('zxing-wasm/reader'), wasm()]);
    await zxing.prepareZXingModule({ overrides: { wasmBinary }, fireImmediately: true });
    return zxing;
  };
  const module = async (): Promise<typeof import('zxing-wasm/reader')> => {
    ready ??= load();
    try {
      return await ready;
    } catch (error) {
      ready = undefined;
      throw error;
    }
  };
  return {
    image: async (bytes: Uint8Array, header: ImageHeader): Promise<readonly DecodedCode[]> => {
      const zxing = await module();
      const image = (await pixels?.(bytes, header)) ?? bytes;
      return decoded(await zxing.readBarcodes(image, READER));
    },
    pixels: async ({ data, width, height }: PagePixels): Promise<readonly DecodedCode[]> => {
      const zxing = await module();
      // zxing-wasm reads an ImageData's fields, not its class: Node has no ImageData of its own.
      const image = { data, width, height, colorSpace: 'srgb' } as ImageData;
      return decoded(await zxing.readBarcodes(image, READER));
    },
  };
}
