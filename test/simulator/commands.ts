/**
 * The command array of POST /api/: the envelope rules and one handler per command.
 * Every wire name comes from src/api/wire.ts; policy entries are checked with the rules
 * of src/policy.
 *
 * Error slots read `<ExceptionName>: <message>`. Besides the service's own strings
 * (SERVICE_ERRORS), the simulator writes:
 * - `ValidationError: <where>: <problem>` for parameters that fail validation;
 * - `ValueError: ...` for a malformed command object, an unknown command, or a proxy
 *   name clash;
 * - `Exception: ...` if a handler fails unexpectedly (a simulator bug).
 */
import { z } from 'zod';
import {
  COMMANDS,
  COMMAND_ID,
  COMMAND_LEVEL_KEYS,
  CONTEXT_DATA_KEYS,
  CONTEXT_FIELDS,
  DELETE_RESULT_KEY,
  ENVELOPE,
  ORG_PARAMS,
  PROXY_DELETE_KEYS,
  PROXY_FIELDS,
  RESEARCH_ONLY_KEYS,
  RESEARCH_SESSION_TYPE,
  SERVICE_ERRORS,
  SESSION_TYPES,
  SETAUTH_ACK,
  decodeExpires,
} from '../../src/service/wire';
import { PolicyIssue, normalizePolicy } from '../../src/policy';
import { type ContextData, contextDataSchema, describeIssues, expiresSchema, maxUsesSchema, proxySchema } from './schemas';
import {
  CONTEXT_DEFAULTS,
  type ContextRecord,
  type OrgRecord,
  type SimState,
  type TokenRecord,
  childOrgs,
  effectiveProxies,
  effectiveProxyPolicy,
  isWithin,
  newContextId,
  orgForToken,
  orgPath,
} from './state';

const K = CONTEXT_DATA_KEYS;
const F = CONTEXT_FIELDS;
const [MAX_USES, EXPIRES] = COMMAND_LEVEL_KEYS;

/** A failure answered as `{error: message}` in the command's slot. */
export class CommandError extends Error {
  override readonly name = 'CommandError';
}

export interface CommandContext {
  readonly state: SimState;
  readonly token: TokenRecord;
  readonly nowSeconds: number;
}

type Handler = (params: Record<string, unknown>, ctx: CommandContext) => unknown;

function parse<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new CommandError(`ValidationError: ${describeIssues(parsed.error)}`);
  return parsed.data;
}

function validationError(message: string): CommandError {
  return new CommandError(`ValidationError: ${message}`);
}

function decodeExpiry(value: string | number, nowSeconds: number): number {
  const seconds = decodeExpires(value, nowSeconds);
  if (seconds === null) {
    throw validationError(`${EXPIRES}: not epoch seconds, an ISO 8601 timestamp or a +seconds offset: ${JSON.stringify(value)}`);
  }
  return seconds;
}

function requireOrg(ctx: CommandContext, name: string): OrgRecord {
  const org = orgForToken(ctx.state, ctx.token, name);
  if (!org) throw new CommandError(SERVICE_ERRORS.noOrg(name));
  return org;
}

/**
 * The rules of context_data beyond its shape; answers the org that owns the context.
 * - policy entries follow src/policy's rules (entries are stored as given);
 * - exactly one of user and org;
 * - urls required unless the session type is toolbox-standalone;
 * - egress_region, browser_profile and categories only for toolbox-standalone;
 * - the user must exist within the token's org; the org must be within it.
 */
function ownerOf(data: ContextData, ctx: CommandContext): number {
  const policy = normalizePolicy(data[K.policy] ?? [], `${F.contextData}.${K.policy}`);
  if (policy instanceof PolicyIssue) throw validationError(`${policy.path}: ${policy.reason}`);
  const username = data[K.username];
  const orgName = data[K.org];
  if ((username === undefined) === (orgName === undefined)) {
    throw validationError(`${F.contextData}: exactly one of ${K.username} and ${K.org} is required`);
  }
  const sessionType = data[K.session_type] ?? SESSION_TYPES[0];
  if (sessionType !== RESEARCH_SESSION_TYPE) {
    if (data[K.url] === undefined) {
      throw validationError(`${F.contextData}.${K.url}: required unless ${K.session_type} is ${RESEARCH_SESSION_TYPE}`);
    }
    for (const key of RESEARCH_ONLY_KEYS) {
      if (data[key] !== undefined) {
        throw validationError(`${F.contextData}.${key}: only allowed when ${K.session_type} is ${RESEARCH_SESSION_TYPE}`);
      }
    }
  }
  if (username !== undefined) {
    const user = ctx.state.users.get(username);
    if (!user || !isWithin(ctx.state, user.orgId, ctx.token.orgId)) {
      throw validationError(`${F.contextData}.${K.username}: unknown user ${JSON.stringify(username)}`);
    }
    return user.orgId;
  }
  return requireOrg(ctx, orgName ?? '').id;
}

