/**
 * The links of a PDF, read by pdf.js (Mozilla's `pdfjs-dist`), which the caller hands in:
 * this module never imports it, so the pages that read mails carry no PDF parser until one
 * runs it where it may run (the decoder's sandboxed frame or worker in the extension, the
 * legacy build in Node). What it reads:
 *
 * - link annotations: pdf.js's `url` (a URI action with the catalog's `/URI /Base` applied,
 *   and the file of a GoToR or Launch action, its remote destination after `#`), else its
 *   `unsafeUrl` as written (a `file:` or UNC path the resolver refuses), with the text
 *   drawn under the link as what it showed;
 * - the text of its pages, defanged URLs too (../fang `extractUrls`);
 * - its JavaScript, read as text and never run (the document's named scripts and
 *   OpenAction, the pages' and the form fields' actions): URLs in it are found in a script.
 * - the codes drawn on its pages, when the caller gives a way to draw a page and a decoder
 *   for its pixels.
 *
 * The target of a SubmitForm or an ImportData action, which pdf.js reads and does not
 * expose, is read from the file's syntax (./pdf-forms). Not read, because pdf.js 5 exposes
 * nothing of them: a link annotation's own JavaScript action (but for the
 * `app.launchURL`/`window.open` form pdf.js turns into its `url`), and the actions chained
 * after the first by `/Next`. Embedded files are named in a problem, not read.
 *
 * pdf.js is given the bytes only: no URL, eval off, no scripting, no font faces, no
 * system fonts, no XFA, so it fetches nothing and runs nothing of the document. Every
 * step is bounded by PDF_LIMITS; past the time limit what was found is kept, the rest
 * said. It never throws: an encrypted or broken file is a failure as data.
 */
import { extractUrls } from '../fang';

import type { DecodedCode } from './image';
import { formTargets } from './pdf-forms';
import { PDF_LIMITS } from './limits';
import type { PDF_FAILURES, PdfNoteCode } from './pdf-codes';
import { scriptBudget, urlsInScript, type ScriptBudget } from './script';

/** A page's pixels, RGBA, as a canvas gives them. */
export interface PagePixels {
  readonly data: Uint8ClampedArray;
  readonly width: number;
  readonly height: number;
}

/** A text run of a page, as pdf.js's getTextContent gives it (marked content items have no `str`). */
interface PdfTextItem {
  readonly str?: string;
  readonly hasEOL?: boolean;
  /** [a, b, c, d, x, y]: where the run starts, in the page's units. */
  readonly transform?: readonly number[];
  readonly width?: number;
}

/** What pdf.js's getAnnotations gives of an annotation, the fields read here. */
interface PdfAnnotation {
  readonly subtype?: string;
  readonly rect?: readonly number[];
  readonly url?: string;
  readonly unsafeUrl?: string;
  readonly actions?: Readonly<Record<string, readonly string[]>> | null;
}

/** Scripts by event, as pdf.js's getJSActions gives them. */
type PdfScripts = Readonly<Record<string, readonly string[]>> | null;

/** A page of pdf.js's PDFPageProxy: the methods used. */
export interface PdfPage {
  getAnnotations(): Promise<readonly PdfAnnotation[]>;
  getTextContent(): Promise<{ readonly items: readonly PdfTextItem[] }>;
  getJSActions(): Promise<PdfScripts>;
  getViewport(options: { scale: number }): { readonly width: number; readonly height: number };
  cleanup(): unknown;
}

/** pdf.js's PDFDocumentProxy: the methods used. */
interface PdfDocument {
  readonly numPages: number;
  getPage(number: number): Promise<PdfPage>;
  getJSActions(): Promise<PdfScripts>;
  getFieldObjects(): Promise<Readonly<Record<string, readonly { readonly actions?: PdfScripts }[]>> | null>;
  getAttachments(): Promise<Readonly<Record<string, unknown>> | null>;
}

