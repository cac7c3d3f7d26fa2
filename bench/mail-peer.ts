/**
 * Figure 9's peer: what a conformant reader of a mail's links does with the same bytes, the
 * least any such reader could do. postal-mime parses the MIME; parse5 builds the WHATWG
 * tree of the HTML body (the tree a browser builds); the links are the `href` of every
 * `<a>` and `<area>`, the `action` of every `<form>`, made absolute against the document's
 * first `<base href>` as a browser does, and kept when the URL parser accepts them. Images
 * and attachments are read on neither side (linksInMail is given no image decoder); the
 * text body, which Isolink also reads for URLs, is not read here: the peer is a floor.
 *
 * Bundled with linksInMail into one minified module (bench/mail.ts), so both sides run the
 * same postal-mime code.
 */
import { parse, type DefaultTreeAdapterTypes } from 'parse5';
import type PostalMime from 'postal-mime';
import type { PostalMimeOptions } from 'postal-mime';

type Node = DefaultTreeAdapterTypes.ChildNode | DefaultTreeAdapterTypes.Document;

const LINK_ATTRIBUTE: Readonly<Record<string, string>> = { a: 'href', area: 'href', form: 'action' };

function attribute(node: DefaultTreeAdapterTypes.Element, name: string): string | null {
  for (const attr of node.attrs) if (attr.name === name && attr.namespace === undefined) return attr.value;
  return null;
}

/** The document's elements in tree order (templates' contents included, as a link scanner would read them). */
function* elements(root: Node): Generator<DefaultTreeAdapterTypes.Element> {
  const stack: Node[] = [root];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    if ('tagName' in node) yield node;
    const children = 'childNodes' in node ? node.childNodes : [];
    const content = 'content' in node ? node.content.childNodes : [];
    for (let i = content.length - 1; i >= 0; i--) stack.push(content[i] as Node);
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i] as Node);
  }
}

/** The links of one HTML document, absolute and parsed. */
export function linksOfHtml(html: string): string[] {
  const document = parse(html);
  let base: string | null = null;
  for (const element of elements(document)) {
    if (element.tagName === 'base') {
      base = attribute(element, 'href');
      if (base !== null) break;
    }
  }
  let baseUrl: URL | undefined;
  try {
    baseUrl = base === null ? undefined : new URL(base.trim());
  } catch {
    baseUrl = undefined;
  }
  const links: string[] = [];
  for (const element of elements(document)) {
    const name = LINK_ATTRIBUTE[element.tagName];
    const value = name === undefined ? null : attribute(element, name);
    if (value === null) continue;
    try {
      links.push(new URL(value.trim(), baseUrl).href);
    } catch {
      // Not a URL a browser would follow: a conformant reader drops it.
    }
  }
  return links;
}

/** The peer: postal-mime, then each HTML part's tree and its links. */
export async function peerLinks(Parser: typeof PostalMime, bytes: Uint8Array, options: PostalMimeOptions): Promise<string[]> {
  const email = await Parser.parse(bytes, options);
  return email.html === undefined ? [] : linksOfHtml(email.html);
}
