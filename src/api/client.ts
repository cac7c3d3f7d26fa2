/**
 * The typed client for the whole service interface. No browser APIs: it runs in the
 * extension's background and in Node 20.
 */
import * as z from 'zod/mini';
import { checkServiceBase, checkTargetUrl, isCheckedUrl } from '../net/url';
import { ApiError, AuthError, CommandError, ProtocolError, ValidationError } from '../service/errors';
import { checkLaunchUrl, type LaunchUrl } from '../service/launch';
import { once } from '../service/once';
import { MAX_TOKEN_LENGTH } from '../service/values';
import {
  contextDataForWire,
  contextIdSchema,
  createContextSchema,
  expiresForWire,
  orgNameSchema,
  parseParams,
  prepareProxies,
  updateContextSchema,
  type CreateContextParams,
  type Parsed,
  type Proxy,
  type SchemaOf,
  type UpdateContextChanges,
} from './params';
import {
  contextDetailsSchema,
  createdContextSchema,
  deleteProxiesResultSchema,
  deleteResultSchema,
  orgSchema,
  parseResult,
  proxyListResultSchema,
  putFileResultSchema,
  userListSchema,
  type ContextDetails,
  type CreatedContext,
  type DeleteProxiesResult,
  type OrgRecord,
  type User,
} from './results';
import { Transport, type CallOptions, type Slot, type WireCommand } from './transport';
import {
  BULK_BATCH_SIZE,
  BULK_MAX_URLS,
  DEFAULT_TIMEOUT_MS,
  type BulkCreateParams,
  type BulkCreateResult,
  type BulkCreated,
  type BulkFailure,
  type ClientOptions,
  type ProxyChangeResult,
  type ProxyListResult,
  type PutFileParams,
  type ResearchContextParams,
} from './types';
import {
  COMMANDS,
  CONTEXT_FIELDS,
  DELETE_RESULT_KEY,
  ENDPOINTS,
  FILE_FIELDS,
  LAUNCH,
  ORG_PARAMS,
  PROXY_FIELDS,
  RESEARCH_SESSION_TYPE,
  SHORTCUT_PARAMS,
  SHORTCUT_RESPONSES,
  type ShortcutResponse,
} from '../service/wire';

function toBlob(file: Blob | ArrayBuffer | Uint8Array, type: string | undefined): Blob {
  if (file instanceof Blob) return file;
  const bytes = file instanceof Uint8Array ? file : new Uint8Array(file);
  // Copy into a plain ArrayBuffer-backed view: Blob rejects shared buffers.
  return new Blob([new Uint8Array(bytes)], type ? { type } : {});
}

const fileTokenSchema = once(() => z.string().check(z.minLength(1), z.maxLength(MAX_TOKEN_LENGTH)));
const fileFieldSchema = once(() => z.string().check(z.minLength(1), z.maxLength(1024)));

/**
 * A client for one service. Create it with {@link createClient}.
 *
 * Every method validates its parameters first (a ValidationError names the field and
 * nothing is sent), sends one request, and throws a typed error: AuthError,
 * CommandError, TimeoutError, NetworkError, HttpError or ProtocolError.
 */
export class IsolinkClient {
  readonly baseUrl: string;
  readonly launchBase: string;
  readonly #transport: Transport;

  constructor(options: ClientOptions) {
    const base = checkServiceBase(options.baseUrl);
    if (!base.ok) throw new ValidationError('baseUrl', base.code, base.params);
    const launch = checkServiceBase(options.launchBase);
    if (!launch.ok) throw new ValidationError('launchBase', launch.code, launch.params);
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    if (!Number.isSafeInteger(timeoutMs) || timeoutMs <= 0) throw new ValidationError('timeoutMs', 'notPositiveInteger');
    if (typeof options.token !== 'string' && typeof options.token !== 'function') {
      throw new ValidationError('token', 'notTokenSource');
    }
    this.baseUrl = base.base;
    this.launchBase = launch.base;
    const fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.#transport = new Transport({ baseUrl: base.base, token: options.token, fetch: fetchImpl, timeoutMs });
  }

  /**
   * Creates a browsing context (`create_context`).
   *
   * Sends `max_uses` and `expires` at command level and everything else under
   * `context_data` as the wire table places it. With `auto_domain_allow: true`, a
   * `domain_allow` entry for the URL's host is added unless one already allows it.
   *
   * @returns `{ browse_context_id, expires, max_uses }`
   * @throws ValidationError (username and org both or neither, a non-http(s) URL, a bad
   *   policy entry, ...), AuthError, CommandError, and the transport errors.
   * @example
   * const ctx = await client.createContext({ username: 'analyst@example.com', url: 'https://evil.example/', auto_domain_allow: true });
   * open(client.launchUrl(ctx.browse_context_id));
   */
  async createContext(params: CreateContextParams, options?: CallOptions): Promise<CreatedContext> {
    const command = this.#createCommand(params, '');
    return this.#one(command, createdContextSchema, options);
  }

