import { describe, expect, it } from 'vitest';
import { isCommandError } from '../../src/api';
import { SEED_TOKENS } from '../simulator';
import { useSimulator } from './harness';

const h = useSimulator();

describe('users and organisations', () => {
  it('lists users with the documented fields', async () => {
    const users = await h.client().listUsers('acme');
    expect(h.apiBodies()[0]?.[1]).toEqual({ command: 'listusers', command_id: 'c1', org: 'acme' });
    const analyst = users.find((u) => u.username === 'analyst@acme.example');
    expect(analyst).toMatchObject({ email: 'analyst@acme.example', given_name: 'Ada', surname: 'Analyst', is_suspended: false });
    expect(analyst?.phone?.[0]).toMatchObject({ cc: '1' });
  });

  it('reads an org record and keeps its fields', async () => {
    const org = await h.client().getOrg('acme/soc');
    expect(h.apiBodies()[0]?.[1]).toEqual({ command: 'org.get', command_id: 'c1', org_name: 'acme/soc' });
    expect(org).toMatchObject({ name: 'soc' });
  });

  it('an unknown org, or one outside the token, is a no_org CommandError', async () => {
    const unknown = await h
      .client()
      .getOrg('acme/nowhere')
      .catch((e: unknown) => e);
    expect(isCommandError(unknown) && unknown.kind).toBe('no_org');
    const foreign = await h
      .client({ token: SEED_TOKENS.globexAdmin })
      .listUsers('acme')
      .catch((e: unknown) => e);
    expect(isCommandError(foreign) && foreign.kind).toBe('no_org');
  });
});

describe('proxies', () => {
  it('reads own and inherited proxies, with the policy when asked', async () => {
    const client = h.client();
    const plain = await client.getProxies('acme/soc/tier1');
    expect(plain.proxy_policy).toBeUndefined();
    // Own proxies first, then inherited ones, nearest ancestor first.
    expect(plain.proxies.map((p) => [p.name, p.inherited_from])).toEqual([
      ['soc-tls', 'acme/soc'],
      ['acme-egress', 'acme'],
    ]);
    const withPolicy = await client.getProxies('acme/soc', { include_proxy_policy: true });
    expect(withPolicy.proxy_policy).toBeDefined();
    expect(h.apiBodies().map((b) => b[1])).toEqual([
      { command: 'policy_proxies.get', command_id: 'c1', org_name: 'acme/soc/tier1', include_proxy_policy: false },
      { command: 'policy_proxies.get', command_id: 'c1', org_name: 'acme/soc', include_proxy_policy: true },
    ]);
  });

  it('adds with defaults filled in, and warns about https and socks', async () => {
    const result = await h.client().addProxies('acme/soc/tier1', [
      { name: 'plain', location: { address: 'proxy.tier1.example' } },
      { name: 'tls', location: { address: 'TLS.tier1.example', type: 'https' } },
      { name: 'old', location: { address: '192.0.2.10', type: 'socks4' } },
      { name: 'new', location: { address: '2001:db8::10', type: 'socks5', port: 1081 } },
    ]);
    expect(h.apiBodies()[0]?.[1]).toEqual({
      command: 'policy_proxies.add',
      command_id: 'c1',
      org_name: 'acme/soc/tier1',
      proxies: [
        { name: 'plain', location: { address: 'proxy.tier1.example', port: 80, type: 'http' } },
        { name: 'tls', location: { address: 'tls.tier1.example', port: 443, type: 'https' } },
        { name: 'old', location: { address: '192.0.2.10', port: 1080, type: 'socks4' } },
        { name: 'new', location: { address: '2001:db8::10', port: 1081, type: 'socks5' } },
      ],
    });
    expect(result.proxies.map((p) => p.name)).toEqual(['plain', 'tls', 'old', 'new']);
    expect(result.warnings.map((w) => [w.proxy, w.code])).toEqual([
      ['tls', 'https_certificate_name'],
      ['old', 'socks4_no_auth'],
      ['new', 'socks5_no_auth_chrome'],
    ]);
    // The parent is untouched.
    const parent = await h.client().getProxies('acme/soc');
    expect(parent.proxies.map((p) => p.name)).toEqual(['soc-tls', 'acme-egress']);
  });

  it('sets (replaces) and clears with an empty list', async () => {
    const client = h.client();
    const replaced = await client.setProxies('acme/soc', [{ name: 'only', location: { address: 'only.example' } }]);
    expect(replaced.proxies.map((p) => p.name)).toEqual(['only']);
    const cleared = await client.setProxies('acme/soc', []);
    expect(cleared.proxies).toEqual([]);
    const after = await client.getProxies('acme/soc');
    expect(after.proxies.map((p) => p.name)).toEqual(['acme-egress']);
  });

  it('deletes by name and reports names not found', async () => {
    const result = await h.client().deleteProxies('acme/soc', ['soc-tls', 'ghost', 'ghost']);
    expect(result).toEqual({ proxies_deleted: ['soc-tls'], proxies_not_found: ['ghost'] });
    expect(h.apiBodies()[0]?.[1]).toEqual({
      command: 'policy_proxies.delete',
      command_id: 'c1',
      org_name: 'acme/soc',
      proxy_names: ['soc-tls', 'ghost'],
    });
  });
});

