/**
 * The client against arbitrary service replies (fast-check): a tiny local server
 * answers every request with generated JSON, statuses, content types, redirects or a
 * dropped connection. Every outcome is a valid result or an ApiError subclass, never
 * another throw, and no error (message, stack, cause, fields) carries the token. Then
 * the sanitiser itself: service text built from the token's forms and filler never
 * comes out with a piece of the token in it.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, createClient, isApiError, isLaunchUrl, sanitizeServiceText, type IsolinkClient } from '../../src/api';
import { canaryFinder, canaryForms, canaryWindows, makeCanary } from './canary';
import { prove } from './ledger';
import { startScripted, type Scripted } from './scan';

const canary = makeCanary();
const finder = canaryFinder(canary);
/** The file endpoints are authorised by a file token, not the admin token: their errors must not carry it. */
const fileToken = `file-${makeCanary()}`;
const fileFinder = canaryFinder(fileToken);
const LAUNCH_BASE = 'http://127.0.0.1:9/launch-base';

/** The answer to the next request(s); the server keeps answering it until changed. */
let answer: Scripted | 'drop' = { status: 200, body: '[]' };
const seenPaths: string[] = [];
let server: { url: string; close(): Promise<void> };
let client: IsolinkClient;

beforeAll(async () => {
  server = await startScripted((_method, path) => {
    seenPaths.push(path);
    return answer;
  });
  client = createClient({ baseUrl: server.url, launchBase: LAUNCH_BASE, token: canary, timeoutMs: 5_000 });
});
afterAll(async () => {
  await server.close();
});

interface Call {
  readonly name: string;
  readonly readOnly: boolean;
  readonly commands: number;
  run(): Promise<unknown>;
}

const PROXY = { name: 'p1', location: { address: '10.0.0.1' } };
const CALLS: readonly Call[] = [
  { name: 'createContext', readOnly: false, commands: 1, run: () => client.createContext({ username: 'analyst@acme.example', url: 'https://evil.example/' }) },
  {
    name: 'createResearchContext',
    readOnly: false,
    commands: 1,
    run: () => client.createResearchContext({ username: 'analyst@acme.example', egress_region: 'Frankfurt' }),
  },
  {
    name: 'bulkCreateContexts',
    readOnly: false,
    commands: 2,
    run: () => client.bulkCreateContexts({ username: 'analyst@acme.example', urls: ['https://a.example/', 'https://b.example/'] }),
  },
  { name: 'getContext', readOnly: true, commands: 1, run: () => client.getContext('ctx1') },
  { name: 'updateContext', readOnly: false, commands: 1, run: () => client.updateContext('ctx1', { name: 'n', enabled: false }) },
  { name: 'deleteContext', readOnly: false, commands: 1, run: () => client.deleteContext('ctx1') },
  { name: 'listUsers', readOnly: true, commands: 1, run: () => client.listUsers('acme') },
  { name: 'getOrg', readOnly: true, commands: 1, run: () => client.getOrg('acme') },
  { name: 'getProxies', readOnly: true, commands: 1, run: () => client.getProxies('acme', { include_proxy_policy: true }) },
  { name: 'addProxies', readOnly: false, commands: 1, run: () => client.addProxies('acme', [PROXY]) },
  { name: 'setProxies', readOnly: false, commands: 1, run: () => client.setProxies('acme', [PROXY]) },
  { name: 'deleteProxies', readOnly: false, commands: 1, run: () => client.deleteProxies('acme', ['p1']) },
  {
    name: 'putFile',
    readOnly: false,
    commands: 0,
    run: () => client.putFile({ file: new Uint8Array([1, 2, 3]), name: 'a.bin', bucket_id: 'b', file_token: fileToken }),
  },
  { name: 'getFile', readOnly: false, commands: 0, run: () => client.getFile({ id: 'f1', file_token: fileToken }) },
];

const json = fc.jsonValue({ maxDepth: 3 });
const echoed = (secret: string): string[] =>
  canaryForms(secret)
    .filter((f) => ['plain', 'url-encoded', 'json-escaped'].includes(f.name))
    .map((f) => f.text);
/** Service text that echoes the secret the request carried (the admin token, or the file token). */
const echo = fc
  .tuple(fc.string({ maxLength: 20 }), fc.constantFrom(...echoed(canary), ...echoed(fileToken)), fc.string({ maxLength: 20 }))
  .map((parts) => parts.join(''));
