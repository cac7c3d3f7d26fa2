/**
 * A page's image decoder: the decoder (./sandbox) run apart from the page, made on the
 * first image and kept for the next. In Chrome it is a hidden frame of the extension's
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
import { DECODER_PAGE, DECODER_SCRIPT, DECODER_WASM, REPLY, type Request } from './wire';

/** How long an image may take: the largest allowed decodes in about 3 s on a slow machine. */
const ANSWER_MS = 30_000;
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
  readonly resolve: (codes: readonly DecodedCode[]) => void;
  readonly reject: (error: Error) => void;
  readonly timer: ReturnType<typeof setTimeout>;
}

/** The decoder, as a function of the image; `document` is where a frame goes. */
export function frameDecoder(document: Document = globalThis.document): ImageDecoder {
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
    if (message.kind === 'codes') wait.resolve(message.codes);
    else wait.reject(new Error(message.error));
  }

  /** Starts the decoder and hands it its WebAssembly once it says it is ready. */
  function open(): Promise<Channel> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new Error(t('qrDecoderNotLoaded')));
      }, READY_MS);
      const started = start(document, (data) => {
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

  return async (bytes, header) => {
    ready ??= open();
    let target: Channel;
    try {
      target = await ready;
    } catch (error) {
      close(t('qrDecoderNotLoaded'));
      throw error;
    }
    const id = ++next;
    const image = bytes.slice().buffer;
    return new Promise<readonly DecodedCode[]>((resolve, reject) => {
      const timer = setTimeout(() => {
        close(t('qrDecoderNoAnswer', String(ANSWER_MS / 1000)));
      }, ANSWER_MS);
      waiting.set(id, { resolve, reject, timer });
      target.post({ kind: 'decode', id, image, format: header.format, width: header.width, height: header.height }, [image]);
    });
  };
}
