/**
 * The pages' side of the protocol: a reply's value comes back, an error that crossed as
 * data comes back as a RemoteError with the background's (translated) words, and no
 * reply at all is a NoAnswerError, which each page says in its own words.
 */
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { NoAnswerError, RemoteError, sendToBackground } from '../../src/messaging/page';
import { errorText } from '../../src/ui/common/notice';

beforeEach(() => {
  fakeBrowser.reset();
});

function answer(reply: unknown): void {
  vi.spyOn(fakeBrowser.runtime, 'sendMessage').mockResolvedValue(reply as never);
}

describe('sendToBackground', () => {
  it('resolves with the value of a reply', async () => {
    answer({ ok: true, value: { message: 'Verbunden.' } });

    await expect(sendToBackground('testConnection', {})).resolves.toEqual({ message: 'Verbunden.' });
  });

  it('rethrows an error that crossed as data, with the background’s words and field', async () => {
    answer({ ok: false, error: { name: 'ValidationError', message: 'url ist keine absolute URL.', field: 'url' } });

    const error: unknown = await sendToBackground('testConnection', {}).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(RemoteError);
    expect(error).toMatchObject({ name: 'ValidationError', message: 'url ist keine absolute URL.', field: 'url' });
    expect(errorText(error, 'fallback')).toBe('url ist keine absolute URL.');
  });

  it.each([
    ['no reply', undefined],
    ['a reply of another shape', { value: 1 }],
  ])('rejects %s with a NoAnswerError, which pages say in their own words', async (_label, reply) => {
    answer(reply);

    const error: unknown = await sendToBackground('testConnection', {}).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(NoAnswerError);
    expect(error).not.toBeInstanceOf(RemoteError);
    expect(errorText(error, 'the page’s words')).toBe('the page’s words');
  });

  it.each(['Could not establish connection. Receiving end does not exist.', 'The message port closed before a response was received.'])(
    'rejects with a NoAnswerError when the browser cannot deliver the message (%s)',
    async (text) => {
      const refusal = new Error(text);
      vi.spyOn(fakeBrowser.runtime, 'sendMessage').mockRejectedValue(refusal);

      const error: unknown = await sendToBackground('testConnection', {}).catch((e: unknown) => e);

      expect(error).toBeInstanceOf(NoAnswerError);
      expect((error as Error).cause).toBe(refusal);
      expect(errorText(error, 'the page’s words')).toBe('the page’s words');
    },
  );
});
