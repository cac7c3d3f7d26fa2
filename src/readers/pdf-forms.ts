/**
 * Where a PDF's forms would send or fetch data: the targets of SubmitForm and ImportData
 * actions, which pdf.js reads but does not expose (./pdf reads everything else through
 * pdf.js). A credential-phishing PDF is often a form whose button posts to the attacker,
 * so these are read here, from the file's own syntax: each action's dictionary (in the
 * objects written plainly, and in compressed object streams inflated within PDF_LIMITS),
 * its `/F` file specification (a string, a `/FS /URL` dictionary, or a reference to one
 * object written plainly). A lexical reading of bounded windows: nothing is evaluated,
 * nothing fetched; a name written with `#xx` escapes is read as the name it spells.
 */
import { Unzlib } from 'fflate';

import { PDF_LIMITS } from './limits';

/** A value of the PDF syntax, as far as this reading needs: strings, dictionaries, references. */
type Value =
  | { readonly kind: 'string'; readonly text: string }
  | { readonly kind: 'dict'; readonly entries: ReadonlyMap<string, Value> }
  | { readonly kind: 'ref'; readonly id: string }
  | { readonly kind: 'other' };

const OTHER: Value = { kind: 'other' };
/** Farthest a dictionary's start is looked for before an action's name, and its end after. */
const WINDOW = 4096;
/** Deepest nesting of dictionaries and arrays followed. */
const DEPTH = 16;
const DELIMITERS = new Set(['(', ')', '<', '>', '[', ']', '{', '}', '/', '%']);

function isSpace(char: string | undefined): boolean {
  return char === ' ' || char === '\n' || char === '\r' || char === '\t' || char === '\f' || char === '\0';
}

/** Reads the PDF syntax of a window of text (latin1: one character a byte). */
class Syntax {
  constructor(
    private readonly text: string,
    public at: number,
    private readonly end: number,
  ) {}

  private skip(): void {
    while (this.at < this.end) {
      const char = this.text[this.at];
      if (isSpace(char)) this.at++;
      else if (char === '%') while (this.at < this.end && this.text[this.at] !== '\n' && this.text[this.at] !== '\r') this.at++;
      else return;
    }
  }

  private token(): string {
    const start = this.at;
    while (this.at < this.end && !isSpace(this.text[this.at]) && !DELIMITERS.has(this.text[this.at] ?? '')) this.at++;
    return this.text.slice(start, this.at);
  }

  name(): string {
    this.at++;
    return decodeName(this.token());
  }

  private literal(): string {
    let depth = 1;
    let out = '';
    for (this.at++; this.at < this.end; this.at++) {
      const char = this.text[this.at] ?? '';
      if (char === '\\') {
        const next = this.text[++this.at] ?? '';
        const octal = /^[0-7]{1,3}/.exec(this.text.slice(this.at, this.at + 3));
        if (octal !== null) {
          out += String.fromCharCode(parseInt(octal[0], 8) & 0xff);
          this.at += octal[0].length - 1;
        } else out += ({ n: '\n', r: '\r', t: '\t', b: '\b', f: '\f', '\r': '', '\n': '' } as Record<string, string>)[next] ?? next;
      } else if (char === '(') {
        depth++;
        out += char;
      } else if (char === ')') {
        if (--depth === 0) {
          this.at++;
          return out;
        }
        out += char;
      } else out += char;
    }
    return out;
  }

  private hex(): string {
    const close = this.text.indexOf('>', this.at);
    const stop = close === -1 || close > this.end ? this.end : close;
    const digits = this.text.slice(this.at + 1, stop).replace(/[^0-9a-f]/gi, '');
    this.at = stop + 1;
    let out = '';
    for (let i = 0; i < digits.length; i += 2) out += String.fromCharCode(parseInt(digits.slice(i, i + 2).padEnd(2, '0'), 16));
    return out;
  }

  /** The value here; a dictionary's entries, arrays skipped, `n g R` as a reference. */
  value(depth = 0): Value {
    this.skip();
    const char = this.text[this.at];
    if (char === undefined || this.at >= this.end || depth > DEPTH) return OTHER;
    if (char === '(') return { kind: 'string', text: pdfText(this.literal()) };
    if (char === '<' && this.text[this.at + 1] === '<') return this.dictionary(depth);
    if (char === '<') return { kind: 'string', text: pdfText(this.hex()) };
    if (char === '/') {
      this.name();
      return OTHER;
    }
    if (char === '[') {
      this.at++;
      this.skip();
      while (this.at < this.end && this.text[this.at] !== ']') {
        const before = this.at;
        this.value(depth + 1);
        if (this.at === before) this.at++;
        this.skip();
      }
      this.at++;
      return OTHER;
    }
    if (DELIMITERS.has(char)) {
      this.at++;
      return OTHER;
    }
    const first = this.token();
    const mark = this.at;
    this.skip();
    const second = this.token();
    this.skip();
    if (/^\d+$/.test(first) && /^\d+$/.test(second) && this.text[this.at] === 'R') {
      this.at++;
      return { kind: 'ref', id: `${first} ${second}` };
    }
    this.at = mark;
    return OTHER;
  }

