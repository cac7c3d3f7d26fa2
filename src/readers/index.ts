/**
 * Readers of what phishing arrives as: a reported mail (.eml, .msg), a code in an image.
 * Below the pages and the command, never imported by the service worker (layers.js): their
 * parsers stay out of the worker's start. The decoder (./zxing, WebAssembly) is imported where it runs, not
 * from here, so a page that reads mails does not carry it.
 */
export {
  linksInMail,
  MAIL_FAILURES,
  type MailFailure,
  type MailFailureCode,
  type MailFormat,
  type MailOptions,
  type MailReading,
  type MailReport,
} from './mail';
export { MAIL_PROBLEMS, type MailProblem, type MailProblemCode } from './walk';
export { linkRecord, type LinkRefusal, type MailLink } from './found';
export type { MailAttachment } from './files';
export { caseNote, caseRecord, type CaseFile, type CaseLink, type CaseRecord } from './note';
export { AUTH_METHODS, type AuthMethod, type AuthVerdicts } from './auth-methods';
export { type MailAddress, type ReceivedHop, type SenderStory, type SenderWarning } from './sender';
export { mailFormatOf } from './letter';
export { CODE_KINDS, type CodeKind } from './codes';
export {
  checkImage,
  IMAGE_FAILURES,
  linksInImage,
  type CodeBox,
  type DecodedCode,
  type ImageCode,
  type ImageDecoder,
  type ImageFailure,
  type ImageFailureCode,
  type ImageOptions,
  type ImageReading,
  type ImageReport,
} from './image';
export { IMAGE_LIMITS, MAIL_LIMITS, PDF_LIMITS, SCRIPT_LIMITS, ZIP_LIMITS } from './limits';
export { imageHeader, type ImageFormat, type ImageHeader } from './picture';
