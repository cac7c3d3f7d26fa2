/**
 * The wire table: every name and placement the service interface leaves open, decided
 * in one place. The client encodes with it, the simulator decodes with it, and the
 * tests assert against it, so a deployment that disagrees is adapted by editing this
 * file alone.
 *
 * Facts (from the service's documentation and code that calls it) and decisions (where
 * nothing public says) are marked as such.
 */

/** Paths below the service's base URL (fact). */
export const ENDPOINTS = {
  /** The command-array endpoint. */
  api: '/api/',
  /** Raw file download, multipart form. */
  getFile: '/getfile/',
  /** File upload, multipart form. */
  putFile: '/putfile/',
  /** The one-request create-and-launch shortcut; takes the admin token in its query. */
  shortcut: '/ctx/',
} as const;

/** The launch URL is `{launch_base}/launch?ctx=<browse_context_id>` (fact). */
export const LAUNCH = { path: '/launch', param: 'ctx' } as const;

/** Wire command names. get/update/delete of a context are decisions; the rest are facts. */
export const COMMANDS = {
  setauth: 'setauth',
  createContext: 'create_context',
  getContext: 'get_context',
  updateContext: 'update_context',
  deleteContext: 'delete_context',
  listUsers: 'listusers',
  getOrg: 'org.get',
  getProxies: 'policy_proxies.get',
  setProxies: 'policy_proxies.set',
  addProxies: 'policy_proxies.add',
  deleteProxies: 'policy_proxies.delete',
} as const;

/** Commands that change nothing on the service: the only ones a client may retry. */
export const READ_ONLY_COMMANDS: ReadonlySet<string> = new Set([COMMANDS.getContext, COMMANDS.listUsers, COMMANDS.getOrg, COMMANDS.getProxies]);

/** Keys of the command array's envelope (facts). */
export const ENVELOPE = { command: 'command', data: 'data', result: 'result', error: 'error' } as const;

/** Flat parameters of the org and proxy commands (facts: the spec's command table). */
export const ORG_PARAMS = {
  /** listusers */
  org: 'org',
  /** org.get and policy_proxies.* */
  orgName: 'org_name',
  includeProxyPolicy: 'include_proxy_policy',
  proxies: 'proxies',
  proxyNames: 'proxy_names',
} as const;

/** policy_proxies.delete's result keys (fact). */
export const PROXY_DELETE_KEYS = { deleted: 'proxies_deleted', notFound: 'proxies_not_found' } as const;

/** session_type values on the wire (fact); the first is the service's default. */
export const SESSION_TYPES = ['service-ruby', 'toolbox-standalone'] as const;
/** The session types create_context takes: one of SESSION_TYPES. */
export type SessionType = (typeof SESSION_TYPES)[number];
/** The research-type session: the only one that takes egress_region, browser_profile and categories. */
export const RESEARCH_SESSION_TYPE: SessionType = 'toolbox-standalone';
/** context_data keys only a research session takes. */
export const RESEARCH_ONLY_KEYS = ['egress_region', 'browser_profile', 'categories'] as const;

/** The key that ties a response slot to its command (fact: echoed by the service). */
export const COMMAND_ID = 'command_id';

/** setauth's acknowledgment, sent even for a bad token (fact). */
export const SETAUTH_ACK = 'setting auth from data';

/**
 * Error strings as the service writes them inside an HTTP 200 reply (facts).
 * The simulator writes these; the client recognises the auth failure by its prefix.
 */
export const SERVICE_ERRORS = {
  /** A bad or missing token: shown in the slot after setauth. */
  badToken: 'KeyError: invalid or missing admin token',
  authPrefix: 'KeyError',
  noOrg: (org: string) => `No org matching ${org}`,
  noOrgPrefix: 'No org matching',
  notFound: 'KeyError: Did not find any matching records',
} as const;

/**
 * Reads a service error string. A bad token shows as a `KeyError` (fact), but so does
 * deleting a record that is gone (fact: `KeyError: Did not find any matching records`),
 * so that exact message is told apart first. The client validates every parameter
 * before sending, so a KeyError from a missing key is not expected; any other KeyError
 * is read as a token problem.
 */
export function classifyServiceError(text: string): 'auth' | 'not_found' | 'no_org' | 'other' {
  if (text.startsWith(SERVICE_ERRORS.notFound)) return 'not_found';
  if (text.startsWith(SERVICE_ERRORS.authPrefix)) return 'auth';
  if (text.startsWith(SERVICE_ERRORS.noOrgPrefix)) return 'no_org';
  return 'other';
}

/**
 * create_context: where each client parameter goes on the wire.
 * `context_data` nesting for org, session_type, egress_region, browser_profile and
 * categories is a decision (spec rule 2: session parameters nest under context_data);
 * user, urls, policy and restrict_client_ips are facts; max_uses and expires sit at
 * command level (fact).
 */
