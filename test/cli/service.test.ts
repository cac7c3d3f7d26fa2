/**
 * Every service command of the built `isolink`, end to end against the simulator over
 * real HTTP on 127.0.0.1: what it sends, what it prints, and its exit status.
 */
/* eslint-disable no-control-regex -- these tests look for terminal escape codes */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

import type { Simulator } from '../simulator';
import { useSimulator } from '../simulator/helpers';
import { apiCalls, envFor, isolink, put, scratch } from './helpers';

const handle = useSimulator();
const sim = (): Simulator => handle.sim;

type Entry = {
  command: string;
  context_data?: { urls?: string[]; policy?: { type: string; params: string[] }[]; session_type?: string; egress_region?: string };
};

function creates(): Entry[] {
  return apiCalls(sim()).flatMap((call) => call.filter((entry) => entry.command === 'create_context'));
}

const SAFE_LINK = 'https://eur01.safelinks.protection.outlook.com/?url=https%3A%2F%2Freal.example%2Flogin%3Fa%3D1&data=05%7C01&reserved=0';

describe('isolink open', () => {
  it('creates one context for a defanged link, with its domain_allow, and prints the launch URL last', async () => {
    const ran = await isolink(['open', 'hxxps://evil[.]example/login'], { env: envFor(sim()) });
    expect(ran.code).toBe(0);
    const calls = apiCalls(sim());
    expect(calls).toHaveLength(1);
    expect(calls[0]?.map((entry) => entry.command)).toEqual(['setauth', 'create_context']);
    const [created] = creates();
    expect(created?.context_data?.urls).toEqual(['https://evil.example/login']);
    expect(created?.context_data?.policy).toContainEqual({ type: 'domain_allow', params: ['evil.example'] });
    const last = ran.stdout.trimEnd().split('\n').at(-1) ?? '';
    const id = new URL(last).searchParams.get('ctx') ?? '';
    expect(last).toBe(sim().launchUrl(id));
    expect(sim().state.contexts.has(id)).toBe(true);
  });

  it("isolates a Safe Link's real target and says so; --json has url, id and launch", async () => {
    const ran = await isolink(['open', '--json', SAFE_LINK], { env: envFor(sim()) });
    expect(ran.code).toBe(0);
    const result = JSON.parse(ran.stdout) as { url: string; id: string; launch: string; unwrapped: string[]; given: string };
    expect(result).toMatchObject({
      url: 'https://real.example/login?a=1',
      launch: sim().launchUrl(result.id),
      unwrapped: ['Microsoft Safe Links'],
      given: SAFE_LINK,
    });
    expect(creates()[0]?.context_data?.policy).toContainEqual({ type: 'domain_allow', params: ['real.example'] });
    const plain = await isolink(['open', SAFE_LINK], { env: envFor(sim()) });
    expect(plain.stderr).toBe('Unwrapped from Microsoft Safe Links: https://real.example/login?a=1\n');
  });

  it('keeps the wrapper with --keep-wrapper, without a domain_allow for the wrapper', async () => {
    const ran = await isolink(['open', '--keep-wrapper', SAFE_LINK], { env: envFor(sim()) });
    expect(ran.code).toBe(0);
    const [created] = creates();
    expect(created?.context_data?.urls).toEqual([SAFE_LINK]);
    expect(created?.context_data?.policy ?? []).not.toContainEqual(expect.objectContaining({ type: 'domain_allow' }));
  });

  it.each([['javascript:alert(1)'], ['data:text/html,<script>x</script>'], ['https://eur01.safelinks.protection.outlook.com/?url=javascript%3Aalert(1)']])(
    'refuses %s before any request, exit 2',
    async (url) => {
      const ran = await isolink(['open', url], { env: envFor(sim()) });
      expect(ran.code).toBe(2);
      expect(ran.stdout).toBe('');
      expect(ran.stderr).toMatch(
        /^isolink: Refused .*: it uses the (javascript|data): scheme; only http and https links can be isolated\. Nothing was sent; .*\n$/,
      );
      expect(sim().requests).toHaveLength(0);
    },
  );

  it('opens a research session leaving from an egress location', async () => {
    const ran = await isolink(['open', '--research', '--egress', 'Frankfurt', '--json', 'https://research.example/'], { env: envFor(sim()) });
    expect(ran.code).toBe(0);
    expect(JSON.parse(ran.stdout)).toMatchObject({ session_type: 'toolbox-standalone', egress: 'Frankfurt', url: 'https://research.example/' });
    expect(creates()[0]?.context_data).toMatchObject({ session_type: 'toolbox-standalone', egress_region: 'Frankfurt' });
    const unknown = await isolink(['open', '--research', '--egress', 'Atlantis'], { env: envFor(sim()) });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe("isolink: Unknown egress location 'Atlantis'. 'isolink egress' lists them.\n");
  });

  it('takes the defaults of the config file, and flags over them', async () => {
    const home = scratch();
    put(
      home,
      'config.json',
      JSON.stringify({
        serviceUrl: sim().url,
        username: 'lead@acme.example',
        tokenFile: 'token',
        defaults: { maxUses: 3, policy: [{ type: 'readonly', params: ['true'] }] },
      }),
    );
    put(home, 'token', `  ${sim().adminToken}\n`);
    const ran = await isolink(['open', '--json', 'https://a.example/'], { env: { ISOLINK_CONFIG: join(home, 'config.json') } });
    expect(ran.code).toBe(0);
    expect(JSON.parse(ran.stdout)).toMatchObject({ max_uses: 3 });
    expect(creates()[0]?.context_data?.policy).toContainEqual({ type: 'readonly', params: ['true'] });
    const flagged = await isolink(['open', '--json', '--max-uses', '7', 'https://a.example/'], { env: { ISOLINK_CONFIG: join(home, 'config.json') } });
    expect(JSON.parse(flagged.stdout)).toMatchObject({ max_uses: 7 });
  });

  it('points launch URLs at ISOLINK_LAUNCH_URL, its path kept', async () => {
    const ran = await isolink(['open', 'https://a.example/'], { env: envFor(sim(), { ISOLINK_LAUNCH_URL: 'https://portal.example/isolation/' }) });
    expect(ran.code).toBe(0);
    expect(ran.stdout).toMatch(/^https:\/\/portal\.example\/isolation\/launch\?ctx=[\da-f]+\n$/);
  });

  it('exits 1 when the service refuses the token, saying what to check', async () => {
    const ran = await isolink(['open', 'https://a.example/'], { env: envFor(sim(), { ISOLINK_TOKEN: 'not-the-admin-token-at-all' }) });
    expect(ran.code).toBe(1);
    expect(ran.stdout).toBe('');
    expect(ran.stderr).toMatch(/^isolink: .*Check the admin token in ISOLINK_TOKEN or ISOLINK_TOKEN_FILE\.\n$/);
  });

  it('exits 1 when the service cannot be reached, naming the setting to check', async () => {
    const ran = await isolink(['open', 'https://a.example/'], { env: envFor(sim(), { ISOLINK_SERVICE_URL: 'http://127.0.0.1:9' }) });
    expect(ran.code).toBe(1);
    expect(ran.stderr).toMatch(/^isolink: Could not reach the service at 127\.0\.0\.1:9\. Check the service URL/);
    expect(ran.stderr.split('\n')).toHaveLength(2);
  });
});

