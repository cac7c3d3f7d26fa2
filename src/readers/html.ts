/**
 * The links of a mail's HTML, read as a browser would read the markup and never as a page:
 * parse5 (the WHATWG parsing algorithm) builds an inert tree that loads nothing and runs
 * nothing, so an attacker cannot hide a link in markup the mail client reads differently.
 * The tree is walked without recursion: a nesting bomb costs memory in proportion to its
 * size, never the stack.
 */
import { parse, parseFragment, type DefaultTreeAdapterMap } from 'parse5';

import { extractUrls } from '../fang';

type Node = DefaultTreeAdapterMap['childNode'] | DefaultTreeAdapterMap['parentNode'];
type Element = DefaultTreeAdapterMap['element'];

/** A link in the HTML, in document order: `url` absolute where a `<base>` made it so. */
export interface HtmlLink {
  readonly url: string;
  /** The anchor's visible text or its image's alt; null for a bare URL, a form or a refresh. */
  readonly shown: string | null;
}

export interface HtmlReading {
  readonly links: HtmlLink[];
  /** Distinct remote URLs the HTML would load if shown: images, stylesheets, fonts, frames. */
  readonly remote: Set<string>;
}

/** Elements whose text starts a new line when rendered (so words on either side do not join). */
const BLOCKS = new Set([
  'address', 'article', 'aside', 'blockquote', 'br', 'center', 'dd', 'div', 'dl', 'dt', 'figcaption', 'figure', 'footer', 'h1', 'h2',
  'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'li', 'main', 'nav', 'ol', 'p', 'pre', 'section', 'table', 'td', 'th', 'tr', 'ul',
]); // prettier-ignore

/** Elements whose content is never shown as text. */
const HIDDEN = new Set(['head', 'script', 'style', 'template', 'title', 'textarea', 'select', 'option']);

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

/** Schemes that are not links to isolate: left out of the list. */
const NOT_LINKS = /^(?:mailto|tel):/i;

function attr(element: Element, ...names: readonly string[]): string | undefined {
  for (const name of names) {
    const found = element.attrs.find((item) => (item.prefix === undefined ? item.name : `${item.prefix}:${item.name}`) === name || item.name === name);
    if (found !== undefined) return found.value;
  }
  return undefined;
}

function isElement(node: Node): node is Element {
  return 'tagName' in node;
}

/** Whitespace collapsed as a browser shows it, cut to `max` characters. */
export function collapse(text: string, max: number): string {
  return text.replace(/\s+/g, ' ').trim().slice(0, max);
}

