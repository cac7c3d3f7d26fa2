/**
 * The URL rules as properties over arbitrary input (fast-check): what passes the target
 * check is an absolute http(s) URL with a host, whatever the text; text that is a URL
 * of a refused scheme is refused however it is spaced or wrapped; a launch URL that
 * passes isLaunchUrl sits on the launch base; client.launchUrl never leaves it, for any
 * context id a service could send.
 */
import fc from 'fast-check';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { beforeEach, describe, expect, it } from 'vitest';
import { createClient, isLaunchUrl, ProtocolError, ValidationError } from '../../src/api';
import { checkTargetUrl, MAX_URL_LENGTH } from '../../src/net/url';
import { resolveLink, resolveText, UNWRAP_MODES } from '../../src/resolve';
import { wrap } from '../support/wrap';
import { installMessages } from '../support/i18n';
import { prove } from './ledger';

beforeEach(() => {
  fakeBrowser.reset();
  installMessages();
});

const RUNS = 1000;

const REFUSED_SCHEMES = [
  'javascript',
  'vbscript',
  'data',
  'file',
  'blob',
  'about',
  'chrome',
  'chrome-extension',
  'filesystem',
  'view-source',
  'ftp',
  'ws',
  'mailto',
  'intent',
];

/** What WHATWG URL strips or ignores around and inside a scheme: C0 controls, space, tab, newline. */
const junk = fc.string({ unit: fc.constantFrom(' ', '\t', '\n', '\r', '\u0000', '\u0001', '\u001f'), maxLength: 4 });

/** A scheme in any case with tabs and newlines inside it (the URL parser removes them). */
const spelledScheme = (scheme: string) =>
  fc
    .array(fc.tuple(fc.boolean(), fc.constantFrom('', '', '', '\t', '\n')), { minLength: scheme.length, maxLength: scheme.length })
    .map((choices) => [...scheme].map((ch, i) => `${choices[i]?.[0] === true ? ch.toUpperCase() : ch}${choices[i]?.[1] ?? ''}`).join(''));

const refusedSchemeText = fc
  .tuple(
    fc.constantFrom(...REFUSED_SCHEMES),
    junk,
    fc.oneof(
      fc.string(),
      fc.webUrl().map((u) => `//${u}`),
      fc.webUrl(),
    ),
  )
  .chain(([scheme, lead, rest]) => spelledScheme(scheme).map((spelled) => ({ scheme, text: `${lead}${spelled}:${rest}` })));

const anyText = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme' }),
  fc.string({ unit: 'binary' }),
  fc.webUrl({ withFragments: true, withQueryParameters: true, authoritySettings: { withUserInfo: true, withIPv4: true, withIPv6: true, withPort: true } }),
  fc.tuple(junk, fc.webUrl(), junk).map(([a, u, b]) => `${a}${u}${b}`),
  refusedSchemeText.map((r) => r.text),
  // Wrapped links, their targets hostile too (a wrapped javascript: URL).
  fc
    .tuple(
      fc.constantFrom(...(Object.keys(wrap) as (keyof typeof wrap)[])),
      fc.oneof(
        fc.webUrl(),
        refusedSchemeText.map((r) => r.text),
        fc.string(),
      ),
    )
    .map(([format, inner]) => wrap[format](inner)),
);

describe('target URLs over arbitrary input', () => {
  it('checkTargetUrl and the target resolver only ever accept absolute http(s) URLs with a host; refused schemes are refused however they are written', async () => {
    await prove(
      'url-properties',
      () => {
        let accepted = 0;
        let refused = 0;
        fc.assert(
          fc.property(anyText, (text) => {
            const check = checkTargetUrl(text);
            if (check.ok) {
              accepted += 1;
              expect(['http:', 'https:']).toContain(check.url.protocol);
              expect(check.url.hostname).not.toBe('');
              expect(text.length).toBeLessThanOrEqual(MAX_URL_LENGTH);
              // The href is stable: parsing it again gives the same URL (no second interpretation).
              expect(new URL(check.url.href).href).toBe(check.url.href);
            } else {
              refused += 1;
              // A link refused as it is stays refused, whatever the unwrap setting.
              for (const mode of UNWRAP_MODES) expect(resolveLink(text, mode).ok).toBe(false);
            }
            // A link or typed text (omnibox, popup), unwrapped or not: a target is always an
            // http(s) URL with a host (so is the wrapper offered as the other choice), or a refusal.
            for (const mode of UNWRAP_MODES) {
              for (const resolved of [resolveLink(text, mode), resolveText(text, mode)]) {
                if (!resolved.ok) continue;
                for (const url of [resolved.target.url, resolved.target.choice?.url].filter((u) => u !== undefined)) {
                  expect(['http:', 'https:']).toContain(url.protocol);
                  expect(url.hostname).not.toBe('');
                }
              }
            }
          }),
          { numRuns: RUNS },
        );
        let schemes = 0;
        fc.assert(
          fc.property(refusedSchemeText, ({ text }) => {
            schemes += 1;
            expect(checkTargetUrl(text).ok).toBe(false);
          }),
          { numRuns: RUNS },
        );
        expect(accepted).toBeGreaterThan(50);
        expect(refused).toBeGreaterThan(50);
        return {
          cases: accepted + refused + schemes,
          detail: `${accepted} accepted + ${refused} refused arbitrary strings/URLs, ${schemes} refused-scheme spellings`,
        };
      },
      'checks',
    );
  });

  it('typed text that the URL parser reads as a javascript:/data:/blob:… URL is refused whole, never mined for a link inside it', async () => {
    await prove(
      'url-properties',
      () => {
        let runs = 0;
        const wrapped = fc
          .tuple(fc.constantFrom('javascript', 'data', 'blob', 'file', 'about', 'vbscript'), junk, fc.webUrl())
          .chain(([scheme, lead, url]) => spelledScheme(scheme).map((spelled) => `${lead}${spelled}:${scheme === 'data' ? 'text/html,' : ''}${url}`));
        fc.assert(
          fc.property(wrapped, (text) => {
            runs += 1;
            for (const mode of UNWRAP_MODES) expect(resolveText(text, mode).ok).toBe(false);
          }),
          { numRuns: RUNS },
        );
        return { cases: runs, detail: `${runs} spellings of wrapped links` };
      },
      'never mined',
    );
  });
});

