/**
 * The decoder's side: it runs apart from the page that asks (in Chrome a sandboxed page
 * in a frame, so a flaw in parsing a hostile mail, image or PDF reaches no extension API
 * and no token; in Firefox, which has no sandboxed pages, a worker), takes images, PDFs and
 * mails from that page only, and answers with their codes and links as data. A mail is read
 * here whole (linksInMail: postal-mime, parse5, the .msg reader, fflate, RTF), its images
 * and PDFs by the decoder and pdf.js beside it, with no round trip to the page. The
 * WebAssembly comes from that page, which reads it from the extension's own files. PDFs
 * are read by pdf.js (./pdf), loaded on the first one.
 */
import { IMAGE_LIMITS } from '../../readers/limits';
import { linksInMail, type MailOptions } from '../../readers/mail';
import type { PdfReading } from '../../readers/pdf';
import { zxingDecoders } from '../../readers/zxing';
import { sandboxPdfReader } from './pdf';
import { browserPixels } from './pixels';
import { MAX_ERROR, MAX_TEXT, REQUEST, type Reply, type WirePdfReading } from './wire';
import { fitMailReading, MAIL_READING, mailFailure, type WireMailReading } from './wire-mail';

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

function messageOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, MAX_ERROR);
}

/** A mail's reading as the page accepts it (./wire-mail), checked here too: one that would not pass is a failure said. */
function mailAnswer(reading: WireMailReading): WireMailReading {
  return MAIL_READING.safeParse(reading).success ? reading : mailFailure('mailUnreadable', 'its reading did not fit what the page accepts');
}

/** A mail read here, fitted to the wire; linksInMail never throws, and a throw all the same (a bug, a parser's) is a failure said, never a page left unanswered. */
async function readMail(bytes: Uint8Array, options: MailOptions): Promise<WireMailReading> {
  try {
    return mailAnswer(fitMailReading(await linksInMail(bytes, options)));
  } catch (error) {
    return mailFailure('mailUnreadable', messageOf(error));
  }
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
    if (message.kind === 'mail') {
      const options = {
        decoder: decode,
        pdf: readPdf,
        unwrap: message.unwrap,
        name: message.name,
        ...(message.format === undefined ? {} : { format: message.format }),
      };
      void readMail(new Uint8Array(message.mail), options).then((reading) => {
        reply({ kind: 'mail', id: message.id, reading });
      });
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
