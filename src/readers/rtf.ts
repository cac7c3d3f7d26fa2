/**
 * RTF documents: their HYPERLINK fields (`{\field{\*\fldinst HYPERLINK "…"}{\fldrslt …}}`,
 * the instruction's and the shown text's `\'hh` and `\uN` escapes decoded, groups nested
 * as deep as ZIP_LIMITS.rtfDepth), the fields that load (INCLUDEPICTURE…), and the URLs
 * in their text. One pass over the characters, no tree: the tables, pictures, objects and
 * other destinations Word ignores are skipped, never decoded; `\binN` data is stepped over.
 * Embedded OLE objects (`\objdata`) are not read.
 */
import { extractUrls } from '../fang';

import { fieldTarget } from './fields';
import { ZIP_LIMITS } from './limits';
import { loadShown, type OfficeLink } from './office';

/** What an RTF document holds: its links in order, and whether its text was cut at ZIP_LIMITS.textCharacters. */
export interface RtfReading {
  readonly links: OfficeLink[];
  readonly textCut: boolean;
}

/** Where a group's text goes: the document's text, a field's instruction, or nowhere (a table, a picture). */
type Destination = 'text' | 'instruction' | 'skip';

interface Group {
  destination: Destination;
  /** Fallback characters after `\uN` (`\ucN`, 1 by default). */
  uc: number;
  /** This group is a `\field`'s: its end ends the field. */
  field: boolean;
  /** This group is a field's result: its text is what the field shows. */
  result: boolean;
}

/** Destinations whose text is not the document's (fonts, colours, styles, metadata, pictures, data). */
const SKIPPED = new Set([
  'fonttbl',
  'colortbl',
  'stylesheet',
  'info',
  'pict',
  'filetbl',
  'revtbl',
  'listtable',
  'listoverridetable',
  'rsidtbl',
  'objdata',
  'objclass',
  'objname',
  'themedata',
  'colorschememapping',
  'datastore',
  'latentstyles',
  'xmlnstbl',
  'generator',
  'userprops',
  'docvar',
  'nonshppict',
  'shppict',
  'picprop',
  'fldtype',
  'datafield',
  'bkmkstart',
  'bkmkend',
]);

/** Control words that end a line of text. */
const LINE_ENDS = new Set(['par', 'line', 'cell', 'row', 'sect', 'page', 'tab']);

interface OpenField {
  readonly depth: number;
  instruction: string;
  shown: string;
}

/** The decoder of `\'hh` bytes for the document's `\ansicpgN`, Windows-1252 when unknown. */
function codePage(page: number): TextDecoder {
  try {
    return new TextDecoder(`windows-${page}`);
  } catch {
    return new TextDecoder('windows-1252');
  }
}

