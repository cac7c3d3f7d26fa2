/**
 * The simulator's in-memory model of the service: organisations (a tree), users,
 * admin and file tokens, browsing contexts and uploaded files, with plain functions
 * over it. Nothing here does I/O.
 */
import { randomUUID } from 'node:crypto';
import { CONTEXT_DATA_KEYS } from '../../src/service/wire';
import { regionOf } from '../../src/egress';
import type { PolicyEntry } from '../../src/policy';
import { ipAllowed } from './ip';
import { OrgPathError, formatOrgPath, parseOrgPath } from './orgs';
import type { ContextData, ProxyRecord } from './schemas';

const K = CONTEXT_DATA_KEYS;

/** Egress locations (region or city names) a user or org may use; 'all' for every one. */
export type EgressLicence = 'all' | readonly string[];

export interface PhoneRecord {
  cc: string;
  display: string;
  num: string;
}

export interface OrgRecord {
  readonly id: number;
  readonly name: string;
  readonly parentId: number | null;
  /** The org's own proxies; inherited ones are computed (effectiveProxies). */
  proxies: ProxyRecord[];
  /** The org's own proxy policy; null inherits the nearest ancestor's. */
  proxyPolicy: Record<string, unknown> | null;
  /** Licence for contexts created for the org itself; null inherits. */
  egressLicence: EgressLicence | null;
  /** Treat every user of this org (and its descendants) as catchall. */
  allUsersCatchall: boolean;
  readonly created: number;
}

export interface UserRecord {
  readonly username: string;
  readonly email: string;
  readonly given_name: string;
  readonly surname: string;
  is_suspended: boolean;
  readonly phone: readonly PhoneRecord[];
  readonly orgId: number;
  readonly egressLicence: EgressLicence;
  readonly catchall: boolean;
}

export interface ContextRecord {
  readonly id: string;
  name: string;
  enabled: boolean;
  /** Epoch seconds. */
  readonly created: number;
  /** Epoch seconds. */
  expires: number;
  maxUses: number;
  useCount: number;
  contextData: ContextData;
  /** The org of the context's user, or its org: decides which tokens may see it. */
  ownerOrgId: number;
  deleted: boolean;
}

export interface FileRecord {
  readonly id: string;
  readonly bucketId: string;
  readonly name: string;
  readonly path: string | null;
  readonly contentType: string | null;
  readonly bytes: Uint8Array;
  readonly created: number;
}

export interface TokenRecord {
  readonly token: string;
  /** The org the token belongs to: it may act on that org and its descendants. */
  readonly orgId: number;
}

export interface SimState {
  readonly orgs: Map<number, OrgRecord>;
  readonly users: Map<string, UserRecord>;
  readonly contexts: Map<string, ContextRecord>;
  readonly files: Map<string, FileRecord>;
  readonly adminTokens: Map<string, TokenRecord>;
  readonly fileTokens: Set<string>;
  nextOrgId: number;
}

/** Defaults the service applies when create_context omits them (simulator decision). */
export const CONTEXT_DEFAULTS = {
  maxUses: 1000,
  /** Expiry when none is given: 24 hours after creation. */
  expiresInSeconds: 24 * 60 * 60,
  name: '',
} as const;

export const DEFAULT_ADMIN_TOKEN = 'demo-admin-token';
export const DEFAULT_FILE_TOKEN = 'demo-file-token';

/** Extra admin tokens of the seed, each belonging to one org. */
export const SEED_TOKENS = {
  /** Belongs to acme/soc: may act on acme/soc and acme/soc/tier1 only. */
  socAdmin: 'demo-soc-admin-token',
  /** Belongs to globex: knows nothing of acme. */
  globexAdmin: 'demo-globex-admin-token',
} as const;

export function createState(): SimState {
  return {
    orgs: new Map(),
    users: new Map(),
    contexts: new Map(),
    files: new Map(),
    adminTokens: new Map(),
    fileTokens: new Set(),
    nextOrgId: 1,
  };
}

export function clearState(state: SimState): void {
  state.orgs.clear();
  state.users.clear();
  state.contexts.clear();
  state.files.clear();
  state.adminTokens.clear();
  state.fileTokens.clear();
  state.nextOrgId = 1;
}

export class StateError extends Error {
  override readonly name = 'StateError';
}

