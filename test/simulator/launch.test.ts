import { beforeEach, describe, expect, it } from 'vitest';
import { COMMANDS, CONTEXT_FIELDS, LAUNCH } from '../../src/service/wire';
import { byTestId, createContext, expectTestIds, launch, openingTag, result, testId, useSimulator } from './helpers';

const START_MS = Date.UTC(2030, 5, 1, 8, 0, 0);
let clock = START_MS;
// Registered before useSimulator's hooks, so each reset seeds the state at START_MS.
beforeEach(() => {
  clock = START_MS;
});
const h = useSimulator({ now: () => clock });

const ANALYST = 'analyst@acme.example';

function refusal(html: string): { reason: string; text: string } {
  const tag = openingTag(html, 'refusal');
  return { reason: /data-reason="([^"]*)"/.exec(tag)?.[1] ?? '', text: testId(html, 'refusal') };
}

describe('a successful launch', () => {
  it('renders the session facts and counts a use', async () => {
    const id = await createContext(
      h.sim,
      {
        user: ANALYST,
        urls: ['https://suspicious.example/login?next=/home'],
        policy: [
          { type: 'readonly', params: ['true'] },
          { type: 'ribbon_background_color', params: ['#1E40AF'] },
          { type: 'ribbon_text_color', params: ['#fff'] },
          { type: 'ribbon_message', params: ['Opened by Isolink'] },
        ],
      },
      { max_uses: 3 },
    );
    const page = await launch(h.sim, id);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.html).toContain('<title>Isolated session – suspicious.example</title>');
    expectTestIds(page.html, {
      'target-url': 'https://suspicious.example/login?next=/home',
      'session-type': 'service-ruby',
      egress: 'default',
      'browser-chrome': 'standard',
      'use-count': '1 of 3',
      ribbon: 'Opened by Isolink',
    });
    expect(byTestId(page.html, 'policy')).toEqual([
      'readonly: true',
      'ribbon_background_color: #1E40AF',
      'ribbon_text_color: #fff',
      'ribbon_message: Opened by Isolink',
    ]);
    expect(page.html).toContain('#ribbon{background:#1e40af;color:#fff;');
    expect(h.sim.state.contexts.get(id)?.useCount).toBe(1);
    const details = await result(h.sim, { command: COMMANDS.getContext, [CONTEXT_FIELDS.id]: id });
    expect(details[CONTEXT_FIELDS.useCount]).toBe(1);
  });

  it('sets a strict Content-Security-Policy whose nonce matches the one style block', async () => {
    const id = await createContext(h.sim, { user: ANALYST, urls: ['https://a.example/'] });
    const page = await launch(h.sim, id);
    const csp = page.headers.get('content-security-policy') ?? '';
    const nonce = /style-src 'nonce-([^']+)'/.exec(csp)?.[1];
    expect(csp).toBe(`default-src 'none'; style-src 'nonce-${nonce}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`);
    expect(page.html).toContain(`<style nonce="${nonce}">`);
    expect(page.html.match(/<style/g)).toHaveLength(1);
    expect(page.html).not.toMatch(/<(script|iframe|img|a|link|form|object|embed)\b/i);
    expect(page.html).not.toMatch(/\s(href|src|style)=/i);
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.headers.get('cache-control')).toBe('no-store');
  });

  it('escapes a hostile URL and ribbon message, and never loads the target', async () => {
    const url = "https://evil.example/\"><script>alert(1)</script>?q=<img src=x onerror=alert(2)>&a='b'";
    const message = '</div><script>steal()</script><b onmouseover="x">&amp;';
    const id = await createContext(h.sim, {
      user: ANALYST,
      urls: [url],
      policy: [
        { type: 'ribbon_message', params: [message] },
        { type: 'x-"><script>', params: ['<svg onload=alert(3)>'] },
      ],
    });
    const page = await launch(h.sim, id);
    expect(page.status).toBe(200);
    expect(testId(page.html, 'target-url')).toBe(
      'https://evil.example/&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;?q=&lt;img src=x onerror=alert(2)&gt;&amp;a=&#39;b&#39;',
    );
    expect(testId(page.html, 'ribbon')).toBe('&lt;/div&gt;&lt;script&gt;steal()&lt;/script&gt;&lt;b onmouseover=&quot;x&quot;&gt;&amp;amp;');
    expect(byTestId(page.html, 'policy')).toContain('x-&quot;&gt;&lt;script&gt;: &lt;svg onload=alert(3)&gt;');
    expect(page.html).toContain('data-policy-type="x-&quot;&gt;&lt;script&gt;"');
    // No tag of the hostile input survives: its markup appears only as escaped text.
    expect(page.html).not.toMatch(/<(script|img|svg|b)[\s>]|<\/div><script/i);
    expect(page.html).toContain('<title>Isolated session – evil.example</title>');
  });

  it('shows a research session: type, egress, profile and categories', async () => {
    const id = await createContext(h.sim, {
      user: ANALYST,
      session_type: 'toolbox-standalone',
      egress_region: 'Toronto',
      browser_profile: { os: 'mac', browser: 'safari', timezone: 'America/Toronto' },
      categories: { availability: 'public', connectivity: ['datacenter', 'isp'] },
    });
    const page = await launch(h.sim, id);
    expect(page.status).toBe(200);
    expect(page.html).toContain('<title>Isolated session – blank</title>');
    expectTestIds(page.html, {
      'target-url': '',
      'session-type': 'toolbox-standalone',
      egress: 'Toronto',
      'browser-profile': 'os: mac; browser: safari; timezone: America/Toronto',
      categories: 'availability: public; connectivity: datacenter, isp',
      ribbon: 'Isolated session',
    });
    expect(byTestId(page.html, 'policy')).toEqual(['none']);
  });

  it('forces minimal chrome for catchall users and orgs, and hides the ribbon when seamless', async () => {
    const seamless = [{ type: 'browser_chrome', params: ['seamless'] }];
    const normal = await createContext(h.sim, { user: ANALYST, urls: ['https://a.example/'], policy: seamless });
    const catchallUser = await createContext(h.sim, { user: 'catchall@acme.example', urls: ['https://a.example/'], policy: seamless });
    const catchallOrg = await createContext(h.sim, { org: 'acme/legal', urls: ['https://a.example/'], policy: seamless });
    const counsel = await createContext(h.sim, { user: 'counsel@acme.example', urls: ['https://a.example/'], policy: seamless });

    const page = await launch(h.sim, normal);
    expect(testId(page.html, 'browser-chrome')).toBe('seamless');
    expect(openingTag(page.html, 'ribbon')).toBe('<div id="ribbon" data-testid="ribbon" role="banner" data-chrome="seamless" hidden>');
    for (const id of [catchallUser, catchallOrg, counsel]) {
      const forced = await launch(h.sim, id);
      expect(testId(forced.html, 'browser-chrome')).toBe('minimal');
      expect(openingTag(forced.html, 'ribbon')).toBe('<div id="ribbon" data-testid="ribbon" role="banner" data-chrome="minimal">');
    }
  });
});

