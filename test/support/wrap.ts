/**
 * Encoders for the link formats unwrap() reads, written from the formats' public
 * descriptions (not from src/fang): the property tests check unwrap(wrap(x)) = x, the
 * bench and the security suite build wrapped links and floods with them.
 */

const pct = (text: string): string => encodeURIComponent(text);

/** Proofpoint v3's run-length letters: A-Z, a-z, 0-9, '-', '_' for 2..65 bytes. */
const RUN_LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replaceAll('=', '');
}

/** Characters a v3 body keeps as they are; everything else is replaced by a token. */
function keptByV3(ch: string): boolean {
  // Not ' (a query serializes it as %27) and nothing a URL parser would re-encode or rewrite.
  return /^[\w!#$%&()+,\-./:;=?@[\]~]$/.test(ch);
}

export const wrap = {
  safelinks: (target: string, host = 'nam12.safelinks.protection.outlook.com') =>
    `https://${host}/?url=${pct(target)}&data=05%7C02%7Ca%40b.example%7C0&sdata=AbC%3D&reserved=0`,
  proofpointV1: (target: string) => `https://urldefense.proofpoint.com/v1/url?u=${pct(target)}&k=abc%3D%3D%0A&r=x&m=y&s=z`,
  proofpointV2: (target: string) => {
    // Percent-encode (keeping '/'), then write '%' as '-' and '/' as '_' (literal ones as -2D, -5F).
    const encoded = pct(target)
      .replaceAll('%2F', '/')
      .replaceAll('-', '%2D')
      .replaceAll('_', '%5F')
      .replaceAll('!', '%21')
      .replaceAll("'", '%27')
      .replaceAll('(', '%28')
      .replaceAll(')', '%29')
      .replaceAll('*', '%2A');
    return `https://urldefense.proofpoint.com/v2/url?u=${encoded.replaceAll('%', '-').replaceAll('/', '_')}&d=DwMF&c=x&r=y&m=z&s=w&e=`;
  },
  proofpointV3: (target: string, host = 'urldefense.com') => {
    const chars = [...target];
    const bytes: number[] = [];
    let body = '';
    for (let i = 0; i < chars.length;) {
      // A '.' that starts a path segment is replaced too: the URL parser would drop a `/./` segment.
      if (keptByV3(chars[i] ?? '') && !(chars[i] === '.' && body.endsWith('/'))) {
        body += chars[i] ?? '';
        i += 1;
        continue;
      }
      // A run of replaced characters, at most 65 bytes, is one token.
      let run: number[] = [];
      let count = 0;
      while (i < chars.length && (count === 0 || !keptByV3(chars[i] ?? ''))) {
        const next = [...new TextEncoder().encode(chars[i])];
        if (count > 0 && run.length + next.length > 65) break;
        run = [...run, ...next];
        count += 1;
        i += 1;
      }
      body += count === 1 ? '*' : `**${RUN_LETTERS[run.length - 2] ?? ''}`;
      bytes.push(...run);
    }
    return `https://${host}/v3/__${body}__;${base64url(Uint8Array.from(bytes))}!!CQl3mcHX2A!Ab3$`;
  },
  barracuda: (target: string) => `https://linkprotect.cudasvc.com/url?a=${pct(target)}&c=E,1,AbC,&typo=1`,
  trendmicro: (target: string) => `https://imsva91-ctp.trendmicro.com:443/wis/clicktime/v1/query?url=${pct(target)}&umid=1a2b&auth=3c4d`,
  sophos: (target: string) => {
    const binary = String.fromCharCode(...new TextEncoder().encode(target));
    return `https://us-west-2.protection.sophos.com?d=example.com&u=${pct(btoa(binary))}&i=x&t=y&h=z`;
  },
  cisco: (target: string) => `https://secure-web.cisco.com/1AbCdEfGh-IjK_lMn/${pct(target)}`,
  symantec: (target: string) => `https://clicktime.symantec.com/3Hs5RdhNfwZ9J6X?u=${pct(target)}`,
  google: (target: string) => `https://www.google.com/url?q=${pct(target)}&sa=D&usg=AOvVaw`,
  slack: (target: string) => `https://slack-redir.net/link?url=${pct(target)}`,
  facebook: (target: string) => `https://l.facebook.com/l.php?u=${pct(target)}&h=AT0`,
  linkedin: (target: string) => `https://www.linkedin.com/redir/redirect?url=${pct(target)}&urlhash=x`,
} as const satisfies Record<string, (target: string) => string>;

/** The layer id each encoder's links are reported with. */
export const WRAP_LAYER: Readonly<Record<keyof typeof wrap, string>> = {
  safelinks: 'safelinks',
  proofpointV1: 'proofpoint',
  proofpointV2: 'proofpoint',
  proofpointV3: 'proofpoint',
  barracuda: 'barracuda',
  trendmicro: 'trendmicro',
  sophos: 'sophos',
  cisco: 'cisco',
  symantec: 'symantec',
  google: 'google',
  slack: 'slack',
  facebook: 'facebook',
  linkedin: 'linkedin',
};

/**
 * Hostile wrapped links of about `size` characters, by name: v3 bodies of nothing but
 * tokens (every one restored), a v3 link that never ends its body, a Safe Link of '%'s,
 * `url=` repeated, a base64 flood, a host of single-letter labels. The unit tests, the
 * security suite's linearity check and the bench all use these.
 */
export function wrapperFloods(size: number): Record<string, string> {
  return {
    // One two-byte character per star, two bytes per run.
    'v3 stars': `https://urldefense.com/v3/__https://a.example/${'*'.repeat(size / 2)}__;${'w6nDqcOp'.repeat(size / 6)}!!x$`,
    'v3 runs': `https://urldefense.com/v3/__https://a.example/${'**A'.repeat(size / 6)}__;${'AAAA'.repeat(size / 12)}!!x$`,
    'v3 unterminated': `https://urldefense.com/v3/__${'__'.repeat(size / 2)}`,
    escapes: wrap.safelinks(`https://a.example/${'%'.repeat(size / 3)}`),
    'repeated url=': `https://nam12.safelinks.protection.outlook.com/?${'url=a&'.repeat(size / 6)}`,
    base64: `https://eu.protection.sophos.com/?u=${'A'.repeat(size)}`,
    labels: `https://${'a.'.repeat(size / 2)}google.com/url?q=x`,
  };
}
