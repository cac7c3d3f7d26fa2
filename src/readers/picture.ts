/**
 * What an image file says it is before anything decodes it: its format and its declared
 * size, read from the first bytes alone. The size is checked against IMAGE_LIMITS before
 * a decoder allocates a pixel, so a decompression bomb (a small file that declares 100
 * megapixels) is refused by arithmetic, not by running out of memory.
 */

/** The image formats read: what mail clients, browsers and screenshot tools produce. */
export type ImageFormat = 'png' | 'jpeg' | 'gif' | 'webp' | 'bmp';

/** An image's format and declared size, in pixels. */
export interface ImageHeader {
  readonly format: ImageFormat;
  readonly width: number;
  readonly height: number;
}

/** The MIME type of each format, for a Blob handed to the browser's own decoder. */
export const IMAGE_TYPES: Readonly<Record<ImageFormat, string>> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  bmp: 'image/bmp',
};

function u16be(bytes: Uint8Array, at: number): number {
  return ((bytes[at] ?? 0) << 8) | (bytes[at + 1] ?? 0);
}

function u16le(bytes: Uint8Array, at: number): number {
  return (bytes[at] ?? 0) | ((bytes[at + 1] ?? 0) << 8);
}

function u24le(bytes: Uint8Array, at: number): number {
  return u16le(bytes, at) | ((bytes[at + 2] ?? 0) << 16);
}

function u32be(bytes: Uint8Array, at: number): number {
  return u16be(bytes, at) * 0x10000 + u16be(bytes, at + 2);
}

function i32le(bytes: Uint8Array, at: number): number {
  return u16le(bytes, at) | (u16le(bytes, at + 2) << 16);
}

function startsWith(bytes: Uint8Array, at: number, text: string): boolean {
  for (let i = 0; i < text.length; i++) if (bytes[at + i] !== text.charCodeAt(i)) return false;
  return true;
}

const PNG_SIGNATURE = '\x89PNG\r\n\x1a\n';

/** PNG: the IHDR chunk comes first and holds the size (big-endian). */
function png(bytes: Uint8Array): ImageHeader | null {
  if (!startsWith(bytes, 12, 'IHDR') || bytes.length < 24) return null;
  return { format: 'png', width: u32be(bytes, 16), height: u32be(bytes, 20) };
}

/** The JPEG markers that start a frame and carry its size (SOF0-SOF15 but DHT, JPG and DAC). */
function isFrameStart(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

/** JPEG: walk the segments to the first frame header. Every step moves forward, so it ends. */
function jpeg(bytes: Uint8Array): ImageHeader | null {
  let at = 2;
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1] ?? 0;
    // Fill bytes and markers without a length (RSTn, TEM) are one step each.
    if (marker === 0xff || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += marker === 0xff ? 1 : 2;
      continue;
    }
    if (isFrameStart(marker)) return { format: 'jpeg', width: u16be(bytes, at + 7), height: u16be(bytes, at + 5) };
    const length = u16be(bytes, at + 2);
    if (length < 2) return null;
    at += 2 + length;
  }
  return null;
}

/** GIF: the logical screen holds every frame (little-endian). */
function gif(bytes: Uint8Array): ImageHeader | null {
  if (bytes.length < 10) return null;
  return { format: 'gif', width: u16le(bytes, 6), height: u16le(bytes, 8) };
}

/** WebP: lossy (VP8), lossless (VP8L) or extended (VP8X) first chunk. */
function webp(bytes: Uint8Array): ImageHeader | null {
  if (bytes.length < 30) return null;
  if (startsWith(bytes, 12, 'VP8X')) return { format: 'webp', width: u24le(bytes, 24) + 1, height: u24le(bytes, 27) + 1 };
  if (startsWith(bytes, 12, 'VP8L')) {
    const bits = (bytes[21] ?? 0) | ((bytes[22] ?? 0) << 8) | ((bytes[23] ?? 0) << 16) | ((bytes[24] ?? 0) << 24);
    return { format: 'webp', width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (startsWith(bytes, 12, 'VP8 ')) return { format: 'webp', width: u16le(bytes, 26) & 0x3fff, height: u16le(bytes, 28) & 0x3fff };
  return null;
}

/** BMP: width and height after the file header; a negative height means top-down rows. */
function bmp(bytes: Uint8Array): ImageHeader | null {
  if (bytes.length < 26) return null;
  return { format: 'bmp', width: Math.abs(i32le(bytes, 18)), height: Math.abs(i32le(bytes, 22)) };
}

/**
 * The format and declared size of an image, told by its first bytes (never by its name);
 * null when the bytes are not one of the formats read, or too short to say.
 */
export function imageHeader(bytes: Uint8Array): ImageHeader | null {
  if (startsWith(bytes, 0, PNG_SIGNATURE)) return png(bytes);
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return jpeg(bytes);
  if (startsWith(bytes, 0, 'GIF87a') || startsWith(bytes, 0, 'GIF89a')) return gif(bytes);
  if (startsWith(bytes, 0, 'RIFF') && startsWith(bytes, 8, 'WEBP')) return webp(bytes);
  if (startsWith(bytes, 0, 'BM')) return bmp(bytes);
  return null;
}
