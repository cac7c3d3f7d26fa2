/**
 * A small tokenizer for the XML of Office documents, made for hostile input: a document
 * type declaration is skipped whole and never processed, so no entity it declares is
 * expanded and nothing external is named; only the five predefined entities and numeric
 * character references are decoded, any other `&name;` is left as written. It makes no
 * tree: it calls back with start tags, end tags and text, in one pass, in linear time.
 */

/** The events of one pass: a start tag (`empty` when self-closed), an end tag, a run of text. */
export interface XmlHandler {
  start(name: string, attributes: ReadonlyMap<string, string>, empty: boolean): void;
  end(name: string): void;
  text(text: string): void;
}

const PREDEFINED: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Text with its references decoded: the predefined entities and `&#N;`/`&#xH;`; others kept as written. */
function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]{2,4});/gi, (whole, name: string) => {
    if (name.startsWith('#')) {
      const code = name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number.parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : '\uFFFD';
    }
    return PREDEFINED[name] ?? whole;
  });
}

const NAME_END = /[\s/>]/;

/** The attributes of a tag's inside (after its name): `name="value"` or `name='value'`, values decoded; one pass. */
function attributesOf(inside: string): Map<string, string> {
  const attributes = new Map<string, string>();
  let at = 0;
  while (at < inside.length) {
    const equals = inside.indexOf('=', at);
    if (equals === -1) break;
    const name = inside.slice(at, equals).trim();
    let start = equals + 1;
    while (start < inside.length && /\s/.test(inside[start] ?? '')) start++;
    const quote = inside[start];
    if (quote !== '"' && quote !== "'") break;
    const end = inside.indexOf(quote, start + 1);
    if (end === -1) break;
    if (name !== '' && !/[\s<>/]/.test(name) && !attributes.has(name)) attributes.set(name, decodeEntities(inside.slice(start + 1, end)));
    at = end + 1;
  }
  return attributes;
}

/** Where a tag that starts at `at` ends (its `>`), quotes respected; -1 when it does not. */
function tagEnd(xml: string, at: number): number {
  let quote = '';
  for (let i = at; i < xml.length; i++) {
    const char = xml[i];
    if (quote !== '') {
      if (char === quote) quote = '';
    } else if (char === '"' || char === "'") quote = char;
    else if (char === '>') return i;
  }
  return -1;
}

/** Where a document type declaration starting at `at` ends, its internal subset in brackets skipped; -1 when it does not. */
function doctypeEnd(xml: string, at: number): number {
  let depth = 0;
  let quote = '';
  for (let i = at; i < xml.length; i++) {
    const char = xml[i];
    if (quote !== '') {
      if (char === quote) quote = '';
    } else if (char === '"' || char === "'") quote = char;
    else if (char === '[') depth++;
    else if (char === ']') depth = Math.max(0, depth - 1);
    else if (char === '>' && depth === 0) return i;
  }
  return -1;
}

/** The text between `at` and the next `<`, given decoded; the index of that `<`. */
function readText(xml: string, at: number, handler: XmlHandler): number {
  const next = xml.indexOf('<', at);
  const stop = next === -1 ? xml.length : next;
  if (stop > at) handler.text(decodeEntities(xml.slice(at, stop)));
  return stop;
}

/** After a `<!` or `<?` construct at `at`: comments, CDATA (its text given), declarations and processing instructions skipped. */
function readSpecial(xml: string, at: number, handler: XmlHandler): number {
  if (xml.startsWith('<!--', at)) {
    const close = xml.indexOf('-->', at + 4);
    return close === -1 ? xml.length : close + 3;
  }
  if (xml.startsWith('<![CDATA[', at)) {
    const close = xml.indexOf(']]>', at + 9);
    handler.text(xml.slice(at + 9, close === -1 ? xml.length : close));
    return close === -1 ? xml.length : close + 3;
  }
  if (xml.startsWith('<?', at)) {
    const close = xml.indexOf('?>', at + 2);
    return close === -1 ? xml.length : close + 2;
  }
  // <!DOCTYPE …> and any other declaration: skipped, never processed.
  const close = doctypeEnd(xml, at);
  return close === -1 ? xml.length : close + 1;
}

/** One pass over an XML text, calling `handler` in document order; malformed markup ends the pass quietly. */
export function tokenizeXml(xml: string, handler: XmlHandler): void {
  let at = 0;
  while (at < xml.length) {
    if (xml[at] !== '<') {
      at = readText(xml, at, handler);
      continue;
    }
    const next = xml[at + 1];
    if (next === '!' || next === '?') {
      at = readSpecial(xml, at, handler);
      continue;
    }
    const close = tagEnd(xml, at + 1);
    if (close === -1) return;
    const closing = next === '/';
    const inside = xml.slice(at + (closing ? 2 : 1), close);
    const nameLength = inside.search(NAME_END);
    const name = nameLength === -1 ? inside : inside.slice(0, nameLength);
    if (closing) handler.end(name.trim());
    else if (name !== '') {
      const empty = inside.endsWith('/');
      handler.start(name, attributesOf(inside.slice(name.length)), empty);
      if (empty) handler.end(name);
    }
    at = close + 1;
  }
}
