/**
 * The one protocol between the extension's pages (popup, options, reported mail) and the background.
 *
 * Each message is `{ type, data }`; `PROTOCOL` holds, per type, how to build the zod
 * schema of its `data` (see messageSchema) and which pages may send it. The background's router validates every message
 * against it; `ProtocolMap` gives both sides their types. Replies are
 * `{ ok: true, value }` or `{ ok: false, error }`: errors cross as data and are rethrown
 * on the page's side.
 */
import * as z from 'zod/mini';
import type { ContextDetails, DeleteProxiesResult, ProxyChangeResult, ProxyListResult } from '../api';
import type { Reason } from '../autoisolate';
import type { RecentContext } from '../settings/recent';
import type { SettingKey, Settings } from '../settings/schema';
import type { ImportPreview, SettingsView } from '../settings/store';
import { once } from '../service/once';
import { MAX_TOKEN_LENGTH } from '../service/values';
import { MAX_IMPORT_LENGTH } from '../settings/limits';
import { MAX_BULK_URLS, MAX_CONTEXT_NAME_LENGTH, MAX_FILE_BYTES } from './limits';

// The zod-free limits live in ./limits (the pages import them from there).

export type PageName = 'popup' | 'options' | 'mail' | 'isolate';

/** What a page may know of the configuration: never the token. */
export interface Status {
  /** Service URL, identity and token are all set, and the service origin may be reached. */
  readonly configured: boolean;
  /** The service's host, for the status line; null when unset. */
  readonly serviceHost: string | null;
  readonly serviceOrigin: string | null;
  readonly hasToken: boolean;
  readonly tokenSource: 'managed' | 'session' | 'local' | null;
  /** The extension may reach the service origin (host permission granted or loopback). */
  readonly hostPermission: boolean;
  /** "analyst@acme.example" or "org acme/soc"; null when unset. */
  readonly identity: string | null;
  /** What is missing, in words, with what to do. */
  readonly problems: string[];
}

/** An error as it crosses the message boundary. */
export interface WireError {
  readonly name: string;
  readonly message: string;
  /** For validation errors: the field. */
  readonly field?: string;
}

export type Reply<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: WireError };

const MAX_TEXT = 64 * 1024;
const text = (max = 2048) => z.string().check(z.maxLength(max));
const id = () => z.string().check(z.minLength(1), z.maxLength(256));
const orgName = () => z.string().check(z.minLength(1), z.maxLength(512));

const researchChoice = () =>
  z.strictObject({
    egressRegion: text(128),
    browserProfile: z.nullable(
      z.strictObject({
        os: text(16),
        browser: text(16),
        timezone: text(64),
        languages: text(512),
      }),
    ),
    availability: z.array(text(64)).check(z.maxLength(16)),
    connectivity: z.array(text(64)).check(z.maxLength(16)),
  });

/** Quick policy toggles of the popup; unset leaves the default policy alone. */
const toggles = () =>
  z.strictObject({
    readonly: z.optional(z.boolean()),
    fileTransfer: z.optional(z.enum(['block_all', 'allow_all'])),
    clipboard: z.optional(z.enum(['block_all', 'allow_all'])),
  });

const wrapped = () => z.optional(z.enum(['unwrap', 'keep']));

const proxyList = () => z.array(z.unknown()).check(z.maxLength(1000));

