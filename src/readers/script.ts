/**
 * The URLs a script names, read as text and never run. Phishing pages attached to a mail
 * (an HTML "invoice", an SVG "voice message") send the victim on from a script, and hide
 * the address from a filter's eye: split into pieces joined with `+`, written with escapes
 * (`\x68`, `\u{68}`), or base64 handed to `atob`. One pass over the source, character by
 * character, tells string literals from code (comments and regular expression literals
 * skipped), decodes their escapes, joins literals a `+` joins, and decodes `atob(…)` of
 * literals and literals that are base64 of a URL; the URLs in what comes out are the
 * script's links. Nothing is evaluated: a name, a call or an expression inside a template
 * is not followed, only literals are read. Every step is bounded (./limits
 * SCRIPT_LIMITS) and the pass is linear in the source.
 */
import { extractUrls } from '../fang';

import { SCRIPT_LIMITS } from './limits';

/** What is left to read of one document's scripts; shared by all its scripts and handlers. */
export interface ScriptBudget {
  /** Characters of script still to read. */
  characters: number;
  /** String literals still to read. */
  literals: number;
  /** Set when a script was cut short by either bound. */
  cut: boolean;
}

/** A fresh budget: SCRIPT_LIMITS for one document. */
export function scriptBudget(): ScriptBudget {
  return { characters: SCRIPT_LIMITS.characters, literals: SCRIPT_LIMITS.literals, cut: false };
}

/** Character codes the scanner looks for. */
const Char = {
  Tab: 9,
  LineFeed: 10,
  CarriageReturn: 13,
  Space: 32,
  DoubleQuote: 34,
  Dollar: 36,
  SingleQuote: 39,
  OpenParen: 40,
  CloseParen: 41,
  Star: 42,
  Plus: 43,
  Slash: 47,
  OpenBracket: 91,
  Backslash: 92,
  CloseBracket: 93,
  Backtick: 96,
  OpenBrace: 123,
  CloseBrace: 125,
} as const;

function isIdentifierPart(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === Char.Dollar || code === 95 || code > 127;
}

function isSpace(code: number): boolean {
  return code === Char.Space || code === Char.Tab || code === Char.LineFeed || code === Char.CarriageReturn || code === 11 || code === 12 || code === 0xa0;
}

function hexValue(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  if (code >= 65 && code <= 70) return code - 55;
  if (code >= 97 && code <= 102) return code - 87;
  return -1;
}

/** After these (or at the start), a `/` opens a regular expression literal; after anything else it divides. */
const BEFORE_REGEXP = new Set('(,=:[!&|?{};+-*%<>~^'.split('').map((char) => char.charCodeAt(0)));

/** The simple escapes of a string literal (ECMAScript SingleEscapeCharacter). */
const SIMPLE_ESCAPES: Readonly<Record<string, string>> = { n: '\n', r: '\r', t: '\t', b: '\b', f: '\f', v: '\v', '0': '\0' };

/** Base64 as `atob` reads it: the alphabet, white space, up to two `=` at the end. */
const BASE64 = /^[\d+/a-z]+={0,2}$/i;

/** Text from base64 (UTF-8, as a page would decode a URL); null when it is not base64. */
function fromBase64(value: string): string | null {
  const compact = value.replace(/[\t\n\f\r ]+/g, '');
  if (compact.length === 0 || compact.length > SCRIPT_LIMITS.valueLength || !BASE64.test(compact)) return null;
  let binary: string;
  try {
    binary = atob(compact);
  } catch {
    return null;
  }
  return new TextDecoder().decode(Uint8Array.from(binary, (char) => char.charCodeAt(0)));
}

/** An `atob(` being read: what the expression before it had joined, to continue after its `)`. */
interface AtobFrame {
  readonly depth: number;
  readonly chain: string | null;
  readonly joining: boolean;
}

/** One pass over a script: values (literals as joined and decoded) collected for their URLs. */
class Scanner {
  readonly values: string[] = [];
  readonly #source: string;
  readonly #budget: ScriptBudget;
  #at = 0;
  /** The literals joined so far by `+`, or null. */
  #chain: string | null = null;
  /** A `+` followed the chain: the next literal joins it. */
  #joining = false;
  /** The last character of code that was not white space (decides what a `/` is). */
  #last = 0;
  /** The identifier just read, when it was `atob` (the next `(` opens a decoding). */
  #atob = false;
  #parens = 0;
  readonly #atobs: AtobFrame[] = [];
  /** Brace depths at which a template's `${` opened: the `}` back at that depth resumes the template. */
  readonly #templates: number[] = [];
  #braces = 0;

  constructor(source: string, budget: ScriptBudget) {
    this.#source = source;
    this.#budget = budget;
  }