  /**
   * Creates a research-type (`toolbox-standalone`) context: username and egress_region
   * are required; url is optional.
   *
   * @example
   * await client.createResearchContext({ username: 'analyst@example.com', egress_region: 'Frankfurt', browser_profile: { os: 'win', browser: 'chrome' } });
   */
  async createResearchContext(params: ResearchContextParams, options?: CallOptions): Promise<CreatedContext> {
    const input: unknown = params;
    if (typeof input !== 'object' || input === null) throw new ValidationError('params', 'notObject');
    const record = input as Record<string, unknown>;
    for (const key of ['org', 'session_type', 'restrict_client_ips']) {
      if (Object.hasOwn(record, key)) throw new ValidationError(key, 'notResearchParameter');
    }
    if (typeof record['username'] !== 'string') throw new ValidationError('username', 'researchRequired');
    if (typeof record['egress_region'] !== 'string') throw new ValidationError('egress_region', 'researchRequired');
    return this.createContext({ ...params, session_type: RESEARCH_SESSION_TYPE }, options);
  }

  /**
   * Reads a context's details (`get_context`): creation time, use_count, max_uses,
   * expiry, enabled, name and its context_data.
   */
  async getContext(browseContextId: string, options?: CallOptions): Promise<ContextDetails> {
    const id = parseParams(contextIdSchema, browseContextId, 'browse_context_id');
    return this.#one({ command: COMMANDS.getContext, [CONTEXT_FIELDS.id]: id }, contextDetailsSchema, options);
  }

  /**
   * Changes a context (`update_context`): context_data, max_uses, expires, name,
   * enabled. Returns the updated details.
   *
   * @example
   * await client.updateContext(id, { enabled: false });
   */
  async updateContext(browseContextId: string, changes: UpdateContextChanges, options?: CallOptions): Promise<ContextDetails> {
    const id = parseParams(contextIdSchema, browseContextId, 'browse_context_id');
    const parsed = parseParams(updateContextSchema, changes, '');
    const command: Record<string, unknown> = { command: COMMANDS.updateContext, [CONTEXT_FIELDS.id]: id };
    if (parsed.context_data !== undefined) {
      command['context_data'] = contextDataForWire(parsed.context_data, { requireIdentity: false, path: 'context_data' });
    }
    if (parsed.max_uses !== undefined) command['max_uses'] = parsed.max_uses;
    if (parsed.expires !== undefined) command['expires'] = expiresForWire(parsed.expires);
    if (parsed.name !== undefined) command['name'] = parsed.name;
    if (parsed.enabled !== undefined) command['enabled'] = parsed.enabled;
    if (Object.keys(command).length === 2) throw new ValidationError('changes', 'noChange');
    return this.#one(command as WireCommand, contextDetailsSchema, options);
  }

  /**
   * Deletes a context (`delete_context`); permanent.
   *
   * @returns true when the service deleted it, false when it was already gone.
   */
  async deleteContext(browseContextId: string, options?: CallOptions): Promise<boolean> {
    const id = parseParams(contextIdSchema, browseContextId, 'browse_context_id');
    const command = { command: COMMANDS.deleteContext, [CONTEXT_FIELDS.id]: id };
    const [slot] = await this.#transport.postCommands([command], options);
    if (!slot) throw new ProtocolError('replyNoSlot', COMMANDS.deleteContext);
    if (!slot.ok) {
      if (slot.kind === 'not_found') return false;
      throw new CommandError(COMMANDS.deleteContext, slot.error, slot.kind);
    }
    return parseResult(deleteResultSchema, slot.result, COMMANDS.deleteContext)[DELETE_RESULT_KEY];
  }

