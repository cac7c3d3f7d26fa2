/**
 * The PDF messages between the mail page and its decoder (src/ui/decoder/wire): each side
 * checks what it receives. A PDF the Node reader reads passes as the sandbox would send it;
 * a reply past PDF_LIMITS, with a code the page does not know, or of the wrong shape is
 * refused, and so dropped by the page.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

import { nodePdfReader } from '../../src/decoders/pdf';
import { PDF_LIMITS } from '../../src/readers';
import { REPLY, REQUEST } from '../../src/ui/decoder/wire';

const links = new Uint8Array(readFileSync(new URL('../fixtures/pdf/links.pdf', import.meta.url)));
const link = { url: 'https://a.example/', shown: null, script: false };
const read = { ok: true, pages: 1, links: [link], codes: [], notes: [] };

describe('the decoder wire: PDFs', () => {
  it('takes a PDF to read as an ArrayBuffer within PDF_LIMITS.bytes, nothing else', () => {
    expect(REQUEST.safeParse({ kind: 'pdf', id: 1, pdf: links.slice().buffer }).success).toBe(true);
    expect(REQUEST.safeParse({ kind: 'pdf', id: 1, pdf: new ArrayBuffer(PDF_LIMITS.bytes + 1) }).success).toBe(false);
    expect(REQUEST.safeParse({ kind: 'pdf', id: 1, pdf: links }).success).toBe(false);
    expect(REQUEST.safeParse({ kind: 'pdf', id: 0, pdf: links.slice().buffer }).success).toBe(false);
  });

  it('accepts what the reader answers, a reading or a failure', async () => {
    const reading = await nodePdfReader(links);
    expect(reading.ok).toBe(true);
    expect(REPLY.safeParse({ kind: 'pdf', id: 3, reading }).success).toBe(true);
    expect(REPLY.safeParse({ kind: 'pdf', id: 3, reading: { ok: false, code: 'pdfEncrypted', params: [] } }).success).toBe(true);
  });

  it.each([
    ['a note code the page does not know', { ...read, notes: [{ code: 'pdfRanScript', params: [] }] }],
    ['a failure code the page does not know', { ok: false, code: 'pdfFine', params: [] }],
    ['more links than PDF_LIMITS.links', { ...read, links: Array.from({ length: PDF_LIMITS.links + 1 }, () => link) }],
    ['a URL longer than PDF_LIMITS.urlLength', { ...read, links: [{ ...link, url: `https://a.example/${'a'.repeat(PDF_LIMITS.urlLength)}` }] }],
    ['an empty URL', { ...read, links: [{ ...link, url: '' }] }],
    ['a shown text past PDF_LIMITS.shownLength', { ...read, links: [{ ...link, shown: 'x'.repeat(PDF_LIMITS.shownLength + 1) }] }],
    ['more codes than PDF_LIMITS.codes', { ...read, codes: Array.from({ length: PDF_LIMITS.codes + 1 }, () => ({ text: 'x', page: 1 })) }],
    ['a code on page 0', { ...read, codes: [{ text: 'x', page: 0 }] }],
    ['a script flag that is not a boolean', { ...read, links: [{ ...link, script: 'yes' }] }],
    ['a failure with five params', { ok: false, code: 'pdfUnreadable', params: ['1', '2', '3', '4', '5'] }],
  ])('refuses a reading with %s', (_, reading) => {
    expect(REPLY.safeParse({ kind: 'pdf', id: 3, reading }).success).toBe(false);
  });
});
