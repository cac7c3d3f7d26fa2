/**
 * `isolink qr <image…>`: the codes in images (a screenshot, a photo, a mail's picture),
 * each with its text and what Isolink would isolate. Decoding needs no configuration and
 * sends nothing; `--open` isolates the codes' links as `bulk` does.
 */
import { nodeDecoder } from '../../decoders';
import { linksInImage, type ImageCode } from '../../readers';
import type { Command } from '../command';
import { loadSettings } from '../config';
import { readInput } from '../input';
import { printable } from '../mails';
import { CliError, EXIT } from '../problems';
import { CREATE_FLAGS, CREATE_HELP, createLinks, unwrapModeOf } from './isolate';

/** A code as the command lists it: the file it is in, then the library's fields. */
interface Found {
  readonly file: string;
  readonly code: ImageCode;
}

/** One code as `--json` prints it. */
function record({ file, code }: Found): Record<string, unknown> {
  return {
    file,
    text: code.text,
    format: code.format,
    kind: code.kind,
    target: code.target,
    ...(code.refused === undefined ? {} : { refused: code.refused }),
  };
}

/** What the TARGET column says: the target, why a link is refused, or what a code that is not a link holds. */
function targetText(code: ImageCode): string {
  if (code.target !== null) return code.target;
  if (code.refused !== undefined) return `refused: ${code.refused.reason}`;
  return `(${code.kind}, not a link: not opened)`;
}

export const qr: Command = {
  summary: 'Read the QR codes in images; --open isolates their links',
  usage: '<image…>',
  help: [
    'Reads QR, Micro QR, rMQR, Data Matrix, Aztec and PDF417 codes in PNG, JPEG, GIF (first',
    'frame), WebP and BMP images, rotated, skewed, inverted or small. Prints one row per code:',
    'the file, its text, and the real target (refanged, unwrapped, checked as by open). A code',
    'that is not a link (Wi-Fi, contact, mailto:, tel:, text) is shown, never opened. --json',
    'prints one object per code: file, text, format, kind, target (null when not isolated) and',
    'refused when the link is refused. Decoding sends nothing and needs no configuration.',
    '--open        create a context for every code whose link can be isolated, as bulk does',
    ...CREATE_HELP,
    'An image with no code says so on stderr (exit 0). Exit status 2 when a file cannot be read,',
    'is not an image, or is larger than 20 MiB or 40 megapixels (the other files are still read).',
    'Example: isolink qr screenshot.png --json | jq -r "select(.target) | .target"',
  ],
  flags: { ...CREATE_FLAGS, open: { type: 'boolean' } },
  args: { min: 1, max: 1000, missing: '<image…>' },
  offline: true,
  async run(context) {
    const open = context.flags['open'] === true;
    // Only --open reads the configuration: reading an image works with none, even a broken one.
    const settings = open ? await loadSettings(context.io) : context.settings;
    const mode = unwrapModeOf({ flags: context.flags, settings }) === 'keep' ? 'keep' : 'unwrap';
    const found: Found[] = [];
    let unreadable = 0;
    for (const path of context.args) {
      const input = await readInput(context.io, context.out, path);
      const image = await linksInImage(input.bytes, { decoder: nodeDecoder, unwrap: mode });
      if (!image.ok) {
        unreadable++;
        context.io.stderr.write(`isolink: ${printable(input.source)} ${image.reason}.\n`);
        continue;
      }
      if (image.codes.length === 0) context.io.stderr.write(`isolink: no code found in ${printable(input.source)}.\n`);
      for (const code of image.codes) found.push({ file: input.source, code });
    }
    if (open) {
      const links = found.flatMap(({ code }) => (code.target !== null && code.url !== null ? [code.url] : []));
      if (links.length === 0) throw new CliError('noUrls', context.args.length === 1 ? (context.args[0] ?? '') : 'the images');
      const status = await createLinks({ ...context, settings }, links);
      return unreadable > 0 ? EXIT.usage : status;
    }
    if (context.out.json) for (const item of found) context.out.record(record(item));
    else if (found.length > 0)
      context.out.table(
        found.map(({ file, code }) => [printable(file), printable(code.text), printable(targetText(code))]),
        ['FILE', 'TEXT', 'TARGET'],
      );
    return unreadable > 0 ? EXIT.usage : EXIT.ok;
  },
};
