/**
 * What the popup needs from the outside world, passed in so tests use plain fakes.
 */
import type { Connector } from '../../messaging/page';

export interface PopupDeps {
  /** Sends a message to the background and resolves with its value (rejects with a RemoteError). */
  readonly connector: Connector;
  /** Writes text to the clipboard. */
  readonly copyText: (text: string) => Promise<void>;
  /** Opens the extension's options page. */
  readonly openOptions: () => Promise<void>;
  /** The current time, epoch milliseconds. */
  readonly now: () => number;
}
