/**
 * What the reported mail page needs from the outside world, passed in so tests use plain
 * fakes (or the real reader, as the page does).
 */
import type { Connector } from '../../messaging/page';
import type { ScanRequest } from '../../messaging/scan';
import type { ImageDecoder, linksInImage, linksInMail } from '../../readers';
import type { PdfReader } from '../../readers/pdf';

/**
 * The mail reader: loaded on the first file, so the page's first script stays small. In
 * the extension `linksInMail` asks the decoder frame (src/ui/decoder/frame), where the mail
 * is parsed; tests give the readers' own.
 */
interface MailReader {
  readonly linksInMail: typeof linksInMail;
  /** Reads the codes of an image file; without it (or a decoder), an image is read as a mail would be. */
  readonly linksInImage?: typeof linksInImage;
  /** What decodes an image given alone (the decoder frame); to `linksInMail` it is handed too, for the readers that take one. */
  readonly decoder?: ImageDecoder;
  /** What reads the mail's PDFs, for the readers that take one (the decoder frame reads its own); without one, a PDF is listed, not read. */
  readonly pdf?: PdfReader;
}

/** The file as the page takes it: a File, or anything with its name, size and bytes. */
export type MailFile = Pick<File, 'name' | 'size' | 'arrayBuffer'>;

export interface MailDeps {
  /** Sends a message to the background and resolves with its value (rejects with a RemoteError). */
  readonly connector: Connector;
  /** Writes text to the clipboard. */
  readonly copyText: (text: string) => Promise<void>;
  /** Opens the extension's options page at its connection section. */
  readonly openOptions: () => Promise<void>;
  /** Loads the reader (a chunk of its own). */
  readonly loadReader: () => Promise<MailReader>;
  /** A scan's pixels (./capture): the visible tab, or the image in it. */
  readonly capture: (request: ScanRequest) => Promise<MailFile>;
  /** Brings this page's tab to the front (a scan opens it behind the tab it reads). */
  readonly showPage: () => Promise<void>;
  /** Closes this page's tab (a scan that isolated its one code has nothing more to show). */
  readonly closePage: () => Promise<void>;
}
