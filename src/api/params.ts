/**
 * Parameter validation: every input the client takes is parsed here with zod (the
 * `zod/mini` build, for the extension's bundle size) before anything is sent, and
 * every failure becomes a ValidationError that names the field.
 */
import * as z from 'zod/mini';
import { isEgressLocation } from '../egress';
import { parseCidr, parseIp } from '../net/ip';
import { isFqdn } from '../net/host';
import { checkTargetUrl, isCheckedUrl, type CheckedUrl } from '../net/url';
import { PolicyIssue, normalizePolicy, withDomainAllow, type PolicyEntry, MAX_POLICY_PARAM_LENGTH, MAX_POLICY_TYPE_LENGTH } from '../policy';
import { once } from '../service/once';
import { ValidationError, isValidationCode, type ValidationCode } from '../service/errors';
import {
  BROWSER_NAMES,
  BROWSER_OS,
  DEFAULT_PROXY_PORTS,
  MAX_LIST_LENGTH,
  MAX_NAME_LENGTH,
  PROXY_TYPES,
  checkProxies,
  isAcceptLanguage,
  isCategoryValue,
  isIanaTimeZone,
  type Proxy,
  type ProxyDraft,
  type ProxyType,
  type ProxyWarning,
  type ProxyWarningCode,
} from '../service/values';
import {
  CONTEXT_DATA_KEYS,
  ExpiresRangeError,
  RESEARCH_ONLY_KEYS,
  RESEARCH_SESSION_TYPE,
  SESSION_TYPES,
  decodeExpires,
  encodeExpires,
  type ExpiresInput,
} from '../service/wire';

export {
  BROWSER_NAMES,
  BROWSER_OS,
  DEFAULT_PROXY_PORTS,
  PROXY_TYPES,
  isAcceptLanguage,
  isIanaTimeZone,
  type Proxy,
  type ProxyType,
  type ProxyWarning,
  type ProxyWarningCode,
};

// ---- schemas ------------------------------------------------------------------
//
// A check's own message is a validation code (`code('notTimeZone')`); checks without
// one are read from the issue zod reports (see problemOf).

/** A validation code as a zod message: problemOf reads it back. */
const code = (value: ValidationCode): ValidationCode => value;

/** A schema, or a function that builds it (see once: updates, users, organisations, proxies and files are built on first use). */
export type SchemaOf = z.ZodMiniType | (() => z.ZodMiniType);

/** The schema itself. */
export function built(schema: SchemaOf): z.ZodMiniType {
  return typeof schema === 'function' ? schema() : schema;
}

/** What a SchemaOf parses to. */
export type Parsed<S extends SchemaOf> = S extends z.ZodMiniType
  ? z.infer<S>
  : S extends () => infer T
    ? T extends z.ZodMiniType
      ? z.infer<T>
      : never
    : never;

const nonEmpty = z.string().check(z.minLength(1), z.maxLength(MAX_NAME_LENGTH));

/** A URL as text, checked here; or one checkTargetUrl already returned (the resolver's), taken as it is. */
const targetUrl = z
  .custom<string | CheckedUrl>((value) => typeof value === 'string' || isCheckedUrl(value), { message: code('notText') })
  .check(
    z.superRefine((value, ctx) => {
      if (typeof value !== 'string') return;
      const check = checkTargetUrl(value);
      if (!check.ok) ctx.addIssue({ code: 'custom', message: check.code, input: value, params: { details: check.params } });
    }),
  );

const policyEntry = z.strictObject({
  type: z.string().check(z.minLength(1), z.maxLength(MAX_POLICY_TYPE_LENGTH)),
  params: z.array(z.string().check(z.maxLength(MAX_POLICY_PARAM_LENGTH))).check(z.maxLength(MAX_LIST_LENGTH)),
});

const policyList = z.array(policyEntry).check(z.maxLength(MAX_LIST_LENGTH));

const clientIp = z.string().check(z.refine((value) => parseCidr(value) !== null, code('notIpOrCidr')));