describe('isolink bulk', () => {
  it('creates 50 contexts in at most 2 requests, one NDJSON line per URL', async () => {
    const real = Array.from({ length: 45 }, (_, i) => `hxxps://host${i}[.]example/p`);
    const opaque = Array.from({ length: 5 }, (_, i) => `https://protect-eu.mimecast.com/s/Ab${i}cDeFgHiJ?domain=x.example`);
    const ran = await isolink(['bulk', '--json'], { env: envFor(sim()), input: [...real, ...opaque].join('\n') });
    expect(ran.code).toBe(0);
    const lines = ran.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { url: string; launch?: string; id?: string });
    expect(lines).toHaveLength(50);
    for (const line of lines) expect(line.launch).toBe(sim().launchUrl(line.id ?? ''));
    expect(lines[0]?.url).toBe('https://host0.example/p');
    expect(apiCalls(sim()).length).toBeLessThanOrEqual(2);
    // The wrappers the isolated browser must follow get no domain_allow of their own.
    const mimecast = creates().filter((entry) => entry.context_data?.urls?.[0]?.includes('mimecast'));
    expect(mimecast).toHaveLength(5);
    for (const entry of mimecast) expect(entry.context_data?.policy ?? []).not.toContainEqual(expect.objectContaining({ type: 'domain_allow' }));
  });

  it('reads CSV: a cell ends at its comma, a quoted one at its closing quote', async () => {
    const csv = 'id,url,note\n1,hxxp://a[.]example/x,first\n2,"https://b.example/y,z",second\n';
    const ran = await isolink(['bulk', '--json'], { env: envFor(sim()), input: csv });
    expect(ran.code).toBe(0);
    expect(
      ran.stdout
        .trim()
        .split('\n')
        .map((line) => (JSON.parse(line) as { url: string }).url),
    ).toEqual(['http://a.example/x', 'https://b.example/y,z']);
  });

  it('reads a STIX 2.1 bundle: url indicators and url observables, nothing else', async () => {
    const bundle = {
      type: 'bundle',
      id: 'bundle--1',
      objects: [
        {
          type: 'indicator',
          pattern_type: 'stix',
          pattern: "[url:value = 'https://ind.example/a'] OR [url:value = 'hxxp://ind2[.]example/it\\'s']",
          description: 'also https://not-this.example/',
        },
        { type: 'url', id: 'url--1', value: 'https://observed.example/b' },
        { type: 'indicator', pattern_type: 'stix', pattern: "[domain-name:value = 'domain.example']" },
        { type: 'indicator', pattern_type: 'sigma', pattern: "url:value = 'https://sigma.example/'" },
        { type: 'report', name: 'https://report.example/' },
      ],
    };
    const dir = scratch();
    const ran = await isolink(['bulk', '--json', put(dir, 'feed.json', JSON.stringify(bundle))], { env: envFor(sim()) });
    expect(ran.code).toBe(0);
    expect(
      ran.stdout
        .trim()
        .split('\n')
        .map((line) => (JSON.parse(line) as { url: string }).url),
    ).toEqual(['https://ind.example/a', "http://ind2.example/it's", 'https://observed.example/b']);
  });

  it('goes on past failures, reports each, and exits 1', async () => {
    sim().faults.set({ refuseUrls: ['https://bad.example/'] });
    const bundle = {
      type: 'bundle',
      objects: [
        { type: 'url', value: 'https://good.example/' },
        { type: 'url', value: 'javascript:alert(1)' },
        { type: 'url', value: 'https://bad.example/' },
        { type: 'url', value: 'https://fine.example/' },
      ],
    };
    const ran = await isolink(['bulk', '--json', '--format', 'stix'], { env: envFor(sim()), input: JSON.stringify(bundle) });
    expect(ran.code).toBe(1);
    const lines = ran.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { url: string; launch?: string; error?: string; code?: string });
    expect(lines.map((line) => [line.url, line.launch === undefined ? 'error' : 'launch'])).toEqual([
      ['https://good.example/', 'launch'],
      ['javascript:alert(1)', 'error'],
      ['https://bad.example/', 'error'],
      ['https://fine.example/', 'launch'],
    ]);
    expect(lines[1]).toMatchObject({ code: 'urlScheme' });
    expect(creates().map((entry) => entry.context_data?.urls?.[0])).not.toContain('javascript:alert(1)');
  });

  it('prints "url<TAB>launch" lines on a pipe, a count on stderr, and no progress bar or escape codes', async () => {
    const ran = await isolink(['bulk'], { env: envFor(sim()), input: 'https://a.example/ https://b.example/\n' });
    expect(ran.code).toBe(0);
    expect(ran.stdout).toMatch(
      /^https:\/\/a\.example\/\thttp:\/\/127\.0\.0\.1:\d+\/launch\?ctx=\w+\nhttps:\/\/b\.example\/\thttp:\/\/127\.0\.0\.1:\d+\/launch\?ctx=\w+\n$/,
    );
    expect(ran.stderr).toBe('isolink: 2 of 2 created.\n');
    expect(ran.stderr + ran.stdout).not.toMatch(/[\r\u001b]/);
  });

  it('exits 2 when the input holds no URL', async () => {
    const ran = await isolink(['bulk'], { env: envFor(sim()), input: 'nothing here\n' });
    expect(ran.code).toBe(2);
    expect(ran.stderr).toBe('isolink: No http or https URL found in stdin. Check the input (defanged links are found too).\n');
    expect(sim().requests).toHaveLength(0);
  });
});

