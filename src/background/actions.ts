/**
 * What the menus, the keyboard shortcut, the omnibox and the popup ask the background
 * to do: create contexts and open their launch URLs. Side effects come in through
 * `ActionDeps`, so every action is tested with plain fakes.
 *
 * Fail closed: the only URL ever given to tabs.create is a launch URL that passed
 * isLaunchUrl against the configured launch base. Any failure rejects; callers notify.
 */
import { isLaunchUrl, type CreateContextParams, type CreatedContext, type IsolinkClient } from '../api';
import type { PolicyEntry } from '../policy';
import { extractUrls, refang } from '../fang';
import { t } from '../i18n';
import { bulkFailureText, refusedUrlText } from '../i18n/errors';
import { checkTargetUrl } from '../net/url';
import type { RecentContext } from '../settings/recent';
import { expirySeconds, type Settings } from '../settings/schema';
import { connect, identityOf, type Connection, type Environment } from './connection';
import { LaunchRefusedError, NotConfiguredError, RefusedUrlError } from './failures';

export type SessionKind = 'standard' | 'research';

/** The research choices of one request (from the popup) or of the settings. */
export type ResearchChoice = Settings['research'];

/** Quick policy switches of the popup: they replace the default entry of their type. */
export interface PolicyToggles {
  readonly readonly?: boolean | undefined;
  readonly fileTransfer?: 'block_all' | 'allow_all' | undefined;
  readonly clipboard?: 'block_all' | 'allow_all' | undefined;
}

export interface OpenTabOptions {
  readonly active: boolean;
  /** Position: right after the tab the action came from. */
  readonly index?: number | undefined;
  readonly windowId?: number | undefined;
  readonly openerTabId?: number | undefined;
}

/** Where an action came from, for tab placement. */
export interface SourceTab {
  readonly id?: number | undefined;
  readonly index?: number | undefined;
  readonly windowId?: number | undefined;
}

export interface ActionDeps extends Environment {
  openTab(url: string, options: OpenTabOptions): Promise<void>;
  addRecent(entries: readonly RecentContext[]): Promise<void>;
  now(): number;
}

export interface IsolateRequest {
  /** The target, already refanged. */
  readonly url: string;
  readonly session: SessionKind;
  readonly research?: ResearchChoice | undefined;
  readonly toggles?: PolicyToggles | undefined;
  readonly source?: SourceTab | undefined;
  /** Menu actions add a domain_allow entry when the settings say so; the popup follows the settings too. */
  readonly autoDomainAllow?: boolean | undefined;
}

export interface IsolateOutcome {
  readonly launchUrl: string;
  readonly context: RecentContext;
}

/** Checks a target before anything else happens; a RefusedUrlError names the reason. */
export function requireTarget(raw: string): URL {
  const check = checkTargetUrl(raw);
  if (!check.ok) throw new RefusedUrlError(refusedUrlText(check.code, check.params), check.code);
  return check.url;
}

/** The scheme text starts with (`javascript`, `IOC`, `https`), if any. */
const LEADING_SCHEME = /^([a-z][\d+.a-z-]*):/i;

/** Schemes whose text is refused whole, however it is spaced: never mined for a link inside. */
const NEVER_MINED = new Set(['javascript', 'vbscript', 'data', 'blob', 'file', 'filesystem', 'about', 'chrome', 'view-source']);

/**
 * The target of text typed or pasted by the analyst, defanged or not. Text that is a
 * URL of another scheme is judged as that URL (a `javascript:`, `data:` or `blob:` URL
 * is refused, never mined for a link inside it); otherwise the text is refanged and its
 * first http(s) link taken ("IOC: hxxp://…", "hxxp://… (phishing)").
 */
