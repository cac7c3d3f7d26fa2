import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_RETRIES, REQUEST_INIT, type ApiError } from '../../src/api';
import { useSimulator } from './harness';

const h = useSimulator();

/** A second local server, the target of redirects: it must never receive anything. */
let trap: Server;
let trapUrl = '';
const trapped: string[] = [];
beforeAll(async () => {
  trap = createServer((req, res) => {
    trapped.push(`${req.method ?? ''} ${req.url ?? ''}`);
    res.end('[]');
  });
  await new Promise<void>((resolve) => trap.listen(0, '127.0.0.1', resolve));
  trapUrl = `http://127.0.0.1:${(trap.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) =>
    trap.close(() => {
      resolve();
    }),
  );
});

const CANARY = 'canary_6f1d2c3b4a5968778695a4b3c2d1e0f9';

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const outcome = await promise.then(
    () => undefined,
    (e: unknown) => e as ApiError,
  );
  if (!outcome) throw new Error('expected a failure');
  return outcome;
}

function expectNoCanary(error: ApiError): void {
  const seen = JSON.stringify({ message: error.message, stack: error.stack, cause: error.cause, all: { ...error } });
  expect(seen).not.toContain(CANARY);
  expect(seen).not.toContain(encodeURIComponent(CANARY));
}

describe('request options', () => {
  it('sends JSON with the token only in the POST body', async () => {
    await h.client().listUsers('acme');
    const [request] = h.apiRequests();
    expect(request?.method).toBe('POST');
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.headers['cookie']).toBeUndefined();
    expect(request?.headers['referer']).toBeUndefined();
    expect(JSON.stringify(request?.query)).not.toContain(h.sim.adminToken);
    expect(REQUEST_INIT).toEqual({ redirect: 'error', credentials: 'omit', cache: 'no-store', referrerPolicy: 'no-referrer' });
  });
});

describe('faults become typed errors without the token', () => {
  const create = () => h.client({ token: CANARY }).createContext({ username: 'analyst@acme.example', url: 'https://evil.example/' });

  it.each([
    ['HTTP 500', { status: 500 }, 'HttpError'],
    ['HTTP 502 HTML page', { htmlErrorPage: true }, 'HttpError'],
    ['HTTP 401', { status: 401 }, 'AuthError'],
    ['HTTP 403', { status: 403 }, 'AuthError'],
    ['HTTP 404', { status: 404 }, 'HttpError'],
    ['malformed JSON', { malformedJson: true }, 'ProtocolError'],
    ['a reply one slot short', { wrongLength: true }, 'ProtocolError'],
    ['a mismatched command_id', { mismatchedCommandId: true }, 'ProtocolError'],
    ['a dropped connection', { dropConnection: true }, 'NetworkError'],
    ['an error slot', { errorSlots: { create_context: `ValueError: bad thing ${CANARY}` } }, 'CommandError'],
  ] as const)('%s -> %s', async (_label, fault, name) => {
    h.sim.state.adminTokens.set(CANARY, { token: CANARY, orgId: [...h.sim.state.orgs.values()][0]?.id ?? 1 });
    h.sim.faults.set(fault);
    const error = await failure(create());
    expect(error.name).toBe(name);
    expectNoCanary(error);
  });

  it('an HTML error page is not echoed into the message', async () => {
    h.sim.faults.set({ htmlErrorPage: true });
    const error = await failure(h.client().listUsers('acme'));
    expect(error).toMatchObject({ name: 'HttpError', status: 502, bodySnippet: '' });
  });

  it('a hang is a TimeoutError after the time limit', async () => {
    h.sim.faults.set({ hang: true });
    const error = await failure(h.client({ timeoutMs: 300, token: CANARY }).getContext('x'));
    expect(error.name).toBe('TimeoutError');
    expectNoCanary(error);
  });

  it('a refused connection is a NetworkError', async () => {
    const error = await failure(h.client({ baseUrl: 'http://127.0.0.1:9', token: CANARY }).listUsers('acme'));
    expect(error.name).toBe('NetworkError');
    expect(error.message).toContain('127.0.0.1:9');
    expectNoCanary(error);
  });

  it.each([307, 308] as const)('a %s redirect is refused and its target receives nothing', async (status) => {
    trapped.length = 0;
    h.sim.faults.set({ redirect: { status, location: `${trapUrl}/api/` } });
    const error = await failure(h.client({ token: CANARY }).createContext({ username: 'analyst@acme.example', url: 'https://a.example/' }));
    expect(error.name).toBe('NetworkError');
    expect(error.message).toContain('redirects');
    expect(trapped).toEqual([]);
    expectNoCanary(error);
  });

  it("the caller's AbortSignal ends the request with its reason", async () => {
    h.sim.faults.set({ hang: true });
    const controller = new AbortController();
    const pending = h.client().getContext('x', { signal: controller.signal });
    setTimeout(() => {
      controller.abort(new Error('closed by the analyst'));
    }, 50);
    await expect(pending).rejects.toThrow('closed by the analyst');
  });
});

describe('retries', () => {
  it(`retries a read-only command at most ${MAX_RETRIES} times on 5xx`, async () => {
    h.sim.faults.set({ status: 503 });
    await expect(h.client().listUsers('acme')).rejects.toMatchObject({ name: 'HttpError', status: 503 });
    expect(h.apiRequests()).toHaveLength(1 + MAX_RETRIES);
  });

  it('retries a read-only command on 429 and succeeds when the service recovers', async () => {
    h.sim.faults.set({ status: 429 });
    const client = h.client();
    const pending = client.getProxies('acme');
    setTimeout(() => h.sim.faults.set({ status: null }), 100);
    const result = await pending;
    expect(result.proxies.length).toBeGreaterThan(0);
    expect(h.apiRequests().length).toBeGreaterThan(1);
  });

  it.each([
    ['createContext', (c: ReturnType<typeof h.client>) => c.createContext({ username: 'analyst@acme.example', url: 'https://a.example/' })],
    ['updateContext', (c: ReturnType<typeof h.client>) => c.updateContext('x', { enabled: false })],
    ['deleteContext', (c: ReturnType<typeof h.client>) => c.deleteContext('x')],
    ['setProxies', (c: ReturnType<typeof h.client>) => c.setProxies('acme', [])],
    ['addProxies', (c: ReturnType<typeof h.client>) => c.addProxies('acme', [{ name: 'a', location: { address: 'a.example' } }])],
    ['deleteProxies', (c: ReturnType<typeof h.client>) => c.deleteProxies('acme', ['a'])],
  ])('never retries %s', async (_name, call) => {
    h.sim.faults.set({ status: 502 });
    await expect(call(h.client())).rejects.toMatchObject({ name: 'HttpError' });
    expect(h.apiRequests()).toHaveLength(1);
  });

  it('never retries putFile', async () => {
    h.sim.faults.set({ status: 502, scope: ['putfile'] });
    await expect(h.client().putFile({ file: new Uint8Array([1]), name: 'a', bucket_id: 'b', file_token: h.sim.fileToken })).rejects.toMatchObject({
      name: 'HttpError',
    });
    expect(h.sim.requests.filter((r) => r.path === '/putfile/')).toHaveLength(1);
  });
});

describe('reply slots are matched by position; command_id is checked only where a slot carries one', () => {
  const create = (token?: string) =>
    h.client(token === undefined ? {} : { token }).createContext({ username: 'analyst@acme.example', url: 'https://evil.example/' });

  it('a reply whose slots carry no command_id is read by position', async () => {
    h.sim.faults.set({ omitCommandIds: true });
    const created = await create();
    expect(created.browse_context_id).toMatch(/^\w+$/);
    expect(h.sim.state.contexts.has(created.browse_context_id)).toBe(true);
  });

  it('bulk creation without command_ids: every URL gets its own context, in order', async () => {
    h.sim.faults.set({ omitCommandIds: true });
    const urls = ['https://a.example/', 'https://b.example/', 'https://c.example/'];
    const result = await h.client().bulkCreateContexts({ username: 'analyst@acme.example', urls });
    expect(result.failures).toEqual([]);
    expect(result.created.map((item) => [item.url, h.sim.state.contexts.get(item.browse_context_id)?.contextData.urls?.[0]])).toEqual(
      urls.map((url) => [url, url]),
    );
  });

  it('a command error without command_id keeps the service words', async () => {
    h.sim.faults.set({ omitCommandIds: true, errorSlots: { create_context: 'ValueError: the licence allows no more contexts' } });
    const error = await failure(create());
    expect(error).toMatchObject({ name: 'CommandError', params: ['create_context', 'ValueError: the licence allows no more contexts'] });
  });

  it('an auth failure without command_id is an AuthError with the service words, never the token', async () => {
    h.sim.faults.set({ omitCommandIds: true });
    const error = await failure(create(CANARY));
    expect(error).toMatchObject({ name: 'AuthError', code: 'authRejectedSaying' });
    expect(error.params[0]).toMatch(/^KeyError/);
    expectNoCanary(error);
  });

  it('a slot with the command_id of another command is a ProtocolError, whatever it holds', async () => {
    h.sim.faults.set({ mismatchedCommandId: true });
    const error = await failure(create());
    expect(error).toMatchObject({ name: 'ProtocolError', code: 'replySlotIdMismatch', params: ['1'] });
  });
});
