import { describe, expect, it } from 'vitest';
import { COMMANDS, COMMAND_ID, CONTEXT_FIELDS, DELETE_RESULT_KEY, ENDPOINTS, SERVICE_ERRORS, SETAUTH_ACK, UPDATABLE_KEYS } from '../../src/service/wire';
import { updateParams } from './commands';
import { api, call, createContext, postRaw, result, type Slot, useSimulator } from './helpers';
import { CONTEXT_DEFAULTS, SEED_TOKENS, startSimulator } from '.';

const NOW_MS = Date.UTC(2030, 0, 15, 12, 0, 0);
const NOW_S = NOW_MS / 1000;
const ANALYST = 'analyst@acme.example';

const h = useSimulator({ now: () => NOW_MS });

describe('the command envelope', () => {
  it('acknowledges setauth even for a bad token, and fails every later slot with KeyError', async () => {
    const reply = await api(
      h.sim,
      [{ command: COMMANDS.listUsers, org: 'acme' }, { command: COMMANDS.getOrg, org_name: 'acme' }, { command: 'no_such_command' }],
      'not-a-token',
    );
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual([
      { result: 'setting auth from data' },
      { error: 'KeyError: invalid or missing admin token' },
      { error: SERVICE_ERRORS.badToken },
      { error: SERVICE_ERRORS.badToken },
    ]);
    expect(SETAUTH_ACK).toBe('setting auth from data');
    expect(SERVICE_ERRORS.badToken.startsWith(`${SERVICE_ERRORS.authPrefix}:`)).toBe(true);
  });

  it('treats a missing or non-string token as bad', async () => {
    for (const token of [undefined, null, 42, '']) {
      const reply = await postRaw(
        h.sim,
        JSON.stringify([
          { command: COMMANDS.setauth, data: token },
          { command: COMMANDS.getOrg, org_name: 'acme' },
        ]),
      );
      expect(reply.json).toEqual([{ result: SETAUTH_ACK }, { error: SERVICE_ERRORS.badToken }]);
    }
  });

  it('echoes command_id into its slot, also on errors and on setauth', async () => {
    const reply = await postRaw(
      h.sim,
      JSON.stringify([
        { command: COMMANDS.setauth, data: h.sim.adminToken, [COMMAND_ID]: 'auth-1' },
        { command: COMMANDS.getOrg, org_name: 'acme/legal', [COMMAND_ID]: 'org-2' },
        { command: COMMANDS.getContext, browse_context_id: 'missing', [COMMAND_ID]: 'ctx-3' },
        { command: COMMANDS.getOrg, org_name: 'globex' },
      ]),
    );
    const slots = reply.json as Slot[];
    expect(slots.map((s) => s[COMMAND_ID])).toEqual(['auth-1', 'org-2', 'ctx-3', undefined]);
    expect(slots[0]).toEqual({ result: SETAUTH_ACK, [COMMAND_ID]: 'auth-1' });
    expect(slots[2]).toEqual({ error: SERVICE_ERRORS.notFound, [COMMAND_ID]: 'ctx-3' });
    expect(slots[3]).toEqual({ error: SERVICE_ERRORS.noOrg('globex') });
  });

  it('keeps going after a failing command', async () => {
    const reply = await api(h.sim, [
      { command: 'bogus' },
      { command: COMMANDS.deleteContext, browse_context_id: 'nope' },
      { command: COMMANDS.getOrg, org_name: 'acme/soc' },
      'not an object',
      { command: 7 },
    ]);
    const slots = reply.json as Slot[];
    expect(slots).toHaveLength(6);
    expect(slots[1]).toEqual({ error: 'ValueError: unknown command "bogus"' });
    expect(slots[2]).toEqual({ error: SERVICE_ERRORS.notFound });
    expect((slots[3]?.result as Record<string, unknown>).path).toBe('acme/soc');
    expect(slots[4]).toEqual({ error: 'ValueError: each command must be a JSON object' });
    expect(slots[5]).toEqual({ error: 'ValueError: command must be a string' });
  });

  it('lets a later setauth change the token for the commands after it', async () => {
    const reply = await postRaw(
      h.sim,
      JSON.stringify([
        { command: COMMANDS.setauth, data: 'wrong' },
        { command: COMMANDS.getOrg, org_name: 'globex' },
        { command: COMMANDS.setauth, data: SEED_TOKENS.globexAdmin },
        { command: COMMANDS.getOrg, org_name: 'globex' },
      ]),
    );
    const slots = reply.json as Slot[];
    expect(slots[0]).toEqual({ result: SETAUTH_ACK });
    expect(slots[1]).toEqual({ error: SERVICE_ERRORS.badToken });
    expect(slots[2]).toEqual({ result: SETAUTH_ACK });
    expect((slots[3]?.result as Record<string, unknown>).name).toBe('globex');
  });

  it.each([
    ['not JSON', '{"command":', 'ValueError: the request body is not valid JSON'],
    ['an object', JSON.stringify({ command: COMMANDS.setauth, data: 'x' }), 'ValueError: the request body must be a JSON array of commands'],
    ['an empty array', '[]', 'ValueError: a request holds at least two commands, setauth first'],
    ['setauth alone', JSON.stringify([{ command: COMMANDS.setauth, data: 'x' }]), 'ValueError: a request holds at least two commands, setauth first'],
    [
      'no setauth first',
      JSON.stringify([
        { command: COMMANDS.getOrg, org_name: 'acme' },
        { command: COMMANDS.setauth, data: 'x' },
      ]),
      'ValueError: the first command must be setauth',
    ],
  ])('answers HTTP 400 {error} for %s', async (_name, body, error) => {
    const reply = await postRaw(h.sim, body);
    expect(reply.status).toBe(400);
    expect(reply.contentType).toBe('application/json');
    expect(reply.json).toEqual({ error });
  });

  it('answers 415 without Content-Type application/json, and 405 for GET', async () => {
    const body = JSON.stringify([
      { command: COMMANDS.setauth, data: h.sim.adminToken },
      { command: COMMANDS.getOrg, org_name: 'acme' },
    ]);
    for (const type of [null, 'text/plain', 'application/x-www-form-urlencoded']) {
      const reply = await postRaw(h.sim, body, type);
      expect(reply.status).toBe(415);
      expect(reply.json).toEqual({ error: 'ValueError: Content-Type must be application/json' });
    }
    expect((await postRaw(h.sim, body, 'application/json; charset=utf-8')).status).toBe(200);
    const get = await fetch(`${h.sim.url}${ENDPOINTS.api}`);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
  });

  it('refuses parameters nested under data, and unknown parameters', async () => {
    expect(await call(h.sim, { command: COMMANDS.getOrg, data: { org_name: 'acme' } })).toEqual({
      error: 'ValidationError: org_name: Invalid input: expected string, received undefined; Unrecognized key: "data"',
    });
  });

  it('answers 413 for a body over 1 MiB, 404 for an unknown path', async () => {
    const big = await postRaw(h.sim, JSON.stringify([{ command: COMMANDS.setauth, data: 'x'.repeat(1024 * 1024) }, {}]));
    expect(big.status).toBe(413);
    expect(big.text).toBe('request body over 1048576 bytes');
    expect(h.sim.requests.at(-1)?.body).toBe('[body over 1048576 bytes, not recorded]');
    for (const path of ['/api', '/API/', '/api/x', '/launch/']) {
      const response = await fetch(`${h.sim.url}${path}`);
      expect(response.status).toBe(404);
      expect(await response.text()).toBe('not found');
    }
    const index = await fetch(`${h.sim.url}/`);
    expect(index.status).toBe(200);
    expect(await index.text()).toContain(`POST ${ENDPOINTS.api}`);
  });

  it('logs every request', async () => {
    await api(h.sim, [{ command: COMMANDS.getOrg, org_name: 'acme' }]);
    expect(h.sim.requests).toHaveLength(1);
    const [logged] = h.sim.requests;
    expect(logged).toMatchObject({
      method: 'POST',
      path: ENDPOINTS.api,
      query: {},
      status: 200,
      at: NOW_MS,
      body: JSON.stringify([
        { command: COMMANDS.setauth, data: h.sim.adminToken },
        { command: COMMANDS.getOrg, org_name: 'acme' },
      ]),
    });
    expect(logged?.headers['content-type']).toBe('application/json');
  });
});

