import { describe, expect, it } from 'vitest';
import { createClient, isLaunchUrl, ValidationError, type CreateContextParams, type ValidationCode } from '../../src/api';
import { checkTargetUrl } from '../../src/net/url';

/** A client whose fetch records calls: validation must fail before any of them. */
function offlineClient() {
  const calls: unknown[] = [];
  const client = createClient({
    baseUrl: 'https://isolation.example.com',
    launchBase: 'https://launch.example.com',
    token: 'token-value',
    fetch: (...args: Parameters<typeof fetch>) => {
      calls.push(args);
      return Promise.reject(new Error('must not be called'));
    },
  });
  return { client, calls };
}

const base = { username: 'analyst@acme.example', url: 'https://evil.example/a' } as const;

/** A URL checkTargetUrl returned, then changed: no longer a checked one. */
function changedAfterCheck(): URL {
  const check = checkTargetUrl('https://evil.example/a');
  if (!check.ok) throw new Error('a plain https URL passes');
  check.url.href = 'javascript:alert(1)';
  return check.url;
}

describe('createContext validation (nothing is sent)', () => {
  it.each<[string, unknown, string, ValidationCode]>([
    ['both username and org', { ...base, org: 'acme' }, 'username', 'identityBoth'],
    ['neither username nor org', { url: base.url }, 'username', 'identityMissing'],
    ['a javascript: URL', { ...base, url: 'javascript:alert(1)' }, 'url', 'urlScheme'],
    ['a relative URL', { ...base, url: '/a' }, 'url', 'urlNotAbsolute'],
    ['a URL object no check returned', { ...base, url: new URL('javascript:alert(1)') }, 'url', 'notText'],
    ['a checked URL changed since', { ...base, url: changedAfterCheck() }, 'url', 'notText'],
    ['max_uses zero', { ...base, max_uses: 0 }, 'max_uses', 'notPositive'],
    ['max_uses fractional', { ...base, max_uses: 1.5 }, 'max_uses', 'notInteger'],
    ['expires in the past', { ...base, expires: 1000 }, 'expires', 'expiresPast'],
    ['expires as prose', { ...base, expires: 'tomorrow' }, 'expires', 'expiresNotIso'],
    ['a bad client IP', { ...base, restrict_client_ips: ['10.0.0.0/8', '10.0.0.300'] }, 'restrict_client_ips[1]', 'notIpOrCidr'],
    ['an unknown session type', { ...base, session_type: 'silo' }, 'session_type', 'notOneOf'],
    ['an unknown egress location', { ...base, egress_region: 'Atlantis' }, 'egress_region', 'notEgressLocation'],
    ['a profile without os', { ...base, browser_profile: { browser: 'chrome' } }, 'browser_profile.os', 'notOneOf'],
    ['an unknown browser', { ...base, browser_profile: { os: 'win', browser: 'netscape' } }, 'browser_profile.browser', 'notOneOf'],
    ['a bad time zone', { ...base, browser_profile: { os: 'win', browser: 'chrome', timezone: 'Mars/Olympus' } }, 'browser_profile.timezone', 'notTimeZone'],
    ['an offset time zone', { ...base, browser_profile: { os: 'win', browser: 'chrome', timezone: '+01:00' } }, 'browser_profile.timezone', 'notTimeZone'],
    ['bad languages', { ...base, browser_profile: { os: 'win', browser: 'chrome', languages: 'en;q=2' } }, 'browser_profile.languages', 'notAcceptLanguage'],
    ['an unknown category key', { ...base, categories: { speed: 'fast' } }, 'categories.speed', 'unknownParameter'],
    ['a bad policy value', { ...base, policy: [{ type: 'readonly', params: ['yes'] }] }, 'policy[0].params', 'policyChoice'],
    ['a standard session without a URL', { username: base.username }, 'url', 'urlRequired'],
    ['an egress location on a standard session', { ...base, egress_region: 'Frankfurt' }, 'egress_region', 'researchOnly'],
    ['a browser profile on a standard session', { ...base, browser_profile: { os: 'win', browser: 'chrome' } }, 'browser_profile', 'researchOnly'],
    ['categories on a standard session', { ...base, session_type: 'service-ruby', categories: { availability: 'public' } }, 'categories', 'researchOnly'],
    ['a misspelt parameter', { ...base, maxuses: 3 }, 'maxuses', 'unknownParameter'],
  ])('refuses %s, naming %s (%s)', async (_label, params, field, code) => {
    const { client, calls } = offlineClient();
    const error = await client.createContext(params as CreateContextParams).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).field).toBe(field);
    // As data: the code, and the field first among the params (the extension translates them).
    expect((error as ValidationError).code).toBe(code);
    expect((error as ValidationError).params[0]).toBe(field);
    expect(calls).toHaveLength(0);
  });

  it('refuses research contexts without username or egress_region', async () => {
    const { client, calls } = offlineClient();
    await expect(client.createResearchContext({ username: 'a' } as never)).rejects.toMatchObject({ field: 'egress_region' });
    await expect(client.createResearchContext({ egress_region: 'Frankfurt' } as never)).rejects.toMatchObject({ field: 'username' });
    await expect(client.createResearchContext({ username: 'a', egress_region: 'Frankfurt', org: 'x' } as never)).rejects.toMatchObject({ field: 'org' });
    expect(calls).toHaveLength(0);
  });

  it('refuses bad proxies', async () => {
    const { client, calls } = offlineClient();
    const cases: [unknown[], string][] = [
      [[{ name: '', location: { address: 'p.example' } }], 'proxies[0].name'],
      [[{ name: 'a', location: { address: 'proxy' } }], 'proxies[0].location.address'],
      [[{ name: 'a', location: { address: 'p.example', port: 70000 } }], 'proxies[0].location.port'],
      [[{ name: 'a', location: { address: 'p.example', type: 'ftp' } }], 'proxies[0].location.type'],
      [
        [
          { name: 'a', location: { address: 'p.example' } },
          { name: 'a', location: { address: 'q.example' } },
        ],
        'proxies[1].name',
      ],
    ];
    for (const [proxies, field] of cases) {
      await expect(client.setProxies('acme', proxies)).rejects.toMatchObject({ name: 'ValidationError', field });
    }
    await expect(client.addProxies('acme', [])).rejects.toMatchObject({ field: 'proxies' });
    await expect(client.deleteProxies('acme', [])).rejects.toMatchObject({ field: 'proxy_names' });
    expect(calls).toHaveLength(0);
  });

  it('refuses an update that changes nothing, and raw setauth', async () => {
    const { client, calls } = offlineClient();
    await expect(client.updateContext('abc', {})).rejects.toMatchObject({ field: 'changes' });
    await expect(client.send([{ command: 'setauth', data: 'x' }])).rejects.toMatchObject({ field: 'commands[0].command' });
    await expect(client.send([])).rejects.toMatchObject({ field: 'commands' });
    expect(calls).toHaveLength(0);
  });
});

