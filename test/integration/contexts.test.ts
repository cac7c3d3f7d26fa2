import { describe, expect, it } from 'vitest';
import { BULK_BATCH_SIZE, isAuthError, isCommandError, type BulkCreateResult } from '../../src/api';
import { useSimulator } from './harness';

const h = useSimulator();
const USER = 'analyst@acme.example';

describe('createContext', () => {
  it('sends every parameter where the wire table places it', async () => {
    const client = h.client();
    const expires = Math.floor(Date.now() / 1000) + 7200;

    const created = await client.createContext({
      username: USER,
      url: 'https://Evil.Example/a?b=c#d',
      policy: [
        { type: 'readonly', params: ['true'] },
        { type: 'domain_block', params: ['Bad.Example'] },
        { type: 'licence_feature', params: ['x'] },
      ],
      max_uses: 3,
      expires,
      restrict_client_ips: ['127.0.0.1', '10.0.0.0/8', '::1'],
      session_type: 'toolbox-standalone',
      egress_region: 'New York City',
      browser_profile: { os: 'win', browser: 'firefox', timezone: 'America/New_York', languages: 'en-US,en;q=0.9' },
      categories: { availability: 'public', connectivity: ['datacenter', 'isp'] },
      auto_domain_allow: true,
    });

    const [body] = h.apiBodies();
    expect(body).toEqual([
      { command: 'setauth', data: h.sim.adminToken },
      {
        command: 'create_context',
        command_id: 'c1',
        max_uses: 3,
        expires: String(expires),
        context_data: {
          user: USER,
          urls: ['https://evil.example/a?b=c#d'],
          policy: [
            { type: 'readonly', params: ['true'] },
            { type: 'domain_block', params: ['bad.example'] },
            { type: 'licence_feature', params: ['x'] },
            { type: 'domain_allow', params: ['evil.example'] },
          ],
          restrict_client_ips: ['127.0.0.1', '10.0.0.0/8', '::1'],
          session_type: 'toolbox-standalone',
          egress_region: 'New York City',
          browser_profile: { os: 'win', browser: 'firefox', timezone: 'America/New_York', languages: 'en-US,en;q=0.9' },
          categories: { availability: 'public', connectivity: ['datacenter', 'isp'] },
        },
      },
    ]);
    expect(created).toEqual({ browse_context_id: expect.any(String) as string, expires, max_uses: 3 });
    expect(h.sim.state.contexts.get(created.browse_context_id)?.maxUses).toBe(3);
  });

  it('adds no domain_allow entry unless asked, nor when one already allows the host', async () => {
    const client = h.client();
    await client.createContext({ username: USER, url: 'https://evil.example/' });
    await client.createContext({
      username: USER,
      url: 'https://evil.example/',
      policy: [{ type: 'domain_allow', params: ['evil.example'] }],
      auto_domain_allow: true,
    });
    const policies = h.apiBodies().map((body) => (body[1] as { context_data: { policy?: unknown } }).context_data.policy);
    expect(policies).toEqual([undefined, [{ type: 'domain_allow', params: ['evil.example'] }]]);
  });

  it('sends the three expiry forms as wire strings', async () => {
    const client = h.client();
    const iso = new Date(Date.now() + 3_600_000).toISOString();
    const date = new Date(Date.now() + 7_200_000);
    await client.createContext({ username: USER, url: 'https://a.example/', expires: { in_seconds: 3600 } });
    await client.createContext({ username: USER, url: 'https://a.example/', expires: iso });
    await client.createContext({ username: USER, url: 'https://a.example/', expires: date });
    const sent = h.apiBodies().map((body) => (body[1] as { expires: string }).expires);
    expect(sent).toEqual(['+3600', iso, String(Math.floor(date.getTime() / 1000))]);
  });

  it('creates for an org instead of a user', async () => {
    await h.client().createContext({ org: 'acme/soc', url: 'https://a.example/' });
    const [body] = h.apiBodies();
    expect((body?.[1] as { context_data: unknown }).context_data).toEqual({ org: 'acme/soc', urls: ['https://a.example/'] });
  });

  it('throws CommandError with the service text when the service refuses', async () => {
    const error = await h
      .client()
      .createContext({ username: 'nobody@acme.example', url: 'https://a.example/' })
      .catch((e: unknown) => e);
    expect(isCommandError(error)).toBe(true);
    expect(error).toMatchObject({ command: 'create_context', kind: 'other' });
  });
});

