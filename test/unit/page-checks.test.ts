/**
 * The checks the options page runs before it sends, without zod, against the zod
 * schemas the background and the client check with: the same verdicts, the same
 * fields and codes.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/service/errors';
import { prepareProxies } from '../../src/api/params';
import { MAX_NAME_LENGTH, checkProxies, type ProxyDraft } from '../../src/service/values';
import { MAX_BULK_URLS, MAX_CONTEXT_NAME_LENGTH, MAX_FILE_BYTES } from '../../src/messaging/limits';
import { MAX_IMPORT_LENGTH } from '../../src/settings/limits';
import { messageSchema, PROTOCOL, type MessageType } from '../../src/messaging/protocol';
import { MAX_BASE_URL_LENGTH, MAX_IDENTITY_LENGTH, textSettingProblem } from '../../src/settings/limits';
import { settingReason } from '../../src/settings/errors';
import { parsePartialSettings, settingShapes } from '../../src/settings/schema';

/** prepareProxies' answer in checkProxies' form. */
function zodAnswer(list: readonly ProxyDraft[], field: string): unknown {
  try {
    return prepareProxies(list, field);
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    return { field: error.field, code: error.code, details: error.params.slice(1) };
  }
}

const name = fc.oneof(fc.constantFrom('', 'web1', 'web2', 'Proxy Ü', 'x'.repeat(MAX_NAME_LENGTH)), fc.constant('x'.repeat(MAX_NAME_LENGTH + 1)));
const address = fc.constantFrom(
  '203.0.113.7',
  '::1',
  '[::1]',
  'proxy.example.com',
  'Proxy.Example.COM.',
  'пример.рф',
  'localhost',
  'not a host',
  '',
  '1.2.3',
  'a..b',
);
/** A port as a form gives it: a number when typed as digits (up to 9 of them), else the text. */
const port = fc.oneof(fc.constant(undefined), fc.integer({ min: 0, max: 999_999_999 }), fc.constantFrom(1, 65535, 65536, 'abc', '8080a', '-1', '1.5'));
const type = fc.constantFrom(undefined, 'http', 'https', 'socks', 'socks4', 'socks5', 'ftp', 'HTTP');
const draft = fc.record({ name, address, port, type }).map(({ name: n, address: a, port: p, type: ty }): ProxyDraft => ({
  name: n,
  location: { address: a, ...(p === undefined ? {} : { port: p }), ...(ty === undefined ? {} : { type: ty }) },
}));

describe('checkProxies (the options page) against prepareProxies (the client)', () => {
  it('gives the same list, warnings or first problem for any list a form can give', () => {
    fc.assert(
      fc.property(fc.array(draft, { maxLength: 4 }), fc.constantFrom('proxies', 'proxy'), (list, field) => {
        expect(checkProxies(list, field)).toEqual(zodAnswer(list, field));
      }),
      { numRuns: 500 },
    );
  });

  it.each<[string, ProxyDraft[], unknown]>([
    ['an empty name', [{ name: '', location: { address: '203.0.113.7' } }], { field: 'proxies[0].name', code: 'empty', details: [] }],
    ['a bad address', [{ name: 'p', location: { address: 'not a host' } }], { field: 'proxies[0].location.address', code: 'notIpOrFqdn', details: [] }],
    [
      'a port out of range',
      [{ name: 'p', location: { address: '203.0.113.7', port: 70000 } }],
      { field: 'proxies[0].location.port', code: 'notPort', details: [] },
    ],
    [
      'a port that is not a number',
      [{ name: 'p', location: { address: '203.0.113.7', port: '80a' } }],
      { field: 'proxies[0].location.port', code: 'notNumber', details: [] },
    ],
    [
      'a repeated name',
      [
        { name: 'p', location: { address: '203.0.113.7' } },
        { name: 'p', location: { address: '203.0.113.8' } },
      ],
      { field: 'proxies[1].name', code: 'duplicateProxy', details: ['"p"'] },
    ],
  ])('refuses %s', (_, list, expected) => {
    expect(checkProxies(list)).toEqual(expected);
    expect(zodAnswer(list, 'proxies')).toEqual(expected);
  });

  it('refuses more proxies than one request carries', () => {
    const list = Array.from({ length: 1001 }, (_, i): ProxyDraft => ({ name: `p${String(i)}`, location: { address: '203.0.113.7' } }));
    expect(checkProxies(list)).toEqual({ field: 'proxies', code: 'tooMany', details: ['1000'] });
    expect(zodAnswer(list, 'proxies')).toEqual({ field: 'proxies', code: 'tooMany', details: ['1000'] });
  });

  it('fills in the defaults and normalises the address', () => {
    expect(checkProxies([{ name: 'p', location: { address: 'Proxy.Example.COM.', type: 'socks5' } }])).toEqual({
      proxies: [{ name: 'p', location: { address: 'proxy.example.com', port: 1080, type: 'socks5' } }],
      warnings: [{ proxy: 'p', code: 'socks5_no_auth_chrome', message: 'p: SOCKSv5 supports no authentication in Chrome.' }],
    });
  });
});