describe('isolink contexts', () => {
  it('gets, updates and deletes a context by id', async () => {
    const opened = await isolink(['open', '--json', 'https://a.example/'], { env: envFor(sim()) });
    const { id } = JSON.parse(opened.stdout) as { id: string };
    const got = await isolink(['contexts', 'get', id, '--json'], { env: envFor(sim()) });
    expect(got.code).toBe(0);
    expect(JSON.parse(got.stdout)).toMatchObject({ browse_context_id: id });
    const updated = await isolink(['contexts', 'update', id, '--max-uses', '5', '--name', 'phish 42', '--json'], { env: envFor(sim()) });
    expect(updated.code).toBe(0);
    expect(sim().state.contexts.get(id)).toMatchObject({ maxUses: 5, name: 'phish 42' });
    const table = await isolink(['contexts', 'get', id], { env: envFor(sim()) });
    expect(table.stdout).toContain(`browse_context_id\t${id}\n`);
    const deleted = await isolink(['contexts', 'delete', id], { env: envFor(sim()) });
    expect(deleted).toMatchObject({ code: 0, stdout: `deleted ${id}\n` });
    const gone = await isolink(['contexts', 'get', id], { env: envFor(sim()) });
    expect(gone.code).toBe(1);
    expect(gone.stderr).toMatch(/^isolink: The service refused get_context: .*\n$/);
  });

  it('exits 2 for an update without a change, or a missing id, sending nothing', async () => {
    const none = await isolink(['contexts', 'update', 'abc'], { env: envFor(sim()) });
    expect(none.code).toBe(2);
    const missing = await isolink(['contexts', 'get'], { env: envFor(sim()) });
    expect(missing).toMatchObject({ code: 2, stderr: "isolink: Missing <id>. See 'isolink contexts get --help'.\n" });
    const group = await isolink(['contexts'], { env: envFor(sim()) });
    expect(group.code).toBe(2);
    expect(sim().requests).toHaveLength(0);
  });
});