  /**
   * Creates one context per URL with shared parameters, batched: up to
   * {@link BULK_BATCH_SIZE} creations per request, matched to their URLs by command_id.
   * A URL that fails (invalid, refused, or its batch lost) is reported in `failures`
   * and never stops the others. Creations are never retried.
   *
   * @example
   * const { context_urls, failures } = await client.bulkCreateContexts({ urls, username });
   */
  async bulkCreateContexts(params: BulkCreateParams, options?: CallOptions): Promise<BulkCreateResult> {
    const input: unknown = params;
    if (typeof input !== 'object' || input === null) throw new ValidationError('params', 'notObject');
    const { urls, ...shared } = params;
    if (!Array.isArray(urls)) throw new ValidationError('urls', 'notList');
    if (urls.length > BULK_MAX_URLS) throw new ValidationError('urls', 'tooMany', [String(BULK_MAX_URLS)]);
    // Shared parameters are checked once, with a stand-in URL, so their errors throw.
    if (Object.hasOwn(shared, 'url')) throw new ValidationError('url', 'bulkUseUrls');
    this.#createCommand({ ...shared, url: 'https://example.invalid/' }, '');

    const failures: BulkFailure[] = [];
    const fail = (index: number, url: string, error: ApiError): void => {
      failures.push({ index, url, error: error.message, kind: error.name, code: error.code, params: error.params });
    };
    const pending: { index: number; url: string; command: WireCommand }[] = [];
    urls.forEach((url: unknown, index) => {
      // Each URL is checked once: here, or already (a URL checkTargetUrl returned).
      const check = isCheckedUrl(url) ? ({ ok: true, url } as const) : typeof url === 'string' ? checkTargetUrl(url) : undefined;
      if (check === undefined) {
        fail(index, String(url).slice(0, 200), new ValidationError(`urls[${index}]`, 'notText'));
        return;
      }
      if (!check.ok) {
        fail(index, String(url).slice(0, 2048), new ValidationError(`urls[${index}]`, check.code, check.params));
        return;
      }
      pending.push({ index, url: check.url.href, command: this.#createCommand({ ...shared, url: check.url }, `urls[${index}]`) });
    });

    const created: BulkCreated[] = [];
    let fatal: ApiError | undefined;
    for (let start = 0; start < pending.length; start += BULK_BATCH_SIZE) {
      const batch = pending.slice(start, start + BULK_BATCH_SIZE);
      if (fatal) {
        for (const item of batch) fail(item.index, item.url, fatal);
        continue;
      }
      let slots: Slot[];
      try {
        slots = await this.#transport.postCommands(
          batch.map((item) => item.command),
          options,
        );
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        if (error instanceof AuthError) fatal = error;
        for (const item of batch) fail(item.index, item.url, error);
        continue;
      }
      batch.forEach((item, i) => {
        const slot = slots[i];
        if (!slot) {
          fail(item.index, item.url, new ProtocolError('replyNoSlot', COMMANDS.createContext));
          return;
        }
        if (!slot.ok) {
          fail(item.index, item.url, new CommandError(COMMANDS.createContext, slot.error, slot.kind));
          return;
        }
        try {
          const result = parseResult(createdContextSchema, slot.result, COMMANDS.createContext);
          created.push({ ...result, index: item.index, url: item.url, launch_url: this.launchUrl(result.browse_context_id) });
        } catch (error) {
          if (!(error instanceof ApiError)) throw error;
          fail(item.index, item.url, error);
        }
      });
    }
    created.sort((a, b) => a.index - b.index);
    failures.sort((a, b) => a.index - b.index);
    return { context_urls: created.map((item) => item.launch_url), created, failures };
  }

  /** Lists an organisation's users (`listusers`). */
  async listUsers(org: string, options?: CallOptions): Promise<User[]> {
    const name = parseParams(orgNameSchema, org, 'org');
    return this.#one({ command: COMMANDS.listUsers, [ORG_PARAMS.org]: name }, userListSchema, options);
  }

  /** Reads an organisation's record (`org.get`); the shape is the service's, kept whole. */
  async getOrg(orgName: string, options?: CallOptions): Promise<OrgRecord> {
    const name = parseParams(orgNameSchema, orgName, 'org_name');
    return this.#one({ command: COMMANDS.getOrg, [ORG_PARAMS.orgName]: name }, orgSchema, options);
  }

  /**
   * Reads an organisation's proxies (`policy_proxies.get`): its own and those inherited
   * from its ancestors (marked `inherited_from`), and the proxy policy when asked for.
   */
  async getProxies(orgName: string, opts: { readonly include_proxy_policy?: boolean } = {}, options?: CallOptions): Promise<ProxyListResult> {
    const name = parseParams(orgNameSchema, orgName, 'org_name');
    const include = opts.include_proxy_policy ?? false;
    if (typeof include !== 'boolean') throw new ValidationError('include_proxy_policy', 'notBoolean');
    const result = await this.#one(
      { command: COMMANDS.getProxies, [ORG_PARAMS.orgName]: name, [ORG_PARAMS.includeProxyPolicy]: include },
      proxyListResultSchema,
      options,
    );
    const out: ProxyListResult = { proxies: result[PROXY_FIELDS.list] };
    return Object.hasOwn(result, PROXY_FIELDS.policy) ? { ...out, proxy_policy: result[PROXY_FIELDS.policy] } : out;
  }

