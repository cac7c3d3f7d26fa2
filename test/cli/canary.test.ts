/**
 * The token canary for the command: random token-shaped admin and file tokens, every
 * command run (plain, --json, --verbose) and every error path (the service echoing the
 * token back in each encoding, a rejected token, HTTP errors, usage errors), and
 * stdout and stderr searched for every form of either token (plain, URL-, form- and
 * JSON-encoded, base64 at each alignment, any 16-character piece).
 */
import { chmodSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { canaryFinder, canaryForms, makeCanary, masked } from '../security/canary';
import { startSimulator, type Simulator } from '../simulator';
import { envFor, isolink, put, scratch, type Ran } from './helpers';

const TOKEN = makeCanary();
const FILE_TOKEN = makeCanary();
const findToken = canaryFinder(TOKEN);
const findFileToken = canaryFinder(FILE_TOKEN);

let sim: Simulator;
let dir: string;
let contextId: string;
let fileId: string;
beforeAll(async () => {
  sim = await startSimulator({ adminToken: TOKEN, fileToken: FILE_TOKEN });
  dir = scratch();
  put(dir, 'feed.txt', 'hxxps://a[.]example/1\nhttps://b.example/2\njavascript:alert(1)\n');
  put(dir, 'proxies.json', JSON.stringify([{ name: 'p1', location: { address: '10.0.0.1', type: 'socks5' } }]));
  put(dir, 'sample.bin', 'evidence');
  chmodSync(put(dir, 'token', `${TOKEN}\n`), 0o600);
  const opened = await isolink(['open', '--json', 'https://a.example/'], { env: envFor(sim) });
  contextId = (JSON.parse(opened.stdout) as { id: string }).id;
  const uploaded = await isolink(['files', 'put', join(dir, 'sample.bin')], { env: envFor(sim) });
  fileId = uploaded.stdout.trim();
});
afterAll(async () => {
  await sim.close();
});

/** Every command, as a script would run it. */
function everyCommand(): string[][] {
  const feed = join(dir, 'feed.txt');
  const proxies = join(dir, 'proxies.json');
  return [
    ['refang', feed],
    ['defang', feed],
    ['extract', '--unwrap', feed],
    ['unwrap', '--json', feed],
    ['open', 'hxxps://evil[.]example/'],
    ['open', '--json', 'https://eur01.safelinks.protection.outlook.com/?url=https%3A%2F%2Fx.example%2F&data=1'],
    ['open', '--research', '--egress', 'Frankfurt', '--json'],
    ['open', 'javascript:alert(1)'],
    ['bulk', '--json', feed],
    ['bulk', feed],
    ['contexts', 'get', contextId],
    ['contexts', 'update', contextId, '--max-uses', '9', '--json'],
    ['users'],
    ['users', '--json'],
    ['org'],
    ['org', '--json'],
    ['egress'],
    ['proxies', 'export'],
    ['proxies', 'diff', proxies],
    ['proxies', 'apply', proxies, '--dry-run', '--json'],
    ['files', 'put', join(dir, 'sample.bin'), '--json'],
    ['files', 'get', fileId, '-o', join(dir, 'copy.bin'), '--json'],
    ['contexts', 'delete', contextId],
    ['contexts', 'get', contextId],
  ];
}

function expectNoToken(ran: Ran, what: string): void {
  const text = `${ran.stdout}\n${ran.stderr}`;
  const found = findToken.inText(text) ?? findFileToken.inText(text);
  expect(found, `${what} printed a form of a token: ${masked(masked(text, TOKEN), FILE_TOKEN)}`).toBeNull();
}

/**
 * These tests start the command once per command and option (about 60 processes, one after
 * another): on a busy two-core machine that passes the project's 60 s, so they have their
 * own bound. Not a speed check: a hang still fails them.
 */
const EVERY_COMMAND_TIMEOUT = 240_000;

describe('no token in any output', () => {
  it('the finder sees every form it searches for (positive control)', () => {
    for (const form of canaryForms(TOKEN)) expect(findToken.inText(`before ${form.text} after`)).toBe(form.name);
    expect(findToken.inText(`x${TOKEN.slice(8, 24)}y`)).not.toBeNull();
  });

  it(
    'in every command, plain and with --verbose, token in the environment or in a file',
    async () => {
      let ran = 0;
      for (const args of everyCommand()) {
        for (const verbose of [[], ['--verbose']]) {
          const result = await isolink([...args, ...verbose], { env: envFor(sim) });
          expectNoToken(result, args.join(' '));
          ran += 1;
        }
      }
      const fromFile = envFor(sim, { ISOLINK_TOKEN_FILE: join(dir, 'token') });
      delete fromFile['ISOLINK_TOKEN'];
      for (const args of everyCommand().slice(4, 8)) expectNoToken(await isolink([...args, '--verbose'], { env: fromFile }), `${args.join(' ')} (token file)`);
      expect(ran).toBe(everyCommand().length * 2);
    },
    EVERY_COMMAND_TIMEOUT,
  );

  it(
    'when the service echoes the token back in any encoding, in every command it answers',
    async () => {
      const echo = `denied for ${TOKEN} (${encodeURIComponent(TOKEN)}, ${Buffer.from(TOKEN).toString('base64')}, ${JSON.stringify(FILE_TOKEN)})`;
      const commands = ['create_context', 'get_context', 'update_context', 'delete_context', 'listusers', 'org.get', 'policy_proxies.get'];
      sim.faults.set({ errorSlots: Object.fromEntries(commands.map((command) => [command, echo])) });
      try {
        let failed = 0;
        for (const args of everyCommand()) {
          const result = await isolink([...args, '--verbose'], { env: envFor(sim) });
          if (result.code === 1) failed += 1;
          expectNoToken(result, `${args.join(' ')} (service echoing the token)`);
        }
        // The echo reached the command: most service commands failed with the service's words.
        expect(failed).toBeGreaterThanOrEqual(8);
      } finally {
        sim.faults.clear();
      }
    },
    EVERY_COMMAND_TIMEOUT,
  );

  it('on a rejected token, HTTP errors, a dropped connection, and usage errors', async () => {
    const other = makeCanary();
    const rejected = await isolink(['open', '--verbose', 'https://a.example/'], { env: envFor(sim, { ISOLINK_TOKEN: other }) });
    expect(rejected.code).toBe(1);
    expect(canaryFinder(other).inText(rejected.stdout + rejected.stderr)).toBeNull();
    for (const fault of [{ status: 500 }, { htmlErrorPage: true }, { dropConnection: true }, { malformedJson: true }]) {
      sim.faults.set(fault);
      try {
        const result = await isolink(['users', '--verbose'], { env: envFor(sim) });
        expect(result.code).toBe(1);
        expectNoToken(result, `users with ${JSON.stringify(fault)}`);
      } finally {
        sim.faults.clear();
      }
    }
    for (const args of [['open', `--token=${TOKEN}`], ['--token', TOKEN, 'users'], ['open', '--frob', TOKEN], ['open'], ['contexts', 'update', TOKEN]]) {
      const result = await isolink(args, { env: envFor(sim, { ISOLINK_SERVICE_URL: 'ftp://x.example' }) });
      expect(result.code).toBe(2);
      expectNoToken(result, args.map((arg) => (arg.includes(TOKEN) ? '<token>' : arg)).join(' '));
    }
  });
});
