/**
 * The links of a mail's HTML, read as a browser reads the markup and never as a page. The
 * markup goes through parse5's tokenizer, the WHATWG tokenization algorithm (comments,
 * character references, attributes, duplicate attributes, CDATA), switched into raw text
 * where the tree builder switches it (`<script>`, `<style>`, `<title>`, `<textarea>`,
 * `<plaintext>`, … in HTML content; scripting off, as in a mail client, so `<noscript>`
 * is markup): an attacker cannot hide a link in markup that a mail client reads
 * differently. No tree is built, no document made: nothing loads, nothing runs, and a
 * nesting bomb costs nothing but its bytes.
 */
import { Tokenizer, TokenizerMode, type Token, type TokenHandler } from 'parse5';

import { extractUrls } from '../fang';

import { fixC1 } from './charset';
import { SCRIPT_LIMITS } from './limits';
import { scriptBudget, urlsInScript } from './script';

/** A link in the HTML, in document order: `url` absolute where a `<base>` made it so. */
interface HtmlLink {
  readonly url: string;
  /** The anchor's visible text or its image's alt; null for a bare URL, a form or a refresh. */
  readonly shown: string | null;
  /** Named in a script (a `<script>` element or an event handler attribute), read as text: ./script. */
  readonly script: boolean;
}

export interface HtmlReading {
  readonly links: HtmlLink[];
  /** Distinct remote URLs the HTML would load if shown: images, stylesheets, fonts, frames. */
  readonly remote: Set<string>;
  /** The document's scripts were cut short by SCRIPT_LIMITS: the rest was not read for links. */
  readonly scriptCut: boolean;
}

/** How a document is read: an HTML page (a mail's body, an attached page), or an SVG image (XML: ./svg). */
export type MarkupKind = 'html' | 'svg';

/** Elements whose start or end begins a new line when rendered (so words on either side do not join). */
const BLOCKS = new Set([
  'address', 'article', 'aside', 'blockquote', 'br', 'center', 'dd', 'div', 'dl', 'dt', 'figcaption', 'figure', 'footer', 'h1', 'h2',
  'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'li', 'main', 'nav', 'ol', 'p', 'pre', 'section', 'table', 'td', 'th', 'tr', 'ul',
]); // prettier-ignore

/** Where the tree builder switches the tokenizer out of markup, in HTML content (scripting off). */
const RAW_TEXT: Readonly<Record<string, Tokenizer['state']>> = {
  title: TokenizerMode.RCDATA,
  textarea: TokenizerMode.RCDATA,
  style: TokenizerMode.RAWTEXT,
  xmp: TokenizerMode.RAWTEXT,
  iframe: TokenizerMode.RAWTEXT,
  noembed: TokenizerMode.RAWTEXT,
  noframes: TokenizerMode.RAWTEXT,
  script: TokenizerMode.SCRIPT_DATA,
  plaintext: TokenizerMode.PLAINTEXT,
};

/** HTML start tags that end SVG or MathML content (the tree builder's "breakout" list). */
const BREAKOUT = new Set([
  'b', 'big', 'blockquote', 'body', 'br', 'center', 'code', 'dd', 'div', 'dl', 'dt', 'em', 'embed', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6',
  'head', 'hr', 'i', 'img', 'li', 'listing', 'menu', 'meta', 'nobr', 'ol', 'p', 'pre', 'ruby', 's', 'small', 'span', 'strong', 'strike',
  'sub', 'sup', 'table', 'tt', 'u', 'ul', 'var',
]); // prettier-ignore

/** Attributes that make an element load a resource when shown. */
const LOADS: Readonly<Record<string, readonly string[]>> = {
  img: ['src', 'lowsrc', 'dynsrc'],
  image: ['href', 'xlink:href'],
  input: ['src'],
  script: ['src'],
  iframe: ['src'],
  frame: ['src'],
  embed: ['src'],
  object: ['data'],
  audio: ['src'],
  video: ['src', 'poster'],
  source: ['src'],
  track: ['src'],
  link: ['href'],
  use: ['href', 'xlink:href'],
};

