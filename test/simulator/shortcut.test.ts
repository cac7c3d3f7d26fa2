import { describe, expect, it } from 'vitest';
import { CONTEXT_DATA_KEYS, ENDPOINTS, LAUNCH, SERVICE_ERRORS, SHORTCUT_PARAMS } from '../../src/service/wire';
import { launch, testId, useSimulator } from './helpers';

const NOW_MS = Date.UTC(2030, 3, 1);
const h = useSimulator({ now: () => NOW_MS });

function shortcut(params: Record<string, string>): Promise<Response> {
  const query = new URLSearchParams(params);
  return fetch(`${h.sim.url}${ENDPOINTS.shortcut}?${query}`, { redirect: 'manual' });
}

const TARGET = 'https://suspicious.example/a?b=c&d=<e>';
const base = () => ({
  [SHORTCUT_PARAMS.auth]: h.sim.adminToken,
  [SHORTCUT_PARAMS.user]: 'analyst@acme.example',
  [SHORTCUT_PARAMS.url]: TARGET,
});

function onlyContext() {
  expect(h.sim.state.contexts.size).toBe(1);
  const [context] = h.sim.state.contexts.values();
  if (!context) throw new Error('no context');
  return context;
}

describe('GET /ctx/', () => {
  it('redirects into the session by default', async () => {
    const response = await shortcut(base());
    expect(response.status).toBe(302);
    const context = onlyContext();
    const location = `${h.sim.launchBase}${LAUNCH.path}?${LAUNCH.param}=${context.id}`;
    expect(response.headers.get('location')).toBe(location);
    expect(context.contextData).toEqual({ [CONTEXT_DATA_KEYS.username]: 'analyst@acme.example', [CONTEXT_DATA_KEYS.url]: [TARGET] });
    expect(context.maxUses).toBe(1000);
    expect(context.expires).toBe(NOW_MS / 1000 + 86_400);
    expect(context.useCount).toBe(0);
    const page = await fetch(location);
    expect(page.status).toBe(200);
    expect(testId(await page.text(), 'target-url')).toBe('https://suspicious.example/a?b=c&amp;d=&lt;e&gt;');
  });

  it('answers the launch URL as text with response=url', async () => {
    const response = await shortcut({ ...base(), [SHORTCUT_PARAMS.response]: 'url' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await response.text()).toBe(h.sim.launchUrl(onlyContext().id));
  });

  it('answers the context id as text with response=id', async () => {
    const response = await shortcut({ ...base(), [SHORTCUT_PARAMS.response]: 'id' });
    expect(response.status).toBe(200);
    const id = await response.text();
    expect(id).toBe(onlyContext().id);
    expect((await launch(h.sim, id)).status).toBe(200);
  });

  it('answers 401 for a bad or missing token, creating nothing', async () => {
    for (const auth of ['wrong', '']) {
      const response = await shortcut({ ...base(), [SHORTCUT_PARAMS.auth]: auth });
      expect(response.status).toBe(401);
      expect(await response.text()).toBe(SERVICE_ERRORS.badToken);
    }
    const { auth: _dropped, ...withoutAuth } = base();
    expect((await shortcut(withoutAuth)).status).toBe(401);
    expect(h.sim.state.contexts.size).toBe(0);
  });

  it.each([
    [{ [SHORTCUT_PARAMS.response]: 'json' }, 'ValueError: response must be one of redirect, url, id'],
    [{ [SHORTCUT_PARAMS.user]: '' }, 'ValidationError: missing user'],
    [{ [SHORTCUT_PARAMS.user]: '', [SHORTCUT_PARAMS.url]: '' }, 'ValidationError: missing user, url'],
    [{ [SHORTCUT_PARAMS.url]: 'hxxps://evil[.]example' }, 'ValidationError: context_data.urls[0]: not an absolute http(s) URL: "hxxps://evil[.]example"'],
    [{ [SHORTCUT_PARAMS.user]: 'ops@globex.example' }, 'ValidationError: context_data.user: unknown user "ops@globex.example"'],
  ])('answers 400 for %j', async (override, text) => {
    const response = await shortcut({ ...base(), ...override });
    expect(response.status).toBe(400);
    expect(await response.text()).toBe(text);
    expect(h.sim.state.contexts.size).toBe(0);
  });

  it('answers 405 to POST', async () => {
    const response = await fetch(`${h.sim.url}${ENDPOINTS.shortcut}`, { method: 'POST' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET');
  });
});