/** The parameters given to getDocument: the bytes and every switch that keeps pdf.js from running or fetching anything. */
export interface PdfParameters {
  readonly data: Uint8Array;
  readonly isEvalSupported: false;
  readonly enableXfa: false;
  readonly disableFontFace: true;
  readonly useSystemFonts: false;
  readonly useWorkerFetch: false;
  readonly stopAtErrors: false;
  readonly disableAutoFetch: true;
  readonly disableStream: true;
  readonly disableRange: true;
  readonly verbosity: 0;
  /** The class pdf.js makes its own canvases with, where its default cannot (a worker has no document). */
  readonly CanvasFactory?: unknown;
}

/** pdf.js itself, as the caller loads it: the one function used. */
export interface PdfJs {
  getDocument(parameters: PdfParameters): { readonly promise: Promise<PdfDocument>; destroy(): Promise<void> };
}

/** Draws a page at a scale (checked against PDF_LIMITS.renderPixels), white under it. */
export type PageDrawer = (page: PdfPage, scale: number) => Promise<PagePixels>;

/** Reads the codes in a page's pixels (ZXing, as for images). */
export type PixelDecoder = (pixels: PagePixels) => Promise<readonly DecodedCode[]>;

/** How readPdf reads: pdf.js, and to read drawn codes a drawer and a decoder (both, or codes are not read). */
export interface PdfTools {
  readonly pdfjs: PdfJs;
  readonly draw?: PageDrawer;
  readonly decode?: PixelDecoder;
  /** Why pages cannot be drawn here, when they cannot (said as the `pdfNotDrawn` note). */
  readonly noDrawing?: string;
  /** pdf.js's `CanvasFactory`, where its default cannot draw (a worker). */
  readonly canvasFactory?: unknown;
}

interface PdfNote {
  readonly code: PdfNoteCode;
  readonly params: readonly string[];
}

/** A link of a PDF: its URL as written or resolved by pdf.js, the text under it, whether a script named it. */
interface PdfLink {
  readonly url: string;
  readonly shown: string | null;
  readonly script: boolean;
}

/** A code drawn on a page: its text and the page's number. */
interface PdfCode {
  readonly text: string;
  readonly page: number;
}

/** A PDF read: its pages (as declared), links, drawn codes, and what was not read. */
interface PdfRead {
  readonly ok: true;
  readonly pages: number;
  readonly links: readonly PdfLink[];
  readonly codes: readonly PdfCode[];
  readonly notes: readonly PdfNote[];
}

interface PdfFailure {
  readonly ok: false;
  readonly code: (typeof PDF_FAILURES)[number];
  readonly params: readonly string[];
}

export type PdfReading = PdfRead | PdfFailure;

/** Reads a PDF's links where pdf.js runs (Node, the decoder sandbox): what the walk is given. */
export type PdfReader = (bytes: Uint8Array) => Promise<PdfReading>;

/** The switches every document is opened with (bench/pdf.ts gives pdf.js's own side the same). */
export function pdfParameters(data: Uint8Array, canvasFactory?: unknown): PdfParameters {
  return {
    ...(canvasFactory === undefined ? {} : { CanvasFactory: canvasFactory }),
    data,
    isEvalSupported: false,
    enableXfa: false,
    disableFontFace: true,
    useSystemFonts: false,
    useWorkerFetch: false,
    stopAtErrors: false,
    disableAutoFetch: true,
    disableStream: true,
    disableRange: true,
    verbosity: 0,
  };
}

function messageOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 200);
}

/** Thrown by `within` past the time limit. */
class TooSlow extends Error {}

/** What one reading collects, and when it must stop. */
class Collected {
  readonly links: PdfLink[] = [];
  readonly codes: PdfCode[] = [];
  readonly notes: PdfNote[] = [];
  readonly budget: ScriptBudget = scriptBudget();
  readonly #deadline: number;

  constructor(readonly started: number) {
    this.#deadline = started + PDF_LIMITS.milliseconds;
  }