describe('textSettingProblem (the options page) against the settings schema', () => {
  const keys = ['serviceUrl', 'launchUrl', 'username', 'org'] as const;
  const values = [
    '',
    'https://isolation.example.com',
    'https://isolation.example.com/base/',
    'http://127.0.0.1:8787',
    'http://localhost:8787',
    'http://isolation.example.com',
    'https://user:pw@isolation.example.com',
    'https://isolation.example.com/?q=1',
    'isolation.example.com',
    'analyst@acme.example',
    'acme/soc',
    ' analyst',
    `https://isolation.example.com/${'a'.repeat(MAX_BASE_URL_LENGTH)}`,
    'a'.repeat(MAX_IDENTITY_LENGTH),
    'a'.repeat(MAX_IDENTITY_LENGTH + 1),
  ];

  it.each(keys)('accepts exactly what the schema accepts for %s', (key) => {
    for (const value of values) {
      expect({ value, ok: textSettingProblem(key, value) === undefined }).toEqual({ value, ok: settingShapes[key].safeParse(value).success });
    }
  });

  it('says why with the code and details the schema’s issue carries', () => {
    for (const key of keys) {
      for (const value of values) {
        const problem = textSettingProblem(key, value);
        if (problem === undefined) continue;
        const [issue] = parsePartialSettings({ [key]: value }).issues;
        expect({ key, value, code: problem.code, params: [key, ...problem.details] }).toEqual({ key, value, code: issue?.code, params: issue?.params });
        expect(settingReason(problem.code, problem.details)).toBe(issue?.message);
      }
    }
  });

  it.each<[string, 'serviceUrl' | 'org' | 'username', string, unknown, string]>([
    [
      'plain http off loopback',
      'serviceUrl',
      'http://isolation.example.com',
      { code: 'settingServiceBase', details: [] },
      'must be an https URL (http only on 127.0.0.1 or localhost)',
    ],
    ['spaces around', 'org', ' acme', { code: 'settingSpaces', details: [] }, 'must not start or end with spaces'],
    [
      'too long',
      'username',
      'a'.repeat(MAX_IDENTITY_LENGTH + 1),
      { code: 'tooLong', details: [String(MAX_IDENTITY_LENGTH)] },
      `must be at most ${String(MAX_IDENTITY_LENGTH)} characters`,
    ],
  ])('refuses %s', (_label, key, value, expected, english) => {
    const problem = textSettingProblem(key, value);
    expect(problem).toEqual(expected);
    expect(problem && settingReason(problem.code, problem.details)).toBe(english);
  });
});

describe('the limits the pages check against are the protocol’s', () => {
  it('holds the import, bulk, rename and upload limits', () => {
    const confirmed = { serviceUrl: '', launchUrl: '' };
    expect(messageSchema('importSettings').safeParse({ json: 'x'.repeat(MAX_IMPORT_LENGTH), confirmed }).success).toBe(true);
    expect(messageSchema('importSettings').safeParse({ json: 'x'.repeat(MAX_IMPORT_LENGTH + 1), confirmed }).success).toBe(false);
    expect(messageSchema('previewImport').safeParse({ json: 'x'.repeat(MAX_IMPORT_LENGTH + 1) }).success).toBe(false);
    const urls = (n: number) => Array.from({ length: n }, (_, i) => `https://h${String(i)}.example/`);
    expect(messageSchema('bulkCreate').safeParse({ urls: urls(MAX_BULK_URLS) }).success).toBe(true);
    expect(messageSchema('bulkCreate').safeParse({ urls: urls(MAX_BULK_URLS + 1) }).success).toBe(false);
    expect(messageSchema('updateContext').safeParse({ id: 'c', name: 'n'.repeat(MAX_CONTEXT_NAME_LENGTH) }).success).toBe(true);
    expect(messageSchema('updateContext').safeParse({ id: 'c', name: 'n'.repeat(MAX_CONTEXT_NAME_LENGTH + 1) }).success).toBe(false);
    const base64 = (bytes: number) => 'A'.repeat(Math.ceil(bytes / 3) * 4);
    expect(messageSchema('putFile').safeParse({ name: 'f', bucketId: 'b', fileToken: 't', base64: base64(MAX_FILE_BYTES) }).success).toBe(true);
    expect(messageSchema('putFile').safeParse({ name: 'f', bucketId: 'b', fileToken: 't', base64: base64(MAX_FILE_BYTES + 3) }).success).toBe(false);
  });
});

describe('the message schemas', () => {
  it('are built once per type, on first use, then kept', () => {
    for (const type of Object.keys(PROTOCOL) as MessageType[]) expect(messageSchema(type)).toBe(messageSchema(type));
  });
});