  run(): void {
    const source = this.#source;
    while (this.#at < source.length && !this.#budget.cut) {
      const code = source.charCodeAt(this.#at);
      if (isSpace(code)) {
        this.#at++;
        continue;
      }
      if (code === Char.SingleQuote || code === Char.DoubleQuote) {
        this.#at++;
        this.#literal(this.#string(code));
      } else if (code === Char.Backtick) {
        this.#at++;
        this.#template();
      } else if (code === Char.Slash) this.#slash();
      else if (isIdentifierPart(code)) this.#identifier();
      else this.#punctuator(code);
    }
    this.#end();
  }

  /** The chain so far is a value of its own; the next literal starts another. */
  #end(): void {
    if (this.#chain !== null) this.values.push(this.#chain);
    this.#chain = null;
    this.#joining = false;
  }

  #literal(value: string): void {
    this.#budget.literals--;
    if (this.#budget.literals < 0) {
      this.#budget.cut = true;
      return;
    }
    if (this.#chain !== null && this.#joining) {
      const room = SCRIPT_LIMITS.valueLength - this.#chain.length;
      this.#chain += room >= value.length ? value : value.slice(0, Math.max(0, room));
    } else {
      this.#end();
      this.#chain = value.slice(0, SCRIPT_LIMITS.valueLength);
    }
    this.#joining = false;
    this.#atob = false;
    this.#last = Char.DoubleQuote;
  }