/** `url(…)` and `@import "…"` in CSS: what a stylesheet loads. */
const CSS_URL = /url\(([^)]*)\)|@import\s*["']([^"']*)["']/gi;

/** Outlook's conditional comments, whose markup Outlook renders: `<!--[if mso]>…<![endif]-->`. */
const CONDITIONAL = /^\[if[^\]]*\]>([\s\S]*)<!\[endif\]$/;

/** SVG animations that set a link's target: `<set attributeName="href" to="…">` changes where an `<a>` goes. */
const ANIMATIONS = new Set(['set', 'animate']);

/** Schemes that are not links to isolate: left out of the list. */
const NOT_LINKS = /^(?:mailto|tel):/i;

/** The text of an anchor is read up to this many times the shown length, no further. */
const SHOWN_READ = 8;

function attr(tag: Token.TagToken, name: string): string | undefined {
  for (const item of tag.attrs) if (item.name === name || (item.prefix !== undefined && `${item.prefix}:${item.name}` === name)) return item.value;
  return undefined;
}

/** Whitespace collapsed as a browser shows it, cut to `max` characters (C1 controls read as windows-1252 does). */
export function collapse(text: string, max: number): string {
  return fixC1(text.replace(/\s+/g, ' ').trim().slice(0, max));
}

/** Without the quotes around it, when it has a matching pair (or an opening one). */
function unquote(value: string): string {
  const quote = value[0];
  if (quote !== '"' && quote !== "'") return value;
  const end = value.indexOf(quote, 1);
  return value.slice(1, end === -1 ? undefined : end);
}

/** The URL in a refresh's content attribute (the delay, a separator, `url=`, the URL perhaps quoted: the HTML spec's steps). */
function refreshUrl(content: string): string | undefined {
  let rest = content
    .trimStart()
    .replace(/^[\d.]+/, '')
    .trimStart();
  if (rest.startsWith(';') || rest.startsWith(',')) rest = rest.slice(1).trimStart();
  const named = /^url\s*=/i.exec(rest);
  if (named) rest = rest.slice(named[0].length).trimStart();
  const url = unquote(rest).trim();
  return url === '' ? undefined : url;
}

/** The URLs a srcset names (each candidate: a URL, then an optional width or density). */
function srcsetUrls(srcset: string): string[] {
  return srcset
    .split(',')
    .map((candidate) => candidate.trim().split(/\s+/, 1)[0] ?? '')
    .filter((url) => url !== '');
}

function cssUrls(css: string): string[] {
  return [...css.matchAll(CSS_URL)].map((match) => (match[1] === undefined ? (match[2] ?? '') : unquote(match[1].trim()).trim())).filter((url) => url !== '');
}

/** An anchor being read: its href, and its text and first image alt so far. */
interface OpenAnchor {
  readonly href: string;
  readonly end: string;
  text: string;
  alt: string | null;
}

/**
 * The reading of one document: the tokens in order, and what they make. Conditional
 * comments are read by a tokenizer of their own into the same reading, where they stand.
 */
class Reading implements TokenHandler {
  readonly raw: { readonly href: string; readonly shown: string | null }[] = [];
  readonly bare: { readonly at: number; readonly url: string; readonly script: boolean }[] = [];
  readonly remoteRaw: string[] = [];
  base: string | undefined;
  #text = '';
  #anchor: OpenAnchor | undefined;
  /** The raw-text element the tokenizer is in (its text is not shown), if any. */
  #rawTag: string | undefined;
  /** The text of the `<style>` or `<script>` being read (the tokenizer gives it in pieces). */
  #rawText = '';
  #foreign = 0;
  #template = 0;
  /** Reading an SVG document: XML, foreign content throughout, no raw-text elements, no `<base>`. */
  readonly #svg: boolean;
  /** The text of the `<script>` being read, in foreign content (where the tokenizer gives it as characters). */
  #foreignScript: string | undefined;
  readonly scripts = scriptBudget();
  /** Inside a conditional comment's markup. */
  #conditional = false;
  #tokenizer: Tokenizer | undefined;
  readonly #max: number;

