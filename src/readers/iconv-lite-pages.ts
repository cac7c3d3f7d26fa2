/**
 * iconv-lite as the extension's pages get it: the browser's TextDecoder.
 *
 * The mail reader's Outlook parser (@kenjiuno/msgreader, used by src/readers/msg.ts)
 * decodes a message's 8-bit strings with iconv-lite, which needs Node's `Buffer` (through
 * safer-buffer) and carries every code page's table. Bundled for a browser, Vite leaves
 * `buffer` out, and the reader's chunk throws as it loads. src/readers asks only for
 * labels TextDecoder knows (./charset), so the pages decode with it; the npm package and
 * the command (Node) keep iconv-lite. wxt.config.ts aliases `iconv-lite` here (knip.json
 * names it an entry, as nothing imports it by path).
 */

/** Bytes in `encoding` to text; an encoding TextDecoder does not know throws a RangeError, as iconv-lite throws for one it does not know. */
export function decode(bytes: Uint8Array, encoding: string): string {
  return new TextDecoder(encoding).decode(bytes);
}

/** Whether TextDecoder knows `encoding`. */
export function encodingExists(encoding: string): boolean {
  try {
    new TextDecoder(encoding);
    return true;
  } catch {
    return false;
  }
}

/** The reader only reads: writing a message (msgreader's Burner) is not part of the pages. */
export function encode(): never {
  throw new Error('iconv-lite encode is not available in the extension');
}

export default { decode, encode, encodingExists };
