/**
 * A page's image decoder: a hidden frame of the extension's decoder page (./sandbox),
 * made on the first image and kept for the next. In Chrome that page is sandboxed and the
 * only place whose policy allows WebAssembly; in Firefox, which has no sandboxed pages,
 * the pages that do not decode forbid it in their own policy. The frame's answers are
 * checked (./wire); one that does not come in time is a failure, and the frame is made
 * again for the next image.
 */
import { browser } from 'wxt/browser';

import { t } from '../../i18n';
import type { DecodedCode, ImageDecoder } from '../../readers/image';
import { DECODER_PAGE, DECODER_WASM, REPLY, type Request } from './wire';

/** How long an image may take: the largest allowed decodes in about 3 s on a slow machine. */
const ANSWER_MS = 30_000;
/** How long the frame may take to load. */
const READY_MS = 10_000;

/** The address of a file in the extension's package. */
function packaged(path: string): string {
  return new URL(path, browser.runtime.getURL('/')).href;
}

interface Waiting {
  readonly resolve: (codes: readonly DecodedCode[]) => void;
  readonly reject: (error: Error) => void;
  readonly timer: ReturnType<typeof setTimeout>;
}

/** The decoder, as a function of the image; `document` is where the hidden frame goes. */
export function frameDecoder(document: Document = globalThis.document): ImageDecoder {
  const view = document.defaultView ?? window;
  const waiting = new Map<number, Waiting>();
  let next = 0;
  let frame: Promise<{ readonly iframe: HTMLIFrameElement; readonly window: Window }> | undefined;

  function close(reason: string): void {
    for (const [id, wait] of waiting) {
      clearTimeout(wait.timer);
      wait.reject(new Error(reason));
      waiting.delete(id);
    }
    void frame?.then(
      ({ iframe }) => {
        iframe.remove();
      },
      () => undefined,
    );
    frame = undefined;
  }

  function open(): Promise<{ readonly iframe: HTMLIFrameElement; readonly window: Window }> {
    const iframe = document.createElement('iframe');
    iframe.hidden = true;
    iframe.title = 'decoder';
    iframe.src = packaged(DECODER_PAGE);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new Error(t('qrDecoderNotLoaded')));
      }, READY_MS);
      view.addEventListener('message', (event: MessageEvent<unknown>) => {
        if (iframe.contentWindow === null || event.source !== iframe.contentWindow) return;
        const reply = REPLY.safeParse(event.data);
        if (!reply.success) return;
        const message = reply.data;
        if (message.kind === 'ready') {
          clearTimeout(timer);
          const target = iframe.contentWindow;
          fetch(packaged(DECODER_WASM))
            .then((response) => response.arrayBuffer())
            .then((wasm) => {
              const request: Request = { kind: 'wasm', wasm };
              target.postMessage(request, '*', [wasm]);
              resolve({ iframe, window: target });
            }, reject);
          return;
        }
        const wait = waiting.get(message.id);
        if (wait === undefined) return;
        waiting.delete(message.id);
        clearTimeout(wait.timer);
        if (message.kind === 'codes') wait.resolve(message.codes);
        else wait.reject(new Error(message.error));
      });
      document.body.append(iframe);
    });
  }

  return async (bytes, header) => {
    frame ??= open();
    let target: Window;
    try {
      target = (await frame).window;
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
      const request: Request = { kind: 'decode', id, image, format: header.format, width: header.width, height: header.height };
      // The frame's origin is opaque (sandboxed): it cannot be named. Nothing sent is secret.
      target.postMessage(request, '*', [image]);
    });
  };
}