describe('createResearchContext', () => {
  it('creates a toolbox-standalone context, with or without a URL', async () => {
    const client = h.client();
    const created = await client.createResearchContext({
      username: USER,
      egress_region: 'New York City',
      browser_profile: { os: 'linux', browser: 'tor' },
    });
    const [body] = h.apiBodies();
    expect((body?.[1] as { context_data: unknown }).context_data).toEqual({
      user: USER,
      session_type: 'toolbox-standalone',
      egress_region: 'New York City',
      browser_profile: { os: 'linux', browser: 'tor' },
    });
    expect(h.sim.state.contexts.get(created.browse_context_id)).toBeDefined();
  });
});

describe('get, update and delete', () => {
  it('reads details, changes them and deletes the context', async () => {
    const client = h.client();
    const { browse_context_id: id } = await client.createContext({ username: USER, url: 'https://a.example/', max_uses: 5 });
    const page = await fetch(client.launchUrl(id));
    expect(page.status).toBe(200);

    const details = await client.getContext(id);
    expect(details).toMatchObject({ browse_context_id: id, use_count: 1, max_uses: 5, enabled: true });
    expect(details.context_data).toMatchObject({ user: USER, urls: ['https://a.example/'] });

    const expires = Math.floor(Date.now() / 1000) + 600;
    const updated = await client.updateContext(id, { enabled: false, name: 'Phish #4411', max_uses: 9, expires });
    expect(updated).toMatchObject({ enabled: false, name: 'Phish #4411', max_uses: 9, expires });

    expect(await client.deleteContext(id)).toBe(true);
    expect(await client.deleteContext(id)).toBe(false);
    await expect(client.getContext(id)).rejects.toMatchObject({ name: 'CommandError', kind: 'not_found' });

    expect(h.apiBodies().map((body) => body[1])).toEqual([
      expect.objectContaining({ command: 'create_context' }),
      { command: 'get_context', command_id: 'c1', browse_context_id: id },
      { command: 'update_context', command_id: 'c1', browse_context_id: id, max_uses: 9, expires: String(expires), name: 'Phish #4411', enabled: false },
      { command: 'delete_context', command_id: 'c1', browse_context_id: id },
      { command: 'delete_context', command_id: 'c1', browse_context_id: id },
      { command: 'get_context', command_id: 'c1', browse_context_id: id },
    ]);
  });

  it('updates context_data with the creation placement', async () => {
    const client = h.client();
    const { browse_context_id: id } = await client.createContext({ username: USER, url: 'https://a.example/' });
    await client.updateContext(id, { context_data: { username: USER, url: 'https://b.example/', policy: [{ type: 'ad_block', params: ['enable'] }] } });
    const body = h.apiBodies()[1];
    expect(body?.[1]).toEqual({
      command: 'update_context',
      command_id: 'c1',
      browse_context_id: id,
      context_data: { user: USER, urls: ['https://b.example/'], policy: [{ type: 'ad_block', params: ['enable'] }] },
    });
  });
});

