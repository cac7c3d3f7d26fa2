/**
 * Removes a secret from text in every encoding it may travel in: as it is, percent-encoded
 * (either case, any characters), JSON-escaped (`\/`, `\u002f`, escapes of escapes),
 * HTML-entity encoded (decimal, hex, named) and base64 (standard or URL-safe, at any
 * alignment inside a longer encoded value), and those nested up to three deep.
 *
 * The text is decoded layer by layer into views that remember, for every character, where
 * it came from in the original; a secret found in any view is redacted in the original.
 * Linear in the text for each layer.
 */

export const REDACTED = '[redacted]';

/** How many decoding layers are searched below the text itself (percent of JSON of HTML, ...). */
const MAX_LAYERS = 3;

/** Shortest base64 run searched for: shorter ones would hide ordinary text by chance. */
const MIN_BASE64_CORE = 8;

/**
 * A decoded view of the original text: `from[i]` is where view character i starts in the
 * original; `from[text.length]` is where the view ends. Never longer than the text below it.
 */
interface View {
  readonly text: string;
  readonly from: Int32Array;
}

/** Named character references a secret's characters may be written as. */
const NAMED: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  sol: '/',
  bsol: '\\',
  colon: ':',
  semi: ';',
  equals: '=',
  plus: '+',
  period: '.',
  comma: ',',
  lowbar: '_',
  hyphen: '-',
  dash: '-',
  num: '#',
  percnt: '%',
  excl: '!',
  quest: '?',
  commat: '@',
  dollar: '$',
  ast: '*',
  tilde: '~',
  vert: '|',
  lpar: '(',
  rpar: ')',
  lsqb: '[',
  rsqb: ']',
  lcub: '{',
  rcub: '}',
  Hat: '^',
  grave: '`',
  nbsp: '\u00a0',
};