describe('create_context', () => {
  it('answers id, expires and max_uses, applying the defaults', async () => {
    const created = await result(h.sim, {
      command: COMMANDS.createContext,
      context_data: { user: ANALYST, urls: ['https://suspicious.example/login'] },
    });
    expect(Object.keys(created).sort()).toEqual([CONTEXT_FIELDS.id, CONTEXT_FIELDS.expires, CONTEXT_FIELDS.maxUses].sort());
    expect(created[CONTEXT_FIELDS.id]).toMatch(/^[0-9a-f]{32}$/);
    expect(created[CONTEXT_FIELDS.expires]).toBe(NOW_S + 86_400);
    expect(created[CONTEXT_FIELDS.maxUses]).toBe(1000);
    expect(CONTEXT_DEFAULTS).toMatchObject({ maxUses: 1000, expiresInSeconds: 86_400 });
  });

  it.each([
    ['epoch seconds as a string', '1900000000', 1_900_000_000],
    ['epoch seconds as a number', 1_900_000_000, 1_900_000_000],
    ['an offset', '+3600', NOW_S + 3600],
    ['an ISO 8601 timestamp', '2030-02-01T00:00:00Z', Date.UTC(2030, 1, 1) / 1000],
  ])('takes expires as %s', async (_name, expires, seconds) => {
    const created = await result(h.sim, {
      command: COMMANDS.createContext,
      context_data: { user: ANALYST, urls: ['https://a.example/'] },
      expires,
      max_uses: 3,
    });
    expect(created[CONTEXT_FIELDS.expires]).toBe(seconds);
    expect(created[CONTEXT_FIELDS.maxUses]).toBe(3);
  });

  it('stores every context_data key and returns the details', async () => {
    const contextData = {
      user: 'lead@acme.example',
      urls: ['https://research.example/'],
      policy: [
        { type: 'readonly', params: ['true'] },
        { type: 'clipboard', params: ['allow_to_local', 'block_to_silo'] },
        { type: 'domain_allow', params: ['research.example', 'cdn.example'] },
        { type: 'some_licensed_type', params: ['anything'] },
      ],
      restrict_client_ips: ['127.0.0.1', '2001:db8::/32'],
      session_type: 'toolbox-standalone',
      egress_region: 'Frankfurt',
      browser_profile: { os: 'linux', browser: 'firefox', timezone: 'Europe/Berlin', languages: 'de-DE,de;q=0.9' },
      categories: { availability: 'public', connectivity: ['datacenter', 'isp'] },
    };
    const id = await createContext(h.sim, contextData, { max_uses: 5, expires: '+60' });
    const details = await result(h.sim, { command: COMMANDS.getContext, [CONTEXT_FIELDS.id]: id });
    expect(details).toEqual({
      [CONTEXT_FIELDS.id]: id,
      [CONTEXT_FIELDS.name]: '',
      [CONTEXT_FIELDS.enabled]: true,
      [CONTEXT_FIELDS.created]: NOW_S,
      [CONTEXT_FIELDS.expires]: NOW_S + 60,
      [CONTEXT_FIELDS.maxUses]: 5,
      [CONTEXT_FIELDS.useCount]: 0,
      [CONTEXT_FIELDS.contextData]: contextData,
    });
  });

  it('creates a toolbox-standalone context without a url, and one for an org', async () => {
    await createContext(h.sim, { user: ANALYST, session_type: 'toolbox-standalone', egress_region: 'North America' });
    await createContext(h.sim, { org: 'acme/legal', urls: ['https://contract.example/'] });
  });

  it.each([
    [
      'both user and org',
      { user: ANALYST, org: 'acme', urls: ['https://a.example/'] },
      'ValidationError: context_data: exactly one of user and org is required',
    ],
    ['neither user nor org', { urls: ['https://a.example/'] }, 'ValidationError: context_data: exactly one of user and org is required'],
    ['no urls for service-ruby', { user: ANALYST }, 'ValidationError: context_data.urls: required unless session_type is toolbox-standalone'],
    [
      'two urls',
      { user: ANALYST, urls: ['https://a.example/', 'https://b.example/'] },
      'ValidationError: context_data.urls: Too big: expected array to have exactly 1 items',
    ],
    [
      'a defanged url',
      { user: ANALYST, urls: ['hxxps://evil[.]example/'] },
      'ValidationError: context_data.urls[0]: not an absolute http(s) URL: "hxxps://evil[.]example/"',
    ],
    [
      'an unknown egress location',
      { user: ANALYST, session_type: 'toolbox-standalone', egress_region: 'Atlantis' },
      'ValidationError: context_data.egress_region: unknown egress location "Atlantis"',
    ],
    [
      'egress_region on a service-ruby session',
      { user: ANALYST, urls: ['https://a.example/'], egress_region: 'Toronto' },
      'ValidationError: context_data.egress_region: only allowed when session_type is toolbox-standalone',
    ],
    [
      'an unknown session type',
      { user: ANALYST, urls: ['https://a.example/'], session_type: 'silo-ruby' },
      'ValidationError: context_data.session_type: Invalid option: expected one of "service-ruby"|"toolbox-standalone"',
    ],
    [
      'an unknown user',
      { user: 'nobody@acme.example', urls: ['https://a.example/'] },
      'ValidationError: context_data.user: unknown user "nobody@acme.example"',
    ],
    [
      'a user of another org',
      { user: 'ops@globex.example', urls: ['https://a.example/'] },
      'ValidationError: context_data.user: unknown user "ops@globex.example"',
    ],
    ['an org outside the token', { org: 'globex', urls: ['https://a.example/'] }, SERVICE_ERRORS.noOrg('globex')],
    ['a misplaced key', { user: ANALYST, url: 'https://a.example/' }, 'ValidationError: context_data: Unrecognized key: "url"'],
    [
      'max_uses inside context_data',
      { user: ANALYST, urls: ['https://a.example/'], max_uses: 3 },
      'ValidationError: context_data: Unrecognized key: "max_uses"',
    ],
    [
      'a bad client range',
      { user: ANALYST, urls: ['https://a.example/'], restrict_client_ips: ['10.0.0.0/33'] },
      'ValidationError: context_data.restrict_client_ips[0]: not an IP address or CIDR range: "10.0.0.0/33"',
    ],
    [
      'an incomplete browser profile',
      { user: ANALYST, session_type: 'toolbox-standalone', browser_profile: { os: 'win' } },
      'ValidationError: context_data.browser_profile.browser: Invalid option: expected one of "chrome"|"firefox"|"edge"|"safari"|"tor"',
    ],
    [
      'a bad timezone',
      { user: ANALYST, session_type: 'toolbox-standalone', browser_profile: { os: 'win', browser: 'edge', timezone: 'Mars/Olympus' } },
      'ValidationError: context_data.browser_profile.timezone: not an IANA timezone name: "Mars/Olympus"',
    ],
  ])('refuses %s', async (_name, contextData, error) => {
    const slot = await call(h.sim, { command: COMMANDS.createContext, context_data: contextData });
    expect(slot).toEqual({ error });
    expect(h.sim.state.contexts.size).toBe(0);
  });

  it.each([
    [{ type: 'readonly', params: ['yes'] }, 'params: must be exactly one of true, false'],
    [{ type: 'file_transfer', params: ['block_all', 'allow_all'] }, 'params: must be exactly one of block_all, allow_all'],
    [{ type: 'clipboard', params: [] }, 'params: must hold at least one of block_all, allow_all, allow_to_local, block_to_silo'],
    [{ type: 'ad_block', params: ['on'] }, 'params: must be exactly one of enable, disable'],
    [{ type: 'browser_chrome', params: ['hidden'] }, 'params: must be exactly one of standard, seamless, minimal'],
    [{ type: 'domain_allow', params: ['https://a.example/'] }, 'params[0]: is not a valid domain name: "https://a.example/"'],
    [{ type: 'domain_block', params: [] }, 'params: must hold at least one domain'],
    [{ type: 'ribbon_background_color', params: ['red'] }, 'params: must be one colour written #rgb or #rrggbb'],
    [{ type: 'ribbon_text_color', params: ['#12345'] }, 'params: must be one colour written #rgb or #rrggbb'],
    [{ type: 'ribbon_message', params: ['x'.repeat(101)] }, 'params[0]: must be at most 100 characters'],
    // Forms the simulator accepted before it checked with src/policy's rules.
    [{ type: 'domain_allow', params: ['research.example', '*.cdn.example'] }, 'params[1]: is not a valid domain name: "*.cdn.example"'],
    [{ type: 'ribbon_text_color', params: ['FFF'] }, 'params: must be one colour written #rgb or #rrggbb'],
    [{ type: 'ribbon_background_color', params: ['#1e40afcc'] }, 'params: must be one colour written #rgb or #rrggbb'],
  ])('refuses the policy entry %j', async (entry, problem) => {
    const slot = await call(h.sim, {
      command: COMMANDS.createContext,
      context_data: { user: ANALYST, urls: ['https://a.example/'], policy: [entry] },
    });
    expect(slot).toEqual({ error: `ValidationError: context_data.policy[0].${problem}` });
  });

  it('accepts a ribbon message of exactly 100 characters (code points) and unknown policy types', async () => {
    await createContext(h.sim, {
      user: ANALYST,
      urls: ['https://a.example/'],
      policy: [
        { type: 'ribbon_message', params: ['🛡'.repeat(100)] },
        { type: 'ribbon_text_color', params: ['#FFF'] },
        { type: 'future_type', params: [] },
      ],
    });
  });

  it.each([
    [{ max_uses: 0 }, 'ValidationError: max_uses: Too small: expected number to be >=1'],
    [{ max_uses: '5' }, 'ValidationError: max_uses: Invalid input: expected number, received string'],
    [{ expires: 'tomorrow' }, 'ValidationError: expires: not epoch seconds, an ISO 8601 timestamp or a +seconds offset: "tomorrow"'],
    [{ expires: '-60' }, 'ValidationError: expires: not epoch seconds, an ISO 8601 timestamp or a +seconds offset: "-60"'],
    [{ session_type: 'toolbox-standalone' }, 'ValidationError: Unrecognized key: "session_type"'],
  ])('refuses command-level %j', async (extra, error) => {
    const slot = await call(h.sim, {
      command: COMMANDS.createContext,
      context_data: { user: ANALYST, urls: ['https://a.example/'] },
      ...extra,
    });
    expect(slot).toEqual({ error });
  });
});

