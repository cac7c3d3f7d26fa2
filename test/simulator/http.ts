/**
 * The simulator's HTTP side: routing, request bodies (with size caps), the request
 * log, fault injection, and the endpoint handlers that are not commands.
 *
 * HTTP decisions the wire table does not cover:
 * - POST /api/ without `Content-Type: application/json` -> 415 `{error}`; a body that is
 *   not JSON, not an array, shorter than two entries or not starting with setauth ->
 *   400 `{error}` (one object, not an array); a body over 1 MiB -> 413.
 * - Wrong method on a known path -> 405 with `Allow`; unknown path -> 404 text.
 * - /getfile/ and /putfile/ take multipart/form-data only (else 415); a missing field
 *   (`auth` included) -> 400 text naming it; a wrong file token -> 403; unknown file
 *   id -> 404; bodies up to 32 MiB.
 * - GET /ctx/: bad or missing token -> 401 text; missing user or url, an unknown
 *   `response`, or a failed creation -> 400 text with the error string.
 * - Control paths live under /__simulator/ only, are never faulted and never logged.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { STATUS_CODES } from 'node:http';
import {
  COMMAND_ID,
  CONTEXT_DATA_KEYS,
  CONTEXT_FIELDS,
  ENDPOINTS,
  FILE_FIELDS,
  LAUNCH,
  SERVICE_ERRORS,
  SESSION_TYPES,
  SHORTCUT_PARAMS,
  SHORTCUT_RESPONSES,
  type ShortcutResponse,
} from '../../src/service/wire';
import { CommandError, createContext, lookupToken, runCommands } from './commands';
import { type FaultControl, FaultSettingsError, type FaultScope } from './faults';
import { type SessionView, newNonce, pageHeaders, renderRefusalPage, renderSessionPage } from './launch-page';
import { effectiveChrome, ribbonOf } from './policy';
import { type SimState, checkLaunch, policyOf, putFile, recordUse, targetUrlOf } from './state';

const K = CONTEXT_DATA_KEYS;

export const CONTROL_PREFIX = '/__simulator/';
export const CONTROL_PATHS = { faults: '/__simulator/faults', reset: '/__simulator/reset' } as const;

export const BODY_LIMITS = { api: 1024 * 1024, files: 32 * 1024 * 1024, control: 64 * 1024 } as const;

/** A multipart file field as the request log shows it. */
export interface RecordedFile {
  filename: string;
  size: number;
}

export interface RecordedRequest {
  method: string;
  /** The path without the query. */
  path: string;
  /** Query parameters; the first value of a repeated one. */
  query: Record<string, string>;
  /** Header names lowercased; repeated headers joined with `, `. */
  headers: Record<string, string>;
  /** The body as UTF-8 text; for multipart, the fields (files as `{filename, size}`). */
  body: string | Record<string, string | RecordedFile>;
  /** When it arrived (the simulator's clock, epoch ms). */
  at: number;
  /** The HTTP status answered, or null while unanswered or when no answer was sent. */
  status: number | null;
}

/** Requests held open by latency or hang, ended by reset() and close(). */
export class PendingRequests {
  private readonly aborts = new Set<() => void>();

  /** Registers an abort; answers the function that unregisters it. */
  hold(abort: () => void): () => void {
    this.aborts.add(abort);
    return () => {
      this.aborts.delete(abort);
    };
  }

  get size(): number {
    return this.aborts.size;
  }

  abortAll(): void {
    const all = [...this.aborts];
    this.aborts.clear();
    for (const abort of all) abort();
  }
}

export interface ServerContext {
  readonly state: SimState;
  readonly faults: FaultControl;
  readonly requests: RecordedRequest[];
  readonly pending: PendingRequests;
  readonly now: () => number;
  readonly launchBase: () => string;
  readonly reset: () => void;
}

/** `{launch_base}/launch?ctx=<id>` */
export function launchUrlFor(launchBase: string, id: string): string {
  let base = launchBase;
  while (base.endsWith('/')) base = base.slice(0, -1);
  return `${base}${LAUNCH.path}?${LAUNCH.param}=${encodeURIComponent(id)}`;
}

// ---------------------------------------------------------------------------------
// Small helpers