export function contextDetails(context: ContextRecord): Record<string, unknown> {
  return {
    [F.id]: context.id,
    [F.name]: context.name,
    [F.enabled]: context.enabled,
    [F.created]: context.created,
    [F.expires]: context.expires,
    [F.maxUses]: context.maxUses,
    [F.useCount]: context.useCount,
    [F.contextData]: structuredClone(context.contextData),
  };
}

function findContext(ctx: CommandContext, id: string): ContextRecord {
  const context = ctx.state.contexts.get(id);
  if (!context || context.deleted || !isWithin(ctx.state, context.ownerOrgId, ctx.token.orgId)) {
    throw new CommandError(SERVICE_ERRORS.notFound);
  }
  return context;
}

// ---------------------------------------------------------------------------------
// Contexts

const createParams = z.strictObject({
  [F.contextData]: contextDataSchema,
  [MAX_USES]: maxUsesSchema.optional(),
  [EXPIRES]: expiresSchema.optional(),
});

/** create_context; also used by the GET /ctx/ shortcut. */
export function createContext(params: unknown, ctx: CommandContext): ContextRecord {
  const p = parse(createParams, params);
  const data = p[F.contextData];
  const ownerOrgId = ownerOf(data, ctx);
  const expiresGiven = p[EXPIRES];
  const context: ContextRecord = {
    id: newContextId(),
    name: CONTEXT_DEFAULTS.name,
    enabled: true,
    created: ctx.nowSeconds,
    expires: expiresGiven === undefined ? ctx.nowSeconds + CONTEXT_DEFAULTS.expiresInSeconds : decodeExpiry(expiresGiven, ctx.nowSeconds),
    maxUses: p[MAX_USES] ?? CONTEXT_DEFAULTS.maxUses,
    useCount: 0,
    contextData: data,
    ownerOrgId,
    deleted: false,
  };
  ctx.state.contexts.set(context.id, context);
  return context;
}

const idParams = z.strictObject({ [F.id]: z.string().min(1) });

/** update_context's parameters: the context id and the updatable properties, flat. */
export const updateParams = z.strictObject({
  [F.id]: z.string().min(1),
  [F.contextData]: contextDataSchema.optional(),
  [F.maxUses]: maxUsesSchema.optional(),
  [F.expires]: expiresSchema.optional(),
  [F.name]: z.string().max(200).optional(),
  [F.enabled]: z.boolean().optional(),
});

const handleCreate: Handler = (params, ctx) => {
  const context = createContext(params, ctx);
  return { [F.id]: context.id, [F.expires]: context.expires, [F.maxUses]: context.maxUses };
};

const handleGet: Handler = (params, ctx) => contextDetails(findContext(ctx, parse(idParams, params)[F.id]));

const handleUpdate: Handler = (params, ctx) => {
  const p = parse(updateParams, params);
  const context = findContext(ctx, p[F.id]);
  // Validate everything before changing anything.
  const data = p[F.contextData];
  const ownerOrgId = data === undefined ? context.ownerOrgId : ownerOf(data, ctx);
  const expiresGiven = p[F.expires];
  const expires = expiresGiven === undefined ? context.expires : decodeExpiry(expiresGiven, ctx.nowSeconds);
  if (data !== undefined) context.contextData = data;
  context.ownerOrgId = ownerOrgId;
  context.expires = expires;
  context.maxUses = p[F.maxUses] ?? context.maxUses;
  context.name = p[F.name] ?? context.name;
  context.enabled = p[F.enabled] ?? context.enabled;
  return contextDetails(context);
};

const handleDelete: Handler = (params, ctx) => {
  const context = findContext(ctx, parse(idParams, params)[F.id]);
  context.deleted = true;
  return { [DELETE_RESULT_KEY]: true };
};

// ---------------------------------------------------------------------------------
// Orgs and users

const listUsersParams = z.strictObject({ [ORG_PARAMS.org]: z.string().min(1) });
const orgNameParams = z.strictObject({ [ORG_PARAMS.orgName]: z.string().min(1) });