// ---------------------------------------------------------------------------------
// Organisations

export function childOrgs(state: SimState, parentId: number | null): OrgRecord[] {
  return [...state.orgs.values()].filter((org) => org.parentId === parentId);
}

/** Adds an org below `parentId` (null: top level). Names are unique among siblings only. */
export function addOrg(
  state: SimState,
  parentId: number | null,
  name: string,
  extra: Partial<Pick<OrgRecord, 'proxies' | 'proxyPolicy' | 'egressLicence' | 'allUsersCatchall'>> = {},
  nowSeconds = 0,
): OrgRecord {
  if (name.length === 0) throw new StateError('an org name may not be empty');
  if (parentId !== null && !state.orgs.has(parentId)) throw new StateError(`no parent org ${parentId}`);
  if (childOrgs(state, parentId).some((org) => org.name === name)) {
    throw new StateError(`an org named ${JSON.stringify(name)} already exists there`);
  }
  const org: OrgRecord = {
    id: state.nextOrgId,
    name,
    parentId,
    proxies: extra.proxies ?? [],
    proxyPolicy: extra.proxyPolicy ?? null,
    egressLicence: extra.egressLicence ?? null,
    allUsersCatchall: extra.allUsersCatchall ?? false,
    created: nowSeconds,
  };
  state.nextOrgId += 1;
  state.orgs.set(org.id, org);
  return org;
}

/** The org's ancestors, nearest first. */
export function ancestors(state: SimState, org: OrgRecord): OrgRecord[] {
  const out: OrgRecord[] = [];
  let parentId = org.parentId;
  while (parentId !== null) {
    const parent = state.orgs.get(parentId);
    if (!parent) break;
    out.push(parent);
    parentId = parent.parentId;
  }
  return out;
}

export function orgPath(state: SimState, org: OrgRecord): string {
  return formatOrgPath([...ancestors(state, org).reverse(), org].map((o) => o.name));
}

/** The org a path names, or undefined (also for a malformed path). */
export function findOrgByPath(state: SimState, path: string): OrgRecord | undefined {
  let names: string[];
  try {
    names = parseOrgPath(path);
  } catch (error) {
    if (error instanceof OrgPathError) return undefined;
    throw error;
  }
  let parentId: number | null = null;
  let found: OrgRecord | undefined;
  for (const name of names) {
    found = childOrgs(state, parentId).find((org) => org.name === name);
    if (!found) return undefined;
    parentId = found.id;
  }
  return found;
}

/** True when `orgId` is `scopeOrgId` or one of its descendants. */
export function isWithin(state: SimState, orgId: number, scopeOrgId: number): boolean {
  let current: number | null = orgId;
  while (current !== null) {
    if (current === scopeOrgId) return true;
    current = state.orgs.get(current)?.parentId ?? null;
  }
  return false;
}

/** The org a token may act on by this path, or undefined (unknown, or outside its scope). */
export function orgForToken(state: SimState, token: TokenRecord, path: string): OrgRecord | undefined {
  const org = findOrgByPath(state, path);
  return org && isWithin(state, org.id, token.orgId) ? org : undefined;
}

/** Own proxies first, then each ancestor's, nearest first, marked with the ancestor's path. */
export function effectiveProxies(state: SimState, org: OrgRecord, inheritedKey: string): Record<string, unknown>[] {
  const own = org.proxies.map((p) => structuredClone(p) as Record<string, unknown>);
  const inherited = ancestors(state, org).flatMap((ancestor) =>
    ancestor.proxies.map((p) => ({ ...(structuredClone(p) as Record<string, unknown>), [inheritedKey]: orgPath(state, ancestor) })),
  );
  return [...own, ...inherited];
}

/** The org's proxy policy, or the nearest ancestor's marked with its path; null when none. */
export function effectiveProxyPolicy(state: SimState, org: OrgRecord, inheritedKey: string): Record<string, unknown> | null {
  if (org.proxyPolicy) return structuredClone(org.proxyPolicy);
  for (const ancestor of ancestors(state, org)) {
    if (ancestor.proxyPolicy) return { ...structuredClone(ancestor.proxyPolicy), [inheritedKey]: orgPath(state, ancestor) };
  }
  return null;
}