describe('launch URLs over arbitrary input', () => {
  const LAUNCH_BASE = 'https://launch.acme.example/isolation';

  it('isLaunchUrl accepts only URLs on the launch base; client.launchUrl never leaves it for any context id', async () => {
    await prove(
      'launch-outside',
      () => {
        const base = new URL(LAUNCH_BASE);
        const candidate = fc.oneof(
          fc.webUrl({ withFragments: true, withQueryParameters: true, authoritySettings: { withUserInfo: true, withPort: true } }),
          fc.string().map((id) => `${LAUNCH_BASE}/launch?ctx=${id}`),
          fc
            .tuple(
              fc.constantFrom('', 'user@', 'launch.acme.example@', ':pw@'),
              fc.constantFrom(
                'launch.acme.example',
                'launch.acme.example.evil.example',
                'evil.example',
                'LAUNCH.acme.example',
                'launch.acme.example:443',
                'launch.acme.example:8443',
              ),
              fc.string(),
              fc.constantFrom('', '#x', '&ctx=2', '&next=https://evil.example/'),
            )
            .map(([userinfo, host, id, tail]) => `https://${userinfo}${host}/isolation/launch?ctx=${encodeURIComponent(id)}${tail}`),
          fc.string(),
        );
        let accepted = 0;
        let runs = 0;
        fc.assert(
          fc.property(candidate, (url) => {
            runs += 1;
            if (!isLaunchUrl(LAUNCH_BASE, url)) return;
            accepted += 1;
            const parsed = new URL(url);
            expect(parsed.origin).toBe(base.origin);
            expect(parsed.username).toBe('');
            expect(parsed.password).toBe('');
            expect(parsed.hash).toBe('');
            expect(parsed.pathname).toBe('/isolation/launch');
            expect([...parsed.searchParams.keys()]).toEqual(['ctx']);
          }),
          { numRuns: RUNS },
        );
        const client = createClient({ baseUrl: 'https://isolation.acme.example', launchBase: LAUNCH_BASE, token: 'unused' });
        const hostileId = fc.oneof(
          fc.string(),
          fc.string({ unit: 'binary' }),
          fc.constantFrom(
            '../../evil',
            '//evil.example/x',
            '@evil.example',
            'x#@evil.example',
            'x&ctx=y',
            '%2e%2e/',
            'https://evil.example/',
            'javascript:alert(1)',
            '\u0000',
            ' ',
            '',
          ),
        );
        let built = 0;
        fc.assert(
          fc.property(hostileId, (id) => {
            runs += 1;
            let url: string;
            try {
              url = client.launchUrl(id);
            } catch (error) {
              expect(error instanceof ValidationError || error instanceof ProtocolError).toBe(true);
              return;
            }
            built += 1;
            expect(isLaunchUrl(LAUNCH_BASE, url)).toBe(true);
            // The id comes back whole: nothing of it was read as URL structure.
            expect(new URL(url).searchParams.get('ctx')).toBe(id);
          }),
          { numRuns: RUNS },
        );
        expect(accepted).toBeGreaterThan(0);
        expect(built).toBeGreaterThan(0);
        return { cases: runs, detail: `${runs} arbitrary candidates and ids (${accepted} on-base URLs checked, ${built} launch URLs built)` };
      },
      'properties',
    );
  });
});
