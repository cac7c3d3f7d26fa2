/**
 * The codes a PDF reading (./pdf) answers with, apart from the reader: the decoder's wire
 * (src/ui/decoder/wire) checks them on every page that may ask for a PDF, and so must not
 * carry the reader with them.
 */

/** What a PDF holds that was not all read, said by the walk as a mail problem. */
export const PDF_NOTES = ['pdfTooManyPages', 'pdfTooSlow', 'pdfNotDrawn', 'pdfEmbeddedFiles', 'pdfPartUnreadable', 'scriptTooLong'] as const;

export type PdfNoteCode = (typeof PDF_NOTES)[number];

/** Why a PDF could not be read at all. */
export const PDF_FAILURES = ['pdfEncrypted', 'pdfTooLarge', 'pdfUnreadable', 'pdfTooSlow'] as const;
