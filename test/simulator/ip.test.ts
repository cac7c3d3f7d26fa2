import { describe, expect, it } from 'vitest';
import { type ParsedIp, parseCidr, parseIp } from '../../src/net/ip';
import { ipAllowed, parseClientIp } from './ip';

/** An address as family and one number, to compare with the tables below. */
function numeric(ip: ParsedIp | null): { family: 4 | 6; value: bigint } | null {
  return ip && { family: ip.version, value: ip.bytes.reduce((value, byte) => (value << 8n) | BigInt(byte), 0n) };
}

// Forms test/unit/net.test.ts does not cover; the cases it covers are not repeated here.
describe('address parsing', () => {
  it.each([
    ['::', 6, 0n],
    ['2001:DB8:0:0:0:0:0:1', 6, 0x20010db8000000000000000000000001n],
    ['fe80::1:2', 6, 0xfe800000000000000000000000010002n],
    ['64:ff9b::192.0.2.33', 6, 0x0064ff9b0000000000000000c0000221n],
    ['1:2:3:4:5:6:7::', 6, 0x00010002000300040005000600070000n],
  ])('parses %s', (text, family, value) => {
    expect(numeric(parseIp(text))).toEqual({ family, value });
  });

  it.each(['g::1', '::1.2.3'])('refuses %j', (text) => {
    expect(parseIp(text)).toBeNull();
  });

  it('unmaps IPv4-mapped client addresses and drops a zone', () => {
    expect(numeric(parseClientIp('::ffff:127.0.0.1'))).toEqual({ family: 4, value: 0x7f000001n });
    expect(numeric(parseClientIp('fe80::1%eth0'))).toEqual({ family: 6, value: 0xfe800000000000000000000000000001n });
    expect(parseIp('fe80::1%eth0')).toBeNull();
  });
});

describe('ranges', () => {
  it('ignores host bits below the prefix', () => {
    expect(ipAllowed(['10.1.2.3/8'], '10.0.0.0')).toBe(true);
    expect(ipAllowed(['10.1.2.3/8'], '10.255.255.255')).toBe(true);
    expect(ipAllowed(['10.1.2.3/8'], '9.255.255.255')).toBe(false);
    expect(ipAllowed(['10.1.2.3/8'], '11.0.0.0')).toBe(false);
    expect(ipAllowed(['192.0.2.7'], '192.0.2.8')).toBe(false);
    expect(ipAllowed(['2001:db8:1::/32'], '2001:db8::')).toBe(true);
  });

  it.each(['10.0.0.0/+8', 'example.com'])('refuses %j', (text) => {
    expect(parseCidr(text)).toBeNull();
  });

  it.each([
    [['127.0.0.1'], '127.0.0.1', true],
    [['127.0.0.0/8'], '127.9.9.9', true],
    [['10.0.0.0/8'], '127.0.0.1', false],
    [['10.0.0.0/8', '127.0.0.0/30'], '127.0.0.3', true],
    [['127.0.0.0/30'], '127.0.0.4', false],
    [['0.0.0.0/0'], '203.0.113.9', true],
    [['2001:db8::/32'], '2001:db8:ffff::1', true],
    [['2001:db8::/32'], '2001:db9::1', false],
    [['::1'], '::1', true],
    [['::1'], '127.0.0.1', false],
    [['127.0.0.1'], '::ffff:127.0.0.1', true],
    [['::ffff:127.0.0.0/104'], '127.0.0.1', true],
    [['::ffff:0:0/96'], '198.51.100.1', true],
    [['::/0'], '127.0.0.1', true],
    [['10.0.0.0/8'], '::ffff:10.1.1.1', true],
    [['not-an-address'], '127.0.0.1', false],
    [['127.0.0.1'], 'garbage', false],
  ])('%j allows %s: %s', (entries, client, allowed) => {
    expect(ipAllowed(entries, client)).toBe(allowed);
  });
});
