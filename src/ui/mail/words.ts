/**
 * The reported mail page's words for what the reader answers: its failures and problems
 * (said from their codes, never from the reader's English `reason`), where a link was
 * found, and a file's size.
 */
import type { ImageFailure, ImageFailureCode, MailFailure, MailFailureCode, MailProblem, MailProblemCode } from '../../readers';
import { t, type MessageKey } from '../../i18n';

const MIB = 1024 * 1024;

/** Mebibytes with one decimal, for sizes said to the analyst. */
export function mebibytes(bytes: number): string {
  return (bytes / MIB).toFixed(1);
}

/** Each failure: what happened to the file ($1 its name) and what to do next. */
const FAILURE_KEYS: { readonly [C in MailFailureCode]: MessageKey } = {
  mailEmpty: 'mailFailEmpty',
  mailTooLarge: 'mailFailTooLarge',
  notMail: 'mailFailNotMail',
  notCompoundFile: 'mailFailNotCompound',
  mailUnreadable: 'mailFailUnreadable',
  legacyOffice: 'mailFailLegacyOffice',
  encryptedDocument: 'mailFailEncryptedDocument',
};

const PROBLEM_KEYS: { readonly [C in MailProblemCode]: MessageKey } = {
  messageTooDeep: 'mailProblemDeep',
  tooManyAttachments: 'mailProblemAttachments',
  tooManyLinks: 'mailProblemLinks',
  attachmentUnreadable: 'mailProblemAttachment',
  tooManyImages: 'mailProblemImages',
  imageUnreadable: 'mailProblemImage',
  tooManyFiles: 'mailProblemFiles',
  unknownCharset: 'mailProblemCharset',
  scriptTooLong: 'mailProblemScript',
  archiveTooDeep: 'mailProblemArchiveDeep',
  tooManyEntries: 'mailProblemEntries',
  entryTooLarge: 'mailProblemEntryLarge',
  archiveBomb: 'mailProblemBomb',
  archivesTooLarge: 'mailProblemArchivesLarge',
  encrypted: 'mailProblemEncrypted',
  archiveNotRead: 'mailProblemArchiveNotRead',
  legacyOfficeNotRead: 'mailProblemLegacyOffice',
  documentTextTooLong: 'mailProblemDocumentText',
  pdfEncrypted: 'mailProblemPdfEncrypted',
  pdfTooLarge: 'mailProblemPdfTooLarge',
  pdfTooSlow: 'mailProblemPdfSlow',
  pdfTooManyPages: 'mailProblemPdfPages',
  pdfNotDrawn: 'mailProblemPdfNotDrawn',
  pdfEmbeddedFiles: 'mailProblemPdfEmbedded',
  pdfPartUnreadable: 'mailProblemPdfPart',
};

/** Why a file could not be read as a mail, and what to do next. */
export function failureText(name: string, failure: Pick<MailFailure, 'code' | 'params'>): string {
  return t(FAILURE_KEYS[failure.code], [name, ...failure.params]);
}

const IMAGE_FAILURE_KEYS: { readonly [C in ImageFailureCode]: MessageKey } = {
  imageEmpty: 'qrFailEmpty',
  imageTooLarge: 'qrFailTooLarge',
  imageTooManyPixels: 'qrFailPixels',
  notImage: 'qrFailNotImage',
  imageUnreadable: 'qrFailUnreadable',
};

/** Why an image could not be read for its codes, and what to do next. */
export function imageFailureText(name: string, failure: Pick<ImageFailure, 'code' | 'params'>): string {
  return t(IMAGE_FAILURE_KEYS[failure.code], [name, ...failure.params]);
}

/** Header names as mail writes them, for a problem in one (`header:subject`). */
const HEADER_NAMES: Readonly<Record<string, string>> = { subject: 'Subject', from: 'From' };

/** One place a link or a problem was found: `html`, `text`, `attachment:<name>`, `message:<subject>`, `qr:<image name>`, `header:<name>`. */
export function placeText(where: string): string {
  if (where === 'html') return t('mailWhereHtml');
  if (where === 'text') return t('mailWhereText');
  if (where.startsWith('attachment:')) return t('mailWhereAttachment', where.slice('attachment:'.length));
  if (where.startsWith('message:')) return t('mailWhereMessage', where.slice('message:'.length));
  if (where.startsWith('qr:')) return t('mailWhereQr', where.slice('qr:'.length));
  if (where.startsWith('header:')) {
    const name = where.slice('header:'.length);
    return t('mailWhereHeader', HEADER_NAMES[name] ?? name);
  }
  return where;
}

/** Something left unread inside the mail, with where it happened when the reader says. */
export function problemText(problem: Pick<MailProblem, 'code' | 'params' | 'where'>): string {
  const text = t(PROBLEM_KEYS[problem.code], [...problem.params]);
  return problem.where === undefined ? text : t('mailProblemAt', [placeText(problem.where), text]);
}
