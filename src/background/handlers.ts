/**
 * The background's answers to the pages' messages, one handler per message type of
 * the protocol. Data arrives already validated by the router.
 */
import { isCommandError, type ProxyChangeResult } from '../api';
import { t } from '../i18n';
import { proxyWarningText } from '../i18n/errors';
import type { IsolateResult, MessageData, MessageType, ProtocolValues } from '../messaging/protocol';
import { contextView } from '../messaging/protocol';
import { settingShapes } from '../settings/schema';
import { linkInText } from '../resolve';
import { createMany, isolate, openLaunchUrls, research, type AskOutcome, type IsolateOutcome, type IsolateRequest, type ResearchChoice } from './actions';
import { connect, readStatus, serviceOrigin } from './connection';
import { describeFailure, RefusedUrlError, RequestRefusedError } from './failures';
import { landed } from './rules';
import type { Deps, Store } from './deps';

export type Handlers = { [K in MessageType]: (data: MessageData<K>) => Promise<ProtocolValues[K]> };

/** An id that no context has: get_context on it proves the token without side effects. */
const PROBE_ID = 'isolink-connection-check';

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  const chunk = 0x8000;
  for (let i = 0; i < bytes.length; i += chunk) binary += String.fromCharCode(...bytes.subarray(i, i + chunk));
  return btoa(binary);
}

function fromBase64(text: string): Uint8Array {
  let binary: string;
  try {
    binary = atob(text);
  } catch {
    throw new RequestRefusedError('errorBadFileData');
  }
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) out[i] = binary.charCodeAt(i);
  return out;
}

function researchChoice(value: unknown): ResearchChoice | undefined {
  if (value === undefined) return undefined;
  const parsed = settingShapes.research.safeParse(value);
  if (!parsed.success) throw new RequestRefusedError('errorBadResearch');
  return parsed.data;
}

/** A proxy change as the options page shows it: the warnings in the analyst's words (the client's are English). */
function translatedWarnings(result: ProxyChangeResult): ProxyChangeResult {
  return { ...result, warnings: result.warnings.map((warning) => ({ ...warning, message: proxyWarningText(warning) })) };
}

/**
 * A popup isolation: the popup shows the choice about a wrapped link itself, so the
 * background never asks; with no answer, the real target (the choice shown first).
 */
async function isolateFromPopup(deps: Deps, request: IsolateRequest): Promise<IsolateResult> {
  const wrapped = request.wrapped ?? 'unwrap';
  const outcome = await deps.inFlight.run(`popup ${request.session} ${wrapped} ${request.link}`, () => isolate(deps, { ...request, wrapped }));
  // Never the case with an answer given; a type guard, not a path.
  if (isAsk(outcome)) throw new RequestRefusedError('errorSomethingWrong');
  // Only data crosses to the page (a URL object does not survive the message).
  return { launchUrl: outcome.launchUrl, context: outcome.context };
}

function isAsk(outcome: IsolateOutcome | AskOutcome): outcome is AskOutcome {
  return 'ask' in outcome;
}

/**
 * Puts the user's token where the "remember" in force says: out of storage.local at once
 * when it is off, whoever turned it off (an imported file, the organisation's policy).
 */
export async function followRemember(store: Pick<Store, 'readSettings' | 'moveToken'>): Promise<void> {
  await store.moveToken((await store.readSettings()).settings.rememberToken);
}

/** Runs a popup isolation; a failure is also notified, since the popup may be closed by then. */
async function withNotice<T>(deps: Deps, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    await deps.browser.notifier.failure(describeFailure(error));
    throw error;
  }
}

