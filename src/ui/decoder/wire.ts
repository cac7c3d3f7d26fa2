/**
 * The messages between a page and its decoder (./frame, ./sandbox): images to decode, and
 * PDFs and mails to read. Each side checks what it receives with zod, as every input is
 * checked. The frame's answers are hostile text decoded from a hostile image or read from a
 * hostile PDF or mail (./wire-mail); the page's requests come from its parent only.
 */
import * as z from 'zod/mini';

import { IMAGE_LIMITS, MAIL_LIMITS, PDF_LIMITS } from '../../readers/limits';
import { PDF_FAILURES, PDF_NOTES } from '../../readers/pdf-codes';
import { MAIL_FORMATS, MAIL_READING, MAIL_WIRE } from './wire-mail';

/** Longest text a code can hold (a version 40 QR code in bytes: 2,953; Aztec and PDF417 a little more), with room. */
export const MAX_TEXT = 8192;
/** Longest reason the decoder gives for an image it could not decode. */
export const MAX_ERROR = 500;

const format = z.enum(['png', 'jpeg', 'gif', 'webp', 'bmp']);
const side = z.number().check(z.int(), z.positive(), z.maximum(IMAGE_LIMITS.side));
const id = z.number().check(z.int(), z.positive());

/** What the page sends: the decoder's WebAssembly once, then images to decode, PDFs and mails to read. */
export const REQUEST = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('wasm'), wasm: z.instanceof(ArrayBuffer) }),
  z.object({ kind: z.literal('decode'), id, image: z.instanceof(ArrayBuffer), format, width: side, height: side }),
  z.object({ kind: z.literal('pdf'), id, pdf: z.instanceof(ArrayBuffer).check(z.refine((buffer) => buffer.byteLength <= PDF_LIMITS.bytes)) }),
  z.object({
    kind: z.literal('mail'),
    id,
    mail: z.instanceof(ArrayBuffer).check(z.refine((buffer) => buffer.byteLength <= MAIL_LIMITS.bytes)),
    unwrap: z.enum(['unwrap', 'keep']),
    name: z.string().check(z.maxLength(MAIL_WIRE.text)),
    format: z.optional(z.enum(['auto', ...MAIL_FORMATS])),
  }),
]);

const length = z.number().check(z.nonnegative());
const box = z.nullable(z.object({ x: z.number(), y: z.number(), width: length, height: length }));
const code = z.object({ text: z.string().check(z.maxLength(MAX_TEXT)), format: z.string().check(z.maxLength(40)), box });

const param = z.string().check(z.maxLength(MAX_ERROR));
const params = z.array(param).check(z.maxLength(4));
const pdfLink = z.object({
  url: z.string().check(z.minLength(1), z.maxLength(PDF_LIMITS.urlLength)),
  shown: z.nullable(z.string().check(z.maxLength(PDF_LIMITS.shownLength))),
  script: z.boolean(),
});
const pdfCode = z.object({ text: z.string().check(z.maxLength(MAX_TEXT)), page: z.number().check(z.int(), z.positive()) });

/** What the decoder read of a PDF (../../readers/pdf PdfReading), within PDF_LIMITS. */
const PDF_READING = z.union([
  z.object({
    ok: z.literal(true),
    pages: z.number().check(z.int(), z.nonnegative()),
    links: z.array(pdfLink).check(z.maxLength(PDF_LIMITS.links)),
    codes: z.array(pdfCode).check(z.maxLength(PDF_LIMITS.codes)),
    notes: z.array(z.object({ code: z.enum(PDF_NOTES), params })).check(z.maxLength(PDF_NOTES.length)),
  }),
  z.object({ ok: z.literal(false), code: z.enum(PDF_FAILURES), params }),
]);

/** What the frame answers: that it is ready, the codes of an image, what a PDF or a mail holds, or why it could not decode one. */
export const REPLY = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('ready') }),
  z.object({ kind: z.literal('codes'), id, codes: z.array(code).check(z.maxLength(IMAGE_LIMITS.codes)) }),
  z.object({ kind: z.literal('pdf'), id, reading: PDF_READING }),
  z.object({ kind: z.literal('mail'), id, reading: MAIL_READING }),
  z.object({ kind: z.literal('failed'), id, error: z.string().check(z.maxLength(MAX_ERROR)) }),
]);

export type Request = z.infer<typeof REQUEST>;
export type Reply = z.infer<typeof REPLY>;
export type WirePdfReading = z.infer<typeof PDF_READING>;

/** The decoder frame, an extension page of its own (sandboxed in Chrome: no extension API, an opaque origin). */
export const DECODER_PAGE = '/qr-decoder.html';
/** The decoder's script: the frame's in Chrome, a worker's in Firefox. */
export const DECODER_SCRIPT = '/qr-decoder.js';
/** The decoder's WebAssembly, shipped in the extension (never fetched from anywhere else). */
export const DECODER_WASM = '/zxing_reader.wasm';