  dictionary(depth: number): Value {
    this.at += 2;
    const entries = new Map<string, Value>();
    this.skip();
    while (this.at < this.end && this.text.slice(this.at, this.at + 2) !== '>>') {
      if (this.text[this.at] === '/') {
        const key = this.name();
        entries.set(key, this.value(depth + 1));
      } else this.at++;
      this.skip();
    }
    this.at += 2;
    return { kind: 'dict', entries };
  }
}

/** A name's `#xx` escapes read as the bytes they spell. */
function decodeName(raw: string): string {
  return raw.replace(/#([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** A PDF text string: UTF-16BE after its byte order mark, else one character a byte. */
function pdfText(bytes: string): string {
  if (!bytes.startsWith('\u00fe\u00ff')) return bytes;
  let out = '';
  for (let i = 2; i + 1 < bytes.length; i += 2) out += String.fromCharCode((bytes.charCodeAt(i) << 8) | bytes.charCodeAt(i + 1));
  return out;
}

/** Where the dictionary holding position `at` starts: the nearest `<<` not closed before `at`. */
function dictionaryStart(text: string, at: number): number {
  let depth = 0;
  for (let i = at - 1; i >= Math.max(0, at - WINDOW); i--) {
    if (text[i] === '>' && text[i - 1] === '>') {
      depth++;
      i--;
    } else if (text[i] === '<' && text[i - 1] === '<') {
      if (depth === 0) return i - 1;
      depth--;
      i--;
    }
  }
  return -1;
}

/** Object `id` (`"12 0"`) written plainly: its dictionary, or null. */
function plainObject(text: string, id: string): Value | null {
  const [number, generation] = id.split(' ');
  const match = new RegExp(`(?:^|[^0-9])${number ?? ''}\\s+${generation ?? ''}\\s+obj\\s*<<`).exec(text);
  if (match === null) return null;
  const start = match.index + match[0].length - 2;
  return new Syntax(text, start, Math.min(text.length, start + WINDOW)).value();
}

/** The URL of a file specification: a string, a dictionary's `/F` (or `/UF`), followed through one reference. */
function fileOf(text: string, spec: Value | undefined, follow = true): string | null {
  if (spec === undefined) return null;
  if (spec.kind === 'string') return spec.text.trim() === '' ? null : spec.text.trim();
  if (spec.kind === 'ref') return follow ? fileOf(text, plainObject(text, spec.id) ?? undefined, false) : null;
  if (spec.kind === 'dict') return fileOf(text, spec.entries.get('F') ?? spec.entries.get('UF'), follow);
  return null;
}

const ACTION_NAME = /\/((?:[a-z0-9]|#[0-9a-f]{2}){6,40})/gi;
const FORM_ACTIONS = new Set(['SubmitForm', 'ImportData']);

/** The targets of the form actions of one text (a file, or an object stream inflated). */
function targetsIn(text: string, whole: string, into: string[]): void {
  for (const match of text.matchAll(ACTION_NAME)) {
    if (into.length >= PDF_LIMITS.links) return;
    if (!FORM_ACTIONS.has(decodeName(match[1] ?? ''))) continue;
    const start = dictionaryStart(text, match.index);
    if (start === -1) continue;
    // The dictionary holding the name is the action (`/S /SubmitForm`): its `/F` is the target.
    const action = new Syntax(text, start, Math.min(text.length, start + 2 * WINDOW)).value();
    const url = action.kind === 'dict' ? fileOf(whole, action.entries.get('F')) : null;
    if (url !== null && !into.includes(url)) into.push(url);
  }
}

/** The compressed object streams' contents, inflated within PDF_LIMITS (a bomb stops at the bound). */
function objectStreams(text: string, bytes: Uint8Array): string[] {
  const out: string[] = [];
  let budget = PDF_LIMITS.inflatedBytes;
  for (const match of text.matchAll(/\/Type\s*\/ObjStm/g)) {
    if (out.length >= PDF_LIMITS.objectStreams || budget <= 0) break;
    const start = dictionaryStart(text, match.index);
    const stream = text.indexOf('stream', match.index);
    if (start === -1 || stream === -1 || !text.slice(start, stream).includes('/FlateDecode')) continue;
    const dataAt = stream + 6 + (text[stream + 6] === '\r' ? 2 : 1);
    const dataEnd = text.indexOf('endstream', dataAt);
    if (dataEnd === -1) continue;
    const chunks: string[] = [];
    let size = 0;
    const inflater = new Unzlib((chunk) => {
      size += chunk.length;
      if (size > budget) throw new RangeError('over the bound');
      chunks.push(new TextDecoder('latin1').decode(chunk));
    });
    try {
      inflater.push(bytes.subarray(dataAt, dataEnd), true);
    } catch {
      // A damaged or oversized stream: what was inflated before the stop is still read.
    }
    budget -= size;
    out.push(chunks.join(''));
  }
  return out;
}

/** The URLs SubmitForm and ImportData actions would send a form's data to or fetch data from, in order, once each. */
export function formTargets(bytes: Uint8Array): string[] {
  const text = new TextDecoder('latin1').decode(bytes);
  const into: string[] = [];
  targetsIn(text, text, into);
  for (const inflated of objectStreams(text, bytes)) targetsIn(inflated, text, into);
  return into;
}
