/**
 * The decoder frame's side: it runs in its own page (sandboxed in Chrome, so a flaw in
 * decoding a hostile image reaches no extension API and no token), takes images from the
 * page that framed it, and answers with their codes as text. The WebAssembly comes from
 * that page, which reads it from the extension's own files.
 */
import { IMAGE_LIMITS } from '../../readers/limits';
import { zxingDecoder } from '../../readers/zxing';
import { browserPixels } from './pixels';
import { REQUEST, type Reply } from './wire';

/** Serves decoding to the frame's parent window: call once, in the decoder page. */
export function serveDecoder(self: Window): void {
  let wasm: ((value: ArrayBuffer) => void) | undefined;
  const wasmReady = new Promise<ArrayBuffer>((resolve) => {
    wasm = resolve;
  });
  const decode = zxingDecoder(() => wasmReady, browserPixels);
  const reply = (message: Reply): void => {
    // The parent is an extension page; the frame's origin is opaque, so no origin can be named.
    self.parent.postMessage(message, '*');
  };
  self.addEventListener('message', (event: MessageEvent<unknown>) => {
    if (event.source !== self.parent) return;
    const request = REQUEST.safeParse(event.data);
    if (!request.success) return;
    const message = request.data;
    if (message.kind === 'wasm') {
      wasm?.(message.wasm);
      return;
    }
    const header = { format: message.format, width: message.width, height: message.height };
    decode(new Uint8Array(message.image), header).then(
      (codes) => {
        reply({ kind: 'codes', id: message.id, codes: codes.slice(0, IMAGE_LIMITS.codes).map((code) => ({ ...code, text: code.text.slice(0, 8192) })) });
      },
      (error: unknown) => {
        reply({ kind: 'failed', id: message.id, error: (error instanceof Error ? error.message : String(error)).slice(0, 500) });
      },
    );
  });
  reply({ kind: 'ready' });
}
