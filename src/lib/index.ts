/**
 * Isolink as a library: the typed client for the whole service interface, the link tools
 * the extension uses (refang, defang, extract, unwrap), and the readers of reported mails
 * (linksInMail) and of codes in images (linksInImage). ESM, for Node 20 and later; no
 * browser APIs. Runtime dependencies: zod, and the mail reader's parsers (postal-mime,
 * @kenjiuno/msgreader, parse5, tldts); the image decoder (ZXing-C++ and libwebp in
 * WebAssembly) is bundled with its `.wasm` files.
 *
 * @example
 * import { createClient, refang, unwrap } from 'isolink';
 * const client = createClient({ baseUrl: 'https://isolation.example.com', launchBase: 'https://isolation.example.com', token });
 * const { url } = unwrap(refang('hxxps://eur01.safelinks.protection.outlook[.]com/?url=…'));
 * const { browse_context_id } = await client.createContext({ username, url, auto_domain_allow: true });
 * console.log(client.launchUrl(browse_context_id));
 *
 * @packageDocumentation
 */
export * from '../api';
export { MAX_UNWRAP_DEPTH, WRAPPER_IDS, WRAPPER_NAMES, defang, extractUrls, refang, unwrap, unwrapText, type Unwrapped, type WrapperId } from '../fang';
export {
  EGRESS_DETAILED,
  EGRESS_NAMES,
  EGRESS_REGIONS,
  isEgressLocation,
  type Connectivity,
  type EgressLocation,
  type EgressProtocol,
  type RegionName,
} from '../egress';
import { nodeDecoder } from '../decoders';
import { nodePdfReader } from '../decoders/pdf';
import { linksInImage as readImage, linksInMail as readMail, type ImageOptions, type ImageReading, type MailOptions, type MailReading } from '../readers';

export {
  caseNote,
  caseRecord,
  type CaseFile,
  type CaseLink,
  type CaseRecord,
  CODE_KINDS,
  IMAGE_FAILURES,
  IMAGE_LIMITS,
  MAIL_FAILURES,
  MAIL_LIMITS,
  MAIL_PROBLEMS,
  PDF_LIMITS,
  type CodeBox,
  type CodeKind,
  type DecodedCode,
  type ImageCode,
  type ImageDecoder,
  type ImageFailure,
  type ImageFailureCode,
  type ImageFormat,
  type ImageReading,
  type ImageReport,
  type LinkRefusal,
  type MailAttachment,
  type MailFailure,
  type MailFailureCode,
  type MailFormat,
  type MailLink,
  type MailOptions,
  type MailProblem,
  type MailProblemCode,
  type MailReading,
  type MailReport,
  type AuthMethod,
  type AuthVerdicts,
  type MailAddress,
  type ReceivedHop,
  type SenderStory,
  type SenderWarning,
} from '../readers';

/**
 * Every link of a reported mail (.eml or Outlook .msg), with the text it pretended to be,
 * where it was found and what Isolink would isolate; the codes in its images are read too
 * (`where: qr:<image name>`), and its PDFs with pdf.js (link annotations, text, scripts
 * read as text, and with the optional `@napi-rs/canvas` installed the codes drawn on their
 * pages). A PDF given on its own (`format: 'pdf'`, or told by `%PDF-`) is read as the one
 * attachment of a mail. Never throws, never fetches: see MailReading.
 *
 * @example
 * import { readFile } from 'node:fs/promises';
 * import { linksInMail } from 'isolink';
 * const mail = await linksInMail(await readFile('reported.eml'));
 * if (mail.ok) for (const link of mail.links) console.log(link.shown, '->', link.target, link.mismatch ? '(lies)' : '');
 */
export function linksInMail(bytes: Uint8Array, options: MailOptions = {}): Promise<MailReading> {
  return readMail(bytes, { decoder: nodeDecoder, pdf: nodePdfReader, ...options });
}

/**
 * Every code in an image (QR, Micro QR, rMQR, Data Matrix, Aztec, PDF417; PNG, JPEG, GIF,
 * WebP, BMP), its text, what it holds, and for a link what Isolink would isolate. The
 * decoder is ZXing-C++ in WebAssembly, read from the package's own files on the first
 * image. Never throws, never fetches: see ImageReading.
 *
 * @example
 * import { readFile } from 'node:fs/promises';
 * import { linksInImage } from 'isolink';
 * const image = await linksInImage(await readFile('scan-me.png'));
 * if (image.ok) for (const code of image.codes) console.log(code.text, '->', code.target ?? code.kind);
 */
export function linksInImage(bytes: Uint8Array, options: Partial<ImageOptions> = {}): Promise<ImageReading> {
  return readImage(bytes, { decoder: nodeDecoder, ...options });
}