describe('get_context, update_context, delete_context', () => {
  it('takes exactly the updatable keys of the wire table, flat', () => {
    expect(
      Object.keys(updateParams.shape)
        .filter((k) => k !== CONTEXT_FIELDS.id)
        .sort(),
    ).toEqual([...UPDATABLE_KEYS].sort());
  });

  it('updates and answers the details', async () => {
    const id = await createContext(h.sim, { user: ANALYST, urls: ['https://a.example/'] });
    const updated = await result(h.sim, {
      command: COMMANDS.updateContext,
      [CONTEXT_FIELDS.id]: id,
      name: 'Phishing triage',
      enabled: false,
      max_uses: 7,
      expires: '+120',
      context_data: { user: 'responder@acme.example', urls: ['https://b.example/'] },
    });
    expect(updated).toEqual({
      [CONTEXT_FIELDS.id]: id,
      [CONTEXT_FIELDS.name]: 'Phishing triage',
      [CONTEXT_FIELDS.enabled]: false,
      [CONTEXT_FIELDS.created]: NOW_S,
      [CONTEXT_FIELDS.expires]: NOW_S + 120,
      [CONTEXT_FIELDS.maxUses]: 7,
      [CONTEXT_FIELDS.useCount]: 0,
      [CONTEXT_FIELDS.contextData]: { user: 'responder@acme.example', urls: ['https://b.example/'] },
    });
    expect(await result(h.sim, { command: COMMANDS.getContext, [CONTEXT_FIELDS.id]: id })).toEqual(updated);
  });

  it('changes nothing when an update is invalid', async () => {
    const id = await createContext(h.sim, { user: ANALYST, urls: ['https://a.example/'] });
    const slot = await call(h.sim, { command: COMMANDS.updateContext, [CONTEXT_FIELDS.id]: id, name: 'x', expires: 'soon' });
    expect(slot.error).toMatch(/^ValidationError: expires: /);
    expect(h.sim.state.contexts.get(id)?.name).toBe('');
  });

  it('deletes once; then get, update and delete answer not found', async () => {
    const id = await createContext(h.sim, { user: ANALYST, urls: ['https://a.example/'] });
    expect(await result(h.sim, { command: COMMANDS.deleteContext, [CONTEXT_FIELDS.id]: id })).toEqual({ [DELETE_RESULT_KEY]: true });
    for (const command of [COMMANDS.getContext, COMMANDS.deleteContext, COMMANDS.updateContext]) {
      expect(await call(h.sim, { command, [CONTEXT_FIELDS.id]: id })).toEqual({ error: 'KeyError: Did not find any matching records' });
    }
    expect(await call(h.sim, { command: COMMANDS.deleteContext, [CONTEXT_FIELDS.id]: 'never-existed' })).toEqual({ error: SERVICE_ERRORS.notFound });
  });

  it('hides contexts from tokens of other orgs', async () => {
    const id = await createContext(h.sim, { user: ANALYST, urls: ['https://a.example/'] });
    for (const token of [SEED_TOKENS.globexAdmin, SEED_TOKENS.socAdmin]) {
      expect(await call(h.sim, { command: COMMANDS.getContext, [CONTEXT_FIELDS.id]: id }, token)).toEqual({ error: SERVICE_ERRORS.notFound });
    }
    const socContext = await createContext(h.sim, { user: 'responder@acme.example', urls: ['https://a.example/'] });
    const seen = await result(h.sim, { command: COMMANDS.getContext, [CONTEXT_FIELDS.id]: socContext }, SEED_TOKENS.socAdmin);
    expect(seen[CONTEXT_FIELDS.id]).toBe(socContext);
  });
});

