import { describe, expect, it } from 'vitest';
import { cidrContains, isLoopbackHost, parseCidr, parseIp, unmapIpv4 } from '../../src/net/ip';
import { isFqdn, normalizeHostname } from '../../src/net/host';
import { MAX_URL_LENGTH, checkServiceBase, checkTargetUrl } from '../../src/net/url';

describe('parseIp', () => {
  it.each([
    ['192.0.2.1', 4, [192, 0, 2, 1]],
    ['0.0.0.0', 4, [0, 0, 0, 0]],
    ['255.255.255.255', 4, [255, 255, 255, 255]],
  ])('parses IPv4 %s', (text, version, bytes) => {
    expect(parseIp(text)).toEqual({ version, bytes });
  });

  it.each([
    ['::1', '0000000000000000000000000000000' + '1'],
    ['2001:db8::1', '20010db8000000000000000000000001'],
    ['::ffff:192.0.2.1', '00000000000000000000ffffc0000201'],
    ['[2001:db8::]', '20010db8000000000000000000000000'],
    ['1:2:3:4:5:6:7:8', '00010002000300040005000600070008'],
  ])('parses IPv6 %s', (text, hex) => {
    const parsed = parseIp(text);
    expect(parsed?.version).toBe(6);
    expect(parsed?.bytes.map((b) => b.toString(16).padStart(2, '0')).join('')).toBe(hex);
  });

  it.each([
    '',
    '1.2.3',
    '1.2.3.4.5',
    '256.1.1.1',
    '01.2.3.4',
    '1.2.3.-4',
    'a.b.c.d',
    ':::',
    '1::2::3',
    '1:2:3:4:5:6:7:8:9',
    '12345::',
    'fe80::1%eth0',
    '1:2:3:4:5:6:7::8:9',
  ])('refuses %j', (text) => {
    expect(parseIp(text)).toBeNull();
  });
});

describe('parseCidr and cidrContains', () => {
  it('reads prefixes and host routes', () => {
    expect(parseCidr('10.0.0.0/8')?.prefix).toBe(8);
    expect(parseCidr('192.0.2.7')?.prefix).toBe(32);
    expect(parseCidr('2001:db8::/32')?.prefix).toBe(32);
    expect(parseCidr('::1')?.prefix).toBe(128);
  });

  it.each(['10.0.0.0/33', '10.0.0.0/', '10.0.0.0/08', '::/129', '10.0.0.0/-1', '10.0.0.0/8/8'])('refuses %j', (text) => {
    expect(parseCidr(text)).toBeNull();
  });

  it.each([
    ['10.0.0.0/8', '10.255.1.2', true],
    ['10.0.0.0/8', '11.0.0.1', false],
    ['192.0.2.128/25', '192.0.2.200', true],
    ['192.0.2.128/25', '192.0.2.127', false],
    ['0.0.0.0/0', '203.0.113.9', true],
    ['2001:db8::/32', '2001:db8:ffff::1', true],
    ['2001:db8::/32', '2001:db9::1', false],
    ['10.0.0.0/8', '::ffff:10.0.0.1', false],
  ])('%s contains %s: %s', (cidr, ip, expected) => {
    const range = parseCidr(cidr);
    const address = parseIp(ip);
    if (!range || !address) throw new Error('fixture must parse');
    expect(cidrContains(range, address)).toBe(expected);
  });
});

describe('isLoopbackHost', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.8.9.10', true],
    ['localhost', true],
    ['LOCALHOST', true],
    ['[::1]', true],
    ['::1', true],
    ['128.0.0.1', false],
    ['localhost.example.com', false],
    ['::2', false],
  ])('%s: %s', (host, expected) => {
    expect(isLoopbackHost(host)).toBe(expected);
  });
});

describe('normalizeHostname', () => {
  it.each([
    ['Example.COM', 'example.com'],
    ['example.com.', 'example.com'],
    ['пример.рф', 'xn--e1afmkfd.xn--p1ai'],
    ['münchen.de', 'xn--mnchen-3ya.de'],
    ['192.0.2.1', '192.0.2.1'],
  ])('%s -> %s', (input, expected) => {
    expect(normalizeHostname(input)).toBe(expected);
  });

  it.each([
    '',
    'exa mple.com',
    'example.com/path',
    'user@example.com',
    'example.com:443',
    'a..b',
    '-bad.com',
    'bad-.com',
    `${'a'.repeat(64)}.com`,
    `${'a.'.repeat(130)}com`,
    'exa_mple.com',
    '[::1]',
  ])('refuses %j', (input) => {
    expect(normalizeHostname(input)).toBeNull();
  });

  it('tells FQDNs from single labels and IPs', () => {
    expect(isFqdn('proxy.example.com')).toBe(true);
    expect(isFqdn('proxy')).toBe(false);
    expect(isFqdn('10.0.0.1')).toBe(false);
  });
});