/** Users directly in the org (not its descendants), in the record shape the service uses. */
const handleListUsers: Handler = (params, ctx) => {
  const org = requireOrg(ctx, parse(listUsersParams, params)[ORG_PARAMS.org]);
  return [...ctx.state.users.values()]
    .filter((user) => user.orgId === org.id)
    .map((user) => ({
      username: user.username,
      email: user.email,
      given_name: user.given_name,
      surname: user.surname,
      is_suspended: user.is_suspended,
      phone: user.phone.map((p) => ({ cc: p.cc, display: p.display, num: p.num })),
    }));
};

/** org.get: the record shape is a simulator decision (name, path, parent, children, ...). */
const handleGetOrg: Handler = (params, ctx) => {
  const { state } = ctx;
  const org = requireOrg(ctx, parse(orgNameParams, params)[ORG_PARAMS.orgName]);
  const parent = org.parentId === null ? undefined : state.orgs.get(org.parentId);
  return {
    name: org.name,
    path: orgPath(state, org),
    parent: parent ? orgPath(state, parent) : null,
    children: childOrgs(state, org.id).map((child) => orgPath(state, child)),
    user_count: [...state.users.values()].filter((user) => user.orgId === org.id).length,
    all_users_catchall: org.allUsersCatchall,
    created: org.created,
  };
};

// ---------------------------------------------------------------------------------
// Proxies

const getProxiesParams = z.strictObject({
  [ORG_PARAMS.orgName]: z.string().min(1),
  [ORG_PARAMS.includeProxyPolicy]: z.boolean().optional(),
});
const setProxiesParams = z.strictObject({
  [ORG_PARAMS.orgName]: z.string().min(1),
  [ORG_PARAMS.proxies]: z.array(proxySchema),
});
const deleteProxiesParams = z.strictObject({
  [ORG_PARAMS.orgName]: z.string().min(1),
  [ORG_PARAMS.proxyNames]: z.array(z.string()),
});

function ownList(org: OrgRecord): Record<string, unknown> {
  return { [PROXY_FIELDS.list]: structuredClone(org.proxies) };
}

function firstDuplicate(names: readonly string[]): string | undefined {
  const seen = new Set<string>();
  for (const name of names) {
    if (seen.has(name)) return name;
    seen.add(name);
  }
  return undefined;
}

const handleGetProxies: Handler = (params, ctx) => {
  const p = parse(getProxiesParams, params);
  const org = requireOrg(ctx, p[ORG_PARAMS.orgName]);
  const result: Record<string, unknown> = {
    [PROXY_FIELDS.list]: effectiveProxies(ctx.state, org, PROXY_FIELDS.inheritedFrom),
  };
  if (p[ORG_PARAMS.includeProxyPolicy] === true) {
    result[PROXY_FIELDS.policy] = effectiveProxyPolicy(ctx.state, org, PROXY_FIELDS.inheritedFrom) ?? {};
  }
  return result;
};

const handleSetProxies: Handler = (params, ctx) => {
  const p = parse(setProxiesParams, params);
  const org = requireOrg(ctx, p[ORG_PARAMS.orgName]);
  const proxies = p[ORG_PARAMS.proxies];
  const duplicate = firstDuplicate(proxies.map((proxy) => proxy.name));
  if (duplicate !== undefined) throw new CommandError(`ValueError: duplicate proxy name ${JSON.stringify(duplicate)}`);
  org.proxies = proxies;
  return ownList(org);
};

const handleAddProxies: Handler = (params, ctx) => {
  const p = parse(setProxiesParams, params);
  const org = requireOrg(ctx, p[ORG_PARAMS.orgName]);
  const proxies = p[ORG_PARAMS.proxies];
  const duplicate = firstDuplicate([...org.proxies, ...proxies].map((proxy) => proxy.name));
  if (duplicate !== undefined) {
    throw new CommandError(`ValueError: a proxy named ${JSON.stringify(duplicate)} already exists in ${orgPath(ctx.state, org)}`);
  }
  org.proxies = [...org.proxies, ...proxies];
  return ownList(org);
};

/** Deletes from the org's own list only: an inherited name is reported not found. */
const handleDeleteProxies: Handler = (params, ctx) => {
  const p = parse(deleteProxiesParams, params);
  const org = requireOrg(ctx, p[ORG_PARAMS.orgName]);
  const deleted: string[] = [];
  const notFound: string[] = [];
  for (const name of p[ORG_PARAMS.proxyNames]) {
    const index = org.proxies.findIndex((proxy) => proxy.name === name);
    if (index < 0) {
      notFound.push(name);
    } else {
      org.proxies.splice(index, 1);
      deleted.push(name);
    }
  }
  return { [PROXY_DELETE_KEYS.deleted]: deleted, [PROXY_DELETE_KEYS.notFound]: notFound };
};