export const CONTEXT_DATA_KEYS = {
  username: 'user',
  org: 'org',
  url: 'urls',
  policy: 'policy',
  restrict_client_ips: 'restrict_client_ips',
  session_type: 'session_type',
  egress_region: 'egress_region',
  browser_profile: 'browser_profile',
  categories: 'categories',
} as const;

export const COMMAND_LEVEL_KEYS = ['max_uses', 'expires'] as const;

/** Field names of a context's details, as get_context and update_context return them (decision). */
export const CONTEXT_FIELDS = {
  id: 'browse_context_id',
  name: 'name',
  enabled: 'enabled',
  created: 'created',
  expires: 'expires',
  maxUses: 'max_uses',
  useCount: 'use_count',
  contextData: 'context_data',
} as const;

/** Properties update_context accepts, flat beside `command` (decision). */
export const UPDATABLE_KEYS = ['context_data', 'max_uses', 'expires', 'name', 'enabled'] as const;

/** delete_context answers `{ deleted: true }` (decision, after the service's other CRUD commands). */
export const DELETE_RESULT_KEY = 'deleted';

/** Proxy replies: `{ proxies: [...] }`, plus `proxy_policy` when asked for (decision). */
export const PROXY_FIELDS = {
  list: 'proxies',
  policy: 'proxy_policy',
  /** Marks a proxy inherited from an ancestor org; the org's own carry none (decision). */
  inheritedFrom: 'inherited_from',
} as const;

/** Multipart field names of the file endpoints (facts). */
export const FILE_FIELDS = {
  get: { id: 'id', auth: 'auth' },
  put: {
    auth: 'auth',
    bucketId: 'bucket_id',
    name: 'name',
    file: 'file',
    path: 'path',
    contentType: 'content_type',
  },
  /** /putfile/ answers `{ file_id }` (fact). */
  putResultKey: 'file_id',
} as const;

/** Query parameters of the GET /ctx/ shortcut (facts). */
export const SHORTCUT_PARAMS = { auth: 'auth', user: 'user', url: 'url', response: 'response' } as const;
export const SHORTCUT_RESPONSES = ['redirect', 'url', 'id'] as const;
/** How the GET /ctx/ shortcut answers: one of SHORTCUT_RESPONSES. */
export type ShortcutResponse = (typeof SHORTCUT_RESPONSES)[number];

/**
 * `expires` on the wire is a string in one of three forms (decision within the spec's
 * three forms): epoch seconds (`"1767225600"`), an ISO 8601 timestamp as given, or an
 * offset in seconds from now (`"+3600"`).
 */
export type ExpiresInput = number | Date | string | { readonly in_seconds: number };

const ISO_8601 = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;
const EPOCH = /^\d{1,12}$/;
const OFFSET = /^\+\d{1,10}$/;

/** True for a string that is one of the three wire forms. */
export function isWireExpires(value: string): boolean {
  return EPOCH.test(value) || OFFSET.test(value) || (ISO_8601.test(value) && !Number.isNaN(Date.parse(value)));
}

/** Why an expiry cannot be encoded: a RangeError with a stable code (see ValidationError). */
export class ExpiresRangeError extends RangeError {
  constructor(
    readonly code: 'expiresNotEpoch' | 'expiresBadDate' | 'expiresNotIso' | 'expiresBadSeconds',
    message: string,
  ) {
    super(message);
  }
}

/**
 * Encodes an expiry for the wire. Throws a RangeError naming the problem when the
 * value is not a usable expiry; callers turn it into their own error type.
 */
export function encodeExpires(value: ExpiresInput): string {
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value) || value <= 0) throw new ExpiresRangeError('expiresNotEpoch', 'must be a positive whole number of epoch seconds');
    return String(value);
  }
  if (value instanceof Date) {
    const ms = value.getTime();
    if (Number.isNaN(ms)) throw new ExpiresRangeError('expiresBadDate', 'is an invalid Date');
    return String(Math.floor(ms / 1000));
  }
  if (typeof value === 'string') {
    if (!ISO_8601.test(value) || Number.isNaN(Date.parse(value))) throw new ExpiresRangeError('expiresNotIso', 'must be an ISO 8601 timestamp');
    return value;
  }
  const seconds = value.in_seconds;
  if (!Number.isSafeInteger(seconds) || seconds <= 0) throw new ExpiresRangeError('expiresBadSeconds', 'in_seconds must be a positive whole number');
  return `+${seconds}`;
}

/** Decodes a wire expiry into epoch seconds, or null when it is not one of the three forms. */
export function decodeExpires(value: unknown, nowSeconds: number): number | null {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return value;
  if (typeof value !== 'string') return null;
  if (EPOCH.test(value)) return Number(value);
  if (OFFSET.test(value)) return nowSeconds + Number(value.slice(1));
  if (ISO_8601.test(value)) {
    const ms = Date.parse(value);
    return Number.isNaN(ms) ? null : Math.floor(ms / 1000);
  }
  return null;
}