describe('checkTargetUrl', () => {
  it.each(['https://evil.example/a?b=c#d', 'http://192.0.2.1:8080/', 'http://[2001:db8::1]/x', 'https://user:pw@evil.example/'])('accepts %s', (text) => {
    expect(checkTargetUrl(text).ok).toBe(true);
  });

  it.each([
    ['javascript:alert(1)', 'javascript:'],
    ['  \tjavascript:alert(1)', 'javascript:'],
    ['data:text/html,<b>x</b>', 'data:'],
    ['file:///etc/passwd', 'file:'],
    ['blob:https://a.example/uuid', 'blob:'],
    ['about:blank', 'about:'],
    ['chrome://settings', 'chrome:'],
    ['ftp://files.example/a', 'ftp:'],
    ['/relative/path', 'absolute'],
    ['evil.example/path', 'absolute'],
    ['', 'absolute'],
  ])('refuses %j with a reason naming %s', (text, fragment) => {
    const check = checkTargetUrl(text);
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.reason).toContain(fragment);
  });

  it('refuses over-long URLs before parsing them', () => {
    const check = checkTargetUrl(`https://evil.example/${'a'.repeat(MAX_URL_LENGTH)}`);
    expect(check).toEqual({ ok: false, code: 'urlTooLong', params: [String(MAX_URL_LENGTH)], reason: `is longer than ${MAX_URL_LENGTH} characters` });
  });

  it.each([
    ['javascript:alert(1)', 'urlScheme', ['javascript:']],
    ['chrome://settings', 'urlScheme', ['chrome:']],
    ['/relative/path', 'urlNotAbsolute', []],
    ['', 'urlNotAbsolute', []],
  ])('says why it refuses %j as data: %s %j', (text, code, params) => {
    expect(checkTargetUrl(text)).toMatchObject({ ok: false, code, params });
  });
});

describe('checkServiceBase', () => {
  it.each([
    ['https://isolation.example.com', 'https://isolation.example.com'],
    ['https://isolation.example.com/', 'https://isolation.example.com'],
    ['https://example.com/prefix/', 'https://example.com/prefix'],
    ['http://127.0.0.1:8787', 'http://127.0.0.1:8787'],
    ['http://localhost:8787/', 'http://localhost:8787'],
    ['http://[::1]:8787', 'http://[::1]:8787'],
  ])('accepts %s as %s', (input, base) => {
    expect(checkServiceBase(input)).toEqual({ ok: true, base });
  });

  it.each([
    ['http://isolation.example.com', 'baseNotHttps'],
    ['https://u:p@isolation.example.com', 'baseUserinfo'],
    ['https://isolation.example.com/?a=b', 'baseQuery'],
    ['https://isolation.example.com/#x', 'baseQuery'],
    ['ftp://x.example', 'baseNotHttps'],
    ['not a url', 'urlNotAbsolute'],
  ])('refuses %j (%s)', (input, code) => {
    expect(checkServiceBase(input)).toMatchObject({ ok: false, code, params: [] });
  });
});

describe('unmapIpv4', () => {
  it.each([
    ['::ffff:127.0.0.1', { version: 4, bytes: [127, 0, 0, 1] }],
    ['::ffff:c000:201', { version: 4, bytes: [192, 0, 2, 1] }],
    ['192.0.2.1', { version: 4, bytes: [192, 0, 2, 1] }],
  ])('reads %s as IPv4', (text, expected) => {
    const ip = parseIp(text);
    if (!ip) throw new Error('fixture must parse');
    expect(unmapIpv4(ip)).toEqual(expected);
  });

  it.each(['::1', '::127.0.0.1', '::fffe:127.0.0.1', '64:ff9b::192.0.2.33', '1::ffff:127.0.0.1'])('leaves %s as IPv6', (text) => {
    const ip = parseIp(text);
    if (!ip) throw new Error('fixture must parse');
    expect(unmapIpv4(ip)).toEqual(ip);
  });
});
