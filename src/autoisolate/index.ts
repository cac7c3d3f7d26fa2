/**
 * Isolate by policy: which top-level navigations go to isolation before anything loads,
 * and the browser's network rules (declarativeNetRequest) that stop them. Pure: the
 * background installs the rules this builds, the landing page (isolate.html) checks the
 * navigation it was sent against them, the options page and the popup say what they do.
 *
 * A navigation is isolated when it is to a `to` domain, or when a page of a `from` site
 * starts it to another site; never when it is to an `except` domain, to the service's or
 * the launch URL's origin, or to the extension itself (not http). Domains match exactly
 * or as subdomains (`example.com` matches `a.example.com`), never by substring.
 *
 * The rules, by priority (the highest matching rule acts):
 * 4. allow: `except` domains and the exempt origins (service, launch);
 * 3. block: what a redirect cannot reach (the browser applies a redirect only where the
 *    extension has host access: without it, the navigation is stopped, never loaded);
 * 2. redirect: to the landing page, with the rule's id, a key and the target in its fragment.
 */
import { normalizeHostname } from '../net/host';

/** The settings of isolate by policy (the managed key `autoIsolate` has this shape, each field optional). */
export interface AutoIsolate {
  /** Sites whose pages' navigations to other sites are isolated. */
  readonly from: readonly string[];
  /** Domains always isolated, however the navigation starts. */
  readonly to: readonly string[];
  /** Domains never isolated (the organisation's own). */
  readonly except: readonly string[];
  /** Show the target and let the user choose, instead of isolating at once. */
  readonly ask: boolean;
}

/** The setting as stored or set by policy, each field optional, with the missing ones filled in (off, nothing listed). */
export function autoIsolateOf(value: { readonly [K in keyof AutoIsolate]?: AutoIsolate[K] | undefined }): AutoIsolate {
  return { from: value.from ?? [], to: value.to ?? [], except: value.except ?? [], ask: value.ask ?? false };
}

/**
 * Entries a list may hold. Each `from` site costs three rules, one a regular expression
 * rule (Chrome allows 1,000 of those and 5,000 rules of all kinds an extension adds at run
 * time); `to` and `except` share their rules, whatever their length.
 */
export const AUTO_ISOLATE_LIMITS = { from: 200, to: 1000, except: 1000 } as const;

/** True when isolate by policy would stop anything. */
function isAutoIsolateOn(config: AutoIsolate): boolean {
  return config.from.length > 0 || config.to.length > 0;
}

/** A list entry as stored: a host name or IPv4 address in the browser's form (lower case, punycode). */
export function isDomainEntry(value: string): boolean {
  return normalizeHostname(value) === value;
}

/**
 * What the analyst typed as a list entry, in stored form, or null: a pasted URL gives its
 * host (`https://Outlook.Office.com/mail` -> `outlook.office.com`), `*.` is dropped
 * (every entry covers its subdomains).
 */