const browserProfile = z.strictObject({
  os: z.enum(BROWSER_OS),
  browser: z.enum(BROWSER_NAMES),
  timezone: z.optional(z.string().check(z.refine(isIanaTimeZone, code('notTimeZone')))),
  languages: z.optional(z.string().check(z.refine(isAcceptLanguage, code('notAcceptLanguage')))),
});

const categoryValue = z.union([
  z.string().check(z.refine(isCategoryValue, code('notCategory'))),
  z.array(z.string().check(z.refine(isCategoryValue, code('notCategory')))).check(z.minLength(1), z.maxLength(32)),
]);

const categories = z.strictObject({
  availability: z.optional(categoryValue),
  connectivity: z.optional(categoryValue),
});

const expiresInput = z.union([z.number(), z.date(), z.string(), z.strictObject({ in_seconds: z.number() })]);

const contextDataShape = {
  username: z.optional(nonEmpty),
  org: z.optional(nonEmpty),
  url: z.optional(targetUrl),
  policy: z.optional(policyList),
  restrict_client_ips: z.optional(z.array(clientIp).check(z.maxLength(MAX_LIST_LENGTH))),
  session_type: z.optional(z.enum(SESSION_TYPES)),
  egress_region: z.optional(z.string().check(z.refine(isEgressLocation, code('notEgressLocation')))),
  browser_profile: z.optional(browserProfile),
  categories: z.optional(categories),
};

const maxUses = z.int().check(z.positive(), z.lte(1_000_000_000));

const createShape = {
  ...contextDataShape,
  max_uses: z.optional(maxUses),
  expires: z.optional(expiresInput),
  auto_domain_allow: z.optional(z.boolean()),
};

const contextDataSchema = z.strictObject(contextDataShape);
export const createContextSchema = z.strictObject(createShape);

/** What create_context puts in context_data: the user or org, the URL, the policy and the session settings. */
export type ContextDataParams = z.infer<typeof contextDataSchema>;
/** The browser a research session presents: os, browser, and optionally time zone and languages. */
export type BrowserProfile = z.infer<typeof browserProfile>;
/** Egress categories of a research session: availability and connectivity. */
export type Categories = z.infer<typeof categories>;

/** Parameters of createContext: every parameter of the spec's create_context table. */
export interface CreateContextParams extends ContextDataParams {
  readonly max_uses?: number;
  readonly expires?: ExpiresInput;
  /** When true, a domain_allow entry for the URL's host is added (unless one allows it). Default false. */
  readonly auto_domain_allow?: boolean;
}

export const updateContextSchema = once(() =>
  z.strictObject({
    context_data: z.optional(contextDataSchema),
    max_uses: z.optional(maxUses),
    expires: z.optional(expiresInput),
    name: z.optional(z.string().check(z.maxLength(MAX_NAME_LENGTH))),
    enabled: z.optional(z.boolean()),
  }),
);

/** What updateContext can change; every key optional, at least one given. */
export interface UpdateContextChanges {
  readonly context_data?: ContextDataParams;
  readonly max_uses?: number;
  readonly expires?: ExpiresInput;
  readonly name?: string;
  readonly enabled?: boolean;
}

const proxyInput = once(() =>
  z.strictObject({
    name: nonEmpty,
    location: z.strictObject({
      address: z.string().check(z.refine((value) => parseIp(value) !== null || isFqdn(value), code('notIpOrFqdn'))),
      port: z.optional(z.int().check(z.gte(1, code('notPort')), z.lte(65535, code('notPort')))),
      type: z.optional(z.enum(PROXY_TYPES)),
    }),
  }),
);

/** A proxy as a caller may give it: port and type optional (filled in by type). */
export type ProxyInput = z.infer<ReturnType<typeof proxyInput>>;

const proxyListSchema = once(() => z.array(proxyInput()).check(z.maxLength(MAX_LIST_LENGTH)));

export const orgNameSchema = nonEmpty;
export const contextIdSchema = once(() => z.string().check(z.minLength(1), z.maxLength(MAX_NAME_LENGTH)));

