/**
 * The pages' side of the protocol: send a message to the background, get its value
 * back or a RemoteError rebuilt from the error that crossed as data.
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

/** How the UI reaches the background; tests pass their own. */
export type Connector = <K extends MessageType>(type: K, data: MessageData<K>) => Promise<ProtocolValues[K]>;

function isReply(value: unknown): value is Reply<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { ok?: unknown }).ok === 'boolean';
}

/** The real connector: runtime.sendMessage to the background. */
export const sendToBackground: Connector = async (type, data) => {
  const reply: unknown = await browser.runtime.sendMessage({ type, data });
  if (!isReply(reply)) throw new RemoteError({ name: 'Error', message: 'Isolink did not answer. Reload the extension and try again.' });
  if (reply.ok) return reply.value as ProtocolValues[typeof type];
  throw new RemoteError(reply.error);
};
