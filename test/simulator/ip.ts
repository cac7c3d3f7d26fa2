/**
 * Client addresses for `restrict_client_ips` and the listening host, on the address
 * and CIDR parsers of src/net/ip.ts (which also decide what an entry may be).
 *
 * - An entry is an address (`192.0.2.7`, `2001:db8::1`) or a range (`10.0.0.0/8`,
 *   `2001:db8::/32`). A plain address is a range of one address; host bits below the
 *   prefix are ignored (`10.1.2.3/8` is `10.0.0.0/8`).
 * - A client reaching the server over IPv6 with an IPv4-mapped address
 *   (`::ffff:127.0.0.1`, as Node reports it) is treated as the IPv4 address; an IPv4
 *   client also matches an IPv6 range that holds its mapped form (`::ffff:0:0/96`, `::/0`).
 * - A zone (`%eth0`) is accepted on a client's IPv6 address only, and ignored.
 */
import { type ParsedIp, cidrContains, isLoopbackHost, parseCidr, parseIp, unmapIpv4 } from '../../src/net/ip';

/** Parses the address of a connected client (IPv4-mapped addresses unmapped, zone ignored). */
export function parseClientIp(text: string): ParsedIp | null {
  const zone = text.indexOf('%');
  const ip = parseIp(zone >= 0 && text.includes(':') ? text.slice(0, zone) : text);
  return ip && unmapIpv4(ip);
}

/** The IPv4-mapped IPv6 form of an IPv4 address (`::ffff:a.b.c.d`). */
function mappedIpv6(ip: ParsedIp): ParsedIp {
  return { version: 6, bytes: [...new Array<number>(10).fill(0), 0xff, 0xff, ...ip.bytes] };
}

/** True when the client address is inside any of the entries. Unparsable entries match nothing. */
export function ipAllowed(entries: readonly string[], clientAddress: string): boolean {
  const client = parseClientIp(clientAddress);
  if (client === null) return false;
  const forms = client.version === 4 ? [client, mappedIpv6(client)] : [client];
  return entries.some((entry) => {
    const range = parseCidr(entry);
    return range !== null && forms.some((form) => cidrContains(range, form));
  });
}

/** A loopback host as src/net/ip.ts has it; an IPv4-mapped loopback address counts too. */
export function isLoopbackListenHost(host: string): boolean {
  const ip = parseIp(host);
  const unmapped = ip && unmapIpv4(ip);
  // The bytes of an IPv4 address joined with dots are its dotted-quad text.
  return isLoopbackHost(unmapped?.version === 4 ? unmapped.bytes.join('.') : host);
}