function orgLicence(state: SimState, org: OrgRecord): EgressLicence {
  if (org.egressLicence !== null) return org.egressLicence;
  for (const ancestor of ancestors(state, org)) if (ancestor.egressLicence !== null) return ancestor.egressLicence;
  return 'all';
}

function orgCatchall(state: SimState, org: OrgRecord): boolean {
  return org.allUsersCatchall || ancestors(state, org).some((a) => a.allUsersCatchall);
}

/** True when the licence covers the location: the name itself, or the region of a city. */
export function licensed(licence: EgressLicence, location: string): boolean {
  if (licence === 'all') return true;
  if (licence.includes(location)) return true;
  const region = regionOf(location);
  return region !== undefined && region !== location && licence.includes(region);
}

// ---------------------------------------------------------------------------------
// Contexts

export function newContextId(): string {
  return randomUUID().replaceAll('-', '');
}

export function policyOf(context: ContextRecord): PolicyEntry[] {
  return context.contextData[K.policy] ?? [];
}

export function targetUrlOf(context: ContextRecord): string | undefined {
  return context.contextData[K.url]?.[0];
}

export type LaunchRefusalReason = 'missing-context' | 'unknown' | 'deleted' | 'disabled' | 'expired' | 'exhausted' | 'client-ip' | 'suspended' | 'egress';

export type LaunchDecision =
  | { readonly ok: true; readonly context: ContextRecord; readonly catchall: boolean }
  | {
      readonly ok: false;
      readonly status: 400 | 403 | 404 | 410;
      readonly reason: LaunchRefusalReason;
      readonly message: string;
    };

/**
 * Whether a launch may go ahead, checked in this order: context given, known, not
 * deleted, enabled, not expired, uses left, client address allowed, user not suspended,
 * egress location licensed. Changes nothing: call recordUse after a launch.
 */
export function checkLaunch(state: SimState, id: string | null, clientAddress: string, nowMs: number): LaunchDecision {
  if (id === null || id === '') {
    return { ok: false, status: 400, reason: 'missing-context', message: 'No context was given.' };
  }
  const context = state.contexts.get(id);
  if (!context) return { ok: false, status: 404, reason: 'unknown', message: 'This context does not exist.' };
  if (context.deleted) return { ok: false, status: 410, reason: 'deleted', message: 'This context was deleted.' };
  if (!context.enabled) return { ok: false, status: 403, reason: 'disabled', message: 'This context is disabled.' };
  if (nowMs >= context.expires * 1000) {
    return { ok: false, status: 410, reason: 'expired', message: 'This context has expired.' };
  }
  if (context.useCount >= context.maxUses) {
    return { ok: false, status: 410, reason: 'exhausted', message: 'This context has no uses left.' };
  }
  const allowedIps = context.contextData[K.restrict_client_ips];
  if (allowedIps && allowedIps.length > 0 && !ipAllowed(allowedIps, clientAddress)) {
    return { ok: false, status: 403, reason: 'client-ip', message: 'Your address may not use this context.' };
  }
  const username = context.contextData[K.username];
  const user = username === undefined ? undefined : state.users.get(username);
  if (user?.is_suspended) return { ok: false, status: 403, reason: 'suspended', message: 'This account is suspended.' };
  const owner = state.orgs.get(context.ownerOrgId);
  const egress = context.contextData[K.egress_region];
  if (egress !== undefined) {
    const licence = user ? user.egressLicence : owner ? orgLicence(state, owner) : 'all';
    if (!licensed(licence, egress)) {
      return { ok: false, status: 403, reason: 'egress', message: `The egress location ${egress} is not licensed for this user.` };
    }
  }
  const catchall = (user?.catchall ?? false) || (owner ? orgCatchall(state, owner) : false);
  return { ok: true, context, catchall };
}

export function recordUse(context: ContextRecord): void {
  context.useCount += 1;
}

// ---------------------------------------------------------------------------------
// Files

export function putFile(
  state: SimState,
  file: { bucketId: string; name: string; path: string | null; contentType: string | null; bytes: Uint8Array },
  nowSeconds: number,
): FileRecord {
  const record: FileRecord = { id: randomUUID().replaceAll('-', ''), ...file, created: nowSeconds };
  state.files.set(record.id, record);
  return record;
}

/** The ids of the files of one bucket, oldest first. */
export function bucketFiles(state: SimState, bucketId: string): FileRecord[] {
  return [...state.files.values()].filter((f) => f.bucketId === bucketId);
}