const text = fc.oneof(fc.string(), fc.constantFrom('Not found', 'invalid token', 'Invalid auth token', 'org not found', 'ValueError: bad'), echo);
const idLike = fc.oneof(fc.string({ maxLength: 40 }), json);
const resultLike = fc.oneof(
  json,
  fc.record(
    {
      browse_context_id: idLike,
      expires: fc.oneof(fc.integer(), json),
      max_uses: fc.oneof(fc.integer(), json),
      name: fc.oneof(text, json),
      enabled: fc.oneof(fc.boolean(), json),
    },
    { requiredKeys: [] },
  ),
  fc.record(
    {
      proxies: fc.oneof(
        fc.array(fc.record({ name: text, location: fc.record({ address: fc.string() }, { requiredKeys: [] }) }, { requiredKeys: [] }), { maxLength: 3 }),
        json,
      ),
      proxy_policy: json,
    },
    { requiredKeys: [] },
  ),
  fc.record(
    { proxies_deleted: fc.oneof(fc.array(fc.string()), json), proxies_not_found: fc.oneof(fc.array(fc.string()), json), deleted: fc.oneof(fc.boolean(), json) },
    { requiredKeys: [] },
  ),
);
const slot = (index: number) =>
  fc.oneof(
    fc.record({ command_id: fc.constant(`c${index}`), result: resultLike }),
    fc.record({ command_id: fc.constant(`c${index}`), error: fc.oneof(text, json) }),
    fc.record({ command_id: fc.oneof(fc.constant(`c${index}`), idLike), result: resultLike, error: fc.oneof(text, json) }, { requiredKeys: [] }),
    json,
  );
const ack = fc.oneof(fc.constant({}), fc.record({ error: fc.oneof(text, json) }), fc.record({ result: json }), json);
const protocolBody = fc
  .integer({ min: 0, max: 3 })
  .chain((count) => fc.tuple(ack, ...Array.from({ length: count }, (_, i) => slot(i + 1))))
  .map((value) => JSON.stringify(value));
const body = fc.oneof(
  { weight: 6, arbitrary: protocolBody },
  { weight: 1, arbitrary: fc.record({ file_id: idLike }, { requiredKeys: [] }).map((v) => JSON.stringify(v)) },
  { weight: 1, arbitrary: fc.json() },
  { weight: 1, arbitrary: fc.oneof(fc.string(), echo) },
  { weight: 1, arbitrary: fc.constantFrom(`${'['.repeat(20_000)}${']'.repeat(20_000)}`, '{"__proto__":{"polluted":true}}', '') },
);
const contentType = fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/html', 'text/plain', 'application/octet-stream', '');

/** What the service does: answers (status, type, body), redirects, or drops the connection. */
const behaviour = (call: Call) =>
  fc.oneof(
    { weight: 8, arbitrary: fc.record({ status: fc.constant(200), type: contentType, body }) },
    {
      weight: 2,
      arbitrary: fc.record({
        status: fc.constantFrom(...(call.readOnly ? [400, 401, 403, 404, 413, 418] : [400, 401, 403, 404, 413, 418, 429, 500, 502, 503, 204])),
        type: contentType,
        body: fc.oneof(body, echo),
      }),
    },
    ...(call.readOnly ? [] : [{ weight: 1, arbitrary: fc.constantFrom<'drop' | 307 | 308 | 302>('drop', 307, 308, 302) }]),
  );

type Behaviour = { status: number; type: string; body: string } | 'drop' | 307 | 308 | 302;

/** A call and what the service does, printed without the body (it may hold the token). */
function scene(call: Call, b: Behaviour): { call: Call; behaviour: Behaviour } {
  const describe = (): string =>
    `${call.name}: the service ${typeof b === 'object' ? `answers HTTP ${b.status} (${b.type || 'no content type'}) with ${b.body.length} characters${finder.inText(b.body) === null ? '' : ' echoing the token'}` : b === 'drop' ? 'drops the connection' : `redirects (${b})`}`;
  return { call, behaviour: b, [fc.toStringMethod]: describe } as { call: Call; behaviour: Behaviour };
}

const scenario = fc.constantFrom(...CALLS).chain((call) => behaviour(call).map((b) => scene(call, b)));

function errorTexts(error: unknown): string[] {
  const e = error as Error & { cause?: unknown };
  return [String(error), e.message, e.stack ?? '', JSON.stringify(e.cause ?? null), JSON.stringify({ ...e }), JSON.stringify(error)];
}