export function targetFromText(text: string): URL {
  const refanged = refang(text.trim());
  // The scheme as the URL parser reads it: leading controls and spaces dropped, tabs and
  // newlines inside removed (`java\tscript:` is javascript:).
  // eslint-disable-next-line no-control-regex -- the URL parser strips exactly these
  const spelled = refanged.replace(/^[\u0000-\u0020]+/, '').replace(/[\t\n\r]/g, '');
  const scheme = LEADING_SCHEME.exec(spelled)?.[1]?.toLowerCase();
  if (scheme !== undefined && NEVER_MINED.has(scheme)) return requireTarget(refanged);
  // Another scheme glued to what follows is a URL (refused below); "IOC: …" is a label.
  const glued = scheme !== undefined && !/^\s/.test(spelled.slice(scheme.length + 1));
  if (glued && scheme !== 'http' && scheme !== 'https' && URL.canParse(refanged)) return requireTarget(refanged);
  const [first] = extractUrls(refanged);
  return requireTarget(first ?? refanged);
}

function applyToggles(policy: readonly PolicyEntry[], toggles: PolicyToggles | undefined): PolicyEntry[] {
  if (!toggles) return [...policy];
  const replace: [string, string | undefined][] = [
    ['readonly', toggles.readonly === undefined ? undefined : String(toggles.readonly)],
    ['file_transfer', toggles.fileTransfer],
    ['clipboard', toggles.clipboard],
  ];
  let out = [...policy];
  for (const [type, value] of replace) {
    if (value === undefined) continue;
    out = [...out.filter((entry) => entry.type !== type), { type, params: [value] }];
  }
  return out;
}

/** The create_context parameters an action sends: identity, defaults, and the request's choices. */
export function buildCreateParams(settings: Settings, request: Omit<IsolateRequest, 'url'> & { url?: string | undefined }, nowMs: number): CreateContextParams {
  const identity = identityOf(settings);
  if (!identity) throw new NotConfiguredError(t('problemNoIdentity'));
  const policy = applyToggles(settings.policy, request.toggles);
  const seconds = expirySeconds(settings.expiry);
  const params: Record<string, unknown> = { ...identity };
  if (request.url !== undefined) params['url'] = request.url;
  if (policy.length > 0) params['policy'] = policy;
  if (settings.maxUses !== null) params['max_uses'] = settings.maxUses;
  if (seconds !== undefined) params['expires'] = Math.floor(nowMs / 1000) + seconds;
  params['auto_domain_allow'] = request.url !== undefined && (request.autoDomainAllow ?? settings.autoDomainAllow);
  if (request.session === 'research') {
    const research = request.research ?? settings.research;
    params['session_type'] = 'toolbox-standalone';
    if (research.egressRegion !== '') params['egress_region'] = research.egressRegion;
    if (research.browserProfile) {
      const { os, browser, timezone, languages } = research.browserProfile;
      params['browser_profile'] = { os, browser, ...(timezone ? { timezone } : {}), ...(languages ? { languages } : {}) };
    }
    const categories: Record<string, string[]> = {};
    if (research.availability.length > 0) categories['availability'] = [...research.availability];
    if (research.connectivity.length > 0) categories['connectivity'] = [...research.connectivity];
    if (Object.keys(categories).length > 0) params['categories'] = categories;
  }
  return params;
}

function recentEntry(created: CreatedContext, url: URL | undefined, launchUrl: string, session: SessionKind, nowMs: number): RecentContext {
  return {
    id: created.browse_context_id,
    url: url?.href ?? '',
    host: url?.hostname ?? '',
    sessionType: session === 'research' ? 'toolbox-standalone' : 'service-ruby',
    createdAt: nowMs,
    expires: created.expires,
    maxUses: created.max_uses,
    launchUrl,
    name: '',
  };
}

/** The launch URL of a context, or a LaunchRefusedError when it would leave the launch base. */
export function safeLaunchUrl(connection: Pick<Connection, 'client' | 'launchBase'>, id: string): string {
  let url: string;
  try {
    url = connection.client.launchUrl(id);
  } catch {
    throw new LaunchRefusedError();
  }
  if (!isLaunchUrl(connection.launchBase, url)) throw new LaunchRefusedError();
  return url;
}

