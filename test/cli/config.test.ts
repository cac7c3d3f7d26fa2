/**
 * Configuration and usage: where settings come from, what is refused (a secret on the
 * command line, a secret in the config file, a bad service URL), and the exit status 2
 * for every usage or configuration error, with nothing sent.
 */
import { chmodSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

import type { Simulator } from '../simulator';
import { useSimulator } from '../simulator/helpers';
import { envFor, isolink, put, scratch } from './helpers';

const handle = useSimulator();
const sim = (): Simulator => handle.sim;

const SECRET = 'cli-secret-value-1234567890';

describe('a secret on the command line', () => {
  it.each([
    [['--token', SECRET, 'open', 'https://a.example/']],
    [['open', '--token', SECRET, 'https://a.example/']],
    [['open', 'https://a.example/', `--token=${SECRET}`]],
    [['refang', '--TOKEN', SECRET]],
    [['proxies', 'export', '--', '--token', SECRET]],
  ])('is refused, exit 2, value not echoed, nothing sent: %j', async (args) => {
    const ran = await isolink(args, { env: envFor(sim()) });
    expect(ran.code).toBe(2);
    expect(ran.stdout).toBe('');
    expect(ran.stderr).toMatch(/^isolink: --token is not accepted: .* Set ISOLINK_TOKEN or ISOLINK_TOKEN_FILE instead\.\n$/i);
    expect(ran.stderr).not.toContain(SECRET);
    expect(sim().requests).toHaveLength(0);
  });

  it('is refused for the file token too, naming its variables', async () => {
    const ran = await isolink(['files', 'get', 'x', `--file-token=${SECRET}`], { env: envFor(sim()) });
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain('Set ISOLINK_FILE_TOKEN or ISOLINK_FILE_TOKEN_FILE instead.');
    expect(ran.stderr).not.toContain(SECRET);
  });
});

describe('settings from the environment', () => {
  it('exits 2 without a service URL or a token, naming the variables', async () => {
    const noService = await isolink(['open', 'https://a.example/'], { env: { ISOLINK_TOKEN: SECRET, ISOLINK_USERNAME: 'u@example.com' } });
    expect(noService).toMatchObject({
      code: 2,
      stdout: '',
      stderr: "isolink: No service URL is set. Set ISOLINK_SERVICE_URL, or add it to the config file (see 'isolink --help').\n",
    });
    const noToken = await isolink(['open', 'https://a.example/'], { env: { ISOLINK_SERVICE_URL: sim().url, ISOLINK_USERNAME: 'u@example.com' } });
    expect(noToken).toMatchObject({
      code: 2,
      stderr: "isolink: No admin token is set. Set ISOLINK_TOKEN or ISOLINK_TOKEN_FILE, or add it to the config file (see 'isolink --help').\n",
    });
    const noUser = await isolink(['open', 'https://a.example/'], { env: { ISOLINK_SERVICE_URL: sim().url, ISOLINK_TOKEN: sim().adminToken } });
    expect(noUser.code).toBe(2);
    expect(noUser.stderr).toContain('Set --username or ISOLINK_USERNAME');
    expect(sim().requests).toHaveLength(0);
  });

  it.each([['ftp://isolation.example'], ['http://isolation.example'], ['https://user:pw@isolation.example'], ['not a url']])(
    'refuses the service URL %s, exit 2, sending the token nowhere',
    async (url) => {
      const ran = await isolink(['open', 'https://a.example/'], { env: envFor(sim(), { ISOLINK_SERVICE_URL: url }) });
      expect(ran.code).toBe(2);
      expect(ran.stderr).toMatch(/^isolink: ISOLINK_SERVICE_URL (must|is) .*\. Fix it and try again\.\n$/);
    },
  );

  it('reads the token from ISOLINK_TOKEN_FILE, whitespace and the final newline ignored', async () => {
    const dir = scratch();
    const file = put(dir, 'token', `\n  ${sim().adminToken}  \n`);
    chmodSync(file, 0o600);
    const env = envFor(sim(), { ISOLINK_TOKEN_FILE: file });
    delete env['ISOLINK_TOKEN'];
    const ran = await isolink(['open', 'https://a.example/'], { env });
    expect(ran).toMatchObject({ code: 0, stderr: '' });
  });

  it('warns about a token file others can read, and exits 2 for one it cannot read', async () => {
    const dir = scratch();
    const file = put(dir, 'token', sim().adminToken);
    chmodSync(file, 0o644);
    const env = envFor(sim(), { ISOLINK_TOKEN_FILE: file });
    delete env['ISOLINK_TOKEN'];
    const open = await isolink(['open', 'https://a.example/'], { env });
    expect(open.code).toBe(0);
    expect(open.stderr).toContain(`can be read by other users; run 'chmod 600 ${file}'`);
    const missing = await isolink(['open', 'https://a.example/'], { env: { ...env, ISOLINK_TOKEN_FILE: join(dir, 'none') } });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^isolink: Cannot read the token file .*none named by ISOLINK_TOKEN_FILE \(ENOENT\)/);
  });
});