describe('bulkCreateContexts', () => {
  const urls = (n: number): string[] => Array.from({ length: n }, (_, i) => `https://host${i}.example/p`);

  it(`creates ${BULK_BATCH_SIZE} contexts in one request, launch URLs in input order`, async () => {
    const result = await h.client().bulkCreateContexts({ urls: urls(BULK_BATCH_SIZE), username: USER, auto_domain_allow: true });
    expect(h.apiRequests()).toHaveLength(1);
    expect(result.failures).toEqual([]);
    expect(result.context_urls).toHaveLength(BULK_BATCH_SIZE);
    result.created.forEach((item, i) => {
      expect(item.index).toBe(i);
      expect(item.url).toBe(`https://host${i}.example/p`);
      expect(item.launch_url).toBe(h.sim.launchUrl(item.browse_context_id));
      expect(h.sim.state.contexts.get(item.browse_context_id)?.contextData.policy).toEqual([{ type: 'domain_allow', params: [`host${i}.example`] }]);
    });
    const [body] = h.apiBodies();
    expect(body?.map((command) => (command as { command_id?: string }).command_id)).toEqual([undefined, ...urls(BULK_BATCH_SIZE).map((_, i) => `c${i + 1}`)]);
  });

  it('batches larger lists and reports invalid URLs without stopping the rest', async () => {
    const list = urls(120);
    list[7] = 'javascript:alert(1)';
    list[60] = 'not a url';
    const result: BulkCreateResult = await h.client().bulkCreateContexts({ urls: list, username: USER });
    expect(h.apiRequests()).toHaveLength(3);
    expect(result.failures.map((f) => [f.index, f.kind])).toEqual([
      [7, 'ValidationError'],
      [60, 'ValidationError'],
    ]);
    expect(result.failures[0]?.error).toContain('javascript:');
    expect(result.failures.map((f) => [f.code, f.params])).toEqual([
      ['urlScheme', ['urls[7]', 'javascript:']],
      ['urlNotAbsolute', ['urls[60]']],
    ]);
    expect(result.context_urls).toHaveLength(118);
    expect(result.created.map((c) => c.index)).toEqual(list.map((_, i) => i).filter((i) => i !== 7 && i !== 60));
  });

  it('reports a command the service refuses as a failure of that URL alone', async () => {
    h.sim.faults.set({ refuseUrls: ['https://host1.example/p'] });
    const result = await h.client().bulkCreateContexts({ urls: urls(3), username: USER });
    expect(result.created.map((c) => c.index)).toEqual([0, 2]);
    expect(result.failures).toEqual([
      {
        index: 1,
        url: 'https://host1.example/p',
        error: expect.stringContaining('refused') as string,
        kind: 'CommandError',
        code: 'commandRefused',
        params: ['create_context', expect.stringContaining('ValueError') as string],
      },
    ]);
  });

  it('reports a lost batch per URL and never retries a creation', async () => {
    h.sim.faults.set({ status: 502 });
    const result = await h.client().bulkCreateContexts({ urls: urls(2), username: USER });
    expect(h.apiRequests()).toHaveLength(1);
    expect(result.context_urls).toEqual([]);
    expect(result.failures.map((f) => f.kind)).toEqual(['HttpError', 'HttpError']);
  });

  it('stops sending after the token is refused', async () => {
    const result = await h.client({ token: 'wrong-token' }).bulkCreateContexts({ urls: urls(120), username: USER });
    expect(h.apiRequests()).toHaveLength(1);
    expect(result.failures).toHaveLength(120);
    expect(result.failures.every((f) => f.kind === 'AuthError')).toBe(true);
  });

  it('refuses a bad shared parameter before sending', async () => {
    await expect(h.client().bulkCreateContexts({ urls: urls(2), username: USER, org: 'acme' })).rejects.toMatchObject({
      name: 'ValidationError',
      field: 'username',
    });
    expect(h.apiRequests()).toHaveLength(0);
  });
});

describe('authentication', () => {
  it('a bad token is an AuthError although setauth was acknowledged', async () => {
    const error = await h
      .client({ token: 'not-the-token' })
      .getContext('x')
      .catch((e: unknown) => e);
    expect(isAuthError(error)).toBe(true);
  });

  it('no token at all is an AuthError before anything is sent', async () => {
    await expect(h.client({ token: () => '' }).getContext('x')).rejects.toMatchObject({ name: 'AuthError' });
    expect(h.apiRequests()).toHaveLength(0);
  });

  it('reads a token function once per request', async () => {
    let reads = 0;
    const client = h.client({
      token: () => {
        reads += 1;
        return h.sim.adminToken;
      },
    });
    await client.createContext({ username: USER, url: 'https://a.example/' });
    await client.listUsers('acme');
    expect(reads).toBe(2);
  });
});
