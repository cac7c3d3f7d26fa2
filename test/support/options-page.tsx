/**
 * The options page against a fake Connector, for the page's tests: a connector that records
 * every message and answers from handlers, a settings view, a status, and the page rendered
 * and ready with every section.
 */
import { render, waitFor } from '@testing-library/preact';
import { expect } from 'vitest';
import type { Connector } from '../../src/messaging/page';
import type { MessageData, MessageType, ProtocolValues, Settings, SettingsView, Status } from '../../src/messaging/protocol';
import { DEFAULT_SETTINGS } from '../../src/settings/schema';
import { App } from '../../src/ui/options/App';

export type Handlers = { [K in MessageType]?: (data: MessageData<K>) => ProtocolValues[K] | Promise<ProtocolValues[K]> };

interface Call {
  readonly type: MessageType;
  readonly data: unknown;
}

/** A Connector that records every message and answers from `handlers`. */
export function fakeConnector(handlers: Handlers) {
  const calls: Call[] = [];
  const connector: Connector = async (type, data) => {
    calls.push({ type, data });
    const handler = handlers[type] as ((value: typeof data) => unknown) | undefined;
    if (handler === undefined) throw new Error(`the fake has no answer for ${type}`);
    return (await handler(data)) as ProtocolValues[typeof type];
  };
  return { connector, calls, sent: (type: MessageType) => calls.filter((call) => call.type === type).map((call) => call.data) };
}

export function viewOf(settings: Partial<Settings> = {}, extra: Partial<SettingsView> = {}): SettingsView {
  return { settings: { ...DEFAULT_SETTINGS, ...settings }, locked: [], tokenManaged: false, managedIssues: [], managedBroken: [], ...extra };
}

export const STATUS: Status = {
  configured: true,
  serviceHost: 'isolation.example.com',
  serviceOrigin: 'https://isolation.example.com',
  hasToken: true,
  tokenSource: 'session',
  hostPermission: true,
  identity: 'analyst',
  problems: [],
};

export async function renderApp(options: { view?: SettingsView; status?: Status; handlers?: Handlers } = {}) {
  const view = options.view ?? viewOf();
  const status = options.status ?? STATUS;
  const fake = fakeConnector({
    getSettings: () => view,
    getStatus: () => status,
    saveSettings: ({ patch }) => viewOf({ ...view.settings, ...(patch as Partial<Settings>) }, { locked: view.locked }),
    ...options.handlers,
  });
  const utils = render(<App connector={fake.connector} />);
  await waitFor(() => {
    expect(utils.container.querySelector('[data-ready="true"]')).not.toBeNull();
  });
  // The sections below the first screen come in the next frame.
  await waitFor(() => {
    expect(utils.container.querySelector('#import-export')).not.toBeNull();
  });
  return { ...utils, ...fake };
}
