/**
 * The one runtime.onMessage router. It answers only this extension's own pages (popup,
 * options and reported mail, top frame), checks that the page may send that message (settings,
 * token and service changes come from the options page only), validates the data
 * against the protocol's schema, and returns errors as data. Anything else gets no
 * answer and causes no side effect.
 */
import { messageSchema, PROTOCOL, type MessageType, type PageName, type Reply, type WireError } from '../messaging/protocol';
import { t } from '../i18n';
import { errorText } from './failures';
import type { Handlers } from './handlers';

/** The parts of runtime.MessageSender the router reads. */
export interface Sender {
  readonly id?: string | undefined;
  readonly url?: string | undefined;
  readonly frameId?: number | undefined;
}

export interface RouterOptions {
  readonly extensionId: string;
  /** `chrome-extension://<id>` or `moz-extension://<uuid>`. */
  readonly extensionOrigin: string;
}

const PAGES: Readonly<Record<string, PageName>> = { '/popup.html': 'popup', '/options.html': 'options', '/mail.html': 'mail', '/isolate.html': 'isolate' };

/** `scheme://host` of a URL, the same for chrome-extension:, moz-extension: and web URLs. */
export function originOf(url: URL): string {
  return `${url.protocol}//${url.host}`;
}

/** The page a sender is, or null when it is not one of this extension's pages. */
export function pageOf(sender: Sender, options: RouterOptions): PageName | null {
  if (sender.id !== options.extensionId || typeof sender.url !== 'string') return null;
  // A sub-frame is never one of our pages (they embed nothing).
  if (sender.frameId !== undefined && sender.frameId !== 0) return null;
  let url: URL;
  try {
    url = new URL(sender.url);
  } catch {
    return null;
  }
  // Not URL.origin: for non-web schemes some engines (and Node) answer "null".
  if (originOf(url) !== options.extensionOrigin) return null;
  return Object.hasOwn(PAGES, url.pathname) ? (PAGES[url.pathname] ?? null) : null;
}

function isMessageType(type: unknown): type is MessageType {
  return typeof type === 'string' && Object.hasOwn(PROTOCOL, type);
}

/**
 * An error as data: its name, its words for the analyst, and the field of a validation
 * error. The client's errors are said from their code (their own message is English);
 * the background's own errors already carry translated words.
 */
export function toWireError(error: unknown): WireError {
  if (error instanceof Error) {
    const message = errorText(error);
    const field = (error as { field?: unknown }).field;
    return typeof field === 'string' ? { name: error.name, message, field } : { name: error.name, message };
  }
  return { name: 'Error', message: t('errorSomethingWrong') };
}

function refuse(message: string): Reply<never> {
  return { ok: false, error: { name: 'RefusedMessage', message } };
}

/**
 * The listener for runtime.onMessage. Returns a promise of the reply for a message it
 * answers, or undefined (no answer) for anything not from this extension's pages.
 */
export function createRouter(handlers: Handlers, options: RouterOptions) {
  return (message: unknown, sender: Sender): Promise<Reply<unknown>> | undefined => {
    const page = pageOf(sender, options);
    if (page === null) return undefined;
    if (typeof message !== 'object' || message === null || Array.isArray(message)) {
      return Promise.resolve(refuse(t('errorMessageNotObject')));
    }
    const { type, data } = message as { type?: unknown; data?: unknown };
    if (!isMessageType(type)) return Promise.resolve(refuse(t('errorMessageUnknown')));
    const entry = PROTOCOL[type];
    if (!(entry.pages as readonly PageName[]).includes(page)) {
      return Promise.resolve(refuse(t('errorMessageNotAllowed', [page, type])));
    }
    const parsed = messageSchema(type).safeParse(data);
    if (!parsed.success) return Promise.resolve(refuse(t('errorMessageMalformed', type)));
    const handler = handlers[type] as (input: unknown) => Promise<unknown>;
    // Promise.resolve().then: a handler that throws synchronously still answers as data.
    return Promise.resolve()
      .then(() => handler(parsed.data))
      .then(
        (value): Reply<unknown> => ({ ok: true, value }),
        (error: unknown): Reply<unknown> => ({ ok: false, error: toWireError(error) }),
      );
  };
}
