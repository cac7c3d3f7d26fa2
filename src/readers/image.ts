/**
 * `linksInImage`: every code in an image (QR, Micro QR, Data Matrix, Aztec, PDF417), its
 * text, and for a link what Isolink would isolate. The pixels are decoded by a decoder the
 * caller gives (ZXing-C++ in WebAssembly, ./zxing): in Node from the package's files, in
 * the extension inside a sandboxed page. This module checks the file first, so no decoder
 * is handed a file larger, or declaring more pixels, than IMAGE_LIMITS allows.
 */
import { fillTemplate } from '../net/template';
import type { UnwrapMode } from '../resolve';

import { meaningOf, type Meaning } from './codes';
import { IMAGE_LIMITS } from './limits';
import { imageHeader, type ImageFormat, type ImageHeader } from './picture';

/** Where a code is in the image, in pixels from the top left: the box around its corners. */
export interface CodeBox {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/** A code as a decoder reads it: its text, its symbology (`QRCode`, `DataMatrix`…) and where it is. */
export interface DecodedCode {
  readonly text: string;
  readonly format: string;
  readonly box: CodeBox | null;
}

/** Decodes the codes of one image already checked against IMAGE_LIMITS; throws when the pixels cannot be decoded. */
export type ImageDecoder = (bytes: Uint8Array, header: ImageHeader) => Promise<readonly DecodedCode[]>;

/** How linksInImage reads an image. */
export interface ImageOptions {
  /** What decodes the pixels (./zxing's `zxingDecoder`, or the package's own in Node). */
  readonly decoder: ImageDecoder;
  /** Wrapped links: isolate the real target (`unwrap`, the default) or the wrapper as written (`keep`). */
  readonly unwrap?: Exclude<UnwrapMode, 'ask'>;
}

/** One code of an image: its text as decoded, what it means, and for a link what would be isolated. */
export interface ImageCode extends Meaning {
  /** The decoded text, exactly (hostile: show it escaped, never run it). */
  readonly text: string;
  /** The symbology: `QRCode`, `MicroQRCode`, `DataMatrix`, `Aztec`, `PDF417`… */
  readonly format: string;
  readonly box: CodeBox | null;
}

/** Why an image could not be read, in English with `$1`… for its params. */
export const IMAGE_FAILURES = {
  imageEmpty: 'is empty',
  imageTooLarge: 'is larger than the limit of $1 MiB',
  imageTooManyPixels: 'declares $1 × $2 pixels, beyond the limit of $3 megapixels and $4 pixels a side',
  notImage: 'is not an image: PNG, JPEG, GIF, WebP or BMP',
  imageUnreadable: 'could not be decoded: $1',
} as const satisfies Record<string, string>;

/** The stable code of an ImageFailure (`notImage`, `imageTooManyPixels`, …). */
export type ImageFailureCode = keyof typeof IMAGE_FAILURES;

/** An image that could not be read: nothing of it is listed. */
export interface ImageFailure {
  readonly ok: false;
  readonly code: ImageFailureCode;
  readonly params: readonly string[];
  /** English, for developers and the command: "is not an image: …". */
  readonly reason: string;
}

/** An image read: its format and size, and every code found (none is a valid answer). */
export interface ImageReport {
  readonly ok: true;
  readonly format: ImageFormat;
  readonly width: number;
  readonly height: number;
  readonly codes: readonly ImageCode[];
}

/** What linksInImage answers: the image read (`ok: true`), or why it could not be (`ok: false`). */
export type ImageReading = ImageReport | ImageFailure;

function failure(code: ImageFailureCode, ...params: string[]): ImageFailure {
  return { ok: false, code, params, reason: fillTemplate(IMAGE_FAILURES[code], params) };
}

/** Whether a declared size is within the limits: checked before any pixel is decoded. */
function withinLimits(header: ImageHeader): boolean {
  const { width, height } = header;
  return width <= IMAGE_LIMITS.side && height <= IMAGE_LIMITS.side && width * height <= IMAGE_LIMITS.pixels;
}

/** The file checked: its header, or why it is not read. */
export function checkImage(bytes: Uint8Array): ImageHeader | ImageFailure {
  if (bytes.length === 0) return failure('imageEmpty');
  if (bytes.length > IMAGE_LIMITS.bytes) return failure('imageTooLarge', String(IMAGE_LIMITS.bytes / 1024 / 1024));
  const header = imageHeader(bytes);
  if (header === null) return failure('notImage');
  if (!withinLimits(header))
    return failure('imageTooManyPixels', String(header.width), String(header.height), String(IMAGE_LIMITS.pixels / 1e6), String(IMAGE_LIMITS.side));
  if (header.width === 0 || header.height === 0) return failure('imageUnreadable', 'it declares no pixels');
  return header;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Every code in an image (PNG, JPEG, GIF, WebP, BMP; a GIF's first frame), with its text
 * and, for a link, what Isolink would isolate: refanged, unwrapped and checked by the one
 * resolver, as any link. `URLTO:` and `MEBKM:` codes give their URL; Wi-Fi networks,
 * contacts, `mailto:`, `tel:` and plain text are kinds of their own, never a target.
 *
 * Never throws and never fetches: a file that is not an image, too large, declaring too
 * many pixels or damaged gives `{ ok: false, code, reason }`. An image with no code gives
 * `codes: []`.
 *
 * @example
 * import { readFile } from 'node:fs/promises';
 * import { linksInImage } from 'isolink';
 * const image = await linksInImage(await readFile('scan-me.png'));
 * if (image.ok) for (const code of image.codes) console.log(code.text, '->', code.target ?? code.kind);
 */
export async function linksInImage(bytes: Uint8Array, options: ImageOptions): Promise<ImageReading> {
  const header = checkImage(bytes);
  if ('ok' in header) return header;
  let decoded: readonly DecodedCode[];
  try {
    decoded = await options.decoder(bytes, header);
  } catch (error) {
    return failure('imageUnreadable', messageOf(error));
  }
  const mode = options.unwrap ?? 'unwrap';
  const codes = decoded.slice(0, IMAGE_LIMITS.codes).map(({ text, format, box }) => ({ text, format, box, ...meaningOf(text, mode) }));
  return { ok: true, format: header.format, width: header.width, height: header.height, codes };
}