  constructor(max: number, kind: MarkupKind) {
    this.#max = max;
    this.#svg = kind === 'svg';
  }

  read(html: string): void {
    const outer = this.#tokenizer;
    const tokenizer = new Tokenizer({ sourceCodeLocationInfo: false }, this);
    // An SVG document is foreign content from its first byte: `<![CDATA[…]]>` is text.
    tokenizer.inForeignNode = this.#svg || this.#foreign > 0;
    this.#tokenizer = tokenizer;
    tokenizer.write(html, true);
    this.#tokenizer = outer;
  }

  /** URLs in the text met since the last link, listed before it. */
  flush(): void {
    // Every form of a URL, defanged too, holds a colon, a slash or a bracket: most text between two links has none.
    if (/[/:[]/.test(this.#text)) for (const url of extractUrls(this.#text)) this.bare.push({ at: this.raw.length, url, script: false });
    this.#text = '';
  }

  /** A script's text (an element's, an event handler's): its URLs join the list where it stands, as text never run. */
  #script(source: string): void {
    if (this.#template > 0 || source.trim() === '') return;
    this.flush();
    for (const url of urlsInScript(source, this.scripts)) this.bare.push({ at: this.raw.length, url, script: true });
  }

  #link(href: string | undefined, shown: string | null): void {
    if (href === undefined) return;
    this.flush();
    this.raw.push({ href, shown });
  }

  #closeAnchor(): void {
    const anchor = this.#anchor;
    if (anchor === undefined) return;
    this.#anchor = undefined;
    const shown = collapse(anchor.text, this.#max);
    this.#link(anchor.href, shown === '' ? anchor.alt : shown);
  }

  #chars(chars: string): void {
    if (this.#rawTag !== undefined) {
      if (this.#rawTag === 'style') this.#rawText += chars;
      // A script is kept to one character past what is read of it (the reader then says it was cut).
      else if (this.#rawTag === 'script' && this.#rawText.length <= SCRIPT_LIMITS.characters) this.#rawText += chars;
      return;
    }
    if (this.#foreignScript !== undefined) {
      if (this.#foreignScript.length <= SCRIPT_LIMITS.characters) this.#foreignScript += chars;
      return;
    }
    if (this.#template > 0) return;
    const anchor = this.#anchor;
    if (anchor === undefined) this.#text += chars;
    else if (anchor.text.length < this.#max * SHOWN_READ) anchor.text += chars;
  }

  onCharacter(token: Token.CharacterToken): void {
    this.#chars(token.chars);
  }

  onWhitespaceCharacter(token: Token.CharacterToken): void {
    this.#chars(token.chars);
  }

  onNullCharacter(): void {
    // U+0000 is dropped or replaced by the tree builder: it joins no URL.
  }

  onDoctype(): void {
    // A doctype names no link.
  }

  onEof(): void {
    this.#endRaw();
    this.#endForeignScript();
    this.#closeAnchor();
  }

  /** Leaves a raw-text element: a stylesheet's loads are counted, a script's URLs read. */
  #endRaw(): void {
    if (this.#rawTag === 'style') this.#css(this.#rawText);
    else if (this.#rawTag === 'script') this.#script(this.#rawText);
    this.#rawText = '';
    this.#rawTag = undefined;
  }

  #endForeignScript(): void {
    const source = this.#foreignScript;
    this.#foreignScript = undefined;
    if (source !== undefined) this.#script(source);
  }

  onComment(token: Token.CommentToken): void {
    // One level: Outlook's blocks do not nest (a comment ends at the first `-->`), and each
    // level read again would cost the rest of the text again.
    if (this.#conditional || this.#template > 0) return;
    const inner = CONDITIONAL.exec(token.data)?.[1];
    if (inner === undefined) return;
    this.#conditional = true;
    this.read(inner);
    this.#conditional = false;
  }

  onEndTag(token: Token.TagToken): void {
    const tag = token.tagName;
    this.#endRaw();
    if (tag === 'script') this.#endForeignScript();
    if (tag === 'template') this.#template = Math.max(0, this.#template - 1);
    else if ((tag === 'svg' || tag === 'math') && this.#foreign > 0) this.#foreign--;
    if (this.#anchor?.end === tag) this.#closeAnchor();
    if (BLOCKS.has(tag)) this.#chars('\n');
  }

  onStartTag(token: Token.TagToken): void {
    const tag = token.tagName;
    const tokenizer = this.#tokenizer;
    if (this.#foreign > 0 && !this.#svg && BREAKOUT.has(tag)) this.#foreign = 0;
    if (tag === 'template') this.#template++;
    if (this.#foreign === 0 && !this.#svg) {
      const mode = RAW_TEXT[tag];
      if (mode !== undefined && tokenizer !== undefined) {
        tokenizer.state = mode;
        tokenizer.lastStartTagName = tag;
        this.#rawTag = tag;
      }
    }
    if ((tag === 'svg' || tag === 'math') && !token.selfClosing) this.#foreign++;
    if (tokenizer !== undefined) tokenizer.inForeignNode = this.#svg || this.#foreign > 0;
    // In foreign content a script's text comes as characters, up to its end tag.
    if (tag === 'script' && this.#rawTag === undefined && !token.selfClosing) this.#foreignScript ??= '';
    this.#loads(tag, token);
    if (this.#template > 0) return;
    if (BLOCKS.has(tag)) this.#chars('\n');
    const href = tag === 'a' || tag === 'area' || tag.startsWith('v:') ? (attr(token, 'href') ?? attr(token, 'xlink:href')) : undefined;
    if (href !== undefined) {
      // A new anchor ends the one before it, as the tree builder does.
      if (tag === 'a' || tag.startsWith('v:')) {
        this.#closeAnchor();
        this.#anchor = { href, end: tag, text: '', alt: null };
      } else if (this.#anchor === undefined) this.#link(href, collapse(attr(token, 'alt') ?? '', this.#max) || null);
      return;
    }
    if (tag === 'img' && this.#anchor !== undefined && this.#anchor.alt === null) {
      const alt = collapse(attr(token, 'alt') ?? '', this.#max);
      if (alt !== '') this.#anchor.alt = alt;
    } else if (tag === 'base' && this.base === undefined && !this.#svg) this.base = attr(token, 'href');
    else if (tag === 'form') this.#link(attr(token, 'action'), null);
    else if (tag === 'button' || tag === 'input') this.#link(attr(token, 'formaction'), null);
    else if (tag === 'meta' && attr(token, 'http-equiv')?.trim().toLowerCase() === 'refresh') {
      const url = refreshUrl(attr(token, 'content') ?? '');
      if (url !== undefined) this.#link(url, null);
    } else if (ANIMATIONS.has(tag) && /^(?:xlink:)?href$/i.test(attr(token, 'attributename')?.trim() ?? '')) {
      for (const name of ['to', 'from']) this.#link(attr(token, name), null);
      for (const value of (attr(token, 'values') ?? '').split(';')) if (value.trim() !== '') this.#link(value, null);
    }
  }

  /** The resources a start tag would load (one pass over its attributes: most tags have a style and nothing else). */
  #loads(tag: string, token: Token.TagToken): void {
    const loads = LOADS[tag];
    for (const item of token.attrs) {
      const name = item.prefix === undefined ? item.name : `${item.prefix}:${item.name}`;
      if (name.startsWith('on') && name.length > 2) this.#script(item.value);
      else if (name === 'style') this.#css(item.value);
      else if (name === 'srcset') this.remoteRaw.push(...srcsetUrls(item.value));
      else if (name === 'background') this.remoteRaw.push(item.value);
      else if (loads?.includes(name) === true && (tag !== 'input' || attr(token, 'type')?.toLowerCase() === 'image')) this.remoteRaw.push(item.value);
    }
  }

  #css(css: string): void {
    if (/url\(|@import/i.test(css)) this.remoteRaw.push(...cssUrls(css));
  }
}

/**
 * Reads an HTML document: its links (`<a>`, `<area>`, VML shapes with an href, also in
 * Outlook's conditional comments, `<form action>`, `formaction`, `<meta
 * http-equiv=refresh>`, and the URLs in its visible text, defanged too), in document
 * order, with `<base href>` applied; and the remote resources it would load. Text inside an
 * anchor is the anchor's shown text, not a link of its own. `mailto:`, `tel:` and in-page
 * `#` links are left out; `<template>` content is inert and read for nothing but loads.
 */
export function readHtml(html: string, maxShown: number): HtmlReading {
  return readMarkup(html, maxShown, 'html');
}

/** Reads a document of either kind (readHtml's, and ./svg's for an SVG image): its links, its loads, its scripts as text. */
export function readMarkup(markup: string, maxShown: number, kind: MarkupKind): HtmlReading {
  const reading = new Reading(maxShown, kind);
  reading.read(markup);
  reading.flush();

  const baseUrl = absoluteBase(reading.base);
  const links: HtmlLink[] = [];
  let next = 0;
  const { raw, bare } = reading;
  for (let i = 0; i <= raw.length; i++) {
    while (next < bare.length && (bare[next]?.at ?? Infinity) <= i) {
      const found = bare[next];
      if (found !== undefined) links.push({ url: found.url, shown: null, script: found.script });
      next++;
    }
    const item = raw[i];
    if (item === undefined) continue;
    const url = linkUrl(item.href, baseUrl);
    if (url !== undefined) links.push({ url, shown: item.shown, script: false });
  }
  const remote = new Set<string>();
  for (const value of reading.remoteRaw) {
    const url = absolute(value.trim(), baseUrl);
    if (url !== undefined && /^https?:/i.test(url)) remote.add(url);
  }
  return { links, remote, scriptCut: reading.scripts.cut };
}

/** The document's base URL: the first `<base href>` when it is an absolute http(s) URL. */
function absoluteBase(base: string | undefined): URL | undefined {
  if (base === undefined) return undefined;
  try {
    const url = new URL(base.trim());
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}

/** `value` resolved against the base as a browser would; unresolvable values are kept as written. */
function absolute(value: string, base: URL | undefined): string | undefined {
  if (value === '') return undefined;
  if (value.startsWith('//') && base === undefined) return `https:${value}`;
  if (base === undefined || URL.canParse(value)) return value;
  try {
    return new URL(value, base).href;
  } catch {
    return value;
  }
}

/** Without the C0 controls and spaces around it, which the URL parser drops. */
function trimControls(value: string): string {
  let start = 0;
  let end = value.length;
  while (start < end && value.charCodeAt(start) <= 0x20) start++;
  while (end > start && value.charCodeAt(end - 1) <= 0x20) end--;
  return value.slice(start, end);
}

/**
 * A link's URL as the mail wrote it (entities decoded by the tokenizer; spaces around it
 * trimmed as the HTML spec does), made absolute against `<base>` when relative; undefined
 * for what is not a link to isolate (empty, in-page `#…`, `mailto:`, `tel:`).
 */
function linkUrl(href: string, base: URL | undefined): string | undefined {
  const written = trimControls(href);
  const spelled = written.replace(/[\t\n\r]/g, '');
  if (spelled === '' || spelled.startsWith('#') || NOT_LINKS.test(spelled)) return undefined;
  return absolute(written, base);
}