describe('the client against arbitrary replies', () => {
  it('every outcome is a valid result or an ApiError without the token', async () => {
    await prove('replies-client', async () => {
      let results = 0;
      let errors = 0;
      const names = new Set<string>();
      await fc.assert(
        fc.asyncProperty(scenario, async ({ call, behaviour: b }) => {
          if (b === 'drop') answer = 'drop';
          else if (typeof b === 'number') answer = { status: b, headers: { location: '/redirected' }, body: '' };
          else answer = { status: b.status, headers: b.type === '' ? {} : { 'content-type': b.type }, body: b.status === 204 ? '' : b.body };
          let value: unknown;
          try {
            value = await call.run();
          } catch (error) {
            errors += 1;
            names.add((error as Error).name);
            expect(error, `${call.name}: ${String(error)}`).toBeInstanceOf(ApiError);
            expect(isApiError(error)).toBe(true);
            // The secret this request carried: the admin token for /api/, the file token for files.
            const secretFinder = call.commands === 0 ? fileFinder : finder;
            for (const t of errorTexts(error)) expect(secretFinder.inText(t), `${call.name}: the request's secret in the error`).toBeNull();
            return;
          }
          results += 1;
          if (call.name === 'createContext' || call.name === 'createResearchContext') {
            const id = (value as { browse_context_id: unknown }).browse_context_id;
            expect(typeof id).toBe('string');
            try {
              expect(isLaunchUrl(LAUNCH_BASE, client.launchUrl(id as string))).toBe(true);
            } catch (error) {
              expect(error).toBeInstanceOf(ApiError);
            }
          }
          if (call.name === 'bulkCreateContexts') {
            const bulk = value as { created: { launch_url: string }[]; failures: { error: string }[] };
            for (const c of bulk.created) expect(isLaunchUrl(LAUNCH_BASE, c.launch_url)).toBe(true);
            for (const f of bulk.failures) expect(finder.inText(f.error), 'the token in a bulk failure').toBeNull();
          }
        }),
        {
          numRuns: 600,
          // One known shape first: a service that echoes the request body it could not
          // handle inside a JSON error (the token is then JSON-escaped twice in the text).
          examples: [
            [
              scene(CALLS[0] as Call, {
                status: 400,
                type: 'application/json',
                body: JSON.stringify({ error: `cannot handle ${JSON.stringify([{ command: 'setauth', data: canary }])}` }),
              }),
            ],
          ],
        },
      );
      expect(seenPaths).not.toContain('/redirected');
      expect(results).toBeGreaterThan(0);
      expect(errors).toBeGreaterThan(0);
      return { cases: results + errors, detail: `${CALLS.length} client methods; ${results} results, ${errors} ApiErrors (${[...names].sort().join(', ')})` };
    });
  });
});

/** A deterministic high-entropy secret of `length` characters, from a seed (shrinks by length). */
function secretOf(seed: number, length: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/.';
  let state = seed | 1;
  let out = '';
  for (let i = 0; i < length; i += 1) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    out += alphabet[(state >>> 0) % alphabet.length] ?? 'A';
  }
  return out;
}

interface Sample {
  readonly secret: string;
  readonly pieces: readonly string[];
}

/** A secret and the pieces of a service text, printed short when a property fails. */
function sample(secret: string, pieces: readonly string[]): Sample {
  const describe = (): string => {
    const forms = pieces.map((p) => (p === secret ? 'S' : p.includes('%') && p.length > 20 ? 'U' : p.length > 20 ? 'J' : JSON.stringify(p))).join(' + ');
    return `a secret of ${secret.length} characters; text = ${forms} (${pieces.join('').length} characters; S = the secret, U = URL-encoded, J = JSON-escaped)`;
  };
  return { secret, pieces, [fc.toStringMethod]: describe } as Sample;
}

describe('service text shown to the user', () => {
  it('never carries a piece of the token, whatever the service echoes and however long its text', async () => {
    await prove('sanitize', () => {
      // Filler shares no character with the secrets: a piece found in the output is the secret's.
      const filler = fc.string({ unit: fc.constantFrom(...' !#$%&()*,:;<>?@[]^`{|}\'"'), maxLength: 30 });
      const input = fc.tuple(fc.noShrink(fc.integer()), fc.integer({ min: 20, max: 2400 })).chain(([seed, length]) => {
        const secret = secretOf(seed, length);
        const forms = [secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1)];
        return fc
          .array(fc.oneof({ weight: 2, arbitrary: fc.constantFrom(...forms) }, { weight: 1, arbitrary: filler }), { maxLength: 40 })
          .map((pieces) => sample(secret, pieces));
      });
      // One known shape first: enough copies before the 10 000-character cut that the cut
      // copy's remainder lands inside the 300 characters that are kept.
      const longSecret = secretOf(7, 400);
      const known = sample(longSecret, [' ', ...Array.from({ length: 26 }, () => longSecret)]);
      let runs = 0;
      fc.assert(
        fc.property(input, ({ secret, pieces }) => {
          runs += 1;
          const out = sanitizeServiceText(pieces.join(''), [secret]);
          const leaked = canaryWindows(secret).find((w) => out.includes(w.text));
          expect(leaked, `a piece of the secret (${leaked?.name ?? ''}) is in: ${out.slice(0, 120)}`).toBeUndefined();
        }),
        { numRuns: 500, examples: [[known]] },
      );
      return { cases: runs, detail: `${runs} texts from secrets of 20–2400 characters` };
    });
  });
});
