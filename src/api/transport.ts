/**
 * The one module that calls `fetch`. It adds setauth, enforces the request options a
 * token-bearing request needs, applies the timeout and the caller's AbortSignal,
 * checks the reply's shape and turns every failure into a typed error.
 */
import { AuthError, HttpError, NetworkError, ProtocolError, TimeoutError, sanitizeServiceText } from '../service/errors';
import { MAX_TOKEN_LENGTH } from '../service/values';
import { COMMAND_ID, COMMANDS, ENDPOINTS, READ_ONLY_COMMANDS, classifyServiceError } from '../service/wire';

/** The admin token, or a function that returns it (called once per request). */
export type TokenSource = string | (() => string | Promise<string>);

/** A command as sent: its name and flat parameters. */
export interface WireCommand {
  readonly command: string;
  readonly [key: string]: unknown;
}

/** One answered command: a result, or the service's (sanitised) error text. */
export type Slot =
  { readonly ok: true; readonly result: unknown } | { readonly ok: false; readonly error: string; readonly kind: 'not_found' | 'no_org' | 'other' };

/** Per-call options of every client method. */
export interface CallOptions {
  /** Aborts the request; the promise rejects with the signal's reason. */
  readonly signal?: AbortSignal;
  /** Overrides the client's timeout for this call. */
  readonly timeoutMs?: number;
}

export interface TransportConfig {
  readonly baseUrl: string;
  readonly token: TokenSource;
  readonly fetch: typeof fetch;
  readonly timeoutMs: number;
}

/** Replies larger than this are refused rather than read into memory. */
const MAX_REPLY_BYTES = 16 * 1024 * 1024;
/** Read-only commands are retried at most this many times on network errors, 429 and 5xx. */
export const MAX_RETRIES = 2;
const RETRY_DELAY_MS = 250;

/** The fetch options every request carries: no redirects (a 307/308 would replay the token), no cookies, no cache, no referrer. */
export const REQUEST_INIT = {
  redirect: 'error',
  credentials: 'omit',
  cache: 'no-store',
  referrerPolicy: 'no-referrer',
} as const satisfies RequestInit;

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason as Error);
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

async function readCapped(response: Response, limit: number): Promise<Uint8Array> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) throw new ProtocolError('replyTooLarge', String(limit));
  if (!response.body) return new Uint8Array(await response.arrayBuffer());
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel();
      throw new ProtocolError('replyTooLarge', String(limit));
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An AuthError that keeps the service's own words (sanitised), when it gave any. */
function authErrorOf(raw: unknown, token: string): AuthError {
  const words = typeof raw === 'string' ? sanitizeServiceText(raw, [token]) : '';
  return words === '' ? new AuthError() : new AuthError('authRejectedSaying', words);
}

export class Transport {
  readonly #config: TransportConfig;
  readonly #origin: string;

  constructor(config: TransportConfig) {
    this.#config = config;
    this.#origin = new URL(config.baseUrl).host;
  }

  /** The token, checked; an AuthError when none is set. Never logged, never put in an error. */
  async resolveToken(): Promise<string> {
    const source = this.#config.token;
    const token = typeof source === 'function' ? await source() : source;
    if (typeof token !== 'string' || token.trim().length === 0) {
      throw new AuthError('authNoToken');
    }
    // eslint-disable-next-line no-control-regex -- a token with control characters is malformed
    if (token.length > MAX_TOKEN_LENGTH || /[\u0000-\u001f\u007f]/.test(token)) {
      throw new AuthError('authMalformedToken');
    }
    return token;
  }

