/**
 * IP address and CIDR parsing without regular expressions, for validation of
 * `restrict_client_ips`, proxy addresses and loopback checks. Pure; no browser APIs.
 */

export interface ParsedIp {
  readonly version: 4 | 6;
  /** 4 or 16 bytes, network order. */
  readonly bytes: readonly number[];
}

export interface ParsedCidr extends ParsedIp {
  readonly prefix: number;
}

function parseDecimalOctet(part: string): number | null {
  if (part.length === 0 || part.length > 3) return null;
  // A leading zero would be read as octal by some parsers: refuse the ambiguity.
  if (part.length > 1 && part.startsWith('0')) return null;
  let value = 0;
  for (const ch of part) {
    const code = ch.charCodeAt(0);
    if (code < 48 || code > 57) return null;
    value = value * 10 + (code - 48);
  }
  return value <= 255 ? value : null;
}

/** Parses dotted-quad IPv4 (`192.0.2.1`), strictly: four decimal octets, no leading zeros. */
export function parseIpv4(text: string): ParsedIp | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  const bytes: number[] = [];
  for (const part of parts) {
    const octet = parseDecimalOctet(part);
    if (octet === null) return null;
    bytes.push(octet);
  }
  return { version: 4, bytes };
}

function parseHextet(part: string): number | null {
  if (part.length === 0 || part.length > 4) return null;
  let value = 0;
  for (const ch of part) {
    const digit = Number.parseInt(ch, 16);
    if (Number.isNaN(digit)) return null;
    value = value * 16 + digit;
  }
  return value;
}

/** Parses IPv6 text (RFC 4291 forms, `::` compression, trailing dotted IPv4). No zone ids. */
function parseIpv6(text: string): ParsedIp | null {
  if (text.length < 2 || text.length > 45) return null;
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const groupsOf = (half: string): string[] => (half === '' ? [] : half.split(':'));
  const head = groupsOf(halves[0] ?? '');
  const tail = halves.length === 2 ? groupsOf(halves[1] ?? '') : [];
  const words: number[] = [];
  const tailWords: number[] = [];
  const push = (groups: string[], into: number[], allowIpv4Last: boolean): boolean => {
    for (let i = 0; i < groups.length; i += 1) {
      const group = groups[i] ?? '';
      if (allowIpv4Last && i === groups.length - 1 && group.includes('.')) {
        const v4 = parseIpv4(group);
        if (!v4) return false;
        const [a = 0, b = 0, c = 0, d = 0] = v4.bytes;
        into.push(a * 256 + b, c * 256 + d);
        continue;
      }
      const word = parseHextet(group);
      if (word === null) return false;
      into.push(word);
    }
    return true;
  };
  const compressed = halves.length === 2;
  if (!push(head, words, !compressed)) return null;
  if (!push(tail, tailWords, true)) return null;
  const total = words.length + tailWords.length;
  if (compressed ? total > 7 : total !== 8) return null;
  const all = [...words, ...new Array<number>(8 - total).fill(0), ...tailWords];
  const bytes = all.flatMap((word) => [word >> 8, word & 0xff]);
  return { version: 6, bytes };
}

/** Parses an IPv4 or IPv6 address. IPv6 may be given in brackets. */
export function parseIp(text: string): ParsedIp | null {
  if (text.startsWith('[') && text.endsWith(']')) return parseIpv6(text.slice(1, -1));
  return text.includes(':') ? parseIpv6(text) : parseIpv4(text);
}

/** The IPv4 address an IPv4-mapped IPv6 address (`::ffff:192.0.2.1`) stands for; any other address as it is. */
export function unmapIpv4(ip: ParsedIp): ParsedIp {
  if (ip.version !== 6) return ip;
  const mapped = ip.bytes.slice(0, 10).every((byte) => byte === 0) && ip.bytes[10] === 0xff && ip.bytes[11] === 0xff;
  return mapped ? { version: 4, bytes: ip.bytes.slice(12) } : ip;
}

/** Parses `address/prefix`; a bare address is a host route (/32 or /128). */
export function parseCidr(text: string): ParsedCidr | null {
  const slash = text.indexOf('/');
  const address = parseIp(slash === -1 ? text : text.slice(0, slash));
  if (!address) return null;
  const max = address.version === 4 ? 32 : 128;
  if (slash === -1) return { ...address, prefix: max };
  const prefixText = text.slice(slash + 1);
  if (prefixText.length === 0 || prefixText.length > 3 || !/^\d+$/.test(prefixText)) return null;
  if (prefixText.length > 1 && prefixText.startsWith('0')) return null;
  const prefix = Number(prefixText);
  return prefix <= max ? { ...address, prefix } : null;
}

/** True when `ip` lies inside `cidr` (same family only). */
export function cidrContains(cidr: ParsedCidr, ip: ParsedIp): boolean {
  if (cidr.version !== ip.version) return false;
  let remaining = cidr.prefix;
  for (let i = 0; i < cidr.bytes.length && remaining > 0; i += 1) {
    const bits = Math.min(8, remaining);
    const mask = (0xff << (8 - bits)) & 0xff;
    if (((cidr.bytes[i] ?? 0) & mask) !== ((ip.bytes[i] ?? 0) & mask)) return false;
    remaining -= bits;
  }
  return true;
}

/** True for 127.0.0.0/8, ::1 and `localhost` (the hosts a loopback http service may use). */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  const ip = parseIp(host);
  if (!ip) return false;
  if (ip.version === 4) return ip.bytes[0] === 127;
  return ip.bytes.every((byte, i) => byte === (i === 15 ? 1 : 0));
}