function send(res: ServerResponse, status: number, headers: Record<string, string>, body: string | Uint8Array = ''): void {
  res.writeHead(status, headers);
  res.end(body);
}

function sendText(res: ServerResponse, status: number, text: string, extra: Record<string, string> = {}): void {
  send(res, status, { 'content-type': 'text/plain; charset=utf-8', ...extra }, text);
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  send(res, status, { 'content-type': 'application/json' }, JSON.stringify(value));
}

function mediaType(header: string | undefined): string {
  return (header ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/** Reads the body; null when it grows past `limit` (the rest is discarded). */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    req.on('data', (chunk: Buffer) => {
      if (settled) return;
      size += chunk.length;
      if (size > limit) {
        settled = true;
        resolve(null);
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (!settled) {
        settled = true;
        resolve(Buffer.concat(chunks));
      }
    });
    req.on('error', (error) => {
      if (!settled) {
        settled = true;
        reject(error);
      }
    });
  });
}

async function parseMultipart(raw: Buffer, contentType: string): Promise<FormData | null> {
  try {
    return await new Request('http://simulator.invalid/', {
      method: 'POST',
      headers: { 'content-type': contentType },
      body: new Uint8Array(raw),
    }).formData();
  } catch {
    return null;
  }
}

function recordForm(form: FormData): Record<string, string | RecordedFile> {
  const out: Record<string, string | RecordedFile> = {};
  for (const [key, value] of form.entries()) {
    out[key] = typeof value === 'string' ? value : { filename: value.name, size: value.size };
  }
  return out;
}

function firstValues(params: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of params) if (!Object.hasOwn(out, key)) out[key] = value;
  return out;
}

function headerRecord(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(req.headers)) {
    if (value !== undefined) out[key] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** Waits `ms`; false when reset() or close() ended the request meanwhile. */
function wait(ctx: ServerContext, res: ServerResponse, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      release();
      resolve(true);
    }, ms);
    const release = ctx.pending.hold(() => {
      clearTimeout(timer);
      res.destroy();
      resolve(false);
    });
    res.on('close', () => {
      clearTimeout(timer);
      release();
      resolve(false);
    });
  });
}

const HTML_ERROR_PAGE = [
  '<!doctype html>',
  '<html><head><title>502 Bad Gateway</title></head>',
  '<body><h1>502 Bad Gateway</h1><p>The upstream server returned an invalid response.</p></body>',
  '</html>',
].join('\n');

/** Applies the transport faults; true when the request was answered (or dropped) by one. */
async function applyTransportFaults(ctx: ServerContext, req: IncomingMessage, res: ServerResponse): Promise<boolean> {
  const f = ctx.faults;
  if (f.latencyMs !== undefined && f.latencyMs > 0) {
    if (!(await wait(ctx, res, f.latencyMs))) return true;
  }
  if (f.hang) {
    const release = ctx.pending.hold(() => res.destroy());
    res.on('close', release);
    return true;
  }
  if (f.dropConnection) {
    req.socket.destroy();
    return true;
  }
  if (f.redirect) {
    send(res, f.redirect.status, { location: f.redirect.location, 'x-simulator-fault': 'redirect' });
    return true;
  }
  if (f.status !== undefined) {
    sendText(res, f.status, `Simulated HTTP ${f.status} ${STATUS_CODES[f.status] ?? ''}`.trim(), { 'x-simulator-fault': 'status' });
    return true;
  }
  if (f.htmlErrorPage) {
    send(res, 502, { 'content-type': 'text/html; charset=utf-8', 'x-simulator-fault': 'htmlErrorPage' }, HTML_ERROR_PAGE);
    return true;
  }
  return false;
}

/** JSON that a parser must refuse: the real reply cut short and left dangling. */
function spoilJson(value: unknown): string {
  const text = JSON.stringify(value);
  return `${text.slice(0, Math.max(1, Math.floor(text.length / 2)))},`;
}

// ---------------------------------------------------------------------------------
// Endpoints

interface Incoming {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly url: URL;
  readonly raw: Buffer;
  readonly form: FormData | null;
  /** Whether faults apply to this request. */
  readonly faulted: boolean;
}

