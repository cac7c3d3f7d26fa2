/**
 * A page's image decoder, PDF reader and mail reader: the decoder (./sandbox) run apart
 * from the page, made on the first image, PDF or mail and kept for the next. A mail is
 * read there whole; the page gets its reading as checked data (./wire-mail), never its bytes parsed. In Chrome it is a hidden frame of the extension's
 * sandboxed decoder page, the only place whose policy allows WebAssembly. Firefox has no
 * sandboxed pages and lets no extension page be framed (frame-ancestors 'none'), so there
 * it is a worker of the same script, under the extension pages' policy, which allows
 * WebAssembly in Firefox while every page forbids it in its own. The decoder's answers
 * are checked (./wire); one that does not come in time is a failure, and the decoder is
 * made again for the next image.
 */
import { browser } from 'wxt/browser';

import { t } from '../../i18n';
import type { DecodedCode, ImageDecoder } from '../../readers/image';
import { MAIL_LIMITS, PDF_LIMITS } from '../../readers/limits';
import type { MailOptions, MailReading } from '../../readers/mail';
import type { PdfReader, PdfReading } from '../../readers/pdf';
import { DECODER_PAGE, DECODER_SCRIPT, DECODER_WASM, REPLY, type Reply, type Request } from './wire';
import { fromWire, mailFailure, MAIL_WIRE } from './wire-mail';

/** How long an image may take: the largest allowed decodes in about 3 s on a slow machine. */
const ANSWER_MS = 30_000;
/** How long a PDF may take: its own limit (PDF_LIMITS.milliseconds), pdf.js's loading and a margin. */
const PDF_ANSWER_MS = PDF_LIMITS.milliseconds + 25_000;
/**
 * How long a mail may take, all its files together: 5 minutes. Its 50 images (IMAGE_LIMITS.mailImages)
 * take a few seconds each, and each PDF up to PDF_LIMITS.milliseconds; a mail of 100 PDFs
 * could take half an hour, which no analyst waits for. Past it the decoder is stopped and
 * the mail said unread: nothing of it is listed, nothing opened.
 */
const MAIL_ANSWER_MS = 300_000;
/** How long the decoder may take to start. */
const READY_MS = 10_000;

/** The address of a file in the extension's package. */
function packaged(path: string): string {
  return new URL(path, browser.runtime.getURL('/')).href;
}

/** Where requests go, and how the decoder is stopped. */
interface Channel {
  post(request: Request, transfer: Transferable[]): void;
  close(): void;
}

/** The decoder started: in a sandboxed frame (Chrome) or a worker (Firefox); `receive` gets what it sends, and only that. */
function start(document: Document, receive: (data: unknown) => void): Channel {
  if (import.meta.env.FIREFOX) {
    const worker = new Worker(packaged(DECODER_SCRIPT));
    worker.addEventListener('message', (event: MessageEvent<unknown>) => {
      receive(event.data);
    });
    return {
      post: (request, transfer) => {
        worker.postMessage(request, transfer);
      },
      close: () => {
        worker.terminate();
      },
    };
  }
  const iframe = document.createElement('iframe');
  iframe.hidden = true;
  iframe.title = 'decoder';
  iframe.src = packaged(DECODER_PAGE);
  (document.defaultView ?? window).addEventListener('message', (event: MessageEvent<unknown>) => {
    if (iframe.contentWindow !== null && event.source === iframe.contentWindow) receive(event.data);
  });
  document.body.append(iframe);
  return {
    // The frame's origin is opaque (sandboxed): it cannot be named. Nothing sent is secret.
    post: (request, transfer) => {
      iframe.contentWindow?.postMessage(request, '*', transfer);
    },
    close: () => {
      iframe.remove();
    },
  };
}

interface Waiting {
  readonly resolve: (reply: Exclude<Reply, { kind: 'ready' | 'failed' }>) => void;
  readonly reject: (error: Error) => void;
  readonly timer: ReturnType<typeof setTimeout>;
}

/** The decoder, as a function of the image; `document` is where a frame goes. */
export function frameDecoder(document: Document = globalThis.document): ImageDecoder {
  return frameReaders(document).image;
}

/** What the decoder reads for a page: an image's codes, a PDF, and a mail whole (its images and PDFs inside it read there too). */
interface FrameReaders {
  readonly image: ImageDecoder;
  readonly pdf: PdfReader;
  /** linksInMail, run in the decoder: `decoder` and `pdf` of the options are the decoder's own, never the page's. */
  readonly mail: (bytes: Uint8Array, options?: MailOptions) => Promise<MailReading>;
}

/** How the decoder is started: `start` in the extension, a fake in unit tests. */
export type Starter = (document: Document, receive: (data: unknown) => void) => Channel;

