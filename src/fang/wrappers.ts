/**
 * The link-wrapping services Isolink can peel: mail gateways that rewrite every link of
 * a message (Safe Links, URL Defense, ...) and the redirectors of search, chat and social
 * sites. Each is known by its own hosts, matched exactly or by dot-suffix (never by
 * substring), and by the path its redirects use. Data and small decoders only; the
 * walk through nested wrappers is in ./unwrap.
 */

import type { WrapperId } from './ids';

export { WRAPPER_IDS, WRAPPER_NAMES, type WrapperId } from './ids';

/** The inner URL a wrapper carries; `undefined` when it carries one that cannot be read offline. */
type Peeled = string | undefined;

interface WrapperRule {
  readonly id: WrapperId;
  /** True when a link on `host` with this path is a wrapped link of the service. */
  matches(host: string, path: string): boolean;
  /** The wrapped URL, decoded exactly once; undefined when it cannot be (malformed, or opaque by design). */
  peel(url: URL): Peeled;
}

/** `host` is `domain` or one of its subdomains. */
function isUnder(host: string, domain: string): boolean {
  return host === domain || (host.endsWith(domain) && host.charCodeAt(host.length - domain.length - 1) === 0x2e);
}

function isUnderAny(host: string, domains: readonly string[]): boolean {
  return domains.some((domain) => isUnder(host, domain));
}

// ---- decoding helpers ------------------------------------------------------------------

/** Percent-decodes once, `+` read as a space (form encoding); undefined on a malformed escape or invalid UTF-8. */
function formDecode(text: string): string | undefined {
  // Each step only where needed: a long value is not copied for nothing.
  const spaced = text.includes('+') ? text.replaceAll('+', ' ') : text;
  return spaced.includes('%') ? pathDecode(spaced) : spaced;
}

/** Percent-decodes once (a path: `+` stays); undefined on a malformed escape or invalid UTF-8. */
function pathDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/**
 * Path, query and fragment as serialized, with an empty `?` or `#` kept (`url.search`
 * drops them). A serialized http(s) URL has a path, and no '/' before it but the two
 * after the scheme: userinfo and host cannot hold one.
 */
function afterOrigin(url: URL): string {
  return url.href.slice(url.href.indexOf('/', url.protocol.length + 2));
}

/** Marks a query parameter given twice with different values, or more times than a link ever does: the target is ambiguous. */
const CONFLICT = Symbol('conflict');

/** A real link gives its target once; a query that repeats the key this often is not a link. */
const MAX_REPEATS = 8;

/** Where the next `key=` pair after `from` starts, -1 when there is none. */
function nextPair(search: string, prefix: string, from: number): number {
  const at = search.indexOf(`&${prefix}`, from);
  return at === -1 ? -1 : at + 1;
}

/**
 * The raw value of `key` in a query string (`?a=1&b=2`), undefined when absent, CONFLICT
 * when it is given more than once with different values (which one a service follows
 * cannot be known offline) or more than MAX_REPEATS times.
 */
function rawParam(search: string, key: string): string | undefined | typeof CONFLICT {
  const prefix = `${key}=`;
  let found: string | undefined;
  let count = 0;
  for (let at = search.startsWith(prefix, 1) ? 1 : nextPair(search, prefix, 0); at !== -1; at = nextPair(search, prefix, at)) {
    const end = search.indexOf('&', at);
    const value = search.slice(at + prefix.length, end === -1 ? search.length : end);
    count += 1;
    if ((found !== undefined && found !== value) || count > MAX_REPEATS) return CONFLICT;
    found = value;
  }
  return found;
}

/** The form-decoded value of the first of `keys` that is present and not empty. */
function param(url: URL, ...keys: string[]): Peeled {
  let chosen: string | undefined;
  for (const key of keys) {
    const raw = rawParam(url.search, key);
    if (raw === CONFLICT) return undefined;
    if (raw === undefined || raw === '') continue;
    const value = formDecode(raw);
    // Two keys naming different targets (Google's q= and url=) leave the target unknown.
    if (value === undefined || (chosen !== undefined && chosen !== value)) return undefined;
    chosen = value;
  }
  return chosen;
}