describe('listusers and org.get', () => {
  it('lists the users directly in an org, in the service record shape', async () => {
    const users = await result<unknown[]>(h.sim, { command: COMMANDS.listUsers, org: 'acme' });
    expect(users).toEqual([
      {
        username: 'analyst@acme.example',
        email: 'analyst@acme.example',
        given_name: 'Ada',
        surname: 'Analyst',
        is_suspended: false,
        phone: [{ cc: '1', display: '+1 555 010 0100', num: '5550100100' }],
      },
      { username: 'lead@acme.example', email: 'lead@acme.example', given_name: 'Lee', surname: 'Lead', is_suspended: false, phone: [] },
      { username: 'suspended@acme.example', email: 'suspended@acme.example', given_name: 'Sam', surname: 'Suspended', is_suspended: true, phone: [] },
      { username: 'catchall@acme.example', email: 'catchall@acme.example', given_name: 'Cat', surname: 'Chall', is_suspended: false, phone: [] },
    ]);
    const tier1 = await result<Record<string, unknown>[]>(h.sim, { command: COMMANDS.listUsers, org: 'acme/soc/tier1' });
    expect(tier1.map((u) => u.username)).toEqual(['tier1@acme.example']);
  });

  it('answers an org record, the path escaping slashes in names', async () => {
    expect(await result(h.sim, { command: COMMANDS.getOrg, org_name: 'acme' })).toEqual({
      name: 'acme',
      path: 'acme',
      parent: null,
      children: ['acme/soc', 'acme/legal', 'acme/r\\/d'],
      user_count: 4,
      all_users_catchall: false,
      created: NOW_S,
    });
    expect(await result(h.sim, { command: COMMANDS.getOrg, org_name: 'acme/r\\/d' })).toMatchObject({ name: 'r/d', path: 'acme/r\\/d', parent: 'acme' });
    expect(await result(h.sim, { command: COMMANDS.getOrg, org_name: 'globex/soc' }, SEED_TOKENS.globexAdmin)).toMatchObject({
      name: 'soc',
      parent: 'globex',
    });
  });

  it.each([
    ['an unknown org', 'acme/nope', undefined],
    ['a name that is not a path from the top', 'soc', undefined],
    ['an unescaped slash in a name', 'acme/r/d', undefined],
    ['another org of the token', 'globex', undefined],
    ['a token belonging to another org', 'acme', SEED_TOKENS.globexAdmin],
    ['a sibling of the token org', 'acme/legal', SEED_TOKENS.socAdmin],
    ['the parent of the token org', 'acme', SEED_TOKENS.socAdmin],
  ])('answers No org matching for %s', async (_name, org, token) => {
    expect(await call(h.sim, { command: COMMANDS.getOrg, org_name: org }, token ?? h.sim.adminToken)).toEqual({ error: `No org matching ${org}` });
    expect(await call(h.sim, { command: COMMANDS.listUsers, org }, token ?? h.sim.adminToken)).toEqual({ error: SERVICE_ERRORS.noOrg(org) });
  });
});

describe('seed option', () => {
  it('starts bare with seed: false, and takes custom tokens', async () => {
    const bare = await startSimulator({ seed: false, adminToken: 'custom-admin', fileToken: 'custom-file' });
    try {
      expect(bare.adminToken).toBe('custom-admin');
      expect(bare.fileToken).toBe('custom-file');
      expect(await result(bare, { command: COMMANDS.listUsers, org: 'acme' })).toEqual([]);
      expect(await result(bare, { command: COMMANDS.getProxies, org_name: 'acme' })).toEqual({ proxies: [] });
      expect(await call(bare, { command: COMMANDS.getOrg, org_name: 'acme/soc' })).toEqual({ error: SERVICE_ERRORS.noOrg('acme/soc') });
      expect(await call(bare, { command: COMMANDS.getOrg, org_name: 'acme' }, 'demo-admin-token')).toEqual({ error: SERVICE_ERRORS.badToken });
    } finally {
      await bare.close();
    }
  });

  it('refuses a host that is not loopback', async () => {
    await expect(startSimulator({ host: '0.0.0.0' })).rejects.toThrow('the simulator listens on loopback addresses only, not 0.0.0.0');
  });
});