  /**
   * Replaces the organisation's whole proxy list (`policy_proxies.set`); an empty list
   * clears it. Proxies are validated first; ports and types are filled in by default.
   */
  async setProxies(orgName: string, proxies: readonly Proxy[] | readonly unknown[], options?: CallOptions): Promise<ProxyChangeResult> {
    return this.#changeProxies(COMMANDS.setProxies, orgName, proxies, true, options);
  }

  /** Appends proxies to the organisation's list (`policy_proxies.add`). */
  async addProxies(orgName: string, proxies: readonly Proxy[] | readonly unknown[], options?: CallOptions): Promise<ProxyChangeResult> {
    return this.#changeProxies(COMMANDS.addProxies, orgName, proxies, false, options);
  }

  /**
   * Deletes proxies by name (`policy_proxies.delete`). Unknown names are not an error:
   * check `proxies_not_found`.
   */
  async deleteProxies(orgName: string, proxyNames: readonly string[], options?: CallOptions): Promise<DeleteProxiesResult> {
    const name = parseParams(orgNameSchema, orgName, 'org_name');
    const names = parseParams(z.array(orgNameSchema).check(z.minLength(1), z.maxLength(1000)), proxyNames, 'proxy_names');
    return this.#one(
      { command: COMMANDS.deleteProxies, [ORG_PARAMS.orgName]: name, [ORG_PARAMS.proxyNames]: [...new Set(names)] },
      deleteProxiesResultSchema,
      options,
    );
  }

  /**
   * Downloads a file (`POST /getfile/`, multipart `id` and `auth` = the file token).
   *
   * @returns the raw bytes.
   */
  async getFile(params: { readonly id: string; readonly file_token: string }, options?: CallOptions): Promise<Uint8Array> {
    const id = parseParams(fileFieldSchema, params.id, 'id');
    const token = parseParams(fileTokenSchema, params.file_token, 'file_token');
    const form = new FormData();
    form.append(FILE_FIELDS.get.id, id);
    form.append(FILE_FIELDS.get.auth, token);
    const { bytes } = await this.#transport.postForm(ENDPOINTS.getFile, form, options ?? {}, token);
    return bytes;
  }

  /**
   * Uploads a file into a bucket (`POST /putfile/`, multipart `auth`, `bucket_id`,
   * `name`, `file`, optional `path` and `content_type`).
   *
   * @returns `{ file_id }`
   */
  async putFile(params: PutFileParams, options?: CallOptions): Promise<{ file_id: string }> {
    const token = parseParams(fileTokenSchema, params.file_token, 'file_token');
    const name = parseParams(fileFieldSchema, params.name, 'name');
    const bucket = parseParams(fileFieldSchema, params.bucket_id, 'bucket_id');
    const path = params.path === undefined ? undefined : parseParams(fileFieldSchema, params.path, 'path');
    const contentType = params.content_type === undefined ? undefined : parseParams(fileFieldSchema, params.content_type, 'content_type');
    const file: unknown = params.file;
    if (!(file instanceof Blob || file instanceof ArrayBuffer || file instanceof Uint8Array)) {
      throw new ValidationError('file', 'notFile');
    }
    const form = new FormData();
    form.append(FILE_FIELDS.put.auth, token);
    form.append(FILE_FIELDS.put.bucketId, bucket);
    form.append(FILE_FIELDS.put.name, name);
    if (path !== undefined) form.append(FILE_FIELDS.put.path, path);
    if (contentType !== undefined) form.append(FILE_FIELDS.put.contentType, contentType);
    form.append(FILE_FIELDS.put.file, toBlob(params.file, contentType), name);
    const { bytes } = await this.#transport.postForm(ENDPOINTS.putFile, form, options ?? {}, token);
    let reply: unknown;
    try {
      reply = JSON.parse(new TextDecoder().decode(bytes));
    } catch {
      throw new ProtocolError('fileReplyNotJson');
    }
    const result = parseResult(putFileResultSchema, reply, 'putfile');
    return { file_id: result[FILE_FIELDS.putResultKey] };
  }

  /**
   * The launch URL of a context: `{launchBase}/launch?ctx=<id>`. The id is encoded, and
   * the result is checked to stay on the launch base.
   */
  launchUrl(browseContextId: string): LaunchUrl {
    const id = parseParams(contextIdSchema, browseContextId, 'browse_context_id');
    const url = checkLaunchUrl(this.launchBase, `${this.launchBase}${LAUNCH.path}?${LAUNCH.param}=${encodeURIComponent(id)}`);
    if (url === null) throw new ProtocolError('launchOutsideBase');
    return url;
  }

  /**
   * Builds the URL of the GET `/ctx/` shortcut, which creates and launches a context in
   * one request. The URL CARRIES THE ADMIN TOKEN in its query string: it is for scripts
   * on trusted machines only. Isolink itself never requests or opens it.
   *
   * @example
   * const url = await client.shortcutUrl({ user: 'analyst@example.com', url: 'https://evil.example/', response: 'url' });
   */
  async shortcutUrl(params: { readonly user: string; readonly url: string; readonly response?: ShortcutResponse }): Promise<string> {
    const user = parseParams(orgNameSchema, params.user, 'user');
    const target = checkTargetUrl(params.url);
    if (!target.ok) throw new ValidationError('url', target.code, target.params);
    const response = params.response ?? 'redirect';
    if (!SHORTCUT_RESPONSES.includes(response)) throw new ValidationError('response', 'notOneOf', [SHORTCUT_RESPONSES.join(', ')]);
    const token = await this.#transport.resolveToken();
    const query = new URLSearchParams({
      [SHORTCUT_PARAMS.auth]: token,
      [SHORTCUT_PARAMS.user]: user,
      [SHORTCUT_PARAMS.url]: target.url.href,
      [SHORTCUT_PARAMS.response]: response,
    });
    return `${this.baseUrl}${ENDPOINTS.shortcut}?${query.toString()}`;
  }

  /**
   * Sends raw commands, for commands this client does not name. setauth is added in
   * front; each slot comes back as `{ ok, result }` or `{ ok: false, error }`. Only a
   * batch of read-only commands is retried.
   */
  async send(commands: readonly WireCommand[], options?: CallOptions): Promise<Slot[]> {
    if (!Array.isArray(commands)) throw new ValidationError('commands', 'notList');
    if (commands.length === 0) throw new ValidationError('commands', 'empty');
    commands.forEach((command: unknown, i) => {
      if (typeof command !== 'object' || command === null || Array.isArray(command)) {
        throw new ValidationError(`commands[${i}]`, 'notObject');
      }
      const name = (command as { command?: unknown }).command;
      if (typeof name !== 'string' || name.length === 0) throw new ValidationError(`commands[${i}].command`, 'notCommandName');
      if (name === COMMANDS.setauth) throw new ValidationError(`commands[${i}].command`, 'setauthReserved');
    });
    return this.#transport.postCommands(commands, options);
  }

  #createCommand(params: CreateContextParams, path: string): WireCommand {
    const parsed = parseParams(createContextSchema, params, path);
    const command: Record<string, unknown> = {
      command: COMMANDS.createContext,
      context_data: contextDataForWire(parsed, {
        requireIdentity: true,
        autoDomainAllow: parsed.auto_domain_allow ?? false,
        path,
      }),
    };
    if (parsed.max_uses !== undefined) command['max_uses'] = parsed.max_uses;
    if (parsed.expires !== undefined) command['expires'] = expiresForWire(parsed.expires, path ? `${path}.expires` : 'expires');
    return command as WireCommand;
  }

  async #changeProxies(commandName: string, orgName: string, list: readonly unknown[], allowEmpty: boolean, options?: CallOptions): Promise<ProxyChangeResult> {
    const name = parseParams(orgNameSchema, orgName, 'org_name');
    const { proxies, warnings } = prepareProxies(list);
    if (!allowEmpty && proxies.length === 0) throw new ValidationError('proxies', 'empty');
    const result = await this.#one({ command: commandName, [ORG_PARAMS.orgName]: name, [ORG_PARAMS.proxies]: proxies }, proxyListResultSchema, options);
    return { proxies: result[PROXY_FIELDS.list], warnings };
  }

  async #one<S extends SchemaOf>(command: WireCommand, schema: S, options?: CallOptions): Promise<Parsed<S>> {
    const [slot] = await this.#transport.postCommands([command], options);
    if (!slot) throw new ProtocolError('replyNoSlot', command.command);
    if (!slot.ok) throw new CommandError(command.command, slot.error, slot.kind);
    return parseResult(schema, slot.result, command.command);
  }
}

/**
 * Creates a client. Throws a ValidationError for a bad base URL (http is allowed only
 * on loopback), launch base or timeout.
 *
 * @example
 * const client = createClient({ baseUrl: 'https://isolation.example.com', launchBase: 'https://launch.example.com', token: () => readToken() });
 */
export function createClient(options: ClientOptions): IsolinkClient {
  return new IsolinkClient(options);
}
