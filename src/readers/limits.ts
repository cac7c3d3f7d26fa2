/**
 * The bounds of reading a reported mail: what a hostile file can make the reader do. Each
 * is stated in the README and SECURITY.md; a mail beyond one is refused or cut short with
 * a problem that names the limit, never read without end.
 */
export const MAIL_LIMITS = {
  /** Largest mail read, in bytes (25 MiB: above what mail systems deliver). */
  bytes: 25 * 1024 * 1024,
  /** Deepest MIME multipart nesting (postal-mime's own guard, set here). */
  mimeDepth: 50,
  /** Most header bytes of one message, all its parts together (postal-mime's guard). */
  headerBytes: 1024 * 1024,
  /** Deepest chain of attached or forwarded messages read (the top message is level 0). */
  messageDepth: 5,
  /** Most attachments opened (HTML pages and messages), all levels together. */
  attachments: 200,
  /** Most files listed with their hashes (every attachment at every level, opened or not). */
  files: 1000,
  /** Most links listed; the rest are counted in a problem. */
  links: 20_000,
  /** Longest shown text kept for a link, in characters. */
  shownLength: 200,
} as const;

/**
 * The bounds of reading codes from an image: checked on the size the file declares before
 * any pixel is decoded. Stated in the README and SECURITY.md.
 */
export const IMAGE_LIMITS = {
  /** Largest image file read, in bytes (20 MiB). */
  bytes: 20 * 1024 * 1024,
  /** Most pixels decoded (40 megapixels: a 5K screenshot is 15, a phone photo 12 to 48). */
  pixels: 40_000_000,
  /** Longest side, in pixels (a full-page screenshot is long and narrow). */
  side: 32_767,
  /** Most codes read from one image. */
  codes: 64,
  /** Most images of one mail scanned for codes, all levels together. */
  mailImages: 50,
} as const;

/**
 * The bounds of reading scripts for their URLs (./script): per document (a mail's HTML
 * body, an attached page or SVG), all its scripts and event handlers together. Stated in
 * the README and SECURITY.md; a script beyond one is read to the bound and the rest is
 * said in a problem.
 */
export const SCRIPT_LIMITS = {
  /** Most characters of script read (1 Mi). */
  characters: 1024 * 1024,
  /** Most string literals read. */
  literals: 50_000,
  /** Longest value kept: one literal, literals joined by `+`, or base64 decoded (64 Ki characters). */
  valueLength: 64 * 1024,
  /** Deepest `atob(` inside `atob(`, and template expressions inside templates, followed. */
  depth: 8,
} as const;

/**
 * The bounds of opening archives (./zip) and the Office documents made of one (./office),
 * against zip bombs: each entry's and the mail's expanded size are counted while inflating,
 * never taken from the sizes an archive declares. Stated in the README and SECURITY.md; an
 * entry beyond one is not read and said in a problem, the rest of the mail is read.
 */
export const ZIP_LIMITS = {
  /** Deepest archive read: a zip in a zip in the mail (the mail's own zip is 1). */
  depth: 2,
  /** Most entries of one archive read; the rest are said, not read. */
  entries: 1000,
  /** Largest entry expanded, in bytes (25 MiB, as a mail). */
  entryBytes: 25 * 1024 * 1024,
  /** Most bytes expanded from all the archives and documents of one mail together (100 MiB). */
  totalBytes: 100 * 1024 * 1024,
  /** Highest expansion ratio of an entry past `ratioFrom` bytes (text compresses 3 to 20 times; zeros 1,000). */
  ratio: 250,
  /** Size an entry may reach before its ratio is judged (1 MiB). */
  ratioFrom: 1024 * 1024,
  /** Most characters of an Office part's or an RTF file's text read for URLs (4 Mi). */
  textCharacters: 4 * 1024 * 1024,
  /** Deepest RTF group nesting followed; deeper groups are read as text of the last one. */
  rtfDepth: 256,
} as const;

/**
 * The bounds of reading a PDF (./pdf): what a hostile document can make pdf.js do. Stated
 * in the README and SECURITY.md; a PDF beyond one is read to the bound and the rest said
 * in a problem.
 */
export const PDF_LIMITS = {
  /** Largest PDF read, in bytes (20 MiB). */
  bytes: 20 * 1024 * 1024,
  /** Most pages read for links and text (the first ones). */
  pagesRead: 50,
  /** Most pages drawn to read the codes on them (the first ones). */
  pagesDrawn: 10,
  /** Scale a page is drawn at: 2 is 144 dots per inch, enough for a code a couple of centimetres wide. */
  renderScale: 2,
  /** Most pixels of one drawn page (a Letter page at scale 2 is 1.9 million); a larger page is drawn smaller. */
  renderPixels: 8_000_000,
  /** Longest side of a drawn page, in pixels. */
  renderSide: 8192,
  /** Most time spent on one PDF, opening, reading and drawing together, in milliseconds. */
  milliseconds: 20_000,
  /** Most links kept from one PDF (annotations, text and scripts together). */
  links: 5000,
  /** Longest URL kept from a PDF, in characters; a longer one is left out. */
  urlLength: 32_768,
  /** Most codes kept from one PDF's pages. */
  codes: 64,
  /** Longest text kept of a code drawn on a page (a version 40 QR code holds 2,953 bytes). */
  codeLength: 8192,
  /** Longest text kept as what a link showed. */
  shownLength: 200,
  /** Most compressed object streams inflated to look for form actions (./pdf-forms). */
  objectStreams: 256,
  /** Most bytes inflated from them, all together (16 MiB): a bomb stops there. */
  inflatedBytes: 16 * 1024 * 1024,
} as const;
