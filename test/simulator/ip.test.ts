import { describe, expect, it } from 'vitest';
import { ipAllowed, parseClientIp, parseIp, parseRange } from './ip';

describe('address parsing', () => {
  it.each([
    ['127.0.0.1', 4, 0x7f000001n],
    ['0.0.0.0', 4, 0n],
    ['255.255.255.255', 4, 0xffffffffn],
    ['::', 6, 0n],
    ['::1', 6, 1n],
    ['2001:db8::1', 6, 0x20010db8000000000000000000000001n],
    ['2001:DB8:0:0:0:0:0:1', 6, 0x20010db8000000000000000000000001n],
    ['fe80::1:2', 6, 0xfe800000000000000000000000010002n],
    ['::ffff:192.0.2.1', 6, 0xffffc0000201n],
    ['64:ff9b::192.0.2.33', 6, 0x0064ff9b0000000000000000c0000221n],
    ['1:2:3:4:5:6:7::', 6, 0x00010002000300040005000600070000n],
  ])('parses %s', (text, family, value) => {
    expect(parseIp(text)).toEqual({ family, value });
  });

  it.each(['', '1.2.3', '1.2.3.4.5', '256.1.1.1', '01.2.3.4', '1.2.3.-4', ':::', '1::2::3', '12345::', '1:2:3:4:5:6:7:8:9', 'g::1', '::1.2.3'])(
    'refuses %j',
    (text) => {
      expect(parseIp(text)).toBeNull();
    },
  );

  it('unmaps IPv4-mapped client addresses and drops a zone', () => {
    expect(parseClientIp('::ffff:127.0.0.1')).toEqual({ family: 4, value: 0x7f000001n });
    expect(parseClientIp('fe80::1%eth0')).toEqual({ family: 6, value: 0xfe800000000000000000000000000001n });
    expect(parseIp('fe80::1%eth0')).toBeNull();
  });
});

describe('ranges', () => {
  it('parses ranges, clearing host bits', () => {
    expect(parseRange('10.1.2.3/8')).toEqual({ family: 4, base: 0x0a000000n, prefix: 8 });
    expect(parseRange('192.0.2.7')).toEqual({ family: 4, base: 0xc0000207n, prefix: 32 });
    expect(parseRange('2001:db8::/32')).toEqual({ family: 6, base: 0x20010db8000000000000000000000000n, prefix: 32 });
    expect(parseRange('0.0.0.0/0')).toEqual({ family: 4, base: 0n, prefix: 0 });
  });

  it.each(['10.0.0.0/33', '::/129', '10.0.0.0/', '10.0.0.0/08', '10.0.0.0/+8', 'example.com', '10.0.0.0/8/8'])('refuses %j', (text) => {
    expect(parseRange(text)).toBeNull();
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