describe('createClient', () => {
  it.each([
    [{ baseUrl: 'http://isolation.example.com', launchBase: 'https://l.example', token: 't' }, 'baseUrl'],
    [{ baseUrl: 'https://i.example', launchBase: 'javascript:alert(1)', token: 't' }, 'launchBase'],
    [{ baseUrl: 'https://i.example', launchBase: 'https://l.example', token: 't', timeoutMs: 0 }, 'timeoutMs'],
    [{ baseUrl: 'https://i.example', launchBase: 'https://l.example', token: 42 }, 'token'],
  ])('refuses %j', (options, field) => {
    expect(() => createClient(options as never)).toThrow(expect.objectContaining({ field }) as Error);
  });
});

describe('launch URLs', () => {
  const { client } = offlineClient();

  it('builds {launchBase}/launch?ctx=<id> with the id encoded', () => {
    expect(client.launchUrl('abc123')).toBe('https://launch.example.com/launch?ctx=abc123');
    expect(client.launchUrl('a/../b?x=1#y')).toBe('https://launch.example.com/launch?ctx=a%2F..%2Fb%3Fx%3D1%23y');
  });

  it.each([
    ['https://launch.example.com/launch?ctx=abc', true],
    ['https://launch.example.com/launch?ctx=', false],
    ['https://launch.example.com/launch?ctx=abc&next=https://evil.example', false],
    ['https://evil.example/launch?ctx=abc', false],
    ['https://launch.example.com@evil.example/launch?ctx=abc', false],
    ['https://user@launch.example.com/launch?ctx=abc', false],
    ['http://launch.example.com/launch?ctx=abc', false],
    ['https://launch.example.com/other?ctx=abc', false],
    ['https://launch.example.com/launch?ctx=abc#frag', false],
    ['javascript:alert(1)', false],
  ])('isLaunchUrl(%s) is %s', (candidate, expected) => {
    expect(isLaunchUrl('https://launch.example.com', candidate)).toBe(expected);
  });

  it('keeps a launch base path', () => {
    expect(isLaunchUrl('https://example.com/iso/', 'https://example.com/iso/launch?ctx=1')).toBe(true);
    expect(isLaunchUrl('https://example.com/iso/', 'https://example.com/launch?ctx=1')).toBe(false);
  });
});