/** Every message: its data schema and the pages that may send it. */
export const PROTOCOL = {
  getStatus: { pages: ['popup', 'options', 'mail'], data: once(() => z.strictObject({})) },
  getSettings: { pages: ['popup', 'options', 'mail'], data: once(() => z.strictObject({})) },
  saveSettings: { pages: ['options'], data: once(() => z.strictObject({ patch: z.record(z.string(), z.unknown()) })) },
  setToken: { pages: ['options'], data: once(() => z.strictObject({ token: text(MAX_TOKEN_LENGTH), remember: z.boolean() })) },
  setRemember: { pages: ['options'], data: once(() => z.strictObject({ remember: z.boolean() })) },
  clearToken: { pages: ['options'], data: once(() => z.strictObject({})) },
  testConnection: { pages: ['options'], data: once(() => z.strictObject({})) },
  isolate: {
    pages: ['popup'],
    data: once(() =>
      z.strictObject({
        /** As typed or pasted: may be defanged. */
        url: text(MAX_TEXT),
        session: z.enum(['standard', 'research']),
        research: z.optional(researchChoice()),
        toggles: z.optional(toggles()),
        /** The analyst's answer about a wrapped link, where the settings ask (else ignored). */
        wrapped: wrapped(),
      }),
    ),
  },
  /**
   * The landing page (isolate.html): the fragment a rule sent it with. The background checks
   * it against the rules installed and isolates the target (or, asking first, says what it is
   * until `go`).
   */
  landed: { pages: ['isolate'], data: once(() => z.strictObject({ hash: text(MAX_TEXT + 256), go: z.boolean() })) },
  isolateCurrentTab: {
    pages: ['popup'],
    data: once(() => z.strictObject({ session: z.enum(['standard', 'research']), research: z.optional(researchChoice()), toggles: z.optional(toggles()) })),
  },
  research: { pages: ['popup'], data: once(() => z.strictObject({ research: researchChoice(), toggles: z.optional(toggles()) })) },
  bulkCreate: {
    pages: ['popup', 'mail'],
    data: once(() => z.strictObject({ urls: z.array(text(MAX_TEXT)).check(z.minLength(1), z.maxLength(MAX_BULK_URLS)), wrapped: wrapped() })),
  },
  openContexts: { pages: ['popup', 'mail'], data: once(() => z.strictObject({ ids: z.array(id()).check(z.minLength(1), z.maxLength(500)) })) },
  listRecent: { pages: ['popup'], data: once(() => z.strictObject({})) },
  contextDetails: { pages: ['popup'], data: once(() => z.strictObject({ id: id() })) },
  updateContext: {
    pages: ['popup'],
    data: once(() => z.strictObject({ id: id(), enabled: z.optional(z.boolean()), name: z.optional(text(MAX_CONTEXT_NAME_LENGTH)) })),
  },
  deleteContext: { pages: ['popup'], data: once(() => z.strictObject({ id: id() })) },
  getProxies: { pages: ['options'], data: once(() => z.strictObject({ org: orgName() })) },
  addProxies: { pages: ['options'], data: once(() => z.strictObject({ org: orgName(), proxies: proxyList() })) },
  setProxies: { pages: ['options'], data: once(() => z.strictObject({ org: orgName(), proxies: proxyList() })) },
  deleteProxies: {
    pages: ['options'],
    data: once(() => z.strictObject({ org: orgName(), names: z.array(orgName()).check(z.minLength(1), z.maxLength(1000)) })),
  },
  putFile: {
    pages: ['options'],
    data: once(() =>
      z.strictObject({
        name: z.string().check(z.minLength(1), z.maxLength(1024)),
        path: z.optional(text(1024)),
        bucketId: z.string().check(z.minLength(1), z.maxLength(1024)),
        fileToken: z.string().check(z.minLength(1), z.maxLength(MAX_TOKEN_LENGTH)),
        /** The file's bytes, base64 (messages carry JSON only). */
        base64: z.string().check(z.maxLength(Math.ceil(MAX_FILE_BYTES / 3) * 4)),
        contentType: z.optional(text(256)),
      }),
    ),
  },
  getFile: {
    pages: ['options'],
    data: once(() =>
      z.strictObject({
        id: z.string().check(z.minLength(1), z.maxLength(1024)),
        fileToken: z.string().check(z.minLength(1), z.maxLength(MAX_TOKEN_LENGTH)),
      }),
    ),
  },
  exportSettings: { pages: ['options'], data: once(() => z.strictObject({})) },
  previewImport: { pages: ['options'], data: once(() => z.strictObject({ json: text(MAX_IMPORT_LENGTH) })) },
  importSettings: {
    pages: ['options'],
    data: once(() =>
      z.strictObject({
        json: text(MAX_IMPORT_LENGTH),
        /** The file's service and launch URLs as the analyst saw them in the preview. */
        confirmed: z.strictObject({ serviceUrl: text(), launchUrl: text() }),
      }),
    ),
  },
} as const satisfies Record<string, { pages: readonly PageName[]; data: () => z.ZodMiniType }>;