const JSON_ESCAPES: Readonly<Record<string, string>> = { '/': '/', '\\': '\\', '"': '"', "'": "'", b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

const HEX = /^[\da-f]+$/i;

/**
 * The escape families, decoded one at a time: a secret may itself hold what looks like
 * another family's escape (`%aa` inside a token written with HTML entities).
 */
const FAMILIES = [
  { start: '%', pattern: /%/g },
  { start: '\\', pattern: /\\/g },
  { start: '&', pattern: /&/g },
] as const;

/** One escape at `i` of `text`: the characters it stands for and its length, or undefined. */
function escapeAt(text: string, i: number): readonly [string, number] | undefined {
  const c = text.charAt(i);
  if (c === '%') {
    const hex = text.slice(i + 1, i + 3);
    return hex.length === 2 && HEX.test(hex) ? [String.fromCharCode(parseInt(hex, 16)), 3] : undefined;
  }
  if (c === '\\') {
    const next = text.charAt(i + 1);
    if (next === 'u') {
      const hex = text.slice(i + 2, i + 6);
      return hex.length === 4 && HEX.test(hex) ? [String.fromCharCode(parseInt(hex, 16)), 6] : undefined;
    }
    if (next === 'x') {
      const hex = text.slice(i + 2, i + 4);
      return hex.length === 2 && HEX.test(hex) ? [String.fromCharCode(parseInt(hex, 16)), 4] : undefined;
    }
    const plain = JSON_ESCAPES[next];
    return plain === undefined ? undefined : [plain, 2];
  }
  if (c === '&') {
    // &#47; &#x2f; (the ';' may be missing), &sol;
    const semi = text.indexOf(';', i + 1);
    const end = semi === -1 || semi - i > 12 ? -1 : semi;
    if (text.charAt(i + 1) === '#') {
      const hexForm = text.charAt(i + 2) === 'x' || text.charAt(i + 2) === 'X';
      let j = i + (hexForm ? 3 : 2);
      const digitsStart = j;
      while (j < text.length && j - digitsStart < 8 && (hexForm ? HEX.test(text.charAt(j)) : text.charAt(j) >= '0' && text.charAt(j) <= '9')) j++;
      if (j === digitsStart) return undefined;
      const code = parseInt(text.slice(digitsStart, j), hexForm ? 16 : 10);
      if (code > 0x10ffff) return undefined;
      return [String.fromCodePoint(code), j - i + (text.charAt(j) === ';' ? 1 : 0)];
    }
    if (end === -1) return undefined;
    const named = NAMED[text.slice(i + 1, end)];
    return named === undefined ? undefined : [named, end - i + 1];
  }
  return undefined;
}

/** The view with one family's escapes decoded, or undefined when the text holds none. */
function decodeLayer(view: View, family: (typeof FAMILIES)[number]): View | undefined {
  const { text, from } = view;
  const ESCAPE_START = family.pattern;
  const map = new Int32Array(text.length + 1);
  let out = '';
  let length = 0;
  let plain = 0;
  ESCAPE_START.lastIndex = 0;
  for (let found = ESCAPE_START.exec(text); found !== null; found = ESCAPE_START.exec(text)) {
    const at = found.index;
    if (at < plain) continue;
    const escape = escapeAt(text, at);
    if (escape === undefined) continue;
    // The plain stretch before the escape keeps its own positions.
    out += text.slice(plain, at);
    map.set(from.subarray(plain, at), length);
    length += at - plain;
    const [chars, size] = escape;
    out += chars;
    map.fill(from[at] ?? 0, length, length + chars.length);
    length += chars.length;
    plain = at + size;
    ESCAPE_START.lastIndex = plain;
  }
  if (plain === 0) return undefined;
  out += text.slice(plain);
  map.set(from.subarray(plain, text.length + 1), length);
  return { text: out, from: map.subarray(0, out.length + 1) };
}

function utf8Bytes(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

/** The secret's UTF-8 bytes read one byte per character: how percent-decoding shows a non-ASCII secret. */
function asLatin1(text: string): string {
  return String.fromCharCode(...utf8Bytes(text));
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/**
 * The runs of base64 that the secret always produces, whatever came before it in the
 * encoded value (3 alignments) and whatever follows: only characters made of the secret's
 * bits alone. Standard and URL-safe alphabets.
 */
function base64Cores(secret: string): string[] {
  const bytes = utf8Bytes(secret);
  const cores: string[] = [];
  for (let shift = 0; shift < 3; shift++) {
    const padded = new Uint8Array(shift + bytes.length);
    padded.set(bytes, shift);
    const encoded = toBase64(padded);
    const start = Math.ceil((shift * 8) / 6);
    const end = Math.floor(((shift + bytes.length) * 8) / 6);
    const core = encoded.slice(start, end);
    if (core.length >= MIN_BASE64_CORE) cores.push(core, core.replaceAll('+', '-').replaceAll('/', '_'));
  }
  return cores;
}

/**
 * The forms searched for in every view. The common encodings are searched as they are too:
 * text right before one (a '%' before `%2B…`) can make a decoded view swallow its first
 * characters.
 */
function formsOf(secret: string): string[] {
  const percent = encodeURIComponent(secret);
  const json = JSON.stringify(secret).slice(1, -1);
  return [
    secret,
    asLatin1(secret),
    percent,
    percent.replace(/%[\dA-F]{2}/g, (escape) => escape.toLowerCase()),
    json,
    JSON.stringify(json).slice(1, -1),
    ...base64Cores(secret),
  ];
}

/** Every [start, end) of the original text where one of `needles` appears in `view`. */
function spansIn(view: View, needles: readonly string[], spans: [number, number][]): void {
  for (const needle of needles) {
    if (needle.length === 0) continue;
    for (let at = view.text.indexOf(needle); at !== -1; at = view.text.indexOf(needle, at + needle.length)) {
      spans.push([view.from[at] ?? 0, view.from[at + needle.length] ?? 0]);
    }
  }
}

/** `text` up to `until`, with every span replaced by one REDACTED (overlapping spans merged). */
function cut(text: string, spans: [number, number][], until: number): string {
  spans.sort((a, b) => a[0] - b[0]);
  let out = '';
  let pos = 0;
  for (const [start, end] of spans) {
    if (start >= until) break;
    if (end <= pos) continue;
    out += text.slice(pos, Math.max(pos, start));
    if (start >= pos) out += REDACTED;
    pos = end;
  }
  return pos >= until ? out : out + text.slice(pos, until);
}

/**
 * `text` without any of `secrets`, in any encoding above. With `until`, only the text
 * before that index is returned (a secret that starts before it is redacted whole):
 * callers that search a window of a longer text keep what lies well inside the window,
 * so that no secret cut by the window's end can show.
 */
export function redactSecrets(text: string, secrets: readonly string[], until = text.length): string {
  const needles = [...new Set(secrets.filter((secret) => secret.length > 0).flatMap(formsOf))];
  if (needles.length === 0) return text.slice(0, until);
  const spans: [number, number][] = [];
  const from = new Int32Array(text.length + 1);
  for (let i = 0; i <= text.length; i++) from[i] = i;
  // Breadth first: the text, then each family decoded, then each again, MAX_LAYERS deep.
  let level: View[] = [{ text, from }];
  for (let layer = 0; level.length > 0; layer++) {
    for (const view of level) spansIn(view, needles, spans);
    if (layer === MAX_LAYERS) break;
    level = level.flatMap((view) => FAMILIES.flatMap((family) => decodeLayer(view, family) ?? []));
  }
  return cut(text, spans, until);
}