/** Bytes of base64 text, standard or URL-safe alphabet, padded or not; undefined when broken. */
function base64Bytes(text: string): Uint8Array | undefined {
  if (!/^[\w+/-]*={0,2}$/.test(text)) return undefined;
  // Checked above: at most two '=', at the end.
  const pad = text.indexOf('=');
  let unpadded = pad === -1 ? text : text.slice(0, pad);
  if (unpadded.includes('-') || unpadded.includes('_')) unpadded = unpadded.replaceAll('-', '+').replaceAll('_', '/');
  if (unpadded.length % 4 === 1) return undefined;
  let binary: string;
  try {
    binary = atob(unpadded + '='.repeat((4 - (unpadded.length % 4)) % 4));
  } catch {
    return undefined;
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** UTF-8 bytes as text; undefined when they are not valid UTF-8. */
function utf8Text(bytes: Uint8Array): string | undefined {
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}

// ---- Proofpoint URL Defense v3 ---------------------------------------------------------

/** Run-length letters of v3's `**X` token: A-Z, a-z, 0-9, '-', '_' stand for 2..65 bytes. */
const V3_RUN_LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** Bytes in the UTF-8 sequence that starts with `lead`; 0 for a byte no sequence starts with. */
function utf8Length(lead: number): number {
  if (lead < 0x80) return 1;
  if (lead >= 0xc2 && lead < 0xe0) return 2;
  if (lead >= 0xe0 && lead < 0xf0) return 3;
  if (lead >= 0xf0 && lead < 0xf5) return 4;
  return 0;
}

/**
 * Decodes the part of a v3 link after `/v3/__`: `<url>__;<replacements>!...`. In `<url>`,
 * every character the gateway could not keep stands as `*` (one character, its UTF-8
 * bytes taken from the list) or `**X` (a run of X's length in bytes); the list is the
 * URL-safe base64 of those bytes, maybe empty. Nothing else is decoded. `rest` comes
 * from a serialized URL, so it is ASCII.
 */
function decodeProofpointV3(rest: string): Peeled {
  const bodyEnd = rest.indexOf('__;');
  if (bodyEnd <= 0) return undefined;
  const listStart = bodyEnd + 3;
  const bang = rest.indexOf('!', listStart);
  const bytes = base64Bytes(rest.slice(listStart, bang === -1 ? rest.length : bang));
  if (!bytes) return undefined;
  let out = '';
  let marker = 0;
  let plain = 0;
  for (let star = rest.indexOf('*'); star !== -1 && star < bodyEnd; star = rest.indexOf('*', plain)) {
    // Tokens side by side take bytes side by side: decoded together, a character may span them.
    const first = marker;
    let at = star;
    while (rest.charCodeAt(at) === 0x2a && at < bodyEnd) {
      let take: number;
      if (rest.charCodeAt(at + 1) === 0x2a) {
        take = V3_RUN_LETTERS.indexOf(rest.charAt(at + 2)) + 2;
        if (take < 2 || at + 2 >= bodyEnd) return undefined;
        at += 3;
      } else {
        take = utf8Length(bytes[marker] ?? 0xff);
        at += 1;
      }
      if (take === 0 || marker + take > bytes.length) return undefined;
      marker += take;
    }
    const restored = utf8Text(bytes.subarray(first, marker));
    if (restored === undefined) return undefined;
    out += rest.slice(plain, star) + restored;
    plain = at;
  }
  out += rest.slice(plain, bodyEnd);
  // Some v3 bodies keep a single slash after the scheme.
  return out.replace(/^(https?):\/(?!\/)/i, '$1://');
}

// ---- the services ---------------------------------------------------------------------

/** Google's search domains: google.com and google.<country>, .co.<cc>, .com.<cc>. */
const GOOGLE_TLDS = new Set([
  'com',
  ...'ad ae al am as at az ba be bf bg bi bj bs bt by ca cat cd cf cg ch ci cl cm cn cv cz de dj dk dm dz ee es fi fm fr ga ge gg gl gm gr gy hn hr ht hu ie im iq is it je jo kg ki kz la li lk lt lu lv md me mg mk ml mn ms mu mv mw ne nl no nr nu pl pn ps pt ro rs ru rw sc se sh si sk sm sn so sr st td tg tk tl tm tn to tt vg vu ws'.split(
    ' ',
  ),
  ...'ao bw ck cr id il in jp ke kr ls ma mz nz th tz ug uk uz ve vi za zm zw'.split(' ').map((cc) => `co.${cc}`),
  ...'af ag ar au bd bh bn bo br bz co cu cy do ec eg et fj gh gi gt hk jm kh kw lb ly mm mt mx my na ng ni np om pa pe pg ph pk pr py qa sa sb sg sl sv tj tr tw ua uy vc vn'
    .split(' ')
    .map((cc) => `com.${cc}`),
]);

function isGoogleHost(host: string): boolean {
  const name = host.startsWith('www.') ? host.slice(4) : host;
  return name.startsWith('google.') && GOOGLE_TLDS.has(name.slice(7));
}

/** Microsoft's Safe Links hosts: worldwide, GCC High, DoD, and the cloud operated by 21Vianet. */
const SAFELINKS_DOMAINS = [
  'safelinks.protection.outlook.com',
  'safelinks.protection.office365.us',
  'safelinks.protection.apps.mil',
  'safelinks.protection.partner.outlook.cn',
];

const PROOFPOINT_DOMAINS = ['urldefense.proofpoint.com', 'urldefense.com', 'urldefense.us'];
const TREND_DOMAINS = ['trendmicro.com', 'trendmicro.eu', 'trendmicro.co.jp', 'trendmicro.com.au'];
const FACEBOOK_HOSTS = new Set(['l.facebook.com', 'lm.facebook.com', 'l.messenger.com', 'l.instagram.com']);

export const WRAPPER_RULES: readonly WrapperRule[] = [
  {
    id: 'safelinks',
    // Every link on a Safe Links host is a redirect: `/?url=`, Office's `/ap/<app>/?url=`.
    matches: (host) => isUnderAny(host, SAFELINKS_DOMAINS),
    peel: (url) => param(url, 'url'),
  },
  {
    // Teams wraps links in a Safe Links page of its CDN.
    id: 'safelinks',
    matches: (host, path) => host === 'statics.teams.cdn.office.net' && path.endsWith('/atp-safelinks.html'),
    peel: (url) => param(url, 'url'),
  },
  {
    id: 'proofpoint',
    matches: (host, path) => isUnderAny(host, PROOFPOINT_DOMAINS) && /^\/v[123]\//.test(path),
    peel: (url) => {
      const path = url.pathname;
      if (path.startsWith('/v1/url')) return param(url, 'u');
      if (path.startsWith('/v2/url')) {
        // v2 writes '%' as '-' and '/' as '_' before percent-decoding; v1 does not.
        const raw = rawParam(url.search, 'u');
        if (raw === undefined || raw === CONFLICT) return undefined;
        return pathDecode(raw.replaceAll('-', '%').replaceAll('_', '/'));
      }
      // v3 keeps the target's own '?' and '#', empty ones too: read the serialized rest.
      if (path.startsWith('/v3/__')) return decodeProofpointV3(afterOrigin(url).slice(6));
      return undefined;
    },
  },
  {
    // Mimecast keeps the target on its servers: `/s/<key>?domain=...` cannot be read offline.
    id: 'mimecast',
    matches: (host, path) =>
      path.startsWith('/s/') &&
      (isUnder(host, 'mimecastprotect.com') || (isUnderAny(host, ['mimecast.com', 'mimecast-offshore.com']) && host.startsWith('protect'))),
    peel: () => undefined,
  },
  {
    id: 'barracuda',
    matches: (host, path) => isUnder(host, 'linkprotect.cudasvc.com') && path === '/url',
    peel: (url) => param(url, 'a'),
  },
  {
    // `<region>-ctp.trendmicro.com`, `*.tmes.trendmicro.com`, ...: the click-time path decides.
    id: 'trendmicro',
    matches: (host, path) => isUnderAny(host, TREND_DOMAINS) && /^\/wis\/clicktime\/v\d+\/query\/?$/.test(path),
    peel: (url) => param(url, 'url'),
  },
  {
    id: 'sophos',
    matches: (host) => isUnder(host, 'protection.sophos.com'),
    peel: (url) => {
      const raw = param(url, 'u');
      const bytes = raw === undefined ? undefined : base64Bytes(raw.trim());
      return bytes && utf8Text(bytes);
    },
  },
  {
    // `/<key>/<percent-encoded target>`
    id: 'cisco',
    matches: (host, path) => isUnder(host, 'secure-web.cisco.com') && path.indexOf('/', 1) > 1,
    peel: (url) => pathDecode(url.pathname.slice(url.pathname.indexOf('/', 1) + 1)),
  },
  {
    // Two shapes, `/<key>?u=` and `/a/1/<key>?d=...&u=`: both carry the target in u=.
    id: 'symantec',
    matches: (host) => isUnder(host, 'clicktime.symantec.com'),
    peel: (url) => param(url, 'u'),
  },
  {
    // Only /url redirects: /search?q= is a search, not a link.
    id: 'google',
    matches: (host, path) => path === '/url' && isGoogleHost(host),
    peel: (url) => param(url, 'q', 'url'),
  },
  {
    id: 'slack',
    matches: (host, path) => host === 'slack-redir.net' && path === '/link',
    peel: (url) => param(url, 'url'),
  },
  {
    id: 'facebook',
    matches: (host, path) => FACEBOOK_HOSTS.has(host) && (path === '/l.php' || path === '/'),
    peel: (url) => param(url, 'u'),
  },
  {
    id: 'linkedin',
    matches: (host, path) => (host === 'linkedin.com' || host === 'www.linkedin.com') && /^\/(?:redir\/redirect|safety\/go)\/?$/.test(path),
    peel: (url) => param(url, 'url'),
  },
];
