/**
 * The reported mail page under test (happy-dom): fakes of the background's answers, the
 * page rendered with them, and the ways a test chooses, drops or reads what it shows.
 * Shared by test/unit/mail-page.test.tsx and test/unit/mail-page-images.test.tsx.
 */
import { cleanup, createEvent, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, beforeEach, expect } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { RemoteError, type Connector } from '../../src/messaging/page';
import type { BulkResult, MessageData, MessageType, ProtocolValues, RecentContext, SettingsView, Status } from '../../src/messaging/protocol';
import { DEFAULT_SETTINGS, type Settings } from '../../src/settings/schema';
import { App } from '../../src/ui/mail/App';
import { fitMailReading, fromWire, MAIL_READING } from '../../src/ui/decoder/wire-mail';
import type { MailDeps } from '../../src/ui/mail/deps';
import { installFocusFixup } from './focus-fixup';
import { installMessages } from './i18n';

export type Handler<K extends MessageType> = (data: MessageData<K>) => ProtocolValues[K] | Promise<ProtocolValues[K]>;
export type Handlers = { [K in MessageType]?: Handler<K> };

export const CONFIGURED: Status = {
  configured: true,
  serviceHost: 'isolation.example',
  serviceOrigin: 'https://isolation.example',
  hasToken: true,
  tokenSource: 'session',
  hostPermission: true,
  identity: 'analyst@acme.example',
  problems: [],
};

export function settingsView(settings: Partial<Settings> = {}): SettingsView {
  return { settings: { ...DEFAULT_SETTINGS, ...settings }, locked: [], tokenManaged: false, managedIssues: [], managedBroken: [] };
}

export function context(id: string, url: string): RecentContext {
  return {
    id,
    url,
    host: new URL(url).hostname,
    sessionType: 'service-ruby',
    createdAt: 0,
    expires: 0,
    maxUses: 5,
    launchUrl: `https://launch.isolation.example/ctx/${id}`,
    name: '',
  };
}

/** A bulkCreate that creates every link it is sent, as ctx-1, ctx-2, … */
export const createEach: Handler<'bulkCreate'> = ({ urls }): BulkResult => ({
  created: urls.map((url, index) => context(`ctx-${String(index + 1)}`, url)),
  failures: [],
});

export function fakeConnector(overrides: Handlers) {
  const handlers: Handlers = { getStatus: () => CONFIGURED, getSettings: () => settingsView(), ...overrides };
  const calls: { readonly type: MessageType; readonly data: unknown }[] = [];
  const connector: Connector = async (type, data) => {
    calls.push({ type, data });
    await Promise.resolve();
    const handler = handlers[type] as ((value: typeof data) => unknown) | undefined;
    if (handler === undefined) throw new RemoteError({ name: 'Error', message: `no answer for ${type}` });
    return (await handler(data)) as ProtocolValues[typeof type];
  };
  const sent = (type: MessageType): unknown[] => calls.filter((call) => call.type === type).map((call) => call.data);
  const actions = (): MessageType[] => calls.map((call) => call.type).filter((type) => type !== 'getStatus' && type !== 'getSettings');
  return { connector, calls, sent, actions };
}

export interface Setup {
  readonly handlers?: Handlers;
  readonly loadReader?: MailDeps['loadReader'];
  readonly capture?: MailDeps['capture'];
  /** The page's query (a scan's), '' by default. */
  readonly search?: string;
}

/**
 * The page's reader by default: the real readers, their reading passed over the decoder's
 * wire as the sandbox sends it and the page checks it (src/ui/decoder/wire-mail), without
 * a frame. In the extension the reading is done in the decoder (test/e2e/mail.test.ts).
 */
const wiredReader: MailDeps['loadReader'] = async () => {
  const { linksInMail } = await import('../../src/readers');
  return {
    linksInMail: async (bytes, options) => {
      const sent = fitMailReading(await linksInMail(bytes, options));
      const checked = MAIL_READING.safeParse(sent);
      if (!checked.success) throw new Error(`the wire refused the reading: ${checked.error.message}`);
      return fromWire(checked.data);
    },
  };
};

export async function renderPage({ handlers = {}, loadReader = wiredReader, capture, search = '' }: Setup = {}) {
  const fake = fakeConnector(handlers);
  const copied: string[] = [];
  /** What the page asked of its own tab, in order: `show` (to the front) and `close`. */
  const tab: string[] = [];
  const utils = render(
    <App
      connector={fake.connector}
      copyText={(text) => {
        copied.push(text);
        return Promise.resolve();
      }}
      loadReader={loadReader}
      {...(capture === undefined ? {} : { capture })}
      showPage={() => {
        tab.push('show');
        return Promise.resolve();
      }}
      closePage={() => {
        tab.push('close');
        return Promise.resolve();
      }}
      search={search}
    />,
  );
  const root = utils.container.querySelector('main');
  await expect.poll(() => root?.getAttribute('data-ready')).toBe('true');
  return { ...fake, copied, tab, ...utils };
}

export function fileInput(): HTMLInputElement {
  return screen.getByLabelText<HTMLInputElement>(/reported mail/i);
}

/** Chooses a file with the file input and waits until the page has said what it found. */
export async function choose(chosen: File | { readonly name: string; readonly size: number; readonly arrayBuffer: () => Promise<ArrayBuffer> }): Promise<void> {
  fireEvent.change(fileInput(), { target: { files: [chosen] } });
  await waitFor(() => {
    expect(screen.queryByText(/^Reading /)).toBeNull();
  });
}

/**
 * A drag event on the page's body, as a browser fires it. Through createEvent: happy-dom's
 * elements have no `ondrop` property, so fireEvent.drop would fire an event named "Drop".
 */
export function drag(kind: 'dragEnter' | 'drop', dataTransfer: { readonly types: readonly string[]; readonly files: readonly File[] }): void {
  fireEvent(document.body, createEvent[kind](document.body, { dataTransfer }));
}

export function links(): HTMLElement[] {
  return within(screen.getByRole('list', { name: /^Links: / })).getAllByRole('listitem');
}

export function openButton(): HTMLElement {
  return screen.getByRole('button', { name: /open selected in isolation/i });
}

/** The hooks every mail page test file needs: a fresh fake browser, the English messages, focus as a browser moves it. */
export function useMailPage(): void {
  let restoreFocus: () => void = () => undefined;
  beforeEach(() => {
    fakeBrowser.reset();
    installMessages();
    restoreFocus = installFocusFixup();
  });
  afterEach(() => {
    restoreFocus();
    cleanup();
  });
}