  #identifier(): void {
    const source = this.#source;
    const start = this.#at;
    while (this.#at < source.length && isIdentifierPart(source.charCodeAt(this.#at))) this.#at++;
    this.#atob = this.#at - start === 4 && source.startsWith('atob', start);
    // `'https://' + atob(…)`: the chain waits for the call; any other name ends it.
    if (!this.#atob) this.#end();
    this.#last = 97;
  }

  #punctuator(code: number): void {
    this.#at++;
    const atob = this.#atob;
    this.#atob = false;
    this.#last = code;
    if (code === Char.Plus) {
      if (this.#chain !== null && !this.#joining) this.#joining = true;
      else this.#end();
      return;
    }
    if (code === Char.OpenParen) {
      this.#parens++;
      if (atob && this.#atobs.length < SCRIPT_LIMITS.depth) {
        this.#atobs.push({ depth: this.#parens, chain: this.#chain, joining: this.#joining });
        this.#chain = null;
        this.#joining = false;
        return;
      }
    } else if (code === Char.CloseParen) {
      const frame = this.#atobs.at(-1);
      this.#parens--;
      if (frame !== undefined && frame.depth === this.#parens + 1) {
        this.#atobs.pop();
        const encoded = this.#joining ? null : this.#chain;
        this.#end();
        this.#chain = frame.chain;
        this.#joining = frame.joining;
        const decoded = encoded === null ? null : fromBase64(encoded);
        if (decoded !== null) this.#literal(decoded);
        else this.#end();
        return;
      }
    } else if (code === Char.OpenBrace) this.#braces++;
    else if (code === Char.CloseBrace) {
      if (this.#templates.at(-1) === this.#braces) {
        this.#templates.pop();
        this.#braces--;
        this.#end();
        this.#template();
        return;
      }
      this.#braces--;
    }
    this.#end();
  }

  /** A `/`: a comment, a regular expression literal (skipped), or a division. */
  #slash(): void {
    const source = this.#source;
    const next = source.charCodeAt(this.#at + 1);
    if (next === Char.Slash) {
      const end = source.indexOf('\n', this.#at);
      this.#at = end === -1 ? source.length : end;
      return;
    }
    if (next === Char.Star) {
      const end = source.indexOf('*/', this.#at + 2);
      this.#at = end === -1 ? source.length : end + 2;
      return;
    }
    if (this.#last !== 0 && !BEFORE_REGEXP.has(this.#last)) {
      this.#punctuator(Char.Slash);
      return;
    }
    // A regular expression literal: to its closing `/` outside a class, or the line's end.
    this.#end();
    let inClass = false;
    this.#at++;
    while (this.#at < source.length) {
      const code = source.charCodeAt(this.#at);
      if (code === Char.LineFeed || code === Char.CarriageReturn) break;
      this.#at++;
      if (code === Char.Backslash) this.#at++;
      else if (code === Char.OpenBracket) inClass = true;
      else if (code === Char.CloseBracket) inClass = false;
      else if (code === Char.Slash && !inClass) break;
    }
    this.#last = 97;
  }

  /**
   * A quoted string's value, escapes decoded, from after its opening quote to after its
   * closing one (or the line's end, where an unclosed string stops).
   */
  #string(quote: number): string {
    const source = this.#source;
    let value = '';
    let run = this.#at;
    while (this.#at < source.length) {
      const code = source.charCodeAt(this.#at);
      if (code === quote) {
        value += source.slice(run, this.#at);
        this.#at++;
        return value;
      }
      if (code === Char.LineFeed || code === Char.CarriageReturn) break;
      if (code === Char.Backslash) {
        value = this.#withEscape(value, run);
        run = this.#at;
        continue;
      }
      this.#at++;
    }
    return value + source.slice(run, this.#at);
  }

  /** A template literal's text up to its end or its first `${` (then code, to the matching `}`). */
  #template(): void {
    const source = this.#source;
    let value = '';
    let run = this.#at;
    while (this.#at < source.length) {
      const code = source.charCodeAt(this.#at);
      if (code === Char.Backtick) {
        value += source.slice(run, this.#at);
        this.#at++;
        this.#literal(value);
        return;
      }
      if (code === Char.Dollar && source.charCodeAt(this.#at + 1) === Char.OpenBrace && this.#templates.length < SCRIPT_LIMITS.depth) {
        value += source.slice(run, this.#at);
        this.#at += 2;
        // The text before an expression is a value of its own: what the expression adds is not known.
        this.#literal(value);
        this.#end();
        this.#braces++;
        this.#templates.push(this.#braces);
        this.#last = Char.OpenBrace;
        return;
      }
      if (code === Char.Backslash) {
        value = this.#withEscape(value, run);
        run = this.#at;
        continue;
      }
      this.#at++;
    }
    this.#literal(value + source.slice(run, this.#at));
  }

  /** The character an escape stands for, from its backslash to after it. */
  /** The value so far, the text since `run` and the escape at the cursor decoded, cut to the longest value kept. */
  #withEscape(value: string, run: number): string {
    const longer = value + this.#source.slice(run, this.#at) + this.#escape();
    return longer.length > SCRIPT_LIMITS.valueLength ? longer.slice(0, SCRIPT_LIMITS.valueLength) : longer;
  }

  #escape(): string {
    const source = this.#source;
    const at = this.#at + 1;
    const char = source[at];
    if (char === undefined) {
      this.#at = at;
      return '';
    }
    if (char === 'x') {
      const high = hexValue(source.charCodeAt(at + 1));
      const low = hexValue(source.charCodeAt(at + 2));
      if (high >= 0 && low >= 0) {
        this.#at = at + 3;
        return String.fromCharCode(high * 16 + low);
      }
    } else if (char === 'u') return this.#unicode(at + 1);
    else if (char === '\r') {
      // A line continuation: the backslash and the line ending stand for nothing.
      this.#at = source.charCodeAt(at + 1) === Char.LineFeed ? at + 2 : at + 1;
      return '';
    } else if (char === '\n' || char === '\u2028' || char === '\u2029') {
      this.#at = at + 1;
      return '';
    }
    this.#at = at + 1;
    return SIMPLE_ESCAPES[char] ?? char;
  }

  /** `\uXXXX` or `\u{X…}` from after the `u`; a malformed one stands for `u`. */
  #unicode(at: number): string {
    const source = this.#source;
    if (source.charCodeAt(at) === Char.OpenBrace) {
      let value = 0;
      let end = at + 1;
      // At most six digits: U+10FFFF is the last code point.
      while (end < source.length && end - at <= 7) {
        const digit = hexValue(source.charCodeAt(end));
        if (digit < 0) break;
        value = value * 16 + digit;
        end++;
      }
      if (end > at + 1 && source.charCodeAt(end) === Char.CloseBrace && value <= 0x10ffff) {
        this.#at = end + 1;
        return String.fromCodePoint(value);
      }
    } else {
      let value = 0;
      let digits = 0;
      while (digits < 4) {
        const digit = hexValue(source.charCodeAt(at + digits));
        if (digit < 0) break;
        value = value * 16 + digit;
        digits++;
      }
      if (digits === 4) {
        this.#at = at + 4;
        return String.fromCharCode(value);
      }
    }
    this.#at = at;
    return 'u';
  }
}

/** Whether a value may hold a URL or be base64 of one: most literals of a script are neither. */
function mayHoldUrl(value: string): boolean {
  return value.length >= 8;
}

/**
 * The URLs a script names, in the order met: in its string literals (escapes decoded),
 * in literals joined with `+`, in `atob(…)` of literals, and in literals that are base64
 * of text holding a URL. Reads at most what `budget` has left (and takes it from it);
 * `budget.cut` says when the script was cut short. Never throws, never runs anything.
 */
export function urlsInScript(source: string, budget: ScriptBudget = scriptBudget()): string[] {
  if (budget.cut || budget.characters <= 0) {
    if (source.length > 0) budget.cut = true;
    return [];
  }
  const read = Math.min(source.length, budget.characters);
  budget.characters -= read;
  if (read < source.length) budget.cut = true;
  const scanner = new Scanner(read < source.length ? source.slice(0, read) : source, budget);
  scanner.run();
  const texts = new Set<string>();
  for (const value of new Set(scanner.values)) {
    if (!mayHoldUrl(value)) continue;
    const text = value.includes(':') ? value : fromBase64(value);
    if (text?.includes(':') === true) texts.add(text);
  }
  // One pass of the extractor over all of them, a line apart (no URL spans a line break).
  return texts.size === 0 ? [] : [...new Set(extractUrls([...texts].join('\n')))];
}
