/**
 * Office Open XML documents (Word .docx/.docm, Excel .xlsx/.xlsm, PowerPoint .pptx/.pptm
 * and their templates): a zip holding `[Content_Types].xml`, told by content, not name.
 * Their links are where Word, Excel and PowerPoint keep them:
 *
 * - relationships (`*.rels`) with `TargetMode="External"`: a hyperlink's target, with the
 *   text it is anchored on in its part; and what the document would load when opened, no
 *   click needed (a remote `attachedTemplate` in settings.xml.rels, an OLE object, a frame,
 *   an image), listed with the shown text `the document would load: <relationship type>`;
 * - field codes: `HYPERLINK "…"` in `w:fldSimple` and in `w:instrText`, even split across
 *   runs, and `INCLUDEPICTURE`/`INCLUDETEXT`/`LINK`, which load;
 * - Excel's `HYPERLINK("…")` formulas, and URLs in the text of every part.
 *
 * The XML is read by ./xml: no document type processed, no entity expanded. Nothing is
 * rendered, no macro (a .docm's vbaProject.bin) is read or run.
 */
import { extractUrls } from '../fang';

import { fieldTarget } from './fields';
import { ZIP_LIMITS } from './limits';
import { tokenizeXml } from './xml';

/** A link of the document: a target, the text it was anchored on, and whether the document loads it by itself. */
export interface OfficeLink {
  readonly url: string;
  readonly shown: string | null;
  /** Loaded when the document is opened (a template, an OLE object, a picture field): counted as remote content too. */
  readonly loads: boolean;
}

/** A part of the document, expanded: its name in the archive and its bytes. */
export interface OfficePart {
  readonly name: string;
  readonly bytes: Uint8Array;
}

/** What a document holds: its links in the order met, whether a part's text was cut at ZIP_LIMITS.textCharacters. */
export interface OfficeReading {
  readonly links: OfficeLink[];
  textCut: boolean;
}

/** Which application's document it is, by its main part (a macro-enabled one is its application's too). */
export type OfficeKind = 'docx' | 'xlsx' | 'pptx';

/** The document's kind from its parts' names; null for a package of none of the three. */
export function officeKindOf(names: readonly string[]): OfficeKind | null {
  if (names.includes('word/document.xml') || names.some((name) => name.startsWith('word/'))) return 'docx';
  if (names.includes('xl/workbook.xml') || names.some((name) => name.startsWith('xl/'))) return 'xlsx';
  if (names.includes('ppt/presentation.xml') || names.some((name) => name.startsWith('ppt/'))) return 'pptx';
  return null;
}

/**
 * What an OLE compound file that is no message holds, by its streams' names (UTF-16 in its
 * directory): an Office document encrypted with a password (`EncryptedPackage`, a .docx
 * inside), a legacy binary Word, Excel or PowerPoint document, or neither (null). Neither
 * is read.
 */
export function compoundDocument(bytes: Uint8Array): 'encrypted' | 'legacy' | null {
  const names = new TextDecoder('utf-16le').decode(bytes.subarray(0, bytes.length - (bytes.length % 2)));
  if (names.includes('EncryptedPackage')) return 'encrypted';
  return ['WordDocument', 'Workbook', 'PowerPoint Document'].some((stream) => names.includes(stream)) ? 'legacy' : null;
}

/** The shown text of a load: what it is, in the relationship type's own word. */
export function loadShown(what: string): string {
  return `the document would load: ${what}`;
}

/** An external relationship: its type's last word (`hyperlink`, `attachedTemplate`, `oleObject`…) and target. */
interface Relationship {
  readonly type: string;
  readonly target: string;
}

/** The relationship part that describes `part`: `word/document.xml` → `word/_rels/document.xml.rels`. */
function relationshipsPartOf(part: string): string {
  const slash = part.lastIndexOf('/');
  return `${part.slice(0, slash + 1)}_rels/${part.slice(slash + 1)}.rels`;
}

/** Local name of an XML name: `w:hyperlink` → `hyperlink`. */
function local(name: string): string {
  return name.slice(name.indexOf(':') + 1);
}

/** An attribute by its local name, whatever its prefix (`r:id`, `w:instr`). */
function attribute(attributes: ReadonlyMap<string, string>, name: string): string | undefined {
  for (const [key, value] of attributes) if (local(key) === name) return value;
  return undefined;
}

const DECODER = new TextDecoder('utf-8');

/** A part's text: UTF-8 (or UTF-16 by its byte order mark), bounded to what is worth reading. */
function textOf(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  return DECODER.decode(bytes);
}