export function createHandlers(deps: Deps): Handlers {
  const client = async () => (await connect(deps)).client;
  return {
    getStatus: () => readStatus(deps),
    getSettings: () => deps.store.readSettings(),
    saveSettings: async ({ patch }) => {
      const view = await deps.store.saveSettings(patch);
      if (Object.hasOwn(patch, 'rememberToken')) await deps.store.moveToken(view.settings.rememberToken);
      return view;
    },
    setToken: async ({ token, remember }) => {
      const { tokenManaged, locked, settings } = await deps.store.readSettings();
      if (tokenManaged) throw new RequestRefusedError('errorTokenManaged');
      // The token is bound to the service it is entered for: it is sent nowhere else.
      const origin = serviceOrigin(settings);
      if (origin === null) throw new RequestRefusedError('errorTokenNeedsService');
      // A "remember" the organisation set wins over the page's choice.
      const keep = locked.includes('rememberToken') ? settings.rememberToken : remember;
      await deps.store.writeToken(token, keep, origin);
      if (!locked.includes('rememberToken')) await deps.store.saveSettings({ rememberToken: keep });
      return readStatus(deps);
    },
    setRemember: async ({ remember }) => {
      await deps.store.saveSettings({ rememberToken: remember });
      await deps.store.moveToken(remember);
      return readStatus(deps);
    },
    clearToken: async () => {
      await deps.store.clearToken();
      return readStatus(deps);
    },
    testConnection: async () => {
      const connection = await connect(deps);
      const host = new URL(connection.settings.serviceUrl).host;
      if (connection.settings.org !== '') {
        await connection.client.getOrg(connection.settings.org);
        return { message: t('connectionOkOrg', [host, connection.settings.org]) };
      }
      try {
        await connection.client.getContext(PROBE_ID);
      } catch (error) {
        // The probe id does not exist: a "not found" answer proves the token was accepted.
        if (isCommandError(error) && error.kind === 'not_found') return { message: t('connectionOk', host) };
        throw error;
      }
      return { message: t('connectionOk', host) };
    },
    isolate: ({ url, session, research: choice, toggles, wrapped }) =>
      withNotice(deps, async () => {
        const source = await deps.browser.activeTab();
        return isolateFromPopup(deps, { link: linkInText(url), session, research: researchChoice(choice), toggles, source, wrapped });
      }),
    isolateCurrentTab: ({ session, research: choice, toggles }) =>
      withNotice(deps, async () => {
        const tab = await deps.browser.activeTab();
        if (!tab?.url) throw new RefusedUrlError('errorNoTabUrl');
        return isolateFromPopup(deps, { link: tab.url, session, research: researchChoice(choice), toggles, source: tab });
      }),
    research: ({ research: choice, toggles }) =>
      withNotice(deps, async () => research(deps, { research: researchChoice(choice), toggles, source: await deps.browser.activeTab() })),
    landed: ({ hash, go }) => landed(deps, hash, go),
    // The same list again while it is being created (a double click on Create all): joined.
    bulkCreate: ({ urls, wrapped }) => deps.inFlight.run(`bulk ${wrapped ?? ''} ${urls.join(' ')}`, () => createMany(deps, urls, wrapped)),
    openContexts: async ({ ids }) => {
      const recent = await deps.store.listRecent();
      const byId = new Map(recent.map((entry) => [entry.id, entry.launchUrl]));
      const urls = ids.flatMap((id) => byId.get(id) ?? []);
      return { opened: await openLaunchUrls(deps, urls, await deps.browser.activeTab()) };
    },
    listRecent: () => deps.store.listRecent(),
    contextDetails: async ({ id }) => contextView(await (await client()).getContext(id)),
    updateContext: async ({ id, enabled, name }) => {
      const changes = { ...(enabled === undefined ? {} : { enabled }), ...(name === undefined ? {} : { name }) };
      const details = await (await client()).updateContext(id, changes);
      if (name !== undefined) await deps.store.updateRecent(id, { name });
      return contextView(details);
    },
    deleteContext: async ({ id }) => {
      const deleted = await (await client()).deleteContext(id);
      await deps.store.removeRecent(id);
      return { deleted };
    },
    getProxies: async ({ org }) => (await client()).getProxies(org, { include_proxy_policy: true }),
    addProxies: async ({ org, proxies }) => translatedWarnings(await (await client()).addProxies(org, proxies)),
    setProxies: async ({ org, proxies }) => translatedWarnings(await (await client()).setProxies(org, proxies)),
    deleteProxies: async ({ org, names }) => (await client()).deleteProxies(org, names),
    putFile: async ({ name, path, bucketId, fileToken, base64, contentType }) => {
      const result = await (
        await client()
      ).putFile({
        file: fromBase64(base64),
        name,
        bucket_id: bucketId,
        file_token: fileToken,
        ...(path ? { path } : {}),
        ...(contentType ? { content_type: contentType } : {}),
      });
      return { fileId: result.file_id };
    },
    getFile: async ({ id, fileToken }) => {
      const bytes = await (await client()).getFile({ id, file_token: fileToken });
      return { base64: toBase64(bytes), size: bytes.length };
    },
    exportSettings: async () => ({ json: `${JSON.stringify(await deps.store.exportSettings(), null, 2)}\n` }),
    previewImport: ({ json }) => deps.store.previewImport(json),
    importSettings: async ({ json, confirmed }) => {
      const view = await deps.store.importSettings(json, confirmed);
      // A file that turns "remember" off takes the token out of storage.local at once.
      await deps.store.moveToken(view.settings.rememberToken);
      return view;
    },
  };
}