function tabOptions(settings: Settings, source: SourceTab | undefined): OpenTabOptions {
  return {
    active: settings.tabPlacement === 'foreground',
    index: source?.index === undefined ? undefined : source.index + 1,
    windowId: source?.windowId,
    openerTabId: source?.id,
  };
}

async function createOne(client: IsolinkClient, params: CreateContextParams): Promise<CreatedContext> {
  return client.createContext(params);
}

/**
 * Adds contexts to the recent list. Best effort: the isolated tab is already open, so a
 * storage failure here must not be reported as a failed isolation.
 */
async function remember(deps: ActionDeps, entries: readonly RecentContext[]): Promise<void> {
  try {
    await deps.addRecent(entries);
  } catch {
    console.warn('Isolink could not update the recent contexts list');
  }
}

/** Creates one context and opens its launch URL in a new tab. */
export async function isolate(deps: ActionDeps, request: IsolateRequest): Promise<IsolateOutcome> {
  const target = requireTarget(request.url);
  const connection = await connect(deps);
  const params = buildCreateParams(connection.settings, { ...request, url: target.href }, deps.now());
  const created = await createOne(connection.client, params);
  const launchUrl = safeLaunchUrl(connection, created.browse_context_id);
  await deps.openTab(launchUrl, tabOptions(connection.settings, request.source));
  const context = recentEntry(created, target, launchUrl, request.session, deps.now());
  await remember(deps, [context]);
  return { launchUrl, context };
}

/** A research session without a target URL (the popup's quick research). */
export async function research(
  deps: ActionDeps,
  request: { readonly research?: ResearchChoice | undefined; readonly toggles?: PolicyToggles | undefined; readonly source?: SourceTab | undefined },
): Promise<IsolateOutcome> {
  const connection = await connect(deps);
  const params = buildCreateParams(connection.settings, { ...request, session: 'research' }, deps.now());
  const created = await createOne(connection.client, params);
  const launchUrl = safeLaunchUrl(connection, created.browse_context_id);
  await deps.openTab(launchUrl, tabOptions(connection.settings, request.source));
  const context = recentEntry(created, undefined, launchUrl, 'research', deps.now());
  await remember(deps, [context]);
  return { launchUrl, context };
}

export interface BulkOutcome {
  readonly created: RecentContext[];
  readonly failures: { readonly url: string; readonly error: string }[];
}

/** Creates contexts for many targets in as few requests as the client batches; opens no tab. */
export async function createMany(deps: ActionDeps, urls: readonly string[]): Promise<BulkOutcome> {
  const connection = await connect(deps);
  const shared = buildCreateParams(connection.settings, { session: 'standard' }, deps.now());
  // The client adds each URL's own domain_allow entry.
  const result = await connection.client.bulkCreateContexts({ ...shared, auto_domain_allow: connection.settings.autoDomainAllow, urls });
  const nowMs = deps.now();
  const created: RecentContext[] = [];
  // The client's words are English: each failure is said from its code.
  const failures = result.failures.map((failure) => ({ url: failure.url, error: bulkFailureText(failure) }));
  for (const item of result.created) {
    if (!isLaunchUrl(connection.launchBase, item.launch_url)) {
      failures.push({ url: item.url, error: t('errorLaunchRefused') });
      continue;
    }
    created.push(recentEntry(item, new URL(item.url), item.launch_url, 'standard', nowMs));
  }
  await remember(deps, created);
  return { created, failures };
}

/** Opens launch URLs of known contexts (checked again against the launch base). */
export async function openLaunchUrls(deps: ActionDeps, launchUrls: readonly string[], source?: SourceTab): Promise<number> {
  const { settings, launchBase } = await connect(deps);
  let opened = 0;
  let index = source?.index;
  for (const url of launchUrls) {
    if (!isLaunchUrl(launchBase, url)) continue;
    await deps.openTab(url, { ...tabOptions(settings, source), index: index === undefined ? undefined : index + 1, active: opened === 0 && settings.tabPlacement === 'foreground' });
    if (index !== undefined) index += 1;
    opened += 1;
  }
  return opened;
}
