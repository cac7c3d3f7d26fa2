/**
 * A seeded generator of analyst-style prose with indicators: sentences of ordinary words,
 * now and then a live URL, a defanged URL (`hxxps://evil[.]example/…`, `[:]//`, `(.)`,
 * `[dot]`), a defanged host, IP address or e-mail address. The same seed gives the same
 * text on every machine.
 */

/** mulberry32: a small, fast 32-bit PRNG; deterministic for a seed. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = (
  'the a an of to and in that is was for on with as by at from this it be are or which have has had not but ' +
  'analyst report incident phishing campaign payload sample domain server malware loader stage user mailbox ' +
  'attachment invoice credential harvest redirect beacon callback observed blocked quarantine ticket triage ' +
  'indicator sandbox detonation network traffic request response header certificate registrar hosting ' +
  'customer finance team vendor morning evening yesterday today week review escalated closed pending ' +
  'suspicious legitimate benign confirmed likely unknown second first new old internal external shared'
).split(' ');
const TLDS = ['com', 'net', 'org', 'io', 'example', 'info', 'co.uk', 'ru', 'top', 'xyz'];
const PATH_WORDS = ['login', 'secure', 'account', 'verify', 'update', 'invoice', 'download', 'wp-admin', 'api', 'files', 'doc'];

export interface TextStats {
  readonly chars: number;
  readonly liveUrls: number;
  readonly defangedUrls: number;
  readonly defangedOther: number;
}

/** About `size` characters of prose (cut to exactly `size`), from `seed`. */
export function generateText(size: number, seed = 0x15011ec): { text: string; stats: TextStats } {
  const random = prng(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const int = (n: number): number => Math.floor(random() * n);
  const label = (): string => {
    const a = pick(WORDS).replace(/[^a-z]/g, '');
    return random() < 0.3 ? `${a}-${pick(WORDS)}` : `${a}${int(100)}`;
  };
  const host = (): string => `${random() < 0.4 ? `${label()}.` : ''}${label()}.${pick(TLDS)}`;
  const path = (): string => {
    const parts = Array.from({ length: 1 + int(3) }, () => pick(PATH_WORDS));
    const query = random() < 0.3 ? `?id=${int(100000)}&ref=${pick(PATH_WORDS)}` : '';
    return `/${parts.join('/')}${random() < 0.3 ? '.php' : ''}${query}`;
  };
  const ip = (): string => `${1 + int(223)}.${int(256)}.${int(256)}.${1 + int(254)}`;
  let liveUrls = 0;
  let defangedUrls = 0;
  let defangedOther = 0;
  const indicator = (): string => {
    const r = random();
    if (r < 0.3) {
      liveUrls += 1;
      return `${random() < 0.7 ? 'https' : 'http'}://${host()}${path()}`;
    }
    if (r < 0.75) {
      defangedUrls += 1;
      const h = host();
      const form = int(5);
      if (form === 0) return `hxxps://${h.replaceAll('.', '[.]')}${path()}`;
      if (form === 1) return `hxxp://${h.replaceAll('.', '[.]')}${path()}`;
      if (form === 2) return `hxxps[:]//${h.replaceAll('.', '[.]')}${path()}`;
      if (form === 3) return `https://${h.replaceAll('.', '(.)')}${path()}`;
      return `hXXps://${h.replaceAll('.', '[dot]')}${path()}`;
    }
    defangedOther += 1;
    const form = int(3);
    if (form === 0) return ip().replaceAll('.', '[.]');
    if (form === 1) return host().replaceAll('.', '[.]');
    return `${label()}[@]${host().replaceAll('.', '[.]')}`;
  };
  const chunks: string[] = [];
  let length = 0;
  while (length < size) {
    const words: string[] = [];
    const count = 6 + int(18);
    for (let i = 0; i < count; i++) words.push(random() < 0.06 ? indicator() : pick(WORDS));
    // Sentence case for a plain word only: an indicator keeps its own spelling.
    const first = words[0] ?? '';
    if (WORDS.includes(first)) words[0] = first.charAt(0).toUpperCase() + first.slice(1);
    const end = pick(['.', '.', '.', '!', '?', ':']);
    const sentence = `${words.join(' ')}${end}${random() < 0.15 ? '\n\n' : ' '}`;
    chunks.push(sentence);
    length += sentence.length;
  }
  const text = chunks.join('').slice(0, size);
  return { text, stats: { chars: text.length, liveUrls, defangedUrls, defangedOther } };
}