export type MessageType = keyof typeof PROTOCOL;
export type MessageData<K extends MessageType> = z.infer<ReturnType<(typeof PROTOCOL)[K]['data']>>;

/**
 * The data schema of a message type, built on its first message (see once): a worker woken
 * by a menu click builds none of the pages' schemas before the click is answered.
 */
export function messageSchema<K extends MessageType>(type: K): ReturnType<(typeof PROTOCOL)[K]['data']> {
  return PROTOCOL[type].data() as ReturnType<(typeof PROTOCOL)[K]['data']>;
}

export interface IsolateResult {
  readonly launchUrl: string;
  readonly context: RecentContext;
}

export interface BulkResult {
  readonly created: RecentContext[];
  readonly failures: { readonly url: string; readonly error: string }[];
}

export interface ContextView {
  readonly id: string;
  readonly name: string;
  readonly enabled: boolean;
  readonly useCount: number | null;
  readonly maxUses: number | null;
  /** max_uses - use_count, or null when either is unknown. */
  readonly usesLeft: number | null;
  /** Epoch seconds. */
  readonly expires: number | null;
  readonly created: number | null;
}

interface ConnectionResult {
  /** Words for the analyst: what was checked and what came back. */
  readonly message: string;
}

/** A navigation the rules stopped, as the background found it (see src/background/rules.ts). */
export type Landed =
  /** The installed rules did not send this: nothing was done. */
  | { readonly kind: 'refused' }
  | ({ readonly url: string; readonly host: string; readonly reason: Reason } & (
      | { readonly kind: 'ask'; readonly local: boolean }
      | { readonly kind: 'opened'; readonly launchUrl: string }
      | { readonly kind: 'failed'; readonly error: string }
    ));

/** The reply value of each message. */
export interface ProtocolValues {
  getStatus: Status;
  getSettings: SettingsView;
  saveSettings: SettingsView;
  setToken: Status;
  setRemember: Status;
  clearToken: Status;
  testConnection: ConnectionResult;
  isolate: IsolateResult;
  isolateCurrentTab: IsolateResult;
  landed: Landed;
  research: IsolateResult;
  bulkCreate: BulkResult;
  openContexts: { readonly opened: number };
  listRecent: RecentContext[];
  contextDetails: ContextView;
  updateContext: ContextView;
  deleteContext: { readonly deleted: boolean };
  getProxies: ProxyListResult;
  addProxies: ProxyChangeResult;
  setProxies: ProxyChangeResult;
  deleteProxies: DeleteProxiesResult;
  putFile: { readonly fileId: string };
  getFile: { readonly base64: string; readonly size: number };
  exportSettings: { readonly json: string };
  previewImport: ImportPreview;
  importSettings: SettingsView;
}

/** Helpers for the compile-time link between ContextDetails and ContextView. */
export function contextView(details: ContextDetails): ContextView {
  const useCount = typeof details.use_count === 'number' ? details.use_count : null;
  const maxUses = typeof details.max_uses === 'number' ? details.max_uses : null;
  return {
    id: details.browse_context_id,
    name: typeof details.name === 'string' ? details.name : '',
    enabled: details.enabled ?? true,
    useCount,
    maxUses,
    usesLeft: useCount !== null && maxUses !== null ? Math.max(0, maxUses - useCount) : null,
    expires: typeof details.expires === 'number' ? details.expires : null,
    created: typeof details.created === 'number' ? details.created : null,
  };
}

export type { ImportPreview, RecentContext, SettingKey, Settings, SettingsView };