describe('files', () => {
  it('uploads and downloads bytes through multipart forms', async () => {
    const client = h.client();
    const bytes = new Uint8Array([0, 1, 2, 250, 255, 10, 13]);
    const { file_id } = await client.putFile({
      file: bytes,
      name: 'sample.bin',
      path: '/cases/4411',
      bucket_id: 'evidence',
      file_token: h.sim.fileToken,
      content_type: 'application/octet-stream',
    });
    const put = h.sim.requests.find((r) => r.path === '/putfile/');
    expect(put?.body).toEqual({
      auth: h.sim.fileToken,
      bucket_id: 'evidence',
      name: 'sample.bin',
      path: '/cases/4411',
      content_type: 'application/octet-stream',
      file: { filename: 'sample.bin', size: bytes.length },
    });
    const back = await client.getFile({ id: file_id, file_token: h.sim.fileToken });
    expect([...back]).toEqual([...bytes]);
    const get = h.sim.requests.find((r) => r.path === '/getfile/');
    expect(get?.body).toEqual({ id: file_id, auth: h.sim.fileToken });
  });

  it('a wrong file token is an AuthError; an unknown id an HttpError 404', async () => {
    const client = h.client();
    await expect(client.getFile({ id: 'nope', file_token: 'wrong' })).rejects.toMatchObject({ name: 'AuthError' });
    await expect(client.getFile({ id: 'nope', file_token: h.sim.fileToken })).rejects.toMatchObject({ name: 'HttpError', status: 404 });
  });
});

describe('launch and shortcut URLs', () => {
  it('the shortcut URL works against the service, in each response mode', async () => {
    const client = h.client();
    const asUrl = await client.shortcutUrl({ user: 'analyst@acme.example', url: 'https://evil.example/x', response: 'url' });
    expect(asUrl.startsWith(`${h.sim.url}/ctx/?`)).toBe(true);
    const launch = await (await fetch(asUrl)).text();
    expect(launch.startsWith(`${h.sim.launchBase}/launch?ctx=`)).toBe(true);
    const asId = await client.shortcutUrl({ user: 'analyst@acme.example', url: 'https://evil.example/x', response: 'id' });
    const id = await (await fetch(asId)).text();
    expect(h.sim.state.contexts.has(id)).toBe(true);
    const redirect = await fetch(await client.shortcutUrl({ user: 'analyst@acme.example', url: 'https://evil.example/x' }), { redirect: 'manual' });
    expect(redirect.status).toBeGreaterThanOrEqual(300);
    expect(redirect.status).toBeLessThan(400);
  });

  it('a launch URL opens the session page of its context', async () => {
    const client = h.client();
    const { browse_context_id: id } = await client.createContext({
      username: 'lead@acme.example',
      url: 'https://evil.example/<script>',
      policy: [{ type: 'ribbon_message', params: ['Isolated by the SOC'] }],
    });
    const page = await (await fetch(client.launchUrl(id))).text();
    expect(page).toContain('Isolated by the SOC');
    expect(page).toContain('https://evil.example/%3Cscript%3E');
  });
});

describe('send', () => {
  it('sends raw commands after setauth and returns their slots', async () => {
    const slots = await h.client().send([{ command: 'listusers', org: 'acme/legal' }, { command: 'no_such_command' }]);
    expect(slots[0]).toMatchObject({ ok: true });
    expect(slots[1]).toMatchObject({ ok: false, kind: 'other' });
    expect(h.apiBodies()[0]).toEqual([
      { command: 'setauth', data: h.sim.adminToken },
      { command: 'listusers', org: 'acme/legal', command_id: 'c1' },
      { command: 'no_such_command', command_id: 'c2' },
    ]);
  });
});
