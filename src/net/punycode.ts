/**
 * Punycode (RFC 3492) decoding, for showing an IDN host in Unicode beside the ASCII form a
 * mail or a URL parser gives. The WHATWG URL parser encodes (Unicode to `xn--`) in every
 * runtime; nothing standard decodes in a browser, hence this module.
 */

const BASE = 36;
const T_MIN = 1;
const T_MAX = 26;
const SKEW = 38;
const DAMP = 700;
const INITIAL_BIAS = 72;
const INITIAL_N = 128;
/** Longest label of a DNS name: a longer one is no host label, and is not decoded. */
const MAX_LABEL = 63;

function adapt(delta: number, points: number, first: boolean): number {
  let scaled = first ? Math.floor(delta / DAMP) : Math.floor(delta / 2);
  scaled += Math.floor(scaled / points);
  let k = 0;
  while (scaled > ((BASE - T_MIN) * T_MAX) / 2) {
    scaled = Math.floor(scaled / (BASE - T_MIN));
    k += BASE;
  }
  return k + Math.floor(((BASE - T_MIN + 1) * scaled) / (scaled + SKEW));
}

/** The value of a base-36 digit (`a`-`z` 0-25, `0`-`9` 26-35, either case), or -1. */
function digit(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 22;
  if (code >= 0x41 && code <= 0x5a) return code - 0x41;
  if (code >= 0x61 && code <= 0x7a) return code - 0x61;
  return -1;
}

/** The Unicode of one label's Punycode (what follows `xn--`), or null when it is not valid Punycode. */
export function decodePunycode(input: string): string | null {
  if (input.length > MAX_LABEL) return null;
  const delimiter = input.lastIndexOf('-');
  const output: number[] = [];
  for (let index = 0; index < delimiter; index++) {
    const code = input.charCodeAt(index);
    if (code >= 0x80) return null;
    output.push(code);
  }
  let n = INITIAL_N;
  let bias = INITIAL_BIAS;
  let i = 0;
  for (let index = delimiter > 0 ? delimiter + 1 : 0; index < input.length;) {
    const before = i;
    let weight = 1;
    for (let k = BASE; ; k += BASE) {
      if (index >= input.length) return null;
      const value = digit(input.charCodeAt(index++));
      if (value < 0) return null;
      i += value * weight;
      const threshold = k <= bias ? T_MIN : k >= bias + T_MAX ? T_MAX : k - bias;
      if (value < threshold) break;
      weight *= BASE - threshold;
      // Past this, the code point would be beyond Unicode (the label's length bounds the loop).
      if (i > 0x10ffff * (output.length + 1)) return null;
    }
    const length = output.length + 1;
    bias = adapt(i - before, length, before === 0);
    n += Math.floor(i / length);
    i %= length;
    if (n > 0x10ffff || (n >= 0xd800 && n <= 0xdfff)) return null;
    output.splice(i, 0, n);
    i++;
  }
  return String.fromCodePoint(...output);
}

/**
 * A host name with its `xn--` labels in Unicode (`xn--pypal-4ve.com` -> `pаypal.com`, with a
 * Cyrillic а), or null when it holds none, or when a label does not decode to what the URL
 * parser would encode again (so the Unicode shown is exactly the host's).
 */
export function unicodeHost(asciiHost: string): string | null {
  const labels = asciiHost.split('.');
  if (!labels.some((label) => /^xn--/i.test(label))) return null;
  const decoded: string[] = [];
  for (const label of labels) {
    if (!/^xn--/i.test(label)) {
      decoded.push(label);
      continue;
    }
    const unicode = decodePunycode(label.slice(4));
    if (unicode === null) return null;
    decoded.push(unicode);
  }
  const unicode = decoded.join('.');
  try {
    return new URL(`http://${unicode}/`).hostname === asciiHost.toLowerCase() ? unicode : null;
  } catch {
    return null;
  }
}