/** Reads an RTF document's text (Latin-1 bytes, as RTF is 7-bit with escapes) for its fields and URLs. */
export function readRtf(rtf: string): RtfReading {
  const links: OfficeLink[] = [];
  const stack: Group[] = [{ destination: 'text', uc: 1, field: false, result: false }];
  const fields: OpenField[] = [];
  let overflow = 0;
  let text = '';
  let cut = false;
  let decoder = new TextDecoder('windows-1252');
  let bytes: number[] = [];
  let skipFallback = 0;
  let afterStar = false;

  const top = (): Group => stack[stack.length - 1] ?? { destination: 'skip', uc: 1, field: false, result: false };

  const emit = (chars: string): void => {
    const group = top();
    if (group.destination === 'skip' || chars === '') return;
    const field = fields.at(-1);
    if (group.destination === 'instruction') {
      if (field !== undefined && field.instruction.length < 10_000) field.instruction += chars;
      return;
    }
    if (group.result) for (const open of fields) if (open.shown.length < 1000) open.shown += chars;
    const room = ZIP_LIMITS.textCharacters - text.length;
    if (chars.length > room) cut = true;
    text += chars.slice(0, Math.max(0, room));
  };
  const flush = (): void => {
    if (bytes.length === 0) return;
    const decoded = decoder.decode(new Uint8Array(bytes));
    bytes = [];
    emit(decoded);
  };
  const closeField = (): void => {
    const field = fields.pop();
    if (field === undefined) return;
    const target = fieldTarget(field.instruction);
    if (target === null) return;
    const shown = field.shown.replace(/\s+/g, ' ').trim();
    links.push({ url: target.url, shown: target.loads ? loadShown(target.field) : shown === '' ? null : shown, loads: target.loads });
  };
  /** One character of the text, or one fallback character skipped after `\uN`. */
  const character = (char: string): void => {
    if (skipFallback > 0) {
      skipFallback--;
      return;
    }
    flush();
    emit(char);
  };

  let at = 0;
  while (at < rtf.length) {
    const char = rtf[at] ?? '';
    if (char === '{') {
      flush();
      if (overflow > 0 || stack.length >= ZIP_LIMITS.rtfDepth) overflow++;
      else stack.push({ ...top(), field: false });
      at++;
      continue;
    }
    if (char === '}') {
      flush();
      if (overflow > 0) overflow--;
      else if (stack.length > 1) {
        const closed = stack.pop();
        if (closed?.field === true && fields.at(-1)?.depth === stack.length + 1) closeField();
      }
      afterStar = false;
      at++;
      continue;
    }
    if (char === '\r' || char === '\n') {
      at++;
      continue;
    }
    if (char !== '\\') {
      character(char);
      at++;
      continue;
    }
    const next = rtf[at + 1] ?? '';
    if (next === "'") {
      const hex = rtf.slice(at + 2, at + 4);
      at += 4;
      if (skipFallback > 0) {
        skipFallback--;
        continue;
      }
      if (/^[0-9a-f]{2}$/i.test(hex)) bytes.push(Number.parseInt(hex, 16));
      continue;
    }
    if (!/[a-z]/i.test(next)) {
      // A control symbol: \\ \{ \} literal, \~ a space, \* marks an ignorable destination.
      at += 2;
      if (next === '*') afterStar = true;
      else if (next === '\\' || next === '{' || next === '}') character(next);
      else if (next === '~') character(' ');
      else if (next === '_') character('-');
      else if (next === '\n' || next === '\r') character('\n');
      continue;
    }
    const word = /^([a-z]{1,32})(-?\d{1,10})? ?/i.exec(rtf.slice(at + 1, at + 48));
    const name = word?.[1] ?? '';
    const parameter = word?.[2] === undefined ? null : Number(word[2]);
    at += 1 + (word?.[0].length ?? 1);
    const group = top();
    if (name === 'bin' && parameter !== null && parameter > 0) {
      at += parameter;
      continue;
    }
    if (name === 'u' && parameter !== null) {
      flush();
      emit(String.fromCharCode(parameter < 0 ? parameter + 65536 : parameter));
      skipFallback = group.uc;
      continue;
    }
    skipFallback = 0;
    if (name === 'uc' && parameter !== null) group.uc = Math.max(0, Math.min(parameter, 8));
    else if (name === 'ansicpg' && parameter !== null) decoder = codePage(parameter);
    else if (name === 'field' && overflow === 0) {
      group.field = true;
      fields.push({ depth: stack.length, instruction: '', shown: '' });
    } else if (name === 'fldinst') group.destination = group.destination === 'skip' ? 'skip' : 'instruction';
    else if (name === 'fldrslt') {
      group.destination = group.destination === 'skip' ? 'skip' : 'text';
      group.result = true;
    } else if (SKIPPED.has(name) || (afterStar && name !== 'fldinst')) group.destination = 'skip';
    else if (LINE_ENDS.has(name)) {
      flush();
      emit(name === 'tab' ? ' ' : '\n');
    }
    afterStar = false;
  }
  flush();
  while (fields.length > 0) closeField();
  for (const url of extractUrls(text)) links.push({ url, shown: null, loads: false });
  return { links, textCut: cut };
}