describe('refused launches', () => {
  it('refuses when the uses are spent', async () => {
    const id = await createContext(h.sim, { user: ANALYST, urls: ['https://a.example/'] }, { max_uses: 2 });
    expect((await launch(h.sim, id)).status).toBe(200);
    const second = await launch(h.sim, id);
    expect(second.status).toBe(200);
    expect(testId(second.html, 'use-count')).toBe('2 of 2');
    const third = await launch(h.sim, id);
    expect(third.status).toBe(410);
    expect(refusal(third.html)).toEqual({ reason: 'exhausted', text: 'This context has no uses left.' });
    expect(third.html).toContain('<title>Session refused – exhausted</title>');
    expect(third.headers.get('content-security-policy')).toMatch(/^default-src 'none'; /);
    expect(h.sim.state.contexts.get(id)?.useCount).toBe(2);
    // Raising max_uses makes it usable again.
    await result(h.sim, { command: COMMANDS.updateContext, [CONTEXT_FIELDS.id]: id, max_uses: 3 });
    expect((await launch(h.sim, id)).status).toBe(200);
  });

  it('refuses after expiry, by the injected clock', async () => {
    const id = await createContext(h.sim, { user: ANALYST, urls: ['https://a.example/'] }, { expires: '+3600' });
    clock = START_MS + 3_599_999;
    expect((await launch(h.sim, id)).status).toBe(200);
    clock = START_MS + 3_600_000;
    const page = await launch(h.sim, id);
    expect(page.status).toBe(410);
    expect(refusal(page.html)).toEqual({ reason: 'expired', text: 'This context has expired.' });
    expect(h.sim.state.contexts.get(id)?.useCount).toBe(1);
  });

  it('uses the default expiry of 24 hours', async () => {
    const id = await createContext(h.sim, { user: ANALYST, urls: ['https://a.example/'] });
    clock = START_MS + 86_400_000 - 1;
    expect((await launch(h.sim, id)).status).toBe(200);
    clock = START_MS + 86_400_000;
    expect((await launch(h.sim, id)).status).toBe(410);
  });

  it('refuses while disabled and launches again once enabled', async () => {
    const id = await createContext(h.sim, { user: ANALYST, urls: ['https://a.example/'] });
    await result(h.sim, { command: COMMANDS.updateContext, [CONTEXT_FIELDS.id]: id, enabled: false });
    const page = await launch(h.sim, id);
    expect(page.status).toBe(403);
    expect(refusal(page.html)).toEqual({ reason: 'disabled', text: 'This context is disabled.' });
    await result(h.sim, { command: COMMANDS.updateContext, [CONTEXT_FIELDS.id]: id, enabled: true });
    expect((await launch(h.sim, id)).status).toBe(200);
    expect(h.sim.state.contexts.get(id)?.useCount).toBe(1);
  });

  it('refuses a deleted context with 410 and an unknown one with 404', async () => {
    const id = await createContext(h.sim, { user: ANALYST, urls: ['https://a.example/'] });
    await result(h.sim, { command: COMMANDS.deleteContext, [CONTEXT_FIELDS.id]: id });
    const deleted = await launch(h.sim, id);
    expect(deleted.status).toBe(410);
    expect(refusal(deleted.html)).toEqual({ reason: 'deleted', text: 'This context was deleted.' });
    const unknown = await launch(h.sim, 'does-not-exist');
    expect(unknown.status).toBe(404);
    expect(refusal(unknown.html)).toEqual({ reason: 'unknown', text: 'This context does not exist.' });
    const none = await fetch(`${h.sim.launchBase}${LAUNCH.path}`);
    expect(none.status).toBe(400);
    expect(refusal(await none.text())).toEqual({ reason: 'missing-context', text: 'No context was given.' });
  });

  it.each([
    [['127.0.0.1'], 200],
    [['127.0.0.0/8'], 200],
    [['10.0.0.0/8', '::1', '127.0.0.1/32'], 200],
    [['::ffff:127.0.0.0/104'], 200],
    [['10.0.0.0/8'], 403],
    [['127.0.0.2'], 403],
    [['::1'], 403],
    [['2001:db8::/32', '192.168.0.0/16'], 403],
    [[], 200],
  ])('restrict_client_ips %j answers %i to 127.0.0.1', async (ips, status) => {
    const id = await createContext(h.sim, { user: ANALYST, urls: ['https://a.example/'], restrict_client_ips: ips });
    const page = await launch(h.sim, id);
    expect(page.status).toBe(status);
    if (status === 403) {
      expect(refusal(page.html)).toEqual({ reason: 'client-ip', text: 'Your address may not use this context.' });
      expect(h.sim.state.contexts.get(id)?.useCount).toBe(0);
    }
  });

  it('refuses a suspended user', async () => {
    const id = await createContext(h.sim, { user: 'suspended@acme.example', urls: ['https://a.example/'] });
    const page = await launch(h.sim, id);
    expect(page.status).toBe(403);
    expect(refusal(page.html)).toEqual({ reason: 'suspended', text: 'This account is suspended.' });
  });
});

