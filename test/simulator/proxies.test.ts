import { describe, expect, it } from 'vitest';
import { COMMANDS, PROXY_FIELDS, SERVICE_ERRORS } from '../../src/service/wire';
import { call, result, useSimulator } from './helpers';
import { SEED_TOKENS } from '.';

const h = useSimulator();

const ACME = { name: 'acme-egress', location: { address: 'proxy.acme.example', port: 3128, type: 'http' } };
const SOC = { name: 'soc-tls', location: { address: 'tls-proxy.soc.acme.example', type: 'https' } };
const LEGAL = { name: 'legal-socks', location: { address: '10.20.0.5', port: 1080, type: 'socks5' } };

const get = (org: string, token?: string) =>
  result(h.sim, { command: COMMANDS.getProxies, org_name: org }, token ?? h.sim.adminToken).then((r) => r[PROXY_FIELDS.list]);

describe('policy_proxies.get', () => {
  it('accumulates the proxies of every ancestor, own first, nearest ancestor next', async () => {
    expect(await get('acme')).toEqual([ACME]);
    expect(await get('acme/soc')).toEqual([SOC, { ...ACME, [PROXY_FIELDS.inheritedFrom]: 'acme' }]);
    expect(await get('acme/soc/tier1')).toEqual([
      { ...SOC, inherited_from: 'acme/soc' },
      { ...ACME, inherited_from: 'acme' },
    ]);
    expect(await get('acme/legal')).toEqual([LEGAL, { ...ACME, inherited_from: 'acme' }]);
    expect(await get('acme/r\\/d')).toEqual([{ ...ACME, inherited_from: 'acme' }]);
  });

  it('adds the proxy policy only when asked', async () => {
    expect(await result(h.sim, { command: COMMANDS.getProxies, org_name: 'acme', include_proxy_policy: false })).toEqual({ proxies: [ACME] });
    expect(await result(h.sim, { command: COMMANDS.getProxies, org_name: 'acme/soc', include_proxy_policy: true })).toEqual({
      proxies: [SOC, { ...ACME, inherited_from: 'acme' }],
      [PROXY_FIELDS.policy]: { enabled: true, fail_mode: 'closed', inherited_from: 'acme' },
    });
    expect(await result(h.sim, { command: COMMANDS.getProxies, org_name: 'globex', include_proxy_policy: true }, SEED_TOKENS.globexAdmin)).toEqual({
      proxies: [{ name: 'globex-main', location: { address: 'proxy.globex.example' } }],
      proxy_policy: { enabled: false },
    });
  });

  it('lets a token see its own org and below, nothing else', async () => {
    expect(await get('acme/soc/tier1', SEED_TOKENS.socAdmin)).toHaveLength(2);
    for (const [org, token] of [
      ['acme', SEED_TOKENS.socAdmin],
      ['acme/legal', SEED_TOKENS.socAdmin],
      ['acme', SEED_TOKENS.globexAdmin],
      ['globex', h.sim.adminToken],
      ['globex/soc', h.sim.adminToken],
      ['acme/unknown', h.sim.adminToken],
    ] as const) {
      expect(await call(h.sim, { command: COMMANDS.getProxies, org_name: org }, token)).toEqual({ error: SERVICE_ERRORS.noOrg(org) });
      expect(await call(h.sim, { command: COMMANDS.setProxies, org_name: org, proxies: [] }, token)).toEqual({ error: `No org matching ${org}` });
    }
    expect(await get('acme')).toEqual([ACME]);
  });
});