  /** A step of pdf.js, abandoned past the deadline (pdf.js is then destroyed, stopping its work). */
  async within<T>(step: Promise<T>): Promise<T> {
    const left = this.#deadline - Date.now();
    if (left <= 0) throw new TooSlow();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        reject(new TooSlow());
      }, left);
    });
    try {
      return await Promise.race([step, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** A note, once per code (the first page that fails names the failure). */
  note(code: PdfNoteCode, ...params: string[]): void {
    if (!this.notes.some((note) => note.code === code)) this.notes.push({ code, params });
  }

  /** A link found, kept when it is no longer than PDF_LIMITS.urlLength. */
  link(url: string, shown: string | null, script: boolean): void {
    if (url.length <= PDF_LIMITS.urlLength) this.links.push({ url, shown, script });
  }

  scripts(scripts: PdfScripts): void {
    for (const list of Object.values(scripts ?? {})) for (const source of list) for (const url of urlsInScript(source, this.budget)) this.link(url, null, true);
  }
}

/** Whether a point lies in an annotation's rectangle ([x1, y1, x2, y2], either order), with a little slack. */
function inside(rect: readonly number[], x: number, y: number): boolean {
  const [x1 = 0, y1 = 0, x2 = 0, y2 = 0] = rect;
  const slack = 2;
  return x >= Math.min(x1, x2) - slack && x <= Math.max(x1, x2) + slack && y >= Math.min(y1, y2) - slack && y <= Math.max(y1, y2) + slack;
}

/** The text drawn under a link: the runs that start inside its rectangle; null when none. */
function textUnder(items: readonly PdfTextItem[], rect: readonly number[] | undefined): string | null {
  if (rect === undefined || rect.length !== 4) return null;
  const words = items.filter(
    (item) => item.str !== undefined && item.transform !== undefined && inside(rect, item.transform[4] ?? NaN, item.transform[5] ?? NaN),
  );
  const text = words
    .map((item) => item.str)
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
  return text === '' ? null : text.slice(0, PDF_LIMITS.shownLength);
}

/** A page's text, runs in order, a line break where pdf.js marks one. */
function pageText(items: readonly PdfTextItem[]): string {
  return items.map((item) => `${item.str ?? ''}${item.hasEOL === true ? '\n' : ''}`).join('');
}

/**
 * The URL an annotation goes to: pdf.js's `url` (absolute, `/URI /Base` applied), else as
 * written. For a GoToR to an explicit destination pdf.js appends that destination as JSON
 * (`#[0,{"name":"Fit"}]`), which is no part of the file named: it is taken off.
 */
function annotationUrl(annotation: PdfAnnotation): string | undefined {
  const url = annotation.url ?? annotation.unsafeUrl;
  if (url === undefined || annotation.unsafeUrl === undefined || !/#\[.*\]$/s.test(annotation.unsafeUrl)) return url;
  return url.slice(0, url.indexOf('#'));
}

/** The links, text and scripts of one page. */
async function readPage(found: Collected, page: PdfPage): Promise<void> {
  const [annotations, text, scripts] = await found.within(Promise.all([page.getAnnotations(), page.getTextContent(), page.getJSActions()]));
  for (const annotation of annotations) {
    const url = annotationUrl(annotation);
    if (typeof url === 'string' && url !== '') found.link(url, textUnder(text.items, annotation.rect), false);
    found.scripts(annotation.actions ?? null);
  }
  for (const url of extractUrls(pageText(text.items))) found.link(url, null, false);
  found.scripts(scripts);
}

/** The scale a page is drawn at: PDF_LIMITS.renderScale, less for a page that would pass the pixel limit. */
function scaleFor(page: PdfPage): number {
  const { width, height } = page.getViewport({ scale: 1 });
  const area = Math.max(width * height, 1);
  const most = Math.sqrt(PDF_LIMITS.renderPixels / area);
  const scale = Math.min(PDF_LIMITS.renderScale, most);
  return Math.min(scale, PDF_LIMITS.renderSide / Math.max(width, height, 1));
}

/** The codes drawn on a page, when a drawer and a decoder were given. */
async function readDrawn(found: Collected, tools: PdfTools, page: PdfPage, number: number): Promise<void> {
  if (tools.draw === undefined || tools.decode === undefined) return;
  const pixels = await found.within(tools.draw(page, scaleFor(page)));
  const codes = await found.within(tools.decode(pixels));
  for (const code of codes) if (found.codes.length < PDF_LIMITS.codes) found.codes.push({ text: code.text.slice(0, PDF_LIMITS.codeLength), page: number });
}

/** The document's own scripts and its form fields' actions; its embedded files named. */
async function readDocument(found: Collected, document: PdfDocument): Promise<void> {
  const [scripts, fields, attachments] = await found.within(Promise.all([document.getJSActions(), document.getFieldObjects(), document.getAttachments()]));
  found.scripts(scripts);
  for (const field of Object.values(fields ?? {})) for (const widget of field) found.scripts(widget.actions ?? null);
  const names = Object.keys(attachments ?? {});
  if (names.length > 0) found.note('pdfEmbeddedFiles', String(names.length), names.slice(0, 5).join(', ').slice(0, 200));
}

/** Reads the pages up to the limits; one page that cannot be read is said, and the next read. */
async function readPages(found: Collected, tools: PdfTools, document: PdfDocument): Promise<void> {
  const pages = document.numPages;
  if (pages > PDF_LIMITS.pagesRead) found.note('pdfTooManyPages', String(pages), String(PDF_LIMITS.pagesRead), String(PDF_LIMITS.pagesDrawn));
  if (tools.draw === undefined || tools.decode === undefined) found.note('pdfNotDrawn', tools.noDrawing ?? 'no page drawer');
  for (let number = 1; number <= Math.min(pages, PDF_LIMITS.pagesRead); number++) {
    let page: PdfPage | undefined;
    try {
      page = await found.within(document.getPage(number));
      await readPage(found, page);
      if (number <= PDF_LIMITS.pagesDrawn) await readDrawn(found, tools, page, number);
    } catch (error) {
      if (error instanceof TooSlow) throw error;
      found.note('pdfPartUnreadable', `page ${number}`, messageOf(error));
    } finally {
      page?.cleanup();
    }
  }
}

/** Whether pdf.js refused a document for its password (its PasswordException). */
function isPasswordError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'PasswordException';
}

/**
 * A PDF's links, drawn codes and what was not read. Never throws: a file pdf.js cannot
 * open is `{ ok: false }` (`pdfEncrypted` when it needs a password), one too slow to open
 * `pdfTooSlow`; a file opened and then too slow keeps what was found, with a note.
 */
export async function readPdf(bytes: Uint8Array, tools: PdfTools): Promise<PdfReading> {
  if (bytes.length > PDF_LIMITS.bytes) return { ok: false, code: 'pdfTooLarge', params: [String(PDF_LIMITS.bytes / 1024 / 1024)] };
  const found = new Collected(Date.now());
  let loading: ReturnType<PdfJs['getDocument']>;
  try {
    // pdf.js takes the buffer over (it may transfer it) and refuses a Buffer: a plain copy, so the mail's bytes stay whole.
    loading = tools.pdfjs.getDocument(pdfParameters(new Uint8Array(bytes), tools.canvasFactory));
  } catch (error) {
    return { ok: false, code: 'pdfUnreadable', params: [messageOf(error)] };
  }
  try {
    let document: PdfDocument;
    try {
      document = await found.within(loading.promise);
    } catch (error) {
      if (error instanceof TooSlow) return { ok: false, code: 'pdfTooSlow', params: [String(PDF_LIMITS.milliseconds / 1000)] };
      if (isPasswordError(error)) return { ok: false, code: 'pdfEncrypted', params: [] };
      return { ok: false, code: 'pdfUnreadable', params: [messageOf(error)] };
    }
    try {
      try {
        await readDocument(found, document);
      } catch (error) {
        if (error instanceof TooSlow) throw error;
        found.note('pdfPartUnreadable', 'its scripts and embedded files', messageOf(error));
      }
      await readPages(found, tools, document);
      // SubmitForm and ImportData targets, which pdf.js does not expose, from the file's own syntax.
      for (const url of formTargets(bytes)) found.link(url, null, false);
    } catch (error) {
      if (!(error instanceof TooSlow)) throw error;
      found.note('pdfTooSlow', String(PDF_LIMITS.milliseconds / 1000));
    }
    if (found.budget.cut) found.note('scriptTooLong');
    return { ok: true, pages: document.numPages, links: found.links.slice(0, PDF_LIMITS.links), codes: found.codes, notes: found.notes };
  } catch (error) {
    return { ok: false, code: 'pdfUnreadable', params: [messageOf(error)] };
  } finally {
    // Stops pdf.js's work on this document (and its worker side) whatever happened.
    await loading.destroy().catch(() => undefined);
  }
}