export function domainEntryOf(input: string): string | null {
  let text = input.trim();
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//iu.exec(text);
  if (scheme) text = text.slice(scheme[0].length).split(/[/?#]/u)[0] ?? '';
  if (text.startsWith('*.')) text = text.slice(2);
  return normalizeHostname(text);
}

/** `host` is `domain` or one of its subdomains. */
export function matchesDomain(host: string, domain: string): boolean {
  return host === domain || (host.endsWith(domain) && host.charCodeAt(host.length - domain.length - 1) === 46);
}

/** The first of `domains` that `host` is or is under, or undefined. */
function domainOf(host: string, domains: readonly string[]): string | undefined {
  return domains.find((domain) => matchesDomain(host, domain));
}

/** Why a navigation is isolated: it is to a watched domain, or it leaves a `from` site. */
export type Reason = { readonly to: string } | { readonly from: string };

/** The id of the redirect rule for `to`, and of each `from` site's first rule. */
const TO_RULE = 10;
const FROM_RULES = 100;

/** The network rules' shape: the part of declarativeNetRequest.Rule Isolink uses. */
export interface NetRule {
  readonly id: number;
  readonly priority: number;
  readonly action: { readonly type: 'allow' | 'block' | 'redirect'; readonly redirect?: { readonly regexSubstitution: string } };
  readonly condition: {
    readonly resourceTypes: readonly 'main_frame'[];
    readonly urlFilter?: string;
    readonly regexFilter?: string;
    readonly requestDomains?: readonly string[];
    readonly excludedRequestDomains?: readonly string[];
    readonly initiatorDomains?: readonly string[];
  };
}

/**
 * The host permissions a redirect needs: every site for `from` rules (a link may go
 * anywhere), each `to` domain with its subdomains for the `to` rule. Loopback (the bundled
 * simulator's hosts, over http) is always granted.
 */
export const ALL_SITES = ['http://*/*', 'https://*/*'] as const;
export function toDomainsAccess(config: Pick<AutoIsolate, 'to'>): string[] {
  return config.to.flatMap((domain) => [`http://*.${domain}/*`, `https://*.${domain}/*`]);
}
const LOOPBACK = ['127.0.0.1', 'localhost'];

export interface RuleContext {
  /** The landing page's URL (chrome-extension://<id>/isolate.html). */
  readonly page: string;
  /** A random key the landing page checks: only these rules send it (see landingOf). */
  readonly key: string;
  /** Origins never isolated: the service's and the launch URL's. */
  readonly exempt: readonly string[];
  /** The host access granted: to every site (ALL_SITES), to the `to` domains (toDomainsAccess). */
  readonly access: { readonly all: boolean; readonly to: boolean };
}

const MAIN_FRAME = ['main_frame'] as const;
const WEB = '^https?://.*';

/** The landing page's URL a redirect rule sends a navigation to; `\0` stands for the target. */
export function substitutionOf(page: string, key: string, rule: number): string {
  return `${page}#k=${key}&r=${rule}&u=\\0`;
}

/**
 * A redirect rule, and where the redirect has no host access, block rules for the same
 * navigations (the browser skips a redirect it may not make, and the link would load):
 * over https everywhere, over http but on loopback, which is always granted.
 */
function rulesFor(id: number, condition: Omit<NetRule['condition'], 'resourceTypes'>, context: RuleContext, reached: boolean): NetRule[] {
  const redirect = { type: 'redirect', redirect: { regexSubstitution: substitutionOf(context.page, context.key, id) } } as const;
  const rules: NetRule[] = [{ id, priority: 2, action: redirect, condition: { ...condition, regexFilter: WEB, resourceTypes: MAIN_FRAME } }];
  if (reached) return rules;
  const block = { type: 'block' } as const;
  const excluded = [...(condition.excludedRequestDomains ?? []), ...LOOPBACK];
  rules.push(
    { id: id + 1, priority: 3, action: block, condition: { ...condition, urlFilter: '|https://', resourceTypes: MAIN_FRAME } },
    { id: id + 2, priority: 3, action: block, condition: { ...condition, urlFilter: '|http://', excludedRequestDomains: excluded, resourceTypes: MAIN_FRAME } },
  );
  return rules;
}

/** The network rules for a configuration: none when it is off. */
export function buildRules(config: AutoIsolate, context: RuleContext): NetRule[] {
  if (!isAutoIsolateOn(config)) return [];
  const allow = { type: 'allow' } as const;
  const rules: NetRule[] = context.exempt.map((origin, i) => ({
    id: 2 + i,
    priority: 4,
    action: allow,
    condition: { urlFilter: `|${origin}/`, resourceTypes: MAIN_FRAME },
  }));
  if (config.except.length > 0) rules.push({ id: 1, priority: 4, action: allow, condition: { requestDomains: config.except, resourceTypes: MAIN_FRAME } });
  if (config.to.length > 0) rules.push(...rulesFor(TO_RULE, { requestDomains: config.to }, context, context.access.all || context.access.to));
  config.from.forEach((site, i) => {
    rules.push(...rulesFor(FROM_RULES + 3 * i, { initiatorDomains: [site], excludedRequestDomains: [site] }, context, context.access.all));
  });
  return rules;
}

/** What the landing page was sent: the rule's key and id, and the navigation's target. */
export interface Landing {
  readonly key: string;
  readonly rule: number;
  readonly url: string;
}

const LANDING = /^#k=([0-9a-f]{32})&r=(\d{1,6})&u=(https?:\/\/.+)$/su;

/** The landing page's fragment read, or null when it is not one a rule writes. */
export function landingOf(hash: string): Landing | null {
  const match = LANDING.exec(hash);
  if (!match) return null;
  return { key: match[1] ?? '', rule: Number(match[2]), url: match[3] ?? '' };
}

/**
 * Why the rules in force sent `landing` to the landing page, or null when they did not: no
 * installed rule has its id and key (a page that navigated there itself, a key guessed or
 * from rules since replaced), or its target is not one that rule stops. Read from the rules
 * themselves, not the settings: they are what stopped the navigation (and what stays in
 * force when the organisation's value cannot be used).
 */
export function reasonOf(landing: Landing, installed: readonly NetRule[], context: Pick<RuleContext, 'page'>): Reason | null {
  const rule = installed.find((candidate) => candidate.id === landing.rule);
  if (rule?.action.type !== 'redirect' || rule.action.redirect?.regexSubstitution !== substitutionOf(context.page, landing.key, landing.rule)) return null;
  let host: string;
  try {
    host = new URL(landing.url).hostname;
  } catch {
    return null;
  }
  // A watched domain wins: a link to it is never opened on this computer, wherever it starts.
  const watched = domainOf(host, installed.find((candidate) => candidate.id === TO_RULE)?.condition.requestDomains ?? []);
  if (watched !== undefined && (rule.id === TO_RULE || rule.condition.initiatorDomains)) return { to: watched };
  const site = rule.condition.initiatorDomains?.[0];
  return site === undefined || matchesDomain(host, site) ? null : { from: site };
}

/** The site of `url` among the `from` sites, for the popup: links opened from this page are isolated. */
export function fromSiteOf(url: string | undefined, config: AutoIsolate): string | undefined {
  if (url === undefined || !URL.canParse(url)) return undefined;
  const parsed = new URL(url);
  return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? domainOf(parsed.hostname, config.from) : undefined;
}

/** A new random key for a rule set: 32 hex digits (a random UUID's: 122 random bits). */
export function newKey(): string {
  return crypto.randomUUID().replaceAll('-', '');
}
