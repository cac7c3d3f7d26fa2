/**
 * The client's options, parameters and results that are not the service's own shapes
 * (those are in ./params and ./results): what callers of the client pass and get back.
 */
import type { ApiError, ApiErrorCode } from '../service/errors';
import type { CreateContextParams, ProxyWarning } from './params';
import type { CreatedContext, ProxyRecord } from './results';
import type { LaunchUrl } from '../service/launch';
import type { CheckedUrl } from '../net/url';
import type { TokenSource } from './transport';

/** How createClient reaches the service: its base, the launch base and the admin token. */
export interface ClientOptions {
  /** The service's base URL (https, or http on loopback); `/api/` and the file endpoints sit below it. */
  readonly baseUrl: string;
  /** Where launch URLs point: `{launchBase}/launch?ctx=<id>`. */
  readonly launchBase: string;
  /** The admin token, or a function returning it (read once per request). */
  readonly token: TokenSource;
  /** A fetch implementation; defaults to the global one. */
  readonly fetch?: typeof fetch;
  /** Per-request time limit in ms; default 15 000. */
  readonly timeoutMs?: number;
}

/** The per-request time limit when ClientOptions.timeoutMs is not given: 15 s, under MV3's 30 s cut-off for a fetch from a service worker. */
export const DEFAULT_TIMEOUT_MS = 15_000;
/** Creations per request in bulk: 50 URLs take one request. */
export const BULK_BATCH_SIZE = 50;
/** Most URLs one bulk creation takes. */
export const BULK_MAX_URLS = 500;

/** The parameters of createResearchContext: a username and an egress location are required. */
export type ResearchContextParams = Omit<CreateContextParams, 'org' | 'session_type' | 'restrict_client_ips'> & {
  readonly username: string;
  readonly egress_region: string;
};

/** The parameters of bulkCreateContexts: create_context's, with a list of URLs in place of one. */
export type BulkCreateParams = Omit<CreateContextParams, 'url'> & { readonly urls: readonly (string | CheckedUrl)[] };

/** One context bulkCreateContexts created: its id, its URL, its position in the input and its launch URL. */
export interface BulkCreated extends CreatedContext {
  readonly index: number;
  readonly url: string;
  /** Checked against the client's launch base. */
  readonly launch_url: LaunchUrl;
}

/** One URL bulkCreateContexts could not create a context for, and why. */
export interface BulkFailure {
  /** Position of the URL in the input. */
  readonly index: number;
  readonly url: string;
  /** What went wrong, in English. */
  readonly error: string;
  /** The error class's name. */
  readonly kind: ApiError['name'];
  /** What went wrong as data: the error's code and params (see ApiError). */
  readonly code: ApiErrorCode;
  readonly params: readonly string[];
}

/** What bulkCreateContexts returns: the launch URLs, the created contexts and the failures, each in input order. */
export interface BulkCreateResult {
  /** Launch URLs of the successful creations, in input order. */
  readonly context_urls: string[];
  /** The successful creations with their ids, in input order. */
  readonly created: BulkCreated[];
  /** One entry per URL that failed, in input order. */
  readonly failures: BulkFailure[];
}

/** What getProxies returns: the org's proxies (inherited ones marked) and, when asked for, its proxy policy. */
export interface ProxyListResult {
  readonly proxies: ProxyRecord[];
  readonly proxy_policy?: unknown;
}

/** What setProxies and addProxies return. */
export interface ProxyChangeResult {
  /** The org's own proxy list after the change. */
  readonly proxies: ProxyRecord[];
  /** Warnings about the proxies sent (certificate names, missing authentication). */
  readonly warnings: ProxyWarning[];
}

/** The parameters of putFile: the bytes, their name and bucket, and the file token. */
export interface PutFileParams {
  readonly file: Blob | ArrayBuffer | Uint8Array;
  readonly name: string;
  readonly path?: string;
  readonly bucket_id: string;
  readonly file_token: string;
  readonly content_type?: string;
}