// ---- parsing into ValidationErrors -------------------------------------------------

function pathOf(root: string, path: readonly PropertyKey[]): string {
  let out = root;
  for (const key of path) out += typeof key === 'number' ? `[${key}]` : out ? `.${String(key)}` : String(key);
  return out || 'input';
}

/** A validation problem as data: its code and the values after the field. */
export interface Problem {
  readonly code: ValidationCode;
  readonly details: readonly string[];
}

const TYPE_CODES: Readonly<Record<string, ValidationCode>> = {
  string: 'notText',
  number: 'notNumber',
  int: 'notInteger',
  boolean: 'notBoolean',
  object: 'notObject',
  array: 'notList',
  date: 'notDate',
};

/** The details a custom issue carries (a URL check's values). */
function detailsOf(issue: z.core.$ZodIssue): readonly string[] {
  const details: unknown = issue.code === 'custom' ? issue.params?.['details'] : undefined;
  return Array.isArray(details) && details.every((item) => typeof item === 'string') ? details : [];
}

/** A zod issue as a validation code: the check's own code when it has one, else read from the issue. */
export function problemOf(issue: z.core.$ZodIssue): Problem {
  if (isValidationCode(issue.message)) return { code: issue.message, details: detailsOf(issue) };
  switch (issue.code) {
    case 'unrecognized_keys':
      return { code: 'unknownParameter', details: [] };
    case 'invalid_type': {
      const known = Object.hasOwn(TYPE_CODES, issue.expected) ? TYPE_CODES[issue.expected] : undefined;
      return known ? { code: known, details: [] } : { code: 'wrongType', details: [issue.expected] };
    }
    case 'invalid_value':
      return { code: 'notOneOf', details: [issue.values.map(String).join(', ')] };
    case 'too_big': {
      const max = String(issue.maximum);
      if (issue.origin === 'string') return { code: 'tooLong', details: [max] };
      if (issue.origin === 'array' || issue.origin === 'set') return { code: 'tooMany', details: [max] };
      return { code: 'tooBig', details: [max] };
    }
    case 'too_small': {
      const min = String(issue.minimum);
      if (issue.origin === 'string') return issue.minimum === 1 ? { code: 'empty', details: [] } : { code: 'tooShort', details: [min] };
      if (issue.origin === 'array' || issue.origin === 'set') return issue.minimum === 1 ? { code: 'empty', details: [] } : { code: 'tooFew', details: [min] };
      if (issue.minimum === 0 && issue.inclusive === false) return { code: 'notPositive', details: [] };
      return { code: 'tooSmall', details: [min] };
    }
    case 'invalid_union':
      return { code: 'unsupportedForm', details: [] };
    default:
      return { code: 'invalid', details: [] };
  }
}

/** Parses `value` with `schema`; a failure throws a ValidationError naming the first bad field. */
export function parseParams<S extends SchemaOf>(schema: S, value: unknown, root: string): Parsed<S> {
  const parsed = built(schema).safeParse(value);
  if (parsed.success) return parsed.data as Parsed<S>;
  const issue = parsed.error.issues[0];
  if (!issue) throw new ValidationError(root || 'input', 'invalid');
  const path = issue.code === 'unrecognized_keys' ? [...issue.path, issue.keys[0] ?? ''] : issue.path;
  const { code, details } = problemOf(issue);
  throw new ValidationError(pathOf(root, path), code, details);
}

function expectPolicy(entries: readonly PolicyEntry[], path: string): PolicyEntry[] {
  const normalized = normalizePolicy(entries, path);
  if (normalized instanceof PolicyIssue) throw new ValidationError(normalized.path, normalized.code, normalized.params.slice(1));
  return normalized;
}

/** Encodes an expiry for the wire, refusing values in the past. */
export function expiresForWire(value: ExpiresInput, field = 'expires', nowMs = Date.now()): string {
  let encoded: string;
  try {
    encoded = encodeExpires(value);
  } catch (error) {
    throw new ValidationError(field, error instanceof ExpiresRangeError ? error.code : 'expiresInvalid');
  }
  const nowSeconds = Math.floor(nowMs / 1000);
  const at = decodeExpires(encoded, nowSeconds);
  if (at === null) throw new ValidationError(field, 'expiresInvalid');
  if (at <= nowSeconds) throw new ValidationError(field, 'expiresPast');
  return encoded;
}

