/**
 * The codes a mail reading (./mail, ./walk) answers with, and their English, apart from
 * the reader: the decoder's wire (src/ui/decoder/wire-mail) checks them on the page that
 * asks for a mail, and so must not carry the reader and its parsers with it.
 */

/** Why a mail could not be read at all, in English with `$1` for its params. */
export const MAIL_FAILURES = {
  mailEmpty: 'is empty',
  mailTooLarge: 'is larger than the limit of $1 MiB',
  notMail: 'is not a mail: neither a MIME message (.eml) nor an Outlook message (.msg)',
  notCompoundFile: 'is not an Outlook .msg: it is not an OLE compound file',
  mailUnreadable: 'could not be read as a mail: $1',
  legacyOffice:
    'is a legacy binary Office document (.doc, .xls, .ppt), which Isolink does not read: save it as .docx, .xlsx or .pptx in a sandbox and give Isolink that',
  encryptedDocument:
    'is an Office document encrypted with a password, which Isolink does not read: open it in a sandbox with its password (often given in the mail) and save it without one',
} as const satisfies Record<string, string>;

/** What could not be read inside a mail that was read, in English with `$1`… for its params. */
export const MAIL_PROBLEMS = {
  messageTooDeep: 'holds messages nested more than $1 deep; the deeper ones were not read',
  tooManyAttachments: 'has more than $1 attachments to read; the rest were not read',
  tooManyLinks: 'has more than $1 links; $2 more were not listed',
  attachmentUnreadable: 'could not be read: $1',
  tooManyImages: 'has more than $1 images; the rest were not scanned for codes',
  imageUnreadable: 'could not be scanned for codes: $1',
  tooManyFiles: 'has more than $1 files attached; the rest were not listed',
  unknownCharset: 'is written in charset $1, which Isolink does not know; it was read as $2',
  scriptTooLong: 'has more script than the $1 characters (or $2 strings) read for links; the rest was not read',
  archiveTooDeep: 'holds archives nested more than $1 deep; the deeper ones were not opened',
  tooManyEntries: 'holds more than $1 entries; the rest were not read',
  entryTooLarge: 'expands beyond $1 MiB; it was not read',
  archiveBomb: 'expands more than $1 times its compressed size, as a zip bomb does; it was not read',
  archivesTooLarge: "would take the mail's archives beyond $1 MiB expanded; it and the rest were not read",
  encrypted: 'is encrypted and was not read: it needs its password (often given in the mail) to be opened in a sandbox',
  archiveNotRead: 'is a $1 archive, which Isolink does not open: unpack it in a sandbox (7-Zip reads it) and give Isolink its files',
  legacyOfficeNotRead:
    'is a legacy binary Office document (.doc, .xls, .ppt), which Isolink does not read: save it as .docx, .xlsx or .pptx in a sandbox and give Isolink that',
  documentTextTooLong: 'has more text than the $1 characters read for links; the rest was not read',
  pdfEncrypted: 'is a PDF encrypted with a password; reading it needs that password, which Isolink does not ask for',
  pdfTooLarge: 'is a PDF larger than the limit of $1 MiB; it was not read',
  pdfTooSlow: 'is a PDF that took longer than $1 s to read; what was found by then is listed',
  pdfTooManyPages: 'is a PDF of $1 pages; the first $2 were read for links and the first $3 drawn for codes',
  pdfNotDrawn: 'is a PDF whose pages were not drawn to read codes on them: $1',
  pdfEmbeddedFiles: 'is a PDF holding $1 embedded files ($2), which were not read',
  pdfPartUnreadable: 'is a PDF with a part that could not be read ($1): $2',
} as const satisfies Record<string, string>;