function handleApi(ctx: ServerContext, { req, res, raw, faulted }: Incoming): void {
  if (mediaType(req.headers['content-type']) !== 'application/json') {
    sendJson(res, 415, { error: 'ValueError: Content-Type must be application/json' });
    return;
  }
  let body: unknown;
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch {
    sendJson(res, 400, { error: 'ValueError: the request body is not valid JSON' });
    return;
  }
  const f = ctx.faults;
  const envelope = runCommands(ctx.state, body, {
    nowSeconds: Math.floor(ctx.now() / 1000),
    errorSlots: faulted ? f.errorSlots : undefined,
    refuseUrls: faulted ? f.refuseUrls : undefined,
  });
  if (!envelope.ok) {
    sendJson(res, 400, { error: envelope.error });
    return;
  }
  let slots = envelope.slots;
  if (faulted && f.wrongLength) slots = slots.slice(0, -1);
  if (faulted && f.mismatchedCommandId) {
    slots = slots.map((slot, index) => ({
      ...slot,
      [COMMAND_ID]: Object.hasOwn(slot, COMMAND_ID) ? `${String(slot[COMMAND_ID])}-mismatched` : `mismatched-${index}`,
    }));
  }
  if (faulted && f.omitCommandIds) {
    slots = slots.map((slot) => Object.fromEntries(Object.entries(slot).filter(([key]) => key !== COMMAND_ID)));
  }
  if (faulted && f.malformedJson) {
    send(res, 200, { 'content-type': 'application/json' }, spoilJson(slots));
    return;
  }
  sendJson(res, 200, slots);
}

function handleLaunch(ctx: ServerContext, { req, res, url }: Incoming): void {
  const decision = checkLaunch(ctx.state, url.searchParams.get(LAUNCH.param), req.socket.remoteAddress ?? '', ctx.now());
  const nonce = newNonce();
  if (!decision.ok) {
    send(res, decision.status, pageHeaders(nonce), renderRefusalPage(decision, nonce));
    return;
  }
  const { context } = decision;
  recordUse(context);
  const data = context.contextData;
  const policies = policyOf(context);
  const view: SessionView = {
    contextId: context.id,
    url: targetUrlOf(context),
    sessionType: data[K.session_type] ?? SESSION_TYPES[0],
    egress: data[K.egress_region],
    browserProfile: data[K.browser_profile],
    categories: data[K.categories],
    policies,
    ribbon: ribbonOf(policies),
    chrome: effectiveChrome(policies, decision.catchall),
    useCount: context.useCount,
    maxUses: context.maxUses,
  };
  send(res, 200, pageHeaders(nonce), renderSessionPage(view, nonce));
}

function isShortcutResponse(value: string): value is ShortcutResponse {
  return (SHORTCUT_RESPONSES as readonly string[]).includes(value);
}

function handleShortcut(ctx: ServerContext, { res, url }: Incoming): void {
  const q = url.searchParams;
  const token = lookupToken(ctx.state, q.get(SHORTCUT_PARAMS.auth));
  if (!token) {
    sendText(res, 401, SERVICE_ERRORS.badToken);
    return;
  }
  const response = q.get(SHORTCUT_PARAMS.response) ?? SHORTCUT_RESPONSES[0];
  if (!isShortcutResponse(response)) {
    sendText(res, 400, `ValueError: ${SHORTCUT_PARAMS.response} must be one of ${SHORTCUT_RESPONSES.join(', ')}`);
    return;
  }
  const user = q.get(SHORTCUT_PARAMS.user);
  const target = q.get(SHORTCUT_PARAMS.url);
  const missing = [...(user === null || user === '' ? [SHORTCUT_PARAMS.user] : []), ...(target === null || target === '' ? [SHORTCUT_PARAMS.url] : [])];
  if (missing.length > 0) {
    sendText(res, 400, `ValidationError: missing ${missing.join(', ')}`);
    return;
  }
  let id: string;
  try {
    id = createContext(
      { [CONTEXT_FIELDS.contextData]: { [K.username]: user, [K.url]: [target] } },
      { state: ctx.state, token, nowSeconds: Math.floor(ctx.now() / 1000) },
    ).id;
  } catch (error) {
    if (error instanceof CommandError) {
      sendText(res, 400, error.message);
      return;
    }
    throw error;
  }
  const launchUrl = launchUrlFor(ctx.launchBase(), id);
  if (response === 'redirect') sendText(res, 302, launchUrl, { location: launchUrl });
  else sendText(res, 200, response === 'url' ? launchUrl : id);
}