describe('isolink users, org, egress', () => {
  it("lists the organisation's users and shows its record", async () => {
    const users = await isolink(['users'], { env: envFor(sim()) });
    expect(users.code).toBe(0);
    expect(users.stdout).toContain('lead@acme.example\tlead@acme.example\tLee Lead\tactive\n');
    expect(users.stdout).toContain('\tsuspended\n');
    const json = await isolink(['users', '--json', '--org', 'acme/soc'], { env: envFor(sim()) });
    expect(
      json.stdout
        .trim()
        .split('\n')
        .map((line) => (JSON.parse(line) as { username: string }).username),
    ).toEqual(['responder@acme.example']);
    const org = await isolink(['org', '--json'], { env: envFor(sim()) });
    expect(JSON.parse(org.stdout)).toMatchObject({ name: 'acme' });
  });

  it('exits 2 without an organisation, naming --org and ISOLINK_ORG', async () => {
    const env = envFor(sim());
    delete env['ISOLINK_ORG'];
    const ran = await isolink(['users'], { env });
    expect(ran).toMatchObject({
      code: 2,
      stderr: "isolink: No organisation is set. Set --org or ISOLINK_ORG, or add it to the config file (see 'isolink --help').\n",
    });
  });

  it('lists the egress locations by region without a service', async () => {
    const ran = await isolink(['egress', '--json']);
    expect(ran.code).toBe(0);
    const regions = JSON.parse(ran.stdout) as Record<string, string[]>;
    expect(regions['Europe']).toContain('Frankfurt');
  });
});

