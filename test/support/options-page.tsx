/**
 * The options page against a fake Connector, for the page's tests: a connector that records
 * every message and answers from handlers, a settings view, a status, the page rendered and
 * ready (at the section its address names), and a way to show a section as the analyst does.
 */
import { fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { expect } from 'vitest';
import type { Connector } from '../../src/messaging/page';
import type { MessageData, MessageType, ProtocolValues, Settings, SettingsView, Status } from '../../src/messaging/protocol';
import type { OptionsSection } from '../../src/messaging/options';
import { DEFAULT_SETTINGS } from '../../src/settings/schema';
import { App } from '../../src/ui/options/App';
import { SECTION_TITLES } from '../../src/ui/options/Nav';
import { t } from '../../src/i18n';

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

/**
 * Renders the page and waits until it is ready. The address starts with no fragment (the
 * connection), or `at` (`'#files'`): the page's window outlives a test, its address too.
 * With `section`, that section is then shown through the navigation (see showSection).
 */
export async function renderApp(options: { view?: SettingsView; status?: Status; handlers?: Handlers; at?: string; section?: OptionsSection } = {}) {
  history.replaceState(null, '', `${location.pathname}${location.search}${options.at ?? ''}`);
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
  if (options.section !== undefined) await showSection(options.section);
  return { ...utils, ...fake };
}

/** Shows a section as the analyst does: a click on its link in the page's navigation. Resolves with the section's region. */
export async function showSection(section: OptionsSection): Promise<HTMLElement> {
  const nav = screen.getByRole('navigation', { name: t('optionsNavLabel') });
  const link = [...nav.querySelectorAll('a')].find((a) => a.getAttribute('href') === `#${section}`);
  if (link === undefined) throw new Error(`no link to #${section} in the navigation`);
  fireEvent.click(link);
  return screen.findByRole('region', { name: t(SECTION_TITLES[section]) });
}
