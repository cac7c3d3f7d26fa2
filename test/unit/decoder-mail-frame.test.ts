/**
 * The page's side of reading a mail in the decoder (src/ui/decoder/frame): the mail's bytes
 * go to the decoder, a reading comes back checked; a decoder that never starts, answers out
 * of bounds or does not answer in time leaves the mail unread, said as such, and nothing of
 * it is listed. The decoder here is a fake channel; test/e2e/mail.test.ts runs the real frame.
 */
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';

import { linksInMail, MAIL_LIMITS } from '../../src/readers';
import { frameReaders, type Starter } from '../../src/ui/decoder/frame';
import type { Request } from '../../src/ui/decoder/wire';
import { fitMailReading } from '../../src/ui/decoder/wire-mail';
import { installMessages } from '../support/i18n';

const NAME = '17-lying-display-text.eml';
/** The page's document: the fake decoder makes no frame in it. */
const PAGE = {} as Document;
const MAIL = new Uint8Array(readFileSync(new URL(`../fixtures/mail/eml/${NAME}`, import.meta.url)));

/** A decoder that says it is ready (unless told not to) and answers each mail with `answer`. */
function fakeDecoder(answer: (request: Extract<Request, { kind: 'mail' }>) => unknown, ready = true) {
  const sent: Request[] = [];
  let closed = 0;
  const begin: Starter = (_document, receive) => {
    if (ready)
      queueMicrotask(() => {
        receive({ kind: 'ready' });
      });
    return {
      post: (request) => {
        sent.push(request);
        if (request.kind !== 'mail') return;
        void Promise.resolve(answer(request)).then((reading) => {
          receive({ kind: 'mail', id: request.id, reading });
        });
      },
      close: () => {
        closed++;
      },
    };
  };
  return { begin, sent, closed: () => closed };
}

beforeEach(() => {
  fakeBrowser.reset();
  installMessages();
  vi.stubGlobal('fetch', () => Promise.resolve({ arrayBuffer: () => Promise.resolve(new ArrayBuffer(8)) }));
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('a mail read in the decoder, from the page', () => {
  it('sends the bytes with the mode and the name, and gives back the reading the decoder answered', async () => {
    const decoder = fakeDecoder(async (request) =>
      fitMailReading(await linksInMail(new Uint8Array(request.mail), { unwrap: request.unwrap, name: request.name })),
    );
    const { mail } = frameReaders(PAGE, decoder.begin);
    const reading = await mail(MAIL, { unwrap: 'keep', name: NAME });
    expect(reading).toEqual(await linksInMail(MAIL, { unwrap: 'keep', name: NAME }));
    expect(decoder.sent.map((request) => request.kind)).toEqual(['wasm', 'mail']);
    expect(decoder.sent[1]).toMatchObject({ kind: 'mail', unwrap: 'keep', name: NAME });
  });

  it('sends nothing for an empty mail or one over MAIL_LIMITS.bytes', async () => {
    const decoder = fakeDecoder(() => {
      throw new Error('asked');
    });
    const { mail } = frameReaders(PAGE, decoder.begin);
    await expect(mail(new Uint8Array())).resolves.toMatchObject({ ok: false, code: 'mailEmpty' });
    await expect(mail(new Uint8Array(MAIL_LIMITS.bytes + 1))).resolves.toMatchObject({ ok: false, code: 'mailTooLarge' });
    expect(decoder.sent).toEqual([]);
  });

  it('drops an answer out of bounds, and says the mail unread when no answer comes in 5 minutes; the decoder is stopped', async () => {
    vi.useFakeTimers();
    const decoder = fakeDecoder(async (request) => {
      const reading = fitMailReading(await linksInMail(new Uint8Array(request.mail), { name: request.name }));
      return { ...reading, subject: 'x'.repeat(100_000), html: '<script>' };
    });
    const { mail } = frameReaders(PAGE, decoder.begin);
    let settled = false;
    const pending = mail(MAIL, { name: NAME }).finally(() => {
      settled = true;
    });
    await vi.advanceTimersByTimeAsync(299_000);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(2_000);
    const reading = await pending;
    expect(reading).toMatchObject({ ok: false, code: 'mailUnreadable' });
    expect(reading.ok ? '' : reading.params[0]).toContain('300');
    expect(decoder.closed()).toBe(1);
  });

  it('says the mail unread when the decoder never starts', async () => {
    vi.useFakeTimers();
    const decoder = fakeDecoder(() => ({}), false);
    const { mail } = frameReaders(PAGE, decoder.begin);
    const pending = mail(MAIL, { name: NAME });
    await vi.advanceTimersByTimeAsync(11_000);
    await expect(pending).resolves.toMatchObject({ ok: false, code: 'mailUnreadable' });
    expect(decoder.sent).toEqual([]);
  });
});
