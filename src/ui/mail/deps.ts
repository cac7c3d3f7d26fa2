/**
 * What the reported mail page needs from the outside world, passed in so tests use plain
 * fakes (or the real reader, as the page does).
 */
import type { Connector } from '../../messaging/page';
import type { linksInMail } from '../../readers';

/** The mail reader: loaded on the first file, so the page's first script stays small. */
interface MailReader {
  readonly linksInMail: typeof linksInMail;
}

export interface MailDeps {
  /** Sends a message to the background and resolves with its value (rejects with a RemoteError). */
  readonly connector: Connector;
  /** Writes text to the clipboard. */
  readonly copyText: (text: string) => Promise<void>;
  /** Opens the extension's options page. */
  readonly openOptions: () => Promise<void>;
  /** Loads the reader (a chunk of its own). */
  readonly loadReader: () => Promise<MailReader>;
}