const HANDLERS: ReadonlyMap<string, Handler> = new Map<string, Handler>([
  [COMMANDS.createContext, handleCreate],
  [COMMANDS.getContext, handleGet],
  [COMMANDS.updateContext, handleUpdate],
  [COMMANDS.deleteContext, handleDelete],
  [COMMANDS.listUsers, handleListUsers],
  [COMMANDS.getOrg, handleGetOrg],
  [COMMANDS.getProxies, handleGetProxies],
  [COMMANDS.setProxies, handleSetProxies],
  [COMMANDS.addProxies, handleAddProxies],
  [COMMANDS.deleteProxies, handleDeleteProxies],
]);

/** The commands the simulator answers besides setauth. */
export const HANDLED_COMMANDS: readonly string[] = [...HANDLERS.keys()];

// ---------------------------------------------------------------------------------
// The envelope

export type Slot = Record<string, unknown>;

/** Either the reply slots, or a refusal of the whole body (answered with HTTP 400). */
export type Envelope = { readonly ok: true; readonly slots: Slot[] } | { readonly ok: false; readonly error: string };

export interface RunOptions {
  readonly nowSeconds: number;
  /** Fault: answer these commands with `{error}` instead of running them. */
  readonly errorSlots?: Readonly<Record<string, string>> | undefined;
  /** Fault: answer create_context for these target URLs with `{error}`. */
  readonly refuseUrls?: readonly string[] | undefined;
}

/** The target URL of a create_context entry, if it names one. */
function createTarget(entry: Record<string, unknown>): unknown {
  const data = entry[F.contextData];
  if (!isPlainObject(data)) return undefined;
  const urls = data[CONTEXT_DATA_KEYS.url];
  return Array.isArray(urls) ? urls[0] : undefined;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The admin token setauth names, or null for a bad or missing one. */
export function lookupToken(state: SimState, data: unknown): TokenRecord | null {
  return typeof data === 'string' ? (state.adminTokens.get(data) ?? null) : null;
}

/**
 * Runs a command array. The body is refused as a whole (HTTP 400) when it is not an
 * array, holds fewer than two entries, or does not start with a setauth object.
 * Otherwise every entry gets a slot, in order; a failing entry does not stop the rest.
 * A later setauth replaces the token for the entries after it.
 */
export function runCommands(state: SimState, body: unknown, options: RunOptions): Envelope {
  if (!Array.isArray(body)) return { ok: false, error: 'ValueError: the request body must be a JSON array of commands' };
  if (body.length < 2) {
    return { ok: false, error: 'ValueError: a request holds at least two commands, setauth first' };
  }
  const first: unknown = body[0];
  if (!isPlainObject(first) || first[ENVELOPE.command] !== COMMANDS.setauth) {
    return { ok: false, error: `ValueError: the first command must be ${COMMANDS.setauth}` };
  }

  let token: TokenRecord | null = null;
  const slots = body.map((entry: unknown): Slot => {
    const answer = (content: Slot): Slot =>
      isPlainObject(entry) && Object.hasOwn(entry, COMMAND_ID) ? { ...content, [COMMAND_ID]: entry[COMMAND_ID] } : content;
    const fail = (message: string): Slot => answer({ [ENVELOPE.error]: message });

    if (!isPlainObject(entry)) return fail('ValueError: each command must be a JSON object');
    const name = entry[ENVELOPE.command];
    if (typeof name !== 'string') return fail(`ValueError: ${ENVELOPE.command} must be a string`);
    const injected = options.errorSlots && Object.hasOwn(options.errorSlots, name) ? options.errorSlots[name] : undefined;

    if (name === COMMANDS.setauth) {
      token = lookupToken(state, entry[ENVELOPE.data]);
      return injected === undefined ? answer({ [ENVELOPE.result]: SETAUTH_ACK }) : fail(injected);
    }
    if (injected !== undefined) return fail(injected);
    if (name === COMMANDS.createContext && options.refuseUrls?.includes(String(createTarget(entry)))) {
      return fail('ValueError: the service refused this URL');
    }
    if (token === null) return fail(SERVICE_ERRORS.badToken);
    const handler = HANDLERS.get(name);
    if (!handler) return fail(`ValueError: unknown command ${JSON.stringify(name)}`);

    const params = Object.fromEntries(Object.entries(entry).filter(([key]) => key !== ENVELOPE.command && key !== COMMAND_ID));
    try {
      return answer({ [ENVELOPE.result]: handler(params, { state, token, nowSeconds: options.nowSeconds }) });
    } catch (error) {
      if (error instanceof CommandError) return fail(error.message);
      return fail(`Exception: ${error instanceof Error ? error.message : String(error)}`);
    }
  });
  return { ok: true, slots };
}