/** The external relationships of a `.rels` part, by id, in order. */
function relationshipsOf(xml: string): Map<string, Relationship> {
  const found = new Map<string, Relationship>();
  tokenizeXml(xml, {
    start(name, attributes) {
      if (local(name) !== 'Relationship' || attributes.get('TargetMode')?.toLowerCase() !== 'external') return;
      const target = attributes.get('Target')?.trim() ?? '';
      if (target === '') return;
      const type = (attributes.get('Type') ?? '').split('/').pop() ?? '';
      found.set(attributes.get('Id') ?? `#${found.size}`, { type: type.replace(/[^\w.-]/g, '').slice(0, 40) || 'resource', target });
    },
    end() {},
    text() {},
  });
  return found;
}

/** A field being read: its instruction so far, then the text it shows. */
interface OpenField {
  instruction: string;
  shown: string;
  inResult: boolean;
  simple: boolean;
}

/** Elements whose end ends a line of text: paragraphs, cells, shared strings, breaks. */
const BREAKS = new Set(['p', 'br', 'tab', 'cr', 'si', 'c', 'is', 'row', 'tc']);

/** Excel's HYPERLINK("url", "text") formula: its first argument when a string literal. */
const HYPERLINK_FORMULA = /HYPERLINK\(\s*"((?:[^"]|"")*)"(?:\s*[,;]\s*"((?:[^"]|"")*)")?/gi;

/** Reads one XML part: its fields, its hyperlinks' anchored text by relationship id, its formulas, its text. */
class PartReader {
  /** The part's links in document order: a field's or a formula's, or a relationship id where a hyperlink names one. */
  readonly links: (OfficeLink | string)[] = [];
  readonly anchored = new Map<string, string>();
  readonly #fields: OpenField[] = [];
  #text = '';
  #cut = false;
  /** The relationship ids of the hyperlinks open around the text (w:hyperlink, a:hlinkClick's run). */
  readonly #anchors: (string | null)[] = [];
  #runAnchor: string | null = null;
  #inText = 0;
  #inFormula = false;
  #formula = '';

  get cut(): boolean {
    return this.#cut;
  }

  get collected(): string {
    return this.#text;
  }

  #addText(text: string): void {
    const room = ZIP_LIMITS.textCharacters - this.#text.length;
    if (text.length > room) this.#cut = true;
    this.#text += text.slice(0, Math.max(0, room));
  }

  #closeField(): void {
    const field = this.#fields.pop();
    if (field === undefined) return;
    const target = fieldTarget(field.instruction);
    if (target === null) return;
    const shown = field.shown.replace(/\s+/g, ' ').trim();
    this.links.push({ url: target.url, shown: target.loads ? loadShown(target.field) : shown === '' ? null : shown, loads: target.loads });
  }

  start(name: string, attributes: ReadonlyMap<string, string>): void {
    const tag = local(name);
    if (tag === 'fldSimple') this.#fields.push({ instruction: attribute(attributes, 'instr') ?? '', shown: '', inResult: true, simple: true });
    else if (tag === 'fldChar') {
      const type = attribute(attributes, 'fldCharType');
      const top = this.#fields.at(-1);
      if (type === 'begin') this.#fields.push({ instruction: '', shown: '', inResult: false, simple: false });
      else if (type === 'separate' && top !== undefined && !top.simple) top.inResult = true;
      else if (type === 'end' && top !== undefined && !top.simple) this.#closeField();
    } else if (tag === 'hyperlink') {
      const id = attribute(attributes, 'id') ?? null;
      this.#anchors.push(id);
      if (id !== null) this.links.push(id);
      // Excel writes its anchored text as an attribute.
      const display = attribute(attributes, 'display');
      if (id !== null && display !== undefined) this.#anchor(id, display);
    } else if (tag === 'r') this.#runAnchor = null;
    else if (tag === 'hlinkClick' || tag === 'hlinkHover') {
      this.#runAnchor = attribute(attributes, 'id') ?? null;
      if (this.#runAnchor !== null) this.links.push(this.#runAnchor);
    } else if (tag === 't' || tag === 'instrText') this.#inText++;
    else if (tag === 'f') {
      this.#inFormula = true;
      this.#formula = '';
    }
  }

  #anchor(id: string, text: string): void {
    const before = this.anchored.get(id) ?? '';
    if (before.length < 1000) this.anchored.set(id, before + text);
  }

  end(name: string): void {
    const tag = local(name);
    if (tag === 'fldSimple' && this.#fields.at(-1)?.simple === true) this.#closeField();
    else if (tag === 'hyperlink') this.#anchors.pop();
    else if (tag === 't' || tag === 'instrText') this.#inText = Math.max(0, this.#inText - 1);
    else if (tag === 'f') {
      this.#inFormula = false;
      for (const match of this.#formula.matchAll(HYPERLINK_FORMULA)) {
        const url = (match[1] ?? '').replaceAll('""', '"').trim();
        if (url !== '') this.links.push({ url, shown: match[2] === undefined ? null : match[2].replaceAll('""', '"'), loads: false });
      }
    }
    if (BREAKS.has(tag)) this.#addText('\n');
  }

  text(text: string, inInstruction = false): void {
    if (this.#inFormula) {
      if (this.#formula.length < 10_000) this.#formula += text;
      return;
    }
    if (this.#inText === 0) return;
    const field = this.#fields.at(-1);
    if (inInstruction) {
      if (field !== undefined && !field.inResult && field.instruction.length < 10_000) field.instruction += text;
      return;
    }
    for (const open of this.#fields) if (open.inResult && open.shown.length < 1000) open.shown += text;
    const anchor = this.#anchors.at(-1) ?? this.#runAnchor;
    if (anchor !== null) this.#anchor(anchor, text);
    this.#addText(text);
  }
}

/** Reads a part, with instruction text (`w:instrText`) told from shown text (`w:t`). */
function readPart(xml: string): PartReader {
  const reader = new PartReader();
  let inInstruction = 0;
  tokenizeXml(xml, {
    start(name, attributes, empty) {
      if (local(name) === 'instrText' && !empty) inInstruction++;
      reader.start(name, attributes);
    },
    end(name) {
      if (local(name) === 'instrText') inInstruction = Math.max(0, inInstruction - 1);
      reader.end(name);
    },
    text(text) {
      reader.text(text, inInstruction > 0);
    },
  });
  return reader;
}

/** A relationship's link: a hyperlink with the text anchored on it, anything else as what the document would load. */
function relationshipLink(id: string, { type, target }: Relationship, anchored: ReadonlyMap<string, string>): OfficeLink {
  if (type.toLowerCase() !== 'hyperlink') return { url: target, shown: loadShown(type), loads: true };
  const shown = anchored.get(id)?.replace(/\s+/g, ' ').trim() ?? '';
  return { url: target, shown: shown === '' ? null : shown, loads: false };
}

/**
 * The links of one part in the order a reader meets them: its fields, formulas and
 * hyperlinks in document order, then the URLs of its text, then the external
 * relationships it did not name (a template, an OLE object).
 */
function partLinks(reader: PartReader, relationships: ReadonlyMap<string, Relationship>): OfficeLink[] {
  const links: OfficeLink[] = [];
  const named = new Set<string>();
  for (const link of reader.links) {
    if (typeof link !== 'string') links.push(link);
    else if (!named.has(link)) {
      named.add(link);
      const relationship = relationships.get(link);
      if (relationship !== undefined) links.push(relationshipLink(link, relationship, reader.anchored));
    }
  }
  for (const url of extractUrls(reader.collected)) links.push({ url, shown: null, loads: false });
  for (const [id, relationship] of relationships) if (!named.has(id)) links.push(relationshipLink(id, relationship, reader.anchored));
  return links;
}

/**
 * The links of an Office document from its expanded parts (`.xml` and `.rels`): each XML
 * part's, with its relationships' external targets (./partLinks); then those of the
 * relationship parts of no part read (the package's own). In the order met.
 */
export function readOffice(parts: readonly OfficePart[]): OfficeReading {
  const reading: OfficeReading = { links: [], textCut: false };
  const byName = new Map(parts.map((part) => [part.name, part]));
  const done = new Set<string>();
  for (const part of parts) {
    if (!part.name.toLowerCase().endsWith('.xml') || part.name === '[Content_Types].xml') continue;
    const reader = readPart(textOf(part.bytes));
    if (reader.cut) reading.textCut = true;
    const relsName = relationshipsPartOf(part.name);
    const rels = byName.get(relsName);
    if (rels !== undefined) done.add(relsName);
    reading.links.push(...partLinks(reader, rels === undefined ? new Map() : relationshipsOf(textOf(rels.bytes))));
  }
  for (const part of parts) {
    if (!part.name.toLowerCase().endsWith('.rels') || done.has(part.name)) continue;
    // A relationship part of a part not read (or of the package): its targets, without anchored text.
    for (const [id, relationship] of relationshipsOf(textOf(part.bytes))) reading.links.push(relationshipLink(id, relationship, new Map()));
  }
  return reading;
}