/**
 * Builds the wire `context_data` object from client parameters, placing each one as
 * the wire table says. `requireIdentity` enforces username XOR org.
 */
export function contextDataForWire(
  params: ContextDataParams,
  options: { readonly requireIdentity: boolean; readonly autoDomainAllow?: boolean; readonly path?: string },
): Record<string, unknown> {
  const path = options.path ?? '';
  const field = (name: string): string => (path ? `${path}.${name}` : name);
  const hasUser = params.username !== undefined;
  const hasOrg = params.org !== undefined;
  if (hasUser && hasOrg) throw new ValidationError(field('username'), 'identityBoth');
  if (options.requireIdentity && !hasUser && !hasOrg) throw new ValidationError(field('username'), 'identityMissing');
  if (options.requireIdentity) {
    // Creation: a standard session needs its URL; research-only settings need a research session.
    const research = params.session_type === RESEARCH_SESSION_TYPE;
    if (!research && params.url === undefined) throw new ValidationError(field('url'), 'urlRequired', [RESEARCH_SESSION_TYPE]);
    const misplaced = research ? undefined : RESEARCH_ONLY_KEYS.find((key) => params[key] !== undefined);
    if (misplaced) throw new ValidationError(field(misplaced), 'researchOnly', [RESEARCH_SESSION_TYPE]);
  }

  const url = params.url === undefined ? undefined : typeof params.url === 'string' ? new URL(params.url) : params.url;
  let policy = params.policy === undefined ? undefined : expectPolicy(params.policy, field('policy'));
  if (options.autoDomainAllow && url) policy = withDomainAllow(policy ?? [], url.hostname);

  const data: Record<string, unknown> = {};
  if (params.username !== undefined) data[CONTEXT_DATA_KEYS.username] = params.username;
  if (params.org !== undefined) data[CONTEXT_DATA_KEYS.org] = params.org;
  if (url) data[CONTEXT_DATA_KEYS.url] = [url.href];
  if (policy !== undefined) data[CONTEXT_DATA_KEYS.policy] = policy;
  if (params.restrict_client_ips !== undefined) data[CONTEXT_DATA_KEYS.restrict_client_ips] = [...params.restrict_client_ips];
  if (params.session_type !== undefined) data[CONTEXT_DATA_KEYS.session_type] = params.session_type;
  if (params.egress_region !== undefined) data[CONTEXT_DATA_KEYS.egress_region] = params.egress_region;
  if (params.browser_profile !== undefined) data[CONTEXT_DATA_KEYS.browser_profile] = { ...params.browser_profile };
  if (params.categories !== undefined) data[CONTEXT_DATA_KEYS.categories] = { ...params.categories };
  return data;
}

/**
 * Validates a proxy list: names required and unique, address an IP or FQDN, port
 * defaulting by type, type defaulting to http. Returns the list to send and the
 * warnings a UI should show.
 *
 * zod reads the input (anything a caller passes) and names its first bad field; the
 * rules past the fields (unique names, the defaults, the address normalised, the
 * warnings) are checkProxies', the same the options page checks with.
 */
export function prepareProxies(value: unknown, field = 'proxies'): { proxies: Proxy[]; warnings: ProxyWarning[] } {
  const list = parseParams(proxyListSchema, value, field);
  const checked = checkProxies(list.map(draftOf), field);
  if ('field' in checked) throw new ValidationError(checked.field, checked.code, checked.details);
  return checked;
}

/** A parsed proxy as checkProxies takes it (no optional key set to undefined). */
function draftOf({ name, location: { address, port, type } }: ProxyInput): ProxyDraft {
  return { name, location: { address, ...(port === undefined ? {} : { port }), ...(type === undefined ? {} : { type }) } };
}
