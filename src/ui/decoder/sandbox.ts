/**
 * The decoder's side: it runs apart from the page that asks (in Chrome a sandboxed page
 * in a frame, so a flaw in decoding a hostile image or PDF reaches no extension API and no
 * token; in Firefox, which has no sandboxed pages, a worker), takes images and PDFs from
 * that page only, and answers with their codes and links as text. The WebAssembly comes
 * from that page, which reads it from the extension's own files. PDFs are read by pdf.js
 * (./pdf), loaded on the first one.
 */
import { IMAGE_LIMITS } from '../../readers/limits';
import type { PdfReading } from '../../readers/pdf';
import { zxingDecoders } from '../../readers/zxing';
import { sandboxPdfReader } from './pdf';
import { browserPixels } from './pixels';
import { MAX_ERROR, MAX_TEXT, REQUEST, type Reply, type WirePdfReading } from './wire';

/** Where the decoder talks to the page that asked: its frame's parent, or its worker's owner. */
export interface DecoderPort {
  /** Sends to the page. */
  post(message: Reply): void;
  /** Calls `handle` with each message the page (and only the page) sends. */
  listen(handle: (data: unknown) => void): void;
}

/** The port of the decoder page in a frame: its parent window; its origin is opaque (sandboxed), so no origin can be named. */
export function framePort(self: Window): DecoderPort {
  return {
    post: (message) => {
      self.parent.postMessage(message, '*');
    },
    listen: (handle) => {
      self.addEventListener('message', (event: MessageEvent<unknown>) => {
        if (event.source === self.parent) handle(event.data);
      });
    },
  };
}

/** The port of the decoder in a worker: only its owner can send it anything. */
export function workerPort(self: {
  postMessage(message: unknown): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<unknown>) => void): void;
}): DecoderPort {
  return {
    post: (message) => {
      self.postMessage(message);
    },
    listen: (handle) => {
      self.addEventListener('message', (event) => {
        handle(event.data);
      });
    },
  };
}

/** A PDF's reading within what the page accepts (./wire): its notes' words cut to MAX_ERROR. */
function fitted(reading: PdfReading): WirePdfReading {
  const cut = (params: readonly string[]): string[] => params.slice(0, 4).map((param) => param.slice(0, MAX_ERROR));
  if (!reading.ok) return { ok: false, code: reading.code, params: cut(reading.params) };
  return {
    ok: true,
    pages: reading.pages,
    links: reading.links.map((link) => ({ ...link })),
    codes: reading.codes.map((code) => ({ ...code })),
    notes: reading.notes.map((note) => ({ code: note.code, params: cut(note.params) })),
  };
}

/** Serves decoding on a port: call once, where the decoder runs. */
export function serveDecoder(port: DecoderPort): void {
  let wasm: ((value: ArrayBuffer) => void) | undefined;
  const wasmReady = new Promise<ArrayBuffer>((resolve) => {
    wasm = resolve;
  });
  const decoders = zxingDecoders(() => wasmReady, browserPixels);
  const decode = decoders.image;
  const readPdf = sandboxPdfReader(decoders.pixels);
  const reply = (message: Reply): void => {
    port.post(message);
  };
  port.listen((data) => {
    const request = REQUEST.safeParse(data);
    if (!request.success) return;
    const message = request.data;
    if (message.kind === 'wasm') {
      wasm?.(message.wasm);
      return;
    }
    if (message.kind === 'pdf') {
      readPdf(new Uint8Array(message.pdf)).then(
        (reading) => {
          reply({ kind: 'pdf', id: message.id, reading: fitted(reading) });
        },
        (error: unknown) => {
          reply({ kind: 'failed', id: message.id, error: (error instanceof Error ? error.message : String(error)).slice(0, MAX_ERROR) });
        },
      );
      return;
    }
    const header = { format: message.format, width: message.width, height: message.height };
    decode(new Uint8Array(message.image), header).then(
      (codes) => {
        // Within what the page accepts (./wire): ZXing stops at IMAGE_LIMITS.codes, and no code's text is longer.
        reply({ kind: 'codes', id: message.id, codes: codes.slice(0, IMAGE_LIMITS.codes).map((code) => ({ ...code, text: code.text.slice(0, MAX_TEXT) })) });
      },
      (error: unknown) => {
        reply({ kind: 'failed', id: message.id, error: (error instanceof Error ? error.message : String(error)).slice(0, MAX_ERROR) });
      },
    );
  });
  reply({ kind: 'ready' });
}