// ---------------------------------------------------------------------------------
// Seed

export interface SeedOptions {
  adminToken: string;
  fileToken: string;
  /** false: a single top-level org `acme` with no users, proxies or extra tokens. */
  seed: boolean;
  nowSeconds: number;
}

/** Clears the state and fills it again. */
export function seedState(state: SimState, options: SeedOptions): void {
  clearState(state);
  const now = options.nowSeconds;
  state.fileTokens.add(options.fileToken);
  if (!options.seed) {
    const acme = addOrg(state, null, 'acme', { egressLicence: 'all' }, now);
    state.adminTokens.set(options.adminToken, { token: options.adminToken, orgId: acme.id });
    return;
  }

  const acme = addOrg(
    state,
    null,
    'acme',
    {
      egressLicence: 'all',
      proxies: [{ name: 'acme-egress', location: { address: 'proxy.acme.example', port: 3128, type: 'http' } }],
      proxyPolicy: { enabled: true, fail_mode: 'closed' },
    },
    now,
  );
  const soc = addOrg(state, acme.id, 'soc', { proxies: [{ name: 'soc-tls', location: { address: 'tls-proxy.soc.acme.example', type: 'https' } }] }, now);
  const tier1 = addOrg(state, soc.id, 'tier1', {}, now);
  const legal = addOrg(
    state,
    acme.id,
    'legal',
    {
      proxies: [{ name: 'legal-socks', location: { address: '10.20.0.5', port: 1080, type: 'socks5' } }],
      allUsersCatchall: true,
    },
    now,
  );
  addOrg(state, acme.id, 'r/d', {}, now);
  const globex = addOrg(
    state,
    null,
    'globex',
    {
      egressLicence: ['Europe'],
      proxies: [{ name: 'globex-main', location: { address: 'proxy.globex.example' } }],
      proxyPolicy: { enabled: false },
    },
    now,
  );
  // Same name as acme/soc: names are unique only within their parent.
  addOrg(state, globex.id, 'soc', {}, now);

  const user = (
    username: string,
    given_name: string,
    surname: string,
    orgId: number,
    egressLicence: EgressLicence,
    extra: { is_suspended?: boolean; catchall?: boolean; phone?: PhoneRecord[] } = {},
  ): void => {
    state.users.set(username, {
      username,
      email: username,
      given_name,
      surname,
      is_suspended: extra.is_suspended ?? false,
      phone: extra.phone ?? [],
      orgId,
      egressLicence,
      catchall: extra.catchall ?? false,
    });
  };
  user('analyst@acme.example', 'Ada', 'Analyst', acme.id, ['North America'], {
    phone: [{ cc: '1', display: '+1 555 010 0100', num: '5550100100' }],
  });
  user('lead@acme.example', 'Lee', 'Lead', acme.id, 'all');
  user('suspended@acme.example', 'Sam', 'Suspended', acme.id, 'all', { is_suspended: true });
  user('catchall@acme.example', 'Cat', 'Chall', acme.id, 'all', { catchall: true });
  user('responder@acme.example', 'Rey', 'Responder', soc.id, ['Europe', 'New York City'], {
    phone: [{ cc: '49', display: '+49 30 1234567', num: '301234567' }],
  });
  user('tier1@acme.example', 'Tia', 'Tier', tier1.id, []);
  user('counsel@acme.example', 'Cora', 'Counsel', legal.id, ['Europe']);
  user('ops@globex.example', 'Otto', 'Ops', globex.id, ['Europe']);

  state.adminTokens.set(options.adminToken, { token: options.adminToken, orgId: acme.id });
  state.adminTokens.set(SEED_TOKENS.socAdmin, { token: SEED_TOKENS.socAdmin, orgId: soc.id });
  state.adminTokens.set(SEED_TOKENS.globexAdmin, { token: SEED_TOKENS.globexAdmin, orgId: globex.id });
}

/** Every org path, depth first in creation order, for listings. */
export function allOrgPaths(state: SimState): string[] {
  const out: string[] = [];
  const walk = (parentId: number | null): void => {
    for (const org of childOrgs(state, parentId)) {
      out.push(orgPath(state, org));
      walk(org.id);
    }
  };
  walk(null);
  return out;
}