describe('the config file', () => {
  it('is read from $XDG_CONFIG_HOME/isolink/config.json, with the environment over it', async () => {
    const xdg = scratch();
    mkdirSync(join(xdg, 'isolink'));
    put(xdg, 'isolink/config.json', JSON.stringify({ serviceUrl: 'https://wrong.example', username: 'lead@acme.example', org: 'acme' }));
    const ran = await isolink(['users', '--json'], { env: { XDG_CONFIG_HOME: xdg, ISOLINK_SERVICE_URL: sim().url, ISOLINK_TOKEN: sim().adminToken } });
    expect(ran.code).toBe(0);
    expect(ran.stdout).toContain('lead@acme.example');
  });

  it('is refused when it holds a secret, an unknown key or bad JSON, exit 2', async () => {
    const dir = scratch();
    const cases: [string, RegExp][] = [
      [JSON.stringify({ serviceUrl: sim().url, token: SECRET }), /holds 'token': keep secrets in a file of their own and name it with 'tokenFile'/],
      [JSON.stringify({ serviceUrl: sim().url, servceUrl: 'x' }), /unknown key 'servceUrl'/],
      ['{ not json', /is not valid: not JSON/],
      [JSON.stringify({ defaults: { maxUses: 'many' } }), /defaults\.maxUses is not valid/],
    ];
    for (const [content, message] of cases) {
      const path = put(dir, 'config.json', content);
      const ran = await isolink(['open', 'https://a.example/'], { env: { ISOLINK_CONFIG: path, ISOLINK_TOKEN: sim().adminToken } });
      expect(ran.code).toBe(2);
      expect(ran.stderr).toMatch(message);
      expect(ran.stderr).not.toContain(SECRET);
    }
    expect(sim().requests).toHaveLength(0);
  });
});

describe('the commands that need no configuration', () => {
  it('run whatever the config file holds: they do not read it', async () => {
    const path = put(scratch(), 'config.json', '{ broken');
    for (const [args, input] of [
      [['refang'], 'hxxp://a[.]example/'],
      [['defang'], 'http://a.example/'],
      [['extract'], 'see hxxp://a[.]example/'],
      [['unwrap'], 'http://a.example/'],
      [['egress'], ''],
    ] as const) {
      const ran = await isolink(args, { env: { ISOLINK_CONFIG: path }, input });
      expect(ran, args.join(' ')).toMatchObject({ code: 0, stderr: '' });
    }
    // A command that needs the service reads it, and says what is wrong.
    const open = await isolink(['open', 'https://a.example/'], { env: { ISOLINK_CONFIG: path } });
    expect(open.code).toBe(2);
    expect(open.stderr).toMatch(/config\.json is not valid: not JSON/);
  });
});

describe('usage errors', () => {
  it.each([
    [['open'], "isolink: Missing <url>. See 'isolink open --help'.\n"],
    [['open', 'https://a.example/', 'https://b.example/'], "isolink: Unexpected argument 'https://b.example/'. See 'isolink open --help'.\n"],
    [['open', '--max-uses', 'lots', 'https://a.example/'], 'isolink: --max-uses takes a positive whole number.\n'],
    [['open', '--egress'], "isolink: --egress is malformed (does it need a value?). See 'isolink open --help'.\n"],
    [['bulk', '--format', 'xml'], "isolink: --format takes auto, text, csv, stix, eml, msg. See 'isolink bulk --help'.\n"],
    [['proxies', 'frob'], "isolink: Unknown command 'proxies frob'. See 'isolink --help' for the commands.\n"],
  ])('%j exits 2 with one line saying what to do', async (args, message) => {
    const ran = await isolink(args, { env: envFor(sim()) });
    expect(ran).toMatchObject({ code: 2, stdout: '', stderr: message });
    expect(sim().requests).toHaveLength(0);
  });
});