describe('egress licences', () => {
  it.each([
    [ANALYST, 'New York City', 200],
    [ANALYST, 'North America', 200],
    [ANALYST, 'Frankfurt', 403],
    [ANALYST, 'Europe', 403],
    ['responder@acme.example', 'London', 200],
    ['responder@acme.example', 'New York City', 200],
    ['responder@acme.example', 'Toronto', 403],
    ['responder@acme.example', 'North America', 403],
    ['tier1@acme.example', 'Singapore', 403],
    ['lead@acme.example', 'Mexico City', 200],
  ])('%s at %s: %i', async (user, egress, status) => {
    const id = await createContext(h.sim, { user, session_type: 'toolbox-standalone', egress_region: egress });
    const page = await launch(h.sim, id);
    expect(page.status).toBe(status);
    if (status === 403) {
      const tag = openingTag(page.html, 'egress-error');
      expect(tag).toBe('<p data-testid="egress-error" data-reason="egress" data-status="403">');
      expect(testId(page.html, 'egress-error')).toBe(`The egress location ${egress} is not licensed for this user.`);
      expect(page.html).toContain('<title>Egress error – egress</title>');
      expect(h.sim.state.contexts.get(id)?.useCount).toBe(0);
    } else {
      expect(testId(page.html, 'egress')).toBe(egress);
    }
  });
});