function missingFields(form: FormData, names: readonly string[], fileField?: string): string[] {
  return names.filter((name) => {
    const value = form.get(name);
    if (name === fileField) return !(value instanceof Blob);
    return typeof value !== 'string' || value === '';
  });
}

function formString(form: FormData, name: string): string | null {
  const value = form.get(name);
  return typeof value === 'string' && value !== '' ? value : null;
}

function checkFileForm(ctx: ServerContext, incoming: Incoming, required: readonly string[], authField: string, fileField?: string): FormData | null {
  const { res, form } = incoming;
  if (mediaType(incoming.req.headers['content-type']) !== 'multipart/form-data') {
    sendText(res, 415, 'Content-Type must be multipart/form-data');
    return null;
  }
  if (!form) {
    sendText(res, 400, 'malformed multipart/form-data body');
    return null;
  }
  const missing = missingFields(form, required, fileField);
  if (missing.length > 0) {
    sendText(res, 400, `missing field${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}`);
    return null;
  }
  const auth = formString(form, authField);
  if (auth === null || !ctx.state.fileTokens.has(auth)) {
    sendText(res, 403, 'invalid file token');
    return null;
  }
  return form;
}

function handleGetFile(ctx: ServerContext, incoming: Incoming): void {
  const G = FILE_FIELDS.get;
  const form = checkFileForm(ctx, incoming, [G.id, G.auth], G.auth);
  if (!form) return;
  const file = ctx.state.files.get(formString(form, G.id) ?? '');
  if (!file) {
    sendText(incoming.res, 404, 'file not found');
    return;
  }
  send(
    incoming.res,
    200,
    {
      'content-type': 'application/octet-stream',
      'content-length': String(file.bytes.byteLength),
      'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent(file.name)}`,
    },
    file.bytes,
  );
}

async function handlePutFile(ctx: ServerContext, incoming: Incoming): Promise<void> {
  const P = FILE_FIELDS.put;
  const form = checkFileForm(ctx, incoming, [P.auth, P.bucketId, P.name, P.file], P.auth, P.file);
  if (!form) return;
  const file = form.get(P.file);
  if (!(file instanceof Blob)) return; // checked above
  const record = putFile(
    ctx.state,
    {
      bucketId: formString(form, P.bucketId) ?? '',
      name: formString(form, P.name) ?? '',
      path: formString(form, P.path),
      contentType: formString(form, P.contentType) ?? (file.type === '' ? null : file.type),
      bytes: new Uint8Array(await file.arrayBuffer()),
    },
    Math.floor(ctx.now() / 1000),
  );
  const reply = { [FILE_FIELDS.putResultKey]: record.id };
  if (incoming.faulted && ctx.faults.malformedJson) {
    send(incoming.res, 200, { 'content-type': 'application/json' }, spoilJson(reply));
    return;
  }
  sendJson(incoming.res, 200, reply);
}

const INDEX_TEXT = [
  'Browser isolation service simulator.',
  `POST ${ENDPOINTS.api}  GET ${LAUNCH.path}?${LAUNCH.param}=  GET ${ENDPOINTS.shortcut}  POST ${ENDPOINTS.getFile}  POST ${ENDPOINTS.putFile}`,
  `Faults: GET/POST/DELETE ${CONTROL_PATHS.faults}; reset: POST ${CONTROL_PATHS.reset}`,
  '',
].join('\n');

function handleIndex(_ctx: ServerContext, { res }: Incoming): void {
  sendText(res, 200, INDEX_TEXT);
}

interface Route {
  readonly methods: readonly string[];
  readonly scope: FaultScope | null;
  readonly limit: number;
  readonly handle: (ctx: ServerContext, incoming: Incoming) => void | Promise<void>;
}