/** The visible text of an anchor (collapsed, at most `max` characters), else the first image's alt, else null. */
function shownText(anchor: Element, max: number): string | null {
  let text = '';
  let alt: string | null = null;
  const stack: Node[] = [...anchor.childNodes].reverse();
  // Enough raw text to fill `max` after collapsing whitespace, read no further.
  while (stack.length > 0 && text.length < max * 8) {
    const node = stack.pop();
    if (node === undefined) break;
    if (node.nodeName === '#text' && 'value' in node) text += node.value;
    else if (isElement(node)) {
      if (HIDDEN.has(node.tagName)) continue;
      if (node.tagName === 'img' && alt === null) {
        const value = collapse(attr(node, 'alt') ?? '', max);
        if (value !== '') alt = value;
      }
      if (BLOCKS.has(node.tagName)) text += ' ';
      for (let i = node.childNodes.length - 1; i >= 0; i--) {
        const child = node.childNodes[i];
        if (child !== undefined) stack.push(child);
      }
    }
  }
  const shown = collapse(text, max);
  return shown === '' ? alt : shown;
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

/**
 * Reads an HTML document: its links (`<a>`, `<area>`, VML shapes and SVG anchors with an
 * href, `<form action>`, `formaction`, `<meta http-equiv=refresh>`, and the URLs in its
 * visible text, defanged too), in document order, with `<base href>` applied; and the
 * remote resources it would load. Text inside an anchor is the anchor's shown text, not a
 * link of its own. `mailto:`, `tel:` and in-page `#` links are left out.
 */
export function readHtml(html: string, maxShown: number): HtmlReading {
  const document = parse(html, { scriptingEnabled: false });
  const raw: { readonly href: string; readonly shown: string | null }[] = [];
  const bare: { readonly at: number; readonly url: string }[] = [];
  const remoteRaw: string[] = [];
  let base: string | undefined;
  let text = '';

  const flush = (): void => {
    if (text === '') return;
    for (const url of extractUrls(text)) bare.push({ at: raw.length, url });
    text = '';
  };
  const link = (href: string | undefined, shown: string | null): void => {
    if (href === undefined) return;
    flush();
    raw.push({ href, shown });
  };

  // The walk: each node, and whether it is inside an anchor (its text is the anchor's).
  type Step = { readonly node: Node; readonly inAnchor: boolean };
  const stack: Step[] = [{ node: document, inAnchor: false }];
  const push = (children: readonly Node[], inAnchor: boolean): void => {
    for (let i = children.length - 1; i >= 0; i--) {
      const child = children[i];
      if (child !== undefined) stack.push({ node: child, inAnchor });
    }
  };
  while (stack.length > 0) {
    const step = stack.pop();
    if (step === undefined) break;
    const { node, inAnchor } = step;
    if (node.nodeName === '#text' && 'value' in node) {
      if (!inAnchor) text += node.value;
      continue;
    }
    if (node.nodeName === '#comment' && 'data' in node) {
      const inner = CONDITIONAL.exec(node.data)?.[1];
      if (inner !== undefined) push(parseFragment(inner, { scriptingEnabled: false }).childNodes, inAnchor);
      continue;
    }
    if (!isElement(node)) {
      if ('childNodes' in node) push(node.childNodes, inAnchor);
      continue;
    }
    const tag = node.tagName;
    if (tag === 'template') continue;
    if (BLOCKS.has(tag) && !inAnchor) text += '\n';
    let anchor = inAnchor;
    if (tag === 'base' && base === undefined) base = attr(node, 'href');
    else if (tag === 'a' || tag === 'area' || (tag.startsWith('v:') && attr(node, 'href') !== undefined)) {
      const href = attr(node, 'href', 'xlink:href');
      if (href !== undefined && !inAnchor) {
        link(href, shownText(node, maxShown));
        anchor = true;
      }
    } else if (tag === 'form') link(attr(node, 'action'), null);
    else if ((tag === 'button' || tag === 'input') && attr(node, 'formaction') !== undefined) link(attr(node, 'formaction'), null);
    else if (tag === 'meta' && attr(node, 'http-equiv')?.trim().toLowerCase() === 'refresh') link(refreshUrl(attr(node, 'content') ?? ''), null);
    else if (tag === 'style') {
      for (const child of node.childNodes) if ('value' in child) remoteRaw.push(...cssUrls(child.value));
    }
    for (const name of LOADS[tag] ?? []) {
      const value = attr(node, name);
      if (value !== undefined && (tag !== 'input' || attr(node, 'type')?.toLowerCase() === 'image')) remoteRaw.push(value);
    }
    const srcset = attr(node, 'srcset');
    if (srcset !== undefined) remoteRaw.push(...srcsetUrls(srcset));
    const background = attr(node, 'background');
    if (background !== undefined) remoteRaw.push(background);
    const style = attr(node, 'style');
    if (style !== undefined) remoteRaw.push(...cssUrls(style));
    if (!HIDDEN.has(tag) || tag === 'head') push(node.childNodes, anchor);
  }
  flush();

  const baseUrl = absoluteBase(base);
  const links: HtmlLink[] = [];
  let next = 0;
  for (let i = 0; i <= raw.length; i++) {
    while (next < bare.length && (bare[next]?.at ?? Infinity) <= i) {
      const found = bare[next];
      if (found !== undefined) links.push({ url: found.url, shown: null });
      next++;
    }
    const item = raw[i];
    if (item === undefined) continue;
    const url = linkUrl(item.href, baseUrl);
    if (url !== undefined) links.push({ url, shown: item.shown });
  }
  const remote = new Set<string>();
  for (const value of remoteRaw) {
    const url = absolute(value.trim(), baseUrl);
    if (url !== undefined && /^https?:/i.test(url)) remote.add(url);
  }
  return { links, remote };
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
 * A link's URL as the mail wrote it (entities decoded by the parser; spaces around it
 * trimmed as the HTML spec does), made absolute against `<base>` when relative; undefined
 * for what is not a link to isolate (empty, in-page `#…`, `mailto:`, `tel:`).
 */
function linkUrl(href: string, base: URL | undefined): string | undefined {
  const written = trimControls(href);
  const spelled = written.replace(/[\t\n\r]/g, '');
  if (spelled === '' || spelled.startsWith('#') || NOT_LINKS.test(spelled)) return undefined;
  return absolute(written, base);
}