describe('policy_proxies.set and .add', () => {
  const NEW = { name: 'soc-new', location: { address: '2001:db8::8', port: 8080 } };
  const SOCKS = { name: 'soc-socks', location: { address: 'socks.soc.acme.example', type: 'socks4' } };

  it('set replaces the own list only; parent and siblings keep theirs; children see the change', async () => {
    expect(await result(h.sim, { command: COMMANDS.setProxies, org_name: 'acme/soc', proxies: [NEW, SOCKS] })).toEqual({
      [PROXY_FIELDS.list]: [NEW, SOCKS],
    });
    expect(await get('acme/soc')).toEqual([NEW, SOCKS, { ...ACME, inherited_from: 'acme' }]);
    expect(await get('acme')).toEqual([ACME]);
    expect(await get('acme/legal')).toEqual([LEGAL, { ...ACME, inherited_from: 'acme' }]);
    expect(await get('acme/soc/tier1')).toEqual([
      { ...NEW, inherited_from: 'acme/soc' },
      { ...SOCKS, inherited_from: 'acme/soc' },
      { ...ACME, inherited_from: 'acme' },
    ]);
  });

  it('set with an empty list clears the own list; inherited ones stay', async () => {
    expect(await result(h.sim, { command: COMMANDS.setProxies, org_name: 'acme/soc', proxies: [] })).toEqual({ proxies: [] });
    expect(await get('acme/soc')).toEqual([{ ...ACME, inherited_from: 'acme' }]);
  });

  it('add appends several, leaving parent and siblings alone', async () => {
    expect(await result(h.sim, { command: COMMANDS.addProxies, org_name: 'acme/soc/tier1', proxies: [NEW, SOCKS] })).toEqual({
      proxies: [NEW, SOCKS],
    });
    expect(await result(h.sim, { command: COMMANDS.addProxies, org_name: 'acme/soc', proxies: [NEW] })).toEqual({ proxies: [SOC, NEW] });
    expect(await get('acme/soc/tier1')).toEqual([
      NEW,
      SOCKS,
      { ...SOC, inherited_from: 'acme/soc' },
      { ...NEW, inherited_from: 'acme/soc' },
      { ...ACME, inherited_from: 'acme' },
    ]);
    expect(await get('acme')).toEqual([ACME]);
    expect(await get('acme/legal')).toEqual([LEGAL, { ...ACME, inherited_from: 'acme' }]);
  });

  it('add refuses a name that clashes with an own proxy, changing nothing', async () => {
    expect(await call(h.sim, { command: COMMANDS.addProxies, org_name: 'acme/soc', proxies: [NEW, { ...SOCKS, name: 'soc-tls' }] })).toEqual({
      error: 'ValueError: a proxy named "soc-tls" already exists in acme/soc',
    });
    expect(await get('acme/soc')).toEqual([SOC, { ...ACME, inherited_from: 'acme' }]);
  });

  it('add accepts the name of an inherited proxy (names are unique per org)', async () => {
    const shadow = { name: 'acme-egress', location: { address: '192.0.2.10' } };
    expect(await result(h.sim, { command: COMMANDS.addProxies, org_name: 'acme/soc', proxies: [shadow] })).toEqual({ proxies: [SOC, shadow] });
  });

  it('set refuses duplicate names within the list', async () => {
    expect(await call(h.sim, { command: COMMANDS.setProxies, org_name: 'acme', proxies: [NEW, NEW] })).toEqual({
      error: 'ValueError: duplicate proxy name "soc-new"',
    });
  });

  it.each([
    [{ name: '', location: { address: 'a.example' } }, 'ValidationError: proxies[0].name: Too small: expected string to have >=1 characters'],
    [{ name: 'p', location: {} }, 'ValidationError: proxies[0].location.address: Invalid input: expected string, received undefined'],
    [
      { name: 'p', location: { address: 'http://a.example' } },
      'ValidationError: proxies[0].location.address: not an IP address or host name: "http://a.example"',
    ],
    [{ name: 'p', location: { address: 'a.example', port: 70000 } }, 'ValidationError: proxies[0].location.port: Too big: expected number to be <=65535'],
    [
      { name: 'p', location: { address: 'a.example', type: 'ftp' } },
      'ValidationError: proxies[0].location.type: Invalid option: expected one of "http"|"https"|"socks"|"socks4"|"socks5"',
    ],
  ])('refuses the proxy %j', async (proxy, error) => {
    expect(await call(h.sim, { command: COMMANDS.addProxies, org_name: 'acme', proxies: [proxy] })).toEqual({ error });
  });
});

describe('policy_proxies.delete', () => {
  it('deletes own proxies and reports the rest not found, including inherited names', async () => {
    expect(
      await result(h.sim, {
        command: COMMANDS.deleteProxies,
        org_name: 'acme/soc',
        proxy_names: ['soc-tls', 'acme-egress', 'ghost', 'soc-tls'],
      }),
    ).toEqual({ proxies_deleted: ['soc-tls'], proxies_not_found: ['acme-egress', 'ghost', 'soc-tls'] });
    expect(await get('acme/soc')).toEqual([{ ...ACME, inherited_from: 'acme' }]);
    expect(await get('acme')).toEqual([ACME]);
  });

  it('answers a result even when nothing matched', async () => {
    expect(await result(h.sim, { command: COMMANDS.deleteProxies, org_name: 'acme/soc/tier1', proxy_names: ['a', 'b'] })).toEqual({
      proxies_deleted: [],
      proxies_not_found: ['a', 'b'],
    });
    expect(await result(h.sim, { command: COMMANDS.deleteProxies, org_name: 'acme', proxy_names: [] })).toEqual({
      proxies_deleted: [],
      proxies_not_found: [],
    });
  });

  it('answers No org matching for an org outside the token', async () => {
    expect(await call(h.sim, { command: COMMANDS.deleteProxies, org_name: 'globex', proxy_names: ['globex-main'] })).toEqual({
      error: SERVICE_ERRORS.noOrg('globex'),
    });
  });
});