const ROUTES: ReadonlyMap<string, Route> = new Map<string, Route>([
  [ENDPOINTS.api, { methods: ['POST'], scope: 'api', limit: BODY_LIMITS.api, handle: handleApi }],
  [LAUNCH.path, { methods: ['GET'], scope: 'launch', limit: BODY_LIMITS.api, handle: handleLaunch }],
  [ENDPOINTS.shortcut, { methods: ['GET'], scope: 'ctx', limit: BODY_LIMITS.api, handle: handleShortcut }],
  [ENDPOINTS.getFile, { methods: ['POST'], scope: 'getfile', limit: BODY_LIMITS.files, handle: handleGetFile }],
  [ENDPOINTS.putFile, { methods: ['POST'], scope: 'putfile', limit: BODY_LIMITS.files, handle: handlePutFile }],
  ['/', { methods: ['GET'], scope: null, limit: BODY_LIMITS.api, handle: handleIndex }],
]);

// ---------------------------------------------------------------------------------
// Control paths

async function handleControl(ctx: ServerContext, req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
  const method = req.method ?? 'GET';
  if (path === CONTROL_PATHS.faults) {
    if (method === 'GET') {
      sendJson(res, 200, ctx.faults.snapshot());
    } else if (method === 'DELETE') {
      ctx.faults.clear();
      sendJson(res, 200, ctx.faults.snapshot());
    } else if (method === 'POST') {
      const raw = await readBody(req, BODY_LIMITS.control);
      if (raw === null) {
        sendJson(res, 413, { error: 'body too large' });
        return;
      }
      try {
        const patch: unknown = JSON.parse(raw.toString('utf8'));
        if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) throw new FaultSettingsError('expected a JSON object');
        ctx.faults.set(patch);
      } catch (error) {
        const message = error instanceof FaultSettingsError ? error.message : 'the body is not valid JSON';
        sendJson(res, 400, { error: message });
        return;
      }
      sendJson(res, 200, ctx.faults.snapshot());
    } else {
      sendText(res, 405, 'method not allowed', { allow: 'GET, POST, DELETE' });
    }
    return;
  }
  if (path === CONTROL_PATHS.reset) {
    if (method !== 'POST') {
      sendText(res, 405, 'method not allowed', { allow: 'POST' });
      return;
    }
    ctx.reset();
    send(res, 204, {});
    return;
  }
  sendText(res, 404, 'not found');
}

// ---------------------------------------------------------------------------------

async function handle(ctx: ServerContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://simulator.invalid');
  if (url.pathname.startsWith(CONTROL_PREFIX)) {
    await handleControl(ctx, req, res, url.pathname);
    return;
  }
  const method = req.method ?? 'GET';
  const record: RecordedRequest = {
    method,
    path: url.pathname,
    query: firstValues(url.searchParams),
    headers: headerRecord(req),
    body: '',
    at: ctx.now(),
    status: null,
  };
  ctx.requests.push(record);
  res.on('finish', () => {
    record.status = res.statusCode;
  });

  const route = ROUTES.get(url.pathname);
  if (!route) {
    sendText(res, 404, 'not found');
    return;
  }
  if (!route.methods.includes(method)) {
    sendText(res, 405, 'method not allowed', { allow: route.methods.join(', ') });
    return;
  }
  const raw = await readBody(req, route.limit);
  if (raw === null) {
    record.body = `[body over ${route.limit} bytes, not recorded]`;
    sendText(res, 413, `request body over ${route.limit} bytes`, { connection: 'close' });
    return;
  }
  const contentType = req.headers['content-type'] ?? '';
  const form = mediaType(contentType) === 'multipart/form-data' ? await parseMultipart(raw, contentType) : null;
  record.body = form ? recordForm(form) : raw.toString('utf8');

  const faulted = route.scope !== null && ctx.faults.appliesTo(route.scope);
  if (faulted && (await applyTransportFaults(ctx, req, res))) return;
  await route.handle(ctx, { req, res, url, raw, form, faulted });
}

export function createRequestListener(ctx: ServerContext): RequestListener {
  return (req, res) => {
    handle(ctx, req, res).catch((error: unknown) => {
      if (res.headersSent || res.destroyed) {
        res.destroy();
        return;
      }
      sendText(res, 500, `simulator failure: ${error instanceof Error ? error.message : String(error)}`);
    });
  };
}
