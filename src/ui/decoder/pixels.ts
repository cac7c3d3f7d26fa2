/**
 * An image's pixels as a browser decodes them, for the decoder frame: the browser's own
 * image decoders (every format, a GIF's first frame, a JPEG turned as its EXIF says), drawn
 * on white so a code on a transparent background reads as it looks on a white page. It runs
 * in the decoder frame, where no extension API (and so no translation) is: its failures are
 * codes, said in the reason of the image left unread.
 */
import { IMAGE_TYPES, type ImageHeader } from '../../readers/picture';

/** The pixels of an image whose header was checked against IMAGE_LIMITS; throws when the browser cannot decode it. */
export async function browserPixels(bytes: Uint8Array, header: ImageHeader): Promise<ImageData> {
  const bitmap = await createImageBitmap(new Blob([bytes as Uint8Array<ArrayBuffer>], { type: IMAGE_TYPES[header.format] }));
  try {
    // The drawn size, not the declared one: an EXIF turn swaps the sides, never grows them.
    const { width, height } = bitmap;
    if (width * height > header.width * header.height) throw new Error('imageLargerThanDeclared');
    const canvas = new OffscreenCanvas(width, height);
    const context = canvas.getContext('2d', { willReadFrequently: true });
    if (context === null) throw new Error('noCanvas');
    context.fillStyle = '#fff';
    context.fillRect(0, 0, width, height);
    context.drawImage(bitmap, 0, 0);
    return context.getImageData(0, 0, width, height);
  } finally {
    bitmap.close();
  }
}
