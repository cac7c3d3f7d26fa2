/**
 * Word's field codes, as Word and RTF write them (`HYPERLINK "https://…" \l "part"`,
 * `INCLUDEPICTURE "https://…" \d`): the one place both readers (./office, ./rtf) learn
 * what a field would open or load. Only the field's instruction is read; nothing is
 * evaluated, no nested field is computed.
 */

/** What a field's instruction names: a link it opens, or a resource it would load when the document is opened. */
export interface FieldTarget {
  readonly url: string;
  /** True for INCLUDEPICTURE, INCLUDETEXT and LINK: the document fetches it itself, no click needed. */
  readonly loads: boolean;
  /** The field's name, upper case (`HYPERLINK`, `INCLUDEPICTURE`…). */
  readonly field: string;
}

/** Fields whose first argument is a resource loaded with the document. */
const LOADING_FIELDS = new Set(['INCLUDEPICTURE', 'INCLUDETEXT', 'LINK']);

/** The words of an instruction: quoted arguments unquoted (`\"` and `\\` inside kept as Word reads them), switches as written. */
function words(instruction: string): string[] {
  const found: string[] = [];
  let at = 0;
  while (at < instruction.length) {
    const char = instruction[at] ?? '';
    if (/\s/.test(char)) {
      at++;
      continue;
    }
    if (char === '"' || char === '\u201c' || char === '\u201d') {
      let word = '';
      at++;
      while (at < instruction.length && instruction[at] !== '"' && instruction[at] !== '\u201d' && instruction[at] !== '\u201c') {
        if (instruction[at] === '\\' && (instruction[at + 1] === '"' || instruction[at + 1] === '\\')) at++;
        word += instruction[at] ?? '';
        at++;
      }
      at++;
      found.push(word);
      continue;
    }
    let word = '';
    while (at < instruction.length && !/\s/.test(instruction[at] ?? '')) {
      word += instruction[at] ?? '';
      at++;
    }
    found.push(word);
  }
  return found;
}

/**
 * The target of a field instruction, or null when it names none (a page number, a
 * HYPERLINK to a bookmark of the document itself). `HYPERLINK "url" \l "mark"` gives
 * `url#mark`; Word's doubled backslashes in a path are read as one.
 */
export function fieldTarget(instruction: string): FieldTarget | null {
  const [name, ...rest] = words(instruction.trim());
  if (name === undefined) return null;
  const field = name.toUpperCase();
  if (field !== 'HYPERLINK' && !LOADING_FIELDS.has(field)) return null;
  let url: string | null = null;
  let mark: string | null = null;
  for (let i = 0; i < rest.length; i++) {
    const word = rest[i] ?? '';
    if (word.startsWith('\\') && word.length === 2) {
      // A switch; `\l`, `\o`, `\t` and LINK's `\f` take an argument.
      const argument = rest[i + 1];
      if (word.toLowerCase() === '\\l' && argument !== undefined) mark = argument;
      if (/^\\[lotf]$/i.test(word)) i++;
      continue;
    }
    // LINK's first argument is the application's name (Excel.Sheet.12), the second the file.
    if (field === 'LINK' && url === null && !word.includes(':') && !word.includes('\\') && !word.includes('/') && i === 0) continue;
    url ??= word;
  }
  if (url === null || url === '') return null;
  const target = mark === null ? url : `${url}#${mark}`;
  return { url: target, loads: LOADING_FIELDS.has(field), field };
}
