/**
 * The pages' side of the protocol: a reply's value comes back, an error that crossed as
 * data comes back as a RemoteError with the background's (translated) words, and no
 * reply at all is a NoAnswerError, which each page says in its own words.
 */
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { NoAnswerError, RemoteError, askFirst, sendToBackground, type Connector } from '../../src/messaging/page';
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

describe('askFirst', () => {
  /** A connector that records what was sent and answers each message with its type and a count. */
  function recording(fail?: string) {
    const sent: string[] = [];
    const connector = ((type: string) => {
      sent.push(type);
      if (type === fail) return Promise.reject(new Error(`${type} failed`));
      return Promise.resolve({ type, n: sent.length });
    }) as unknown as Connector;
    return { sent, connector };
  }

  it('sends the first questions before anyone asks, and gives each answer to its first asker', async () => {
    const { sent, connector } = recording();

    const early = askFirst(connector, ['getStatus', 'getSettings']);
    expect(sent).toEqual(['getStatus', 'getSettings']);

    await expect(early('getSettings', {})).resolves.toEqual({ type: 'getSettings', n: 2 });
    await expect(early('getStatus', {})).resolves.toEqual({ type: 'getStatus', n: 1 });
    expect(sent).toEqual(['getStatus', 'getSettings']);
  });

  it('sends a later question of the same type, and any other, when asked', async () => {
    const { sent, connector } = recording();
    const early = askFirst(connector, ['getStatus']);

    await early('getStatus', {});
    await expect(early('getStatus', {})).resolves.toEqual({ type: 'getStatus', n: 2 });
    await expect(early('getSettings', {})).resolves.toEqual({ type: 'getSettings', n: 3 });
    expect(sent).toEqual(['getStatus', 'getStatus', 'getSettings']);
  });

  it('gives a failure to the first asker, not to the unhandled-rejection handler', async () => {
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    try {
      const early = askFirst(recording('getStatus').connector, ['getStatus']);
      // Long enough for an unhandled rejection to be reported.
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(unhandled).not.toHaveBeenCalled();
      await expect(early('getStatus', {})).rejects.toThrow('getStatus failed');
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });
});
