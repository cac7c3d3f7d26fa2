/**
 * The pages' side of the protocol: send a message to the background, get its value
 * back or a RemoteError rebuilt from the error that crossed as data (its message is
 * already in the analyst's words: the background says its errors from their codes).
 */
import { browser } from 'wxt/browser';
import type { MessageData, MessageType, ProtocolValues, Reply, WireError } from './protocol';

/** An error raised in the background, rebuilt on the page's side. */
export class RemoteError extends Error {
  override readonly name: string;
  readonly field: string | undefined;
  constructor(error: WireError) {
    super(error.message);
    this.name = error.name;
    this.field = error.field;
  }
}

/**
 * The background gave no reply of the protocol's shape: the message could not be
 * delivered or its port closed unanswered (browsers differ: Chrome rejects, or resolves
 * with nothing, depending on version), or another listener answered. Not a RemoteError:
 * nothing came from the background, so each page says in its own words what to do. The
 * message is English, for developers; the browser's rejection, if any, is the cause.
 */
export class NoAnswerError extends Error {
  override readonly name = 'NoAnswerError';
  constructor(cause?: unknown) {
    super('Isolink did not answer. Reload the extension and try again.', cause === undefined ? undefined : { cause });
  }
}

/** How the UI reaches the background; tests pass their own. */
export type Connector = <K extends MessageType>(type: K, data: MessageData<K>) => Promise<ProtocolValues[K]>;

function isReply(value: unknown): value is Reply<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { ok?: unknown }).ok === 'boolean';
}

/** The real connector: runtime.sendMessage to the background. */
export const sendToBackground: Connector = async (type, data) => {
  const reply: unknown = await browser.runtime.sendMessage({ type, data }).catch((cause: unknown) => {
    throw new NoAnswerError(cause);
  });
  if (!isReply(reply)) throw new NoAnswerError();
  if (reply.ok) return reply.value as ProtocolValues[typeof type];
  throw new RemoteError(reply.error);
};

/**
 * A connector that sends the messages of `types` now, before anyone asks, and gives each
 * answer to the first asker of its type; every later or other message is sent when asked.
 * A page's first questions (status, settings) can so leave before its code has rendered
 * anything. A failure is delivered to the first asker, never reported as unhandled.
 */
export function askFirst(connector: Connector, types: readonly ('getStatus' | 'getSettings')[]): Connector {
  const asked = new Map<MessageType, Promise<unknown>>();
  for (const type of types) {
    const reply = connector(type, {});
    reply.catch(() => undefined);
    asked.set(type, reply);
  }
  return (type, data) => {
    const reply = asked.get(type);
    if (reply === undefined) return connector(type, data);
    asked.delete(type);
    return reply as Promise<ProtocolValues[typeof type]>;
  };
}
