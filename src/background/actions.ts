/**
 * What the menus, the keyboard shortcut, the omnibox and the popup ask the background
 * to do: create contexts and open their launch URLs. Side effects come in through
 * `Deps`, so every action is tested with plain fakes.
 *
 * Fail closed: the only URL ever given to tabs.create is a launch URL that passed
 * isLaunchUrl against the configured launch base. Any failure rejects; callers notify.
 */
import { checkLaunchUrl, RESEARCH_SESSION_TYPE, SESSION_TYPES, type CreateContextParams, type CreatedContext, type LaunchUrl } from '../api';
import type { PolicyEntry } from '../policy';
import { bulkFailureText, refusedUrlText } from '../i18n/errors';
import { allowsOwnDomain, bulkGroups, chooseWrapper, resolveLink, type Resolved, type Target, type UnwrapMode } from '../resolve';
import type { RecentContext } from '../settings/recent';
import { expirySeconds, type Settings } from '../settings/schema';
import { checkSettings, connect, identityOf, type Connection } from './connection';
import type { Deps, OpenTabOptions, SourceTab } from './deps';
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

export interface IsolateRequest {
  /** The link clicked, or the one in text typed or pasted (see linkInText). */
  readonly link: string;
  /** The analyst's answer when asked about a wrapped link. */
  readonly wrapped?: WrappedChoice | undefined;
  readonly session: SessionKind;
  readonly research?: ResearchChoice | undefined;
  readonly toggles?: PolicyToggles | undefined;
  readonly source?: SourceTab | undefined;
}

/** A context created and its launch URL opened. */
export interface Opened {
  readonly launchUrl: string;
  readonly context: RecentContext;
}

export interface IsolateOutcome extends Opened {
  readonly target: Target;
}

/** Nothing was created: the link is wrapped and the settings say to ask which to open. */
export interface AskOutcome {
  readonly ask: Target;
}

/** The analyst's answer about a wrapped link: its real target, or the wrapper as it is. */
export type WrappedChoice = 'unwrap' | 'keep';

/** The resolver's target, or a RefusedUrlError that names why (in the analyst's words). */
function requireResolved(resolved: Resolved): Target {
  if (!resolved.ok) throw RefusedUrlError.of(resolved.code, resolved.params);
  return resolved.target;
}

/**
 * The target of `input` under the settings' unwrap mode. An answer the analyst already
 * gave applies only where the settings ask: a mode set by the organisation wins.
 */