describe('isolink proxies', () => {
  it('exports, diffs, dry-runs and applies the proxy list as a reviewed file', async () => {
    const env = envFor(sim());
    const dir = scratch();
    const exported = await isolink(['proxies', 'export'], { env });
    expect(exported.code).toBe(0);
    const list = JSON.parse(exported.stdout) as { name: string; location: { address: string; port: number; type: string } }[];
    expect(list).toEqual([{ name: 'acme-egress', location: { address: 'proxy.acme.example', port: 3128, type: 'http' } }]);
    const file = put(dir, 'proxies.json', exported.stdout);
    expect(await isolink(['proxies', 'diff', file], { env })).toMatchObject({ code: 0, stdout: '' });

    const wanted = [...list, { name: 'acme-socks', location: { address: '10.0.0.9', type: 'socks5' } }];
    const next = put(dir, 'next.json', JSON.stringify(wanted));
    const diff = await isolink(['proxies', 'diff', next], { env });
    expect(diff).toMatchObject({ code: 1, stdout: '+ acme-socks socks5://10.0.0.9:1080\n' });

    const before = sim().requests.length;
    const dry = await isolink(['proxies', 'apply', next, '--dry-run'], { env });
    expect(dry.code).toBe(0);
    expect(dry.stderr).toContain('dry run; nothing sent');
    const sent = apiCalls(sim())
      .slice(-2)
      .flat()
      .map((entry) => entry.command);
    expect(sent).not.toContain('policy_proxies.set');
    expect(sim().requests.length - before).toBe(1);

    const applied = await isolink(['proxies', 'apply', next, '--json'], { env });
    expect(applied.code).toBe(0);
    expect(JSON.parse(applied.stdout)).toMatchObject({ applied: true, added: [{ name: 'acme-socks' }] });
    expect(await isolink(['proxies', 'diff', next], { env })).toMatchObject({ code: 0 });
    expect((await isolink(['proxies', 'diff', file], { env })).stdout).toBe('- acme-socks socks5://10.0.0.9:1080\n');
  });

  it('refuses an invalid proxy file before sending anything, exit 2', async () => {
    const dir = scratch();
    const bad = put(dir, 'bad.json', JSON.stringify([{ name: 'x', location: { address: 'not a host!', port: 70000 } }]));
    const ran = await isolink(['proxies', 'apply', bad], { env: envFor(sim()) });
    expect(ran.code).toBe(2);
    expect(ran.stderr).toMatch(/^isolink: .*bad\.json: proxies\[0\]\.location\.\w+ .*\. Fix the file and try again\.\n$/);
    expect(sim().requests).toHaveLength(0);
  });
});

describe('isolink files', () => {
  it('puts a file into the bucket and gets the same bytes back, to a file or to stdout', async () => {
    const dir = scratch();
    const bytes = new Uint8Array(70_000).map((_, i) => (i * 7) % 256);
    const path = put(dir, 'sample.bin', bytes);
    const putRan = await isolink(['files', 'put', path, '--name', 'evidence.bin', '--dest-path', 'cases/42'], { env: envFor(sim()) });
    expect(putRan.code).toBe(0);
    const id = putRan.stdout.trim();
    expect(sim().state.files.get(id)).toMatchObject({ bucketId: 'bucket-1', name: 'evidence.bin', path: 'cases/42' });

    const target = join(dir, 'copy.bin');
    const got = await isolink(['files', 'get', id, '-o', target], { env: envFor(sim()) });
    expect(got.code).toBe(0);
    expect(new Uint8Array(readFileSync(target))).toEqual(bytes);
    const piped = await isolink(['files', 'get', id], { env: envFor(sim()) });
    expect(new Uint8Array(piped.bytes)).toEqual(bytes);
  });

  it('exits 2 without a file token or a bucket, naming the variables', async () => {
    const env = envFor(sim());
    delete env['ISOLINK_FILE_TOKEN'];
    const ran = await isolink(['files', 'get', 'abc'], { env });
    expect(ran).toMatchObject({
      code: 2,
      stderr: "isolink: No file token is set. Set ISOLINK_FILE_TOKEN or ISOLINK_FILE_TOKEN_FILE, or add it to the config file (see 'isolink --help').\n",
    });
    const noBucket = envFor(sim());
    delete noBucket['ISOLINK_BUCKET_ID'];
    const put2 = await isolink(['files', 'put', '/etc/hostname'], { env: noBucket });
    expect(put2.code).toBe(2);
    expect(put2.stderr).toContain('--bucket or ISOLINK_BUCKET_ID');
  });
});
