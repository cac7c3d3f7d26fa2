/**
 * IPv4 and IPv6 addresses and CIDR ranges, for `restrict_client_ips`.
 *
 * - An entry is an address (`192.0.2.7`, `2001:db8::1`) or a range (`10.0.0.0/8`,
 *   `2001:db8::/32`). A plain address is a range of one address.
 * - Host bits below the prefix are ignored (`10.1.2.3/8` is `10.0.0.0/8`).
 * - A client reaching the server over IPv6 with an IPv4-mapped address
 *   (`::ffff:127.0.0.1`) is treated as the IPv4 address; an IPv4 client also matches
 *   an IPv6 range that holds its mapped form (`::ffff:0:0/96`, `::/0`).
 * - IPv4 parts are strict dotted-decimal (no leading zeros, no shorthand forms). IPv6
 *   accepts `::` compression and a trailing dotted IPv4 part; a zone (`%eth0`) is
 *   accepted on a client address only and ignored.
 */

export interface IpAddress {
  readonly family: 4 | 6;
  readonly value: bigint;
}

export interface IpRange {
  readonly family: 4 | 6;
  /** The network address, host bits cleared. */
  readonly base: bigint;
  readonly prefix: number;
}

const IPV4_PART = /^(?:0|[1-9]\d{0,2})$/;
const IPV6_GROUP = /^[0-9a-f]{1,4}$/i;
const PREFIX = /^(?:0|[1-9]\d{0,2})$/;
const MAPPED_PREFIX = 0xffffn << 32n;

function bits(family: 4 | 6): number {
  return family === 4 ? 32 : 128;
}

function parseIpv4(text: string): bigint | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  let value = 0n;
  for (const part of parts) {
    if (!IPV4_PART.test(part)) return null;
    const n = Number(part);
    if (n > 255) return null;
    value = (value << 8n) | BigInt(n);
  }
  return value;
}

function parseIpv6(text: string): bigint | null {
  let head = text;
  let tail: bigint | null = null;
  // A trailing dotted IPv4 part stands for the last two groups.
  const lastColon = text.lastIndexOf(':');
  if (lastColon >= 0 && text.includes('.', lastColon)) {
    tail = parseIpv4(text.slice(lastColon + 1));
    if (tail === null) return null;
    head = text.slice(0, lastColon + 1);
    // Keep a `::` right before the IPv4 part; drop a single separating colon.
    if (!head.endsWith('::')) head = head.slice(0, -1);
  }
  const groupsWanted = tail === null ? 8 : 6;
  const halves = head.split('::');
  if (halves.length > 2) return null;
  const toGroups = (s: string): string[] | null => {
    if (s === '') return [];
    const groups = s.split(':');
    return groups.every((g) => IPV6_GROUP.test(g)) ? groups : null;
  };
  const left = toGroups(halves[0] ?? '');
  if (left === null) return null;
  let groups: string[];
  if (halves.length === 2) {
    const right = toGroups(halves[1] ?? '');
    if (right === null) return null;
    const missing = groupsWanted - left.length - right.length;
    if (missing < 1) return null;
    groups = [...left, ...Array<string>(missing).fill('0'), ...right];
  } else {
    groups = left;
  }
  if (groups.length !== groupsWanted) return null;
  let value = 0n;
  for (const g of groups) value = (value << 16n) | BigInt(Number.parseInt(g, 16));
  if (tail !== null) value = (value << 32n) | tail;
  return value;
}

/** Parses one address. IPv4-mapped IPv6 addresses come back as IPv4 when `unmap` is set. */
export function parseIp(text: string, options: { unmap?: boolean; allowZone?: boolean } = {}): IpAddress | null {
  let input = text;
  const zone = input.indexOf('%');
  if (zone >= 0) {
    if (!options.allowZone || !input.includes(':')) return null;
    input = input.slice(0, zone);
  }
  if (!input.includes(':')) {
    const v4 = parseIpv4(input);
    return v4 === null ? null : { family: 4, value: v4 };
  }
  const v6 = parseIpv6(input);
  if (v6 === null) return null;
  if (options.unmap && v6 >> 32n === 0xffffn) return { family: 4, value: v6 & 0xffffffffn };
  return { family: 6, value: v6 };
}

/** Parses the address of a connected client (IPv4-mapped addresses unmapped, zone ignored). */
export function parseClientIp(text: string): IpAddress | null {
  return parseIp(text, { unmap: true, allowZone: true });
}

function mask(family: 4 | 6, prefix: number): bigint {
  const width = BigInt(bits(family));
  const all = (1n << width) - 1n;
  return (all >> BigInt(prefix)) ^ all;
}

/** Parses an address or a CIDR range; null when it is neither. */
export function parseRange(text: string): IpRange | null {
  const slash = text.indexOf('/');
  const addressText = slash >= 0 ? text.slice(0, slash) : text;
  const address = parseIp(addressText);
  if (address === null) return null;
  let prefix = bits(address.family);
  if (slash >= 0) {
    const prefixText = text.slice(slash + 1);
    if (!PREFIX.test(prefixText)) return null;
    prefix = Number(prefixText);
    if (prefix > bits(address.family)) return null;
  }
  return { family: address.family, base: address.value & mask(address.family, prefix), prefix };
}

/** True when the range holds the address (see the module comment for IPv4-mapped forms). */
export function rangeContains(range: IpRange, address: IpAddress): boolean {
  let value = address.value;
  if (range.family !== address.family) {
    if (range.family === 4) return false;
    value = MAPPED_PREFIX | address.value;
  }
  return (value & mask(range.family, range.prefix)) === range.base;
}

/** True when the client address is inside any of the entries. Unparsable entries match nothing. */
export function ipAllowed(entries: readonly string[], clientAddress: string): boolean {
  const client = parseClientIp(clientAddress);
  if (client === null) return false;
  return entries.some((entry) => {
    const range = parseRange(entry);
    return range !== null && rangeContains(range, client);
  });
}