export function resolveInput(link: string, mode: UnwrapMode, choice?: WrappedChoice): Target {
  const target = requireResolved(resolveLink(link, mode));
  if (mode !== 'ask' || choice === undefined) return target;
  if (choice === 'keep') return chooseWrapper(target);
  const { choice: _asked, ...real } = target;
  return real;
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
function buildCreateParams(
  settings: Settings,
  request: Pick<IsolateRequest, 'session' | 'research' | 'toggles'> & { readonly target?: Target | undefined },
  nowMs: number,
): CreateContextParams {
  const identity = identityOf(settings);
  if (!identity) throw new NotConfiguredError('problemNoIdentity');
  const policy = applyToggles(settings.policy, request.toggles);
  const seconds = expirySeconds(settings.expiry);
  const params: Record<string, unknown> = { ...identity };
  const target = request.target;
  // The resolver's checked URL: the client takes it without checking it again.
  if (target !== undefined) params['url'] = target.url;
  if (policy.length > 0) params['policy'] = policy;
  if (settings.maxUses !== null) params['max_uses'] = settings.maxUses;
  if (seconds !== undefined) params['expires'] = Math.floor(nowMs / 1000) + seconds;
  params['auto_domain_allow'] = target !== undefined && allowsOwnDomain(target) && settings.autoDomainAllow;
  if (request.session === 'research') {
    const research = request.research ?? settings.research;
    params['session_type'] = RESEARCH_SESSION_TYPE;
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

function recentEntry(created: CreatedContext, target: Target | undefined, launchUrl: string, session: SessionKind, nowMs: number): RecentContext {
  const wrappedBy = target === undefined ? [] : [...target.layers, ...(target.wrapper === undefined ? [] : [target.wrapper])];
  return {
    id: created.browse_context_id,
    url: target?.url.href ?? '',
    host: target?.url.hostname ?? '',
    ...(wrappedBy.length === 0 ? {} : { wrappedBy }),
    sessionType: session === 'research' ? RESEARCH_SESSION_TYPE : SESSION_TYPES[0],
    createdAt: nowMs,
    expires: created.expires,
    maxUses: created.max_uses,
    launchUrl,
    name: '',
  };
}

/**
 * The launch URL of a context, checked against the launch base (by the client, which was
 * made with it: once), or a LaunchRefusedError when it would leave it.
 */
export function safeLaunchUrl(connection: Pick<Connection, 'client'>, id: string): LaunchUrl {
  try {
    return connection.client.launchUrl(id);
  } catch {
    throw new LaunchRefusedError();
  }
}

function tabOptions(settings: Settings, source: SourceTab | undefined): OpenTabOptions {
  return {
    active: settings.tabPlacement === 'foreground',
    index: source?.index === undefined ? undefined : source.index + 1,
    windowId: source?.windowId,
    openerTabId: source?.id,
  };
}

/**
 * Adds contexts to the recent list. Best effort: the isolated tab is already open (or its
 * launch URL already answered), so a storage failure here must not be reported as a failed
 * isolation. Never rejects.
 */
export async function remember(deps: Deps, entries: readonly RecentContext[]): Promise<void> {
  try {
    await deps.store.addRecent(entries);
  } catch {
    console.warn('Isolink could not update the recent contexts list');
  }
}

/**
 * Resolves what was clicked or typed, creates one context for it and opens its launch
 * URL in a new tab. A wrapped link under the "ask" setting creates nothing: the caller asks.
 */
export async function isolate(deps: Deps, request: IsolateRequest): Promise<IsolateOutcome | AskOutcome> {
  const connection = await connect(deps);
  const target = resolveInput(request.link, connection.settings.unwrap, request.wrapped);
  if (target.choice) return { ask: target };
  return { ...(await createAndOpen(deps, connection, { ...request, target })), target };
}

/** A research session without a target URL (the popup's quick research). */
export async function research(
  deps: Deps,
  request: { readonly research?: ResearchChoice | undefined; readonly toggles?: PolicyToggles | undefined; readonly source?: SourceTab | undefined },
): Promise<Opened> {
  return createAndOpen(deps, await connect(deps), { ...request, session: 'research' });
}

/**
 * The one way a context is made and shown: create it (one request), check its launch URL
 * against the launch base, open the tab, then record it in the recent list.
 */
async function createAndOpen(
  deps: Deps,
  connection: Connection,
  request: Pick<IsolateRequest, 'session' | 'research' | 'toggles' | 'source'> & { readonly target?: Target },
): Promise<Opened> {
  const params = buildCreateParams(connection.settings, request, deps.now());
  const created: CreatedContext = await connection.client.createContext(params);
  const launchUrl = safeLaunchUrl(connection, created.browse_context_id);
  await deps.browser.openTab(launchUrl, tabOptions(connection.settings, request.source));
  const context = recentEntry(created, request.target, launchUrl, request.session, deps.now());
  await remember(deps, [context]);
  return { launchUrl, context };
}

export interface BulkOutcome {
  readonly created: RecentContext[];
  readonly failures: { readonly url: string; readonly error: string }[];
  /** The created contexts' launch URLs, checked, in order: what openTabs may open. */
  readonly launchUrls: LaunchUrl[];
  /** The settings the contexts were made with: their tabs open with them, without reading them again. */
  readonly settings: Settings;
}

/**
 * Creates contexts for many links (found in a selection or a pasted list) in as few
 * requests as the client batches, and records them in the recent list; opens no tab.
 */
export async function createMany(deps: Deps, links: readonly string[], wrapped?: WrappedChoice): Promise<BulkOutcome> {
  const outcome = await createContexts(deps, links, wrapped);
  await remember(deps, outcome.created);
  return outcome;
}

/**
 * createMany without the recent list: the caller records `created` (see remember), after
 * its answer when nothing waits for the list (the landing page's launch URL, src/background/rules.ts;
 * `connecting`: the connection it has already begun). Each link is resolved as one link is:
 * there is no asking here, so "ask" takes the real targets unless `wrapped` says otherwise.
 */
export async function createContexts(
  deps: Deps,
  links: readonly string[],
  wrapped?: WrappedChoice,
  connecting: Promise<Connection> = connect(deps),
): Promise<BulkOutcome> {
  const connection = await connecting;
  const mode = wrapped ?? (connection.settings.unwrap === 'keep' ? 'keep' : 'unwrap');
  const failures: BulkOutcome['failures'][number][] = [];
  const targets: Target[] = [];
  for (const link of links) {
    const resolved = resolveLink(link, mode);
    if (resolved.ok) targets.push(resolved.target);
    else failures.push({ url: link, error: refusedUrlText(resolved.code, resolved.params) });
  }
  const shared = buildCreateParams(connection.settings, { session: 'standard' }, deps.now());
  const nowMs = deps.now();
  const created: RecentContext[] = [];
  const launchUrls: LaunchUrl[] = [];
  // The client adds each URL's own domain_allow entry; wrappers to follow go in a group of their own.
  for (const { targets: group, ownDomain } of bulkGroups(targets)) {
    const autoDomainAllow = ownDomain && connection.settings.autoDomainAllow;
    const result = await connection.client.bulkCreateContexts({ ...shared, auto_domain_allow: autoDomainAllow, urls: group.map((target) => target.url) });
    // The client's words are English: each failure is said from its code.
    for (const failure of result.failures) failures.push({ url: failure.url, error: bulkFailureText(failure) });
    // Each launch URL was checked against the launch base by the client (a failure otherwise).
    for (const item of result.created) {
      launchUrls.push(item.launch_url);
      created.push(recentEntry(item, group[item.index], item.launch_url, 'standard', nowMs));
    }
  }
  return { created, failures, launchUrls, settings: connection.settings };
}

/**
 * Opens the launch URLs of known contexts (the recent list's): each checked against the
 * launch base first. No request is sent, so no token is read.
 */
export async function openLaunchUrls(deps: Deps, candidates: readonly string[], source?: SourceTab): Promise<number> {
  const { settings, launchBase } = await checkSettings(deps);
  const launchUrls = candidates.map((candidate) => checkLaunchUrl(launchBase, candidate)).filter((url): url is LaunchUrl => url !== null);
  return openTabs(deps, settings, launchUrls, source);
}

/** Opens launch URLs in new tabs beside the source tab, the first in front when the settings say so. */
export async function openTabs(deps: Deps, settings: Settings, launchUrls: readonly LaunchUrl[], source?: SourceTab): Promise<number> {
  let opened = 0;
  let index = source?.index;
  for (const url of launchUrls) {
    await deps.browser.openTab(url, {
      ...tabOptions(settings, source),
      index: index === undefined ? undefined : index + 1,
      active: opened === 0 && settings.tabPlacement === 'foreground',
    });
    if (index !== undefined) index += 1;
    opened += 1;
  }
  return opened;
}