/** The decoder's readers, sharing one frame or worker. */
export function frameReaders(document: Document = globalThis.document, begin: Starter = start): FrameReaders {
  const waiting = new Map<number, Waiting>();
  let next = 0;
  let ready: Promise<Channel> | undefined;
  let channel: Channel | undefined;

  function close(reason: string): void {
    for (const [id, wait] of waiting) {
      clearTimeout(wait.timer);
      wait.reject(new Error(reason));
      waiting.delete(id);
    }
    channel?.close();
    channel = undefined;
    ready = undefined;
  }

  function receive(data: unknown): void {
    const reply = REPLY.safeParse(data);
    if (!reply.success || reply.data.kind === 'ready') return;
    const message = reply.data;
    const wait = waiting.get(message.id);
    if (wait === undefined) return;
    waiting.delete(message.id);
    clearTimeout(wait.timer);
    if (message.kind === 'failed') wait.reject(new Error(message.error));
    else wait.resolve(message);
  }

  /** Starts the decoder and hands it its WebAssembly once it says it is ready. */
  function open(): Promise<Channel> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new Error(t('qrDecoderNotLoaded')));
      }, READY_MS);
      const started = begin(document, (data) => {
        if (REPLY.safeParse(data).data?.kind !== 'ready') {
          receive(data);
          return;
        }
        clearTimeout(timer);
        fetch(packaged(DECODER_WASM))
          .then((response) => response.arrayBuffer())
          .then((wasm) => {
            started.post({ kind: 'wasm', wasm }, [wasm]);
            resolve(started);
          }, reject);
      });
      channel = started;
    });
  }

  /** Sends a request (its buffer moved, not copied) and waits for its answer, at most `ms`. */
  async function ask(request: (id: number) => Request, buffer: ArrayBuffer, ms: number): Promise<Exclude<Reply, { kind: 'ready' | 'failed' }>> {
    ready ??= open();
    let target: Channel;
    try {
      target = await ready;
    } catch (error) {
      close(t('qrDecoderNotLoaded'));
      throw error;
    }
    const id = ++next;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        close(t('qrDecoderNoAnswer', String(ms / 1000)));
      }, ms);
      waiting.set(id, { resolve, reject, timer });
      target.post(request(id), [buffer]);
    });
  }

  const image: ImageDecoder = async (bytes, header) => {
    const buffer = bytes.slice().buffer;
    const reply = await ask(
      (id) => ({ kind: 'decode', id, image: buffer, format: header.format, width: header.width, height: header.height }),
      buffer,
      ANSWER_MS,
    );
    if (reply.kind !== 'codes') throw new Error('qrDecoderWrongAnswer');
    return reply.codes satisfies readonly DecodedCode[];
  };

  /** A PDF read in the decoder; a decoder that fails or does not answer is a PDF left unread, said as such. */
  const pdf: PdfReader = async (bytes) => {
    if (bytes.length > PDF_LIMITS.bytes) return { ok: false, code: 'pdfTooLarge', params: [String(PDF_LIMITS.bytes / 1024 / 1024)] };
    const buffer = bytes.slice().buffer;
    try {
      const reply = await ask((id) => ({ kind: 'pdf', id, pdf: buffer }), buffer, PDF_ANSWER_MS);
      if (reply.kind !== 'pdf') throw new Error('qrDecoderWrongAnswer');
      return reply.reading satisfies PdfReading;
    } catch (error) {
      return { ok: false, code: 'pdfUnreadable', params: [error instanceof Error ? error.message : String(error)] };
    }
  };

  /** A mail read in the decoder; a decoder that fails, answers out of bounds or does not answer in MAIL_ANSWER_MS is a mail unread, said as such. */
  const mail: FrameReaders['mail'] = async (bytes, options = {}) => {
    if (bytes.length === 0) return fromWire(mailFailure('mailEmpty'));
    if (bytes.length > MAIL_LIMITS.bytes) return fromWire(mailFailure('mailTooLarge', String(MAIL_LIMITS.bytes / 1024 / 1024)));
    const buffer = bytes.slice().buffer;
    const { unwrap = 'unwrap', name = '', format } = options;
    try {
      const reply = await ask(
        (id) => ({ kind: 'mail', id, mail: buffer, unwrap, name: name.slice(0, MAIL_WIRE.text), ...(format === undefined ? {} : { format }) }),
        buffer,
        MAIL_ANSWER_MS,
      );
      if (reply.kind !== 'mail') throw new Error('qrDecoderWrongAnswer');
      return fromWire(reply.reading);
    } catch (error) {
      return fromWire(mailFailure('mailUnreadable', error instanceof Error ? error.message : String(error)));
    }
  };

  return { image, pdf, mail };
}
