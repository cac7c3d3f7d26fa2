/**
 * What the popup needs from the outside world, passed in so tests use plain fakes.
 */
import type { ReadonlySignal } from '@preact/signals';
import type { FunctionComponent } from 'preact';

import type { Connector } from '../../messaging/page';
import type { SettingsView } from '../../messaging/protocol';

export interface PopupDeps {
  /** Sends a message to the background and resolves with its value (rejects with a RemoteError). */
  readonly connector: Connector;
  /** Writes text to the clipboard. */
  readonly copyText: (text: string) => Promise<void>;
  /** Opens the extension's options page at its connection section. */
  readonly openOptions: () => Promise<void>;
  /** Opens the reported mail page in a tab. */
  readonly openMail: () => Promise<void>;
  /** The current time, epoch milliseconds. */
  readonly now: () => number;
}

/**
 * A tab loaded when it is first opened: it makes its state, and returns its panel showing
 * that state. `settings` are the settings in force, once loaded.
 */
export type TabPanel = (deps: PopupDeps, settings: ReadonlySignal<SettingsView | null>) => FunctionComponent;