  /**
   * Sends commands in one request (setauth first) and returns one slot per command, in
   * the commands' order, matched by command_id. Read-only batches are retried.
   */
  async postCommands(commands: readonly WireCommand[], options: CallOptions = {}): Promise<Slot[]> {
    const token = await this.resolveToken();
    const withIds = commands.map((command, index) => ({ ...command, [COMMAND_ID]: `c${index + 1}` }));
    const body = JSON.stringify([{ command: COMMANDS.setauth, data: token }, ...withIds]);
    const readOnly = commands.every((command) => READ_ONLY_COMMANDS.has(command.command));
    const text = await this.#withRetry(readOnly, options, async () => {
      const response = await this.#fetch(
        ENDPOINTS.api,
        { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json' }, body },
        options,
        token,
      );
      return new TextDecoder().decode(response.bytes);
    });
    return this.#parseSlots(text, withIds, token);
  }

  /** Posts a multipart form to a file endpoint; returns the reply bytes and content type. Never retried. */
  async postForm(path: string, form: FormData, options: CallOptions, secret: string): Promise<{ bytes: Uint8Array; contentType: string }> {
    const response = await this.#fetch(path, { method: 'POST', body: form }, options, secret);
    return { bytes: response.bytes, contentType: response.contentType };
  }

  async #withRetry<T>(retry: boolean, options: CallOptions, attempt: () => Promise<T>): Promise<T> {
    for (let tries = 0; ; tries += 1) {
      try {
        return await attempt();
      } catch (error) {
        const retriable = error instanceof NetworkError || (error instanceof HttpError && (error.status === 429 || error.status >= 500));
        if (!retry || !retriable || tries >= MAX_RETRIES) throw error;
        await sleep(RETRY_DELAY_MS * (tries + 1), options.signal);
      }
    }
  }

  async #fetch(path: string, init: RequestInit, options: CallOptions, secret: string): Promise<{ bytes: Uint8Array; contentType: string }> {
    const timeoutMs = options.timeoutMs ?? this.#config.timeoutMs;
    const callerSignal = options.signal;
    if (callerSignal?.aborted) throw callerSignal.reason;
    const controller = new AbortController();
    const timeoutReason = new Error('timeout');
    const timer = setTimeout(() => {
      controller.abort(timeoutReason);
    }, timeoutMs);
    const onCallerAbort = (): void => {
      controller.abort(callerSignal?.reason);
    };
    callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
    try {
      const response = await this.#config.fetch(this.#config.baseUrl + path, {
        ...init,
        ...REQUEST_INIT,
        signal: controller.signal,
      });
      const bytes = await readCapped(response, MAX_REPLY_BYTES);
      const contentType = response.headers.get('content-type') ?? '';
      if (response.status === 401 || response.status === 403) {
        throw new AuthError('authRefusedHttp', response.status);
      }
      if (!response.ok) {
        const snippet = contentType.includes('html') ? '' : sanitizeServiceText(new TextDecoder().decode(bytes), [secret]);
        throw new HttpError(response.status, snippet);
      }
      return { bytes, contentType };
    } catch (error) {
      if (controller.signal.reason === timeoutReason) throw new TimeoutError(timeoutMs);
      if (callerSignal?.aborted) throw callerSignal.reason;
      if (error instanceof AuthError || error instanceof HttpError || error instanceof ProtocolError) throw error;
      const name = error instanceof Error ? error.name : 'Error';
      const message = error instanceof Error ? sanitizeServiceText(error.message, [secret]) : '';
      throw new NetworkError(this.#origin, { name, message });
    } finally {
      clearTimeout(timer);
      callerSignal?.removeEventListener('abort', onCallerAbort);
    }
  }

  #parseSlots(text: string, commands: readonly WireCommand[], token: string): Slot[] {
    let reply: unknown;
    try {
      reply = JSON.parse(text);
    } catch {
      throw new ProtocolError('replyNotJson');
    }
    if (!Array.isArray(reply)) throw new ProtocolError('replyNotArray');
    if (reply.length !== commands.length + 1) {
      throw new ProtocolError('replySlotCount', String(reply.length), String(commands.length + 1));
    }
    const [ack, ...rest] = reply as unknown[];
    if (!isRecord(ack)) throw new ProtocolError('replyBadSetauth');
    if (Object.hasOwn(ack, 'error')) throw authErrorOf(ack['error'], token);
    // Slots answer the commands by position, as the service documents. A slot that carries
    // a command_id must carry its own command's; one that carries none is not an error.
    return commands.map((command, index) => {
      const slot = rest[index];
      if (!isRecord(slot)) throw new ProtocolError('replySlotNotObject');
      if (Object.hasOwn(slot, COMMAND_ID) && slot[COMMAND_ID] !== command[COMMAND_ID]) throw new ProtocolError('replySlotIdMismatch', String(index + 1));
      const hasResult = Object.hasOwn(slot, 'result');
      const hasError = Object.hasOwn(slot, 'error');
      if (hasResult === hasError) throw new ProtocolError('replySlotNoOutcome');
      if (hasResult) return { ok: true, result: slot['result'] };
      const raw = slot['error'];
      if (typeof raw !== 'string') throw new ProtocolError('replyErrorNotText');
      const kind = classifyServiceError(raw);
      if (kind === 'auth') throw authErrorOf(raw, token);
      return { ok: false, error: sanitizeServiceText(raw, [token]), kind };
    });
  }
}
