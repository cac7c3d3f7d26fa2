/**
 * QR codes pasted (or dropped) into the popup: the image's codes with their targets, each
 * link opened like quick isolation (the Isolate tab's session, research and policy choices,
 * its preview). Loaded with the first image: the popup's first script carries none of it,
 * and the decoder's frame is made on the first image too.
 */
import { signal } from '@preact/signals';
import { t } from '../../i18n';
import { refusedUrlText } from '../../i18n/errors';
import { linksInImage, type ImageCode, type ImageDecoder, type ImageReading } from '../../readers/image';
import { frameDecoder } from '../decoder/frame';
import { imageFailureText } from '../mail/words';
import type { IsolateState } from './isolate-state';

/** Longest text of a code shown (a code may hold kilobytes). */
const SHOWN = 160;

function shortened(text: string): string {
  return text.length > SHOWN ? `${text.slice(0, SHOWN)}…` : text;
}

/** What a code that is not isolated says: why a link is refused, or what it holds. */
function notOpened(code: ImageCode): string {
  if (code.refused !== undefined) return refusedUrlText(code.refused.code, code.refused.params);
  return t('popupQrNotLink');
}

export function createQrCodes(isolate: IsolateState, showIsolate: () => void, decode: () => ImageDecoder = frameDecoder) {
  const reading = signal<ImageReading | 'busy' | null>(null);
  const name = signal('');
  let decoder: ImageDecoder | undefined;

  /** Reads an image's codes; a throw (the reader's bug) is said as an undecodable image. */
  async function read(file: Blob & { readonly name?: string }): Promise<void> {
    name.value = file.name ?? '';
    reading.value = 'busy';
    try {
      decoder ??= decode();
      reading.value = await linksInImage(new Uint8Array(await file.arrayBuffer()), { decoder });
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      reading.value = { ok: false, code: 'imageUnreadable', params: [detail], reason: detail };
    }
  }

  /** A code's link, opened as quick isolation opens a typed one. */
  function open(url: string): void {
    showIsolate();
    isolate.setUrl(url);
    void isolate.submit();
  }

  function View() {
    const current = reading.value;
    if (current === null) return null;
    return (
      <section class="qr-codes" aria-labelledby="qr-codes-heading" aria-busy={current === 'busy' ? 'true' : undefined}>
        <h2 id="qr-codes-heading">{t('popupQrHeading')}</h2>
        {current === 'busy' ? (
          <p class="muted" role="status">
            {t('popupQrReading')}
          </p>
        ) : !current.ok ? (
          <p class="error" role="alert">
            {imageFailureText(name.value || t('popupQrPasted'), current)}
          </p>
        ) : current.codes.length === 0 ? (
          <p role="status">{t('popupQrNone')}</p>
        ) : (
          <ul class="plain">
            {current.codes.map((code, index) => (
              <li key={`${String(index)} ${code.text}`}>
                <span class="mono">{shortened(code.target ?? code.text)}</span>{' '}
                {code.target !== null && code.url !== null ? (
                  <button
                    type="button"
                    onClick={() => {
                      open(code.url ?? '');
                    }}
                  >
                    {t('popupQrOpen')}
                  </button>
                ) : (
                  <span class="muted">{notOpened(code)}</span>
                )}
              </li>
            ))}
          </ul>
        )}
      </section>
    );
  }

  return { read, View };
}

export type QrCodes = ReturnType<typeof createQrCodes>;
