import { describe, expect, it } from 'vitest';
import { COMMANDS, COMMAND_ID, CONTEXT_FIELDS, ENDPOINTS, FILE_FIELDS, SETAUTH_ACK } from '../../src/service/wire';
import { FaultSettingsError } from './faults';
import { api, createContext, launch, postRaw, type Slot, until, useSimulator } from './helpers';
import { CONTROL_PATHS, type Simulator, startSimulator } from '.';

const h = useSimulator();

const CREATE = { command: COMMANDS.createContext, context_data: { user: 'analyst@acme.example', urls: ['https://a.example/'] } };
const ORG = { command: COMMANDS.getOrg, org_name: 'acme/soc' };

function control(method: string, body?: unknown): Promise<Response> {
  return fetch(`${h.sim.url}${CONTROL_PATHS.faults}`, {
    method,
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
}

/** Starts an /api/ request that the test expects to be held, and waits until it is. */
async function heldRequest(target: Simulator): Promise<{ response: Promise<Response> }> {
  const before = target.requests.length;
  const pending = fetch(`${target.url}${ENDPOINTS.api}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify([{ command: COMMANDS.setauth, data: target.adminToken }, ORG]),
  });
  pending.catch(() => undefined);
  // The log entry gets its body in the same step that holds the request.
  await until(() => target.requests.length > before && target.requests[before]?.body !== '');
  // Wrapped: an async function returning the promise itself would wait for it.
  return { response: pending };
}

describe('transport faults (the request is not run)', () => {
  it.each([500, 502, 401, 403, 404])('status %i answers every /api/ request with it', async (status) => {
    h.sim.faults.status = status;
    const reply = await api(h.sim, [CREATE]);
    expect(reply.status).toBe(status);
    expect(reply.contentType).toBe('text/plain; charset=utf-8');
    expect(reply.text).toBe(
      {
        500: 'Simulated HTTP 500 Internal Server Error',
        502: 'Simulated HTTP 502 Bad Gateway',
        401: 'Simulated HTTP 401 Unauthorized',
        403: 'Simulated HTTP 403 Forbidden',
        404: 'Simulated HTTP 404 Not Found',
      }[status],
    );
    expect(h.sim.state.contexts.size).toBe(0);
    expect(h.sim.requests.at(-1)?.status).toBe(status);
  });

  it('htmlErrorPage answers 502 with an HTML body', async () => {
    h.sim.faults.htmlErrorPage = true;
    const reply = await api(h.sim, [CREATE]);
    expect(reply.status).toBe(502);
    expect(reply.contentType).toBe('text/html; charset=utf-8');
    expect(reply.text).toContain('<title>502 Bad Gateway</title>');
    expect(reply.json).toBeUndefined();
    expect(h.sim.state.contexts.size).toBe(0);
  });

  it.each([307, 308] as const)('redirect answers %i with the location', async (status) => {
    h.sim.faults.redirect = { status, location: 'https://login.example/sso' };
    const reply = await api(h.sim, [ORG]);
    expect(reply.status).toBe(status);
    expect(reply.text).toBe('');
    const again = await fetch(`${h.sim.url}${ENDPOINTS.api}`, { method: 'POST', redirect: 'manual' });
    expect(again.headers.get('location')).toBe('https://login.example/sso');
  });

  it('dropConnection destroys the socket without an answer', async () => {
    h.sim.faults.dropConnection = true;
    await expect(api(h.sim, [CREATE])).rejects.toThrow(TypeError);
    expect(h.sim.state.contexts.size).toBe(0);
    expect(h.sim.requests.at(-1)?.status).toBeNull();
  });

  it('latencyMs delays, then answers normally', async () => {
    h.sim.faults.latencyMs = 30;
    const reply = await api(h.sim, [ORG]);
    expect(reply.status).toBe(200);
    expect((reply.json as Slot[])[1]).toMatchObject({ result: { path: 'acme/soc' } });
  });

  it('latencyMs combines with the other faults', async () => {
    h.sim.faults.set({ latencyMs: 10, status: 503 });
    expect((await api(h.sim, [ORG])).status).toBe(503);
  });

  it('hang holds the request until reset() ends it', async () => {
    h.sim.faults.hang = true;
    const { response: pending } = await heldRequest(h.sim);
    h.sim.reset();
    await expect(pending).rejects.toThrow(TypeError);
    expect(h.sim.faults.snapshot()).toEqual({});
    expect((await api(h.sim, [ORG])).status).toBe(200);
  });

  it('reset() also ends a request waiting out its latency', async () => {
    h.sim.faults.latencyMs = 600_000;
    const { response: pending } = await heldRequest(h.sim);
    h.sim.reset();
    await expect(pending).rejects.toThrow(TypeError);
  });

  it('close() ends hung requests', async () => {
    const own = await startSimulator();
    own.faults.hang = true;
    const { response: pending } = await heldRequest(own);
    await own.close();
    await expect(pending).rejects.toThrow(TypeError);
    await expect(fetch(`${own.url}/`)).rejects.toThrow(TypeError);
  });
});

describe('reply faults (the commands run, the reply is spoiled)', () => {
  it('malformedJson answers 200 with a body that is not JSON', async () => {
    h.sim.faults.malformedJson = true;
    const reply = await api(h.sim, [CREATE]);
    expect(reply.status).toBe(200);
    expect(reply.contentType).toBe('application/json');
    expect(() => JSON.parse(reply.text) as unknown).toThrow(SyntaxError);
    expect(reply.text.startsWith('[{"result":')).toBe(true);
    expect(h.sim.state.contexts.size).toBe(1);
  });

  it('wrongLength leaves out the last slot', async () => {
    h.sim.faults.wrongLength = true;
    const reply = await api(h.sim, [ORG, CREATE]);
    expect(reply.status).toBe(200);
    const slots = reply.json as Slot[];
    expect(slots).toHaveLength(2);
    expect(slots[0]).toEqual({ result: SETAUTH_ACK });
    expect(slots[1]).toMatchObject({ result: { path: 'acme/soc' } });
    expect(h.sim.state.contexts.size).toBe(1);
  });

  it('mismatchedCommandId echoes a different command_id in every slot', async () => {
    h.sim.faults.mismatchedCommandId = true;
    const reply = await postRaw(
      h.sim,
      JSON.stringify([
        { command: COMMANDS.setauth, data: h.sim.adminToken },
        { ...ORG, [COMMAND_ID]: 'q-1' },
        { ...ORG, [COMMAND_ID]: 'q-2' },
      ]),
    );
    const slots = reply.json as Slot[];
    expect(slots.map((slot) => slot[COMMAND_ID])).toEqual(['mismatched-0', 'q-1-mismatched', 'q-2-mismatched']);
    expect(slots[1]).toMatchObject({ result: { path: 'acme/soc' } });
  });

  it('errorSlots answers the named commands with the given error, others normally', async () => {
    h.sim.faults.errorSlots = { [COMMANDS.createContext]: 'BrowsingError: simulated failure' };
    const reply = await postRaw(h.sim, JSON.stringify([{ command: COMMANDS.setauth, data: h.sim.adminToken }, { ...CREATE, [COMMAND_ID]: 'c' }, ORG]));
    const slots = reply.json as Slot[];
    expect(slots[1]).toEqual({ error: 'BrowsingError: simulated failure', [COMMAND_ID]: 'c' });
    expect(slots[2]).toMatchObject({ result: { path: 'acme/soc' } });
    expect(h.sim.state.contexts.size).toBe(0);
  });

  it('errorSlots on setauth spoils its slot but keeps the token', async () => {
    h.sim.faults.errorSlots = { [COMMANDS.setauth]: 'KeyError: simulated' };
    const slots = (await api(h.sim, [ORG])).json as Slot[];
    expect(slots[0]).toEqual({ error: 'KeyError: simulated' });
    expect(slots[1]).toMatchObject({ result: { path: 'acme/soc' } });
  });
});

describe('fault scope', () => {
  it('applies to /api/ only by default', async () => {
    h.sim.faults.status = 500;
    const id = 'x';
    expect((await launch(h.sim, id)).status).toBe(404);
    const form = new FormData();
    form.append(FILE_FIELDS.get.id, 'nope');
    form.append(FILE_FIELDS.get.auth, h.sim.fileToken);
    expect((await fetch(`${h.sim.url}${ENDPOINTS.getFile}`, { method: 'POST', body: form })).status).toBe(404);
  });

  it('applies to the endpoints in scope', async () => {
    h.sim.faults.set({ status: 503, scope: ['getfile', 'launch'] });
    const id = await createContext(h.sim, CREATE.context_data);
    expect((await launch(h.sim, id)).status).toBe(503);
    expect(h.sim.state.contexts.get(id)?.useCount).toBe(0);
    const form = new FormData();
    form.append(FILE_FIELDS.get.id, 'nope');
    form.append(FILE_FIELDS.get.auth, h.sim.fileToken);
    expect((await fetch(`${h.sim.url}${ENDPOINTS.getFile}`, { method: 'POST', body: form })).status).toBe(503);
  });

  it('spoils the /putfile/ reply with malformedJson in scope, storing the file', async () => {
    h.sim.faults.set({ malformedJson: true, scope: ['putfile'] });
    const form = new FormData();
    form.append(FILE_FIELDS.put.auth, h.sim.fileToken);
    form.append(FILE_FIELDS.put.bucketId, 'b');
    form.append(FILE_FIELDS.put.name, 'n');
    form.append(FILE_FIELDS.put.file, new Blob(['x']), 'n');
    const response = await fetch(`${h.sim.url}${ENDPOINTS.putFile}`, { method: 'POST', body: form });
    expect(response.status).toBe(200);
    await expect(response.json()).rejects.toThrow(SyntaxError);
    expect(h.sim.state.files.size).toBe(1);
  });
});

describe('fault control', () => {
  it('is settable, readable and clearable over HTTP, and those requests are not logged', async () => {
    let response = await control('POST', { status: 500, errorSlots: { [COMMANDS.getOrg]: 'E: x' } });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 500, errorSlots: { [COMMANDS.getOrg]: 'E: x' } });
    expect(h.sim.faults.status).toBe(500);
    expect((await api(h.sim, [ORG])).status).toBe(500);

    response = await control('POST', { status: null, latencyMs: 1 });
    expect(await response.json()).toEqual({ latencyMs: 1, errorSlots: { [COMMANDS.getOrg]: 'E: x' } });
    expect(await (await control('GET')).json()).toEqual({ latencyMs: 1, errorSlots: { [COMMANDS.getOrg]: 'E: x' } });

    response = await control('DELETE');
    expect(await response.json()).toEqual({});
    expect(h.sim.faults.snapshot()).toEqual({});
    expect(h.sim.requests.map((r) => r.path)).toEqual([ENDPOINTS.api]);
  });

  it.each([
    [{ status: 99 }, 'status: Too small: expected number to be >=200'],
    [{ redirect: { status: 302, location: '/x' } }, 'redirect.status: must be 307 or 308'],
    [{ nonsense: true }, 'faults: Unrecognized key: "nonsense"'],
    [{ scope: ['everything'] }, 'scope.0: Invalid option: expected one of "api"|"getfile"|"putfile"|"ctx"|"launch"'],
  ])('refuses %j', async (patch, message) => {
    const response = await control('POST', patch);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: message });
    expect(() => h.sim.faults.set(patch)).toThrow(FaultSettingsError);
    expect(h.sim.faults.snapshot()).toEqual({});
  });

  it('resets over HTTP', async () => {
    await createContext(h.sim, CREATE.context_data);
    h.sim.faults.status = 500;
    const response = await fetch(`${h.sim.url}${CONTROL_PATHS.reset}`, { method: 'POST' });
    expect(response.status).toBe(204);
    expect(h.sim.state.contexts.size).toBe(0);
    expect(h.sim.faults.snapshot()).toEqual({});
    expect(h.sim.requests).toEqual([]);
  });

  it('reset() re-seeds: changes to orgs and contexts are gone', async () => {
    await api(h.sim, [{ command: COMMANDS.setProxies, org_name: 'acme', proxies: [] }]);
    const id = await createContext(h.sim, CREATE.context_data);
    h.sim.reset();
    expect(h.sim.state.contexts.has(id)).toBe(false);
    const slots = (
      await api(h.sim, [
        { command: COMMANDS.getProxies, org_name: 'acme' },
        { command: COMMANDS.getContext, [CONTEXT_FIELDS.id]: id },
      ])
    ).json as Slot[];
    expect(slots[1]).toMatchObject({ result: { proxies: [{ name: 'acme-egress' }] } });
    expect(slots[2]).toHaveProperty('error');
  });
});
