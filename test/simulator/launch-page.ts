/**
 * HTML of the launch endpoint: the page standing in for an isolated session, and the
 * pages that refuse one. The target URL is only ever shown as escaped text: the page
 * has no link, frame, image or script, and its Content-Security-Policy forbids loading
 * anything but its own nonce'd style block.
 *
 * Stable hooks for tests: `data-testid` = ribbon, target-url, session-type, egress,
 * browser-chrome, browser-profile, categories, use-count, policies (a list of
 * `data-testid="policy"` items with `data-policy-type`), refusal (with `data-reason`),
 * egress-error.
 */
import { randomBytes } from 'node:crypto';
import type { PolicyEntry } from '../../src/policy';
import type { BrowserChrome, Ribbon } from './policy';

const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes text for HTML content and double- or single-quoted attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => ESCAPES[ch] ?? ch);
}

export function newNonce(): string {
  return randomBytes(16).toString('base64');
}

export function contentSecurityPolicy(nonce: string): string {
  return ["default-src 'none'", `style-src 'nonce-${nonce}'`, "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'"].join('; ');
}

/** Headers of every HTML page the simulator serves. */
export function pageHeaders(nonce: string): Record<string, string> {
  return {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': contentSecurityPolicy(nonce),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
    'cache-control': 'no-store',
  };
}

const BASE_CSS =
  'body{font-family:system-ui,sans-serif;margin:0;background:#f3f4f6;color:#111827}' +
  'main{padding:1rem 2rem}dt{font-weight:600;margin-top:.5rem}' +
  '#target-url{font-family:ui-monospace,monospace;word-break:break-all}';

function page(title: string, nonce: string, css: string, body: string): string {
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="referrer" content="no-referrer">',
    `<title>${escapeHtml(title)}</title>`,
    `<style nonce="${escapeHtml(nonce)}">${BASE_CSS}${css}</style>`,
    '</head>',
    `<body>${body}</body>`,
    '</html>',
  ].join('\n');
}

export interface SessionView {
  readonly contextId: string;
  readonly url: string | undefined;
  readonly sessionType: string;
  readonly egress: string | undefined;
  readonly browserProfile: Readonly<Record<string, string | undefined>> | undefined;
  readonly categories: Readonly<Record<string, string | readonly string[] | undefined>> | undefined;
  readonly policies: readonly PolicyEntry[];
  readonly ribbon: Ribbon;
  readonly chrome: BrowserChrome;
  readonly useCount: number;
  readonly maxUses: number;
}

/** The host shown in the title: the URL's host, or `blank` when there is no target. */
export function titleHost(url: string | undefined): string {
  if (url === undefined) return 'blank';
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

function describeRecord(record: Readonly<Record<string, unknown>>): string {
  return Object.entries(record)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${key}: ${Array.isArray(value) ? value.join(', ') : String(value)}`)
    .join('; ');
}

/** The session stand-in. Colours are validated hex values; everything else is escaped. */
export function renderSessionPage(view: SessionView, nonce: string): string {
  const policies =
    view.policies.length === 0
      ? '<li data-testid="policy" data-policy-type="">none</li>'
      : view.policies
          .map((p) => `<li data-testid="policy" data-policy-type="${escapeHtml(p.type)}">${escapeHtml(p.type)}: ${escapeHtml(p.params.join(', '))}</li>`)
          .join('');
  const hidden = view.chrome === 'seamless' ? ' hidden' : '';
  const body = [
    `<div id="ribbon" data-testid="ribbon" role="banner" data-chrome="${view.chrome}"${hidden}>${escapeHtml(view.ribbon.message)}</div>`,
    '<main>',
    '<h1>Isolated session</h1>',
    '<p>The target is opened in the remote isolated browser. This page never loads it.</p>',
    '<dl>',
    `<dt>Target</dt><dd id="target-url" data-testid="target-url">${escapeHtml(view.url ?? '')}</dd>`,
    `<dt>Session type</dt><dd data-testid="session-type">${escapeHtml(view.sessionType)}</dd>`,
    `<dt>Egress location</dt><dd data-testid="egress">${escapeHtml(view.egress ?? 'default')}</dd>`,
    `<dt>Browser chrome</dt><dd data-testid="browser-chrome">${view.chrome}</dd>`,
    `<dt>Browser profile</dt><dd data-testid="browser-profile">${escapeHtml(view.browserProfile ? describeRecord(view.browserProfile) : 'default')}</dd>`,
    `<dt>Egress categories</dt><dd data-testid="categories">${escapeHtml(view.categories ? describeRecord(view.categories) : 'default')}</dd>`,
    `<dt>Uses</dt><dd data-testid="use-count">${view.useCount} of ${view.maxUses}</dd>`,
    `<dt>Context</dt><dd data-testid="context-id">${escapeHtml(view.contextId)}</dd>`,
    '</dl>',
    `<h2>Policies</h2><ul data-testid="policies">${policies}</ul>`,
    '</main>',
  ].join('\n');
  const css = `#ribbon{background:${view.ribbon.background};color:${view.ribbon.text};padding:.5rem 1rem;font-weight:600}`;
  return page(`Isolated session – ${titleHost(view.url)}`, nonce, css, body);
}

export interface RefusalView {
  readonly status: number;
  readonly reason: string;
  readonly message: string;
}

/** A refused launch. The egress refusal has its own hook (`egress-error`). */
export function renderRefusalPage(refusal: RefusalView, nonce: string): string {
  const testid = refusal.reason === 'egress' ? 'egress-error' : 'refusal';
  const heading = refusal.reason === 'egress' ? 'Egress error' : 'Session refused';
  const body = [
    '<main>',
    `<h1>${heading}</h1>`,
    `<p data-testid="${testid}" data-reason="${escapeHtml(refusal.reason)}" data-status="${refusal.status}">${escapeHtml(refusal.message)}</p>`,
    '</main>',
  ].join('\n');
  return page(`${heading} – ${refusal.reason}`, nonce, '', body);
}
