// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { RemoteError, type Connector } from '../../src/messaging/page';
import type { ContextView, MessageData, MessageType, ProtocolValues, RecentContext, SettingsView, Status } from '../../src/messaging/protocol';
import { DEFAULT_SETTINGS, type Settings } from '../../src/settings/schema';
import { App } from '../../src/ui/popup/App';
import { installFocusFixup } from '../support/focus-fixup';
import { installMessages } from '../support/i18n';
import { wrap } from '../support/wrap';

// ---- fakes ------------------------------------------------------------------

type Handler<K extends MessageType> = (data: MessageData<K>) => ProtocolValues[K] | Promise<ProtocolValues[K]>;
type Handlers = { [K in MessageType]?: Handler<K> };

interface Call {
  readonly type: MessageType;
  readonly data: unknown;
}

const CONFIGURED: Status = {
  configured: true,
  serviceHost: 'isolation.example',
  serviceOrigin: 'https://isolation.example',
  hasToken: true,
  tokenSource: 'session',
  hostPermission: true,
  identity: 'analyst@acme.example',
  problems: [],
};

const UNCONFIGURED: Status = {
  configured: false,
  serviceHost: null,
  serviceOrigin: null,
  hasToken: false,
  tokenSource: null,
  hostPermission: false,
  identity: null,
  problems: ['Set the service URL in the options.', 'Enter the admin token in the options.'],
};

function settingsView(settings: Partial<Settings> = {}): SettingsView {
  return { settings: { ...DEFAULT_SETTINGS, ...settings }, locked: [], tokenManaged: false, managedIssues: [], managedBroken: [] };
}

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);

function recent(id: string, host: string, minutesAgo: number, extra: Partial<RecentContext> = {}): RecentContext {
  return {
    id,
    url: `https://${host}/`,
    host,
    sessionType: 'service-ruby',
    createdAt: NOW - minutesAgo * 60_000,
    expires: Math.floor(NOW / 1000) + 3600,
    maxUses: 5,
    launchUrl: `https://launch.isolation.example/ctx/${id}`,
    name: '',
    ...extra,
  };
}

function view(id: string, extra: Partial<ContextView> = {}): ContextView {
  return { id, name: '', enabled: true, useCount: 2, maxUses: 5, usesLeft: 3, expires: null, created: null, ...extra };
}

function isolated(host: string): ProtocolValues['isolate'] {
  const context = recent('new-1', host, 0);
  return { launchUrl: context.launchUrl, context };
}

/** A connector that records every message and answers from per-type handlers. */
function fakeConnector(overrides: Handlers = {}) {
  const handlers: Handlers = {
    getStatus: () => CONFIGURED,
    getSettings: () => settingsView(),
    listRecent: () => [],
    ...overrides,
  };
  const calls: Call[] = [];
  const connector: Connector = async (type, data) => {
    calls.push({ type, data });
    await Promise.resolve();
    const handler = handlers[type];
    if (handler === undefined) throw new RemoteError({ name: 'Error', message: `no answer for ${type}` });
    return handler(data);
  };
  /** The data of every message of `type`, in order. */
  const sent = (type: MessageType): unknown[] => calls.filter((call) => call.type === type).map((call) => call.data);
  /** Types sent other than the start-up reads. */
  const actions = (): MessageType[] => calls.map((call) => call.type).filter((type) => type !== 'getStatus' && type !== 'getSettings');
  return { connector, calls, sent, actions };
}

function deferred<T>() {
  let resolve: (value: T) => void = () => undefined;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

interface Setup {
  readonly handlers?: Handlers;
  /** The current tab's URL, as the popup reads it under activeTab. */
  readonly tabUrl?: string | undefined;
}

async function renderPopup({ handlers = {}, tabUrl }: Setup = {}) {
  const fake = fakeConnector(handlers);
  const copied: string[] = [];
  const optionsOpened: number[] = [];
  const utils = render(
    <App
      connector={fake.connector}
      copyText={(text) => {
        copied.push(text);
        return Promise.resolve();
      }}
      openOptions={() => {
        optionsOpened.push(1);
        return Promise.resolve();
      }}
      now={() => NOW}
      tabUrl={() => Promise.resolve(tabUrl)}
    />,
  );
  await screen.findByRole('main');
  await waitReady(utils.container);
  return { ...fake, copied, optionsOpened, ...utils };
}

async function waitReady(container: Element): Promise<void> {
  const root = container.querySelector('main');
  expect(root).not.toBeNull();
  await expect.poll(() => root?.getAttribute('data-ready')).toBe('true');
}

function urlField(): HTMLInputElement {
  return screen.getByLabelText<HTMLInputElement>('URL to isolate');
}

function typeInto(element: HTMLElement, value: string): void {
  fireEvent.input(element, { target: { value } });
}

function pressEnter(element: HTMLElement): void {
  fireEvent.keyDown(element, { key: 'Enter' });
}

/** Opens a tab and waits for its panel: a tab's code loads the first time it is opened. */
async function openTab(name: string): Promise<void> {
  fireEvent.click(screen.getByRole('tab', { name }));
  await screen.findByRole('tab', { name, selected: true });
  await expect.poll(() => screen.getByRole('tabpanel', { name }).getAttribute('aria-busy')).toBe('false');
}

/** Chooses a research session; its controls load the first time. */
async function chooseResearch(): Promise<HTMLSelectElement> {
  fireEvent.click(screen.getByLabelText('Research'));
  return screen.findByLabelText<HTMLSelectElement>('Egress location');
}

beforeEach(() => {
  fakeBrowser.reset();
  installMessages();
});

afterEach(() => {
  cleanup();
});

// ---- status -----------------------------------------------------------------

describe('popup status line', () => {
  it('shows the service host and identity when configured, with no options button', async () => {
    const { calls } = await renderPopup();

    expect(screen.getByText('Ready: links open in isolation through isolation.example')).toBeTruthy();
    expect(screen.getByText('Sessions are created as analyst@acme.example')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Open options' })).toBeNull();
    expect(calls.slice(0, 2)).toEqual([
      { type: 'getStatus', data: {} },
      { type: 'getSettings', data: {} },
    ]);
  });

  it('lists the problems and opens the options page when not configured', async () => {
    const { optionsOpened } = await renderPopup({ handlers: { getStatus: () => UNCONFIGURED } });

    expect(screen.getByText('Isolink is not set up yet: links cannot be isolated.')).toBeTruthy();
    expect(screen.getByText('Set the service URL in the options.')).toBeTruthy();
    expect(screen.getByText('Enter the admin token in the options.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Open options' }));

    expect(optionsOpened).toEqual([1]);
  });

  it('becomes ready and shows the error when the status cannot be read', async () => {
    const message = 'Isolink could not read its settings. Reload the extension.';
    await renderPopup({
      handlers: {
        getStatus: () => {
          throw new RemoteError({ name: 'StorageError', message });
        },
      },
    });

    expect(screen.getByRole('alert').textContent).toBe(message);
    expect(screen.getByRole('button', { name: 'Open options' })).toBeTruthy();
  });

  it('keeps the status when only the settings cannot be read, and says what failed', async () => {
    const message = 'The settings could not be read. Reload the extension and try again.';
    await renderPopup({
      handlers: {
        getSettings: () => {
          throw new RemoteError({ name: 'StorageError', message });
        },
      },
    });

    expect(screen.getByText('Ready: links open in isolation through isolation.example')).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe(message);
  });
});

describe('popup: isolate by policy', () => {
  const fromOffice = { getSettings: () => settingsView({ autoIsolate: { from: ['office.com'] } }) };

  it('says when the current tab is on a site whose links open in isolation', async () => {
    await renderPopup({ handlers: fromOffice, tabUrl: 'https://outlook.office.com/mail/inbox' });
    const note = await screen.findByRole('note');
    expect(note.textContent).toBe('Links opened from this site (office.com) open in isolation.');
  });

  it.each([
    ['another site', 'https://office.com.evil.example/'],
    ['an extension page', 'chrome-extension://office.com/popup.html'],
    ['no readable tab', undefined],
  ])('says nothing for %s', async (_name, tabUrl) => {
    await renderPopup({ handlers: fromOffice, tabUrl });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.queryByText(/open in isolation\./u)).toBeNull();
  });
});

describe('popup: the reported mail page', () => {
  it('opens the reported mail page in a tab from its button', async () => {
    await renderPopup();

    fireEvent.click(screen.getByRole('button', { name: 'Reported mail…' }));

    await expect.poll(async () => (await fakeBrowser.tabs.query({})).map((tab) => tab.url)).toContain(fakeBrowser.runtime.getURL('/mail.html'));
  });

  it('says so when the page cannot be opened', async () => {
    fakeBrowser.tabs.create = () => Promise.reject(new Error('no tabs'));
    await renderPopup();

    fireEvent.click(screen.getByRole('button', { name: 'Reported mail…' }));

    expect((await screen.findByRole('alert')).textContent).toBe('Could not open the reported mail page. Reload the extension and try again.');
  });
});

// ---- tabs -------------------------------------------------------------------

describe('popup tabs', () => {
  it('moves between tabs with the arrow keys, Home and End', async () => {
    await renderPopup();
    const isolate = screen.getByRole('tab', { name: 'Isolate' });
    expect(isolate.getAttribute('aria-selected')).toBe('true');

    fireEvent.keyDown(isolate, { key: 'ArrowRight' });
    const bulk = screen.getByRole('tab', { name: 'Bulk' });
    expect(bulk.getAttribute('aria-selected')).toBe('true');
    expect(document.activeElement).toBe(bulk);
    expect(screen.getByRole('tabpanel', { name: 'Bulk' })).toBeTruthy();

    fireEvent.keyDown(bulk, { key: 'End' });
    expect(screen.getByRole('tab', { name: 'Fang' }).getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(screen.getByRole('tab', { name: 'Fang' }), { key: 'ArrowRight' });
    expect(screen.getByRole('tab', { name: 'Isolate' }).getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(screen.getByRole('tab', { name: 'Isolate' }), { key: 'ArrowLeft' });
    expect(screen.getByRole('tab', { name: 'Fang' }).getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(screen.getByRole('tab', { name: 'Fang' }), { key: 'Home' });
    expect(screen.getByRole('tab', { name: 'Isolate' }).getAttribute('aria-selected')).toBe('true');

    const inTabOrder = screen.getAllByRole('tab').filter((tab) => tab.getAttribute('tabindex') === '0');
    expect(inTabOrder.map((tab) => tab.textContent)).toEqual(['Isolate']);
  });
});

// ---- quick isolation --------------------------------------------------------

describe('popup quick isolation', () => {
  it('previews a defanged URL refanged, with its host in punycode', async () => {
    await renderPopup();

    typeInto(urlField(), 'hxxps://bücher[.]example/a?b=1');

    const preview = await screen.findByText('https://xn--bcher-kva.example/a?b=1');
    expect(preview.tagName).toBe('DD');
    expect(screen.getByText('xn--bcher-kva.example')).toBeTruthy();
    expect(urlField().getAttribute('aria-invalid')).toBe('false');
  });

  it.each([
    ['javascript:alert(1)', 'Links starting with javascript: cannot be isolated. Only http and https links can.'],
    ['/relative/path', 'This is not a complete link. Enter it with its scheme, e.g. https://example.com/page.'],
    ['data:text/html,hi', 'Links starting with data: cannot be isolated. Only http and https links can.'],
  ])('refuses %s inline and sends nothing', async (input, expected) => {
    const { actions } = await renderPopup();

    typeInto(urlField(), input);
    expect(screen.getByText(expected)).toBeTruthy();
    pressEnter(urlField());

    expect((await screen.findByRole('alert')).textContent).toBe(expected);
    expect(screen.getAllByText(expected)).toHaveLength(1);
    expect(urlField().getAttribute('aria-invalid')).toBe('true');
    expect(actions()).toEqual([]);
  });

  it('asks for a URL when Open is pressed empty in a standard session', async () => {
    const { actions } = await renderPopup();

    fireEvent.click(screen.getByRole('button', { name: 'Open' }));

    expect((await screen.findByRole('alert')).textContent).toBe('Enter a link to isolate, or choose a research session to open one without a link.');
    expect(actions()).toEqual([]);
  });

  it('sends isolate with the text as typed when Enter is pressed, and shows the host opened', async () => {
    const { sent } = await renderPopup({ handlers: { isolate: () => isolated('evil.com') } });

    typeInto(urlField(), '  hxxps://evil[.]com/a  ');
    pressEnter(urlField());

    expect(await screen.findByText('Opened in isolation: evil.com')).toBeTruthy();
    expect(sent('isolate')).toEqual([{ url: 'hxxps://evil[.]com/a', session: 'standard' }]);
  });

  it('sends the quick policy toggles that were changed', async () => {
    const { sent } = await renderPopup({ handlers: { isolate: () => isolated('evil.com') } });

    typeInto(urlField(), 'https://evil.com/');
    fireEvent.click(screen.getByLabelText('Read-only'));
    fireEvent.change(screen.getByLabelText('File transfer'), { target: { value: 'block_all' } });
    fireEvent.change(screen.getByLabelText('Clipboard'), { target: { value: 'allow_all' } });
    pressEnter(urlField());

    await screen.findByText('Opened in isolation: evil.com');
    expect(sent('isolate')).toEqual([
      {
        url: 'https://evil.com/',
        session: 'standard',
        toggles: { readonly: true, fileTransfer: 'block_all', clipboard: 'allow_all' },
      },
    ]);
  });

  it('sends the research choice, starting from the research defaults in the settings', async () => {
    const research: Settings['research'] = {
      egressRegion: 'Frankfurt',
      browserProfile: { os: 'mac', browser: 'safari', timezone: 'Europe/Berlin', languages: 'de-DE,de;q=0.9' },
      availability: ['public'],
      connectivity: ['isp'],
    };
    const { sent } = await renderPopup({
      handlers: { getSettings: () => settingsView({ research }), isolate: () => isolated('evil.com') },
    });

    const egress = await chooseResearch();
    expect(egress.value).toBe('Frankfurt');
    const groups = [...egress.querySelectorAll('optgroup')].map((group) => group.label);
    expect(groups).toEqual(['North America', 'Central & South America', 'Europe', 'Middle East & Africa', 'Asia-Pacific']);
    expect(screen.getByLabelText<HTMLSelectElement>('Browser profile: system').value).toBe('mac');

    fireEvent.change(egress, { target: { value: 'Tokyo' } });
    fireEvent.change(screen.getByLabelText('Browser profile: browser'), { target: { value: 'firefox' } });
    fireEvent.click(screen.getByLabelText('Public'));
    fireEvent.click(screen.getByLabelText('Datacenter'));
    typeInto(urlField(), 'hxxp://evil[.]com');
    fireEvent.click(screen.getByRole('button', { name: 'Open' }));

    await screen.findByText('Opened in isolation: evil.com');
    expect(sent('isolate')).toEqual([
      {
        url: 'hxxp://evil[.]com',
        session: 'research',
        research: {
          egressRegion: 'Tokyo',
          browserProfile: { os: 'mac', browser: 'firefox', timezone: 'Europe/Berlin', languages: 'de-DE,de;q=0.9' },
          availability: [],
          connectivity: ['isp', 'datacenter'],
        },
      },
    ]);
  });

  it('sends research (no URL) when a research session is opened with the field empty', async () => {
    const research = isolated('');
    const { sent, actions } = await renderPopup({ handlers: { research: () => research } });

    fireEvent.change(await chooseResearch(), { target: { value: 'Europe' } });
    fireEvent.click(screen.getByRole('button', { name: 'Open' }));

    expect(await screen.findByText('Research session opened in isolation.')).toBeTruthy();
    expect(actions()).toEqual(['research']);
    expect(sent('research')).toEqual([{ research: { egressRegion: 'Europe', browserProfile: null, availability: [], connectivity: [] } }]);
  });

  it('shows an error from the background inline and keeps the form usable', async () => {
    const message = 'The service refused the link: domain is blocked by policy. Ask your administrator.';
    await renderPopup({
      handlers: {
        isolate: () => {
          throw new RemoteError({ name: 'ServiceError', message });
        },
      },
    });

    typeInto(urlField(), 'https://blocked.example/');
    pressEnter(urlField());

    expect((await screen.findByRole('alert')).textContent).toBe(message);
    expect(screen.getByRole('button', { name: 'Open' }).getAttribute('aria-disabled')).toBeNull();
  });

  it('marks the URL field when the background names it in a validation error', async () => {
    await renderPopup({
      handlers: {
        isolate: () => {
          throw new RemoteError({ name: 'ValidationError', message: 'url is too long', field: 'url' });
        },
      },
    });

    typeInto(urlField(), 'https://example.com/');
    pressEnter(urlField());

    await screen.findByRole('alert');
    expect(urlField().getAttribute('aria-invalid')).toBe('true');
  });

  it('marks the buttons busy while a request runs and sends one request for a double submit', async () => {
    const pending = deferred<ProtocolValues['isolate']>();
    const { sent } = await renderPopup({ handlers: { isolate: () => pending.promise } });

    typeInto(urlField(), 'https://evil.com/');
    pressEnter(urlField());
    pressEnter(urlField());

    const open = screen.getByRole<HTMLButtonElement>('button', { name: 'Open' });
    await expect.poll(() => open.getAttribute('aria-disabled')).toBe('true');
    expect(open.getAttribute('aria-busy')).toBe('true');
    expect(screen.getByRole('button', { name: 'Isolate current tab' }).getAttribute('aria-disabled')).toBe('true');
    // Busy is not disabled: the buttons stay focusable.
    expect(open.disabled).toBe(false);
    pending.resolve(isolated('evil.com'));
    await screen.findByText('Opened in isolation: evil.com');
    expect(open.getAttribute('aria-disabled')).toBeNull();
    expect(open.getAttribute('aria-busy')).toBeNull();
    expect(sent('isolate')).toHaveLength(1);
  });

  it('sends isolateCurrentTab with the chosen session type and research choice', async () => {
    const { sent } = await renderPopup({ handlers: { isolateCurrentTab: () => isolated('current.example') } });

    fireEvent.change(await chooseResearch(), { target: { value: 'Europe' } });
    fireEvent.click(screen.getByRole('button', { name: 'Isolate current tab' }));

    expect(await screen.findByText('Opened in isolation: current.example')).toBeTruthy();
    expect(sent('isolateCurrentTab')).toEqual([
      { session: 'research', research: { egressRegion: 'Europe', browserProfile: null, availability: [], connectivity: [] } },
    ]);
  });
});

// ---- bulk -------------------------------------------------------------------

describe('popup bulk', () => {
  const text = [
    'IOCs from the report:',
    'hxxps://evil[.]com/a.exe, and again https://evil.com/a.exe',
    'mirror hxxp://bad[.]example/b and javascript:alert(1) and ftp://files.example/x',
  ].join('\n');

  it('lists the extracted links with their count and creates them all', async () => {
    const created = [recent('c1', 'evil.com', 0), recent('c2', 'bad.example', 0)];
    const { sent } = await renderPopup({
      handlers: {
        bulkCreate: () => ({ created, failures: [{ url: 'https://other.example/', error: 'blocked by policy' }] }),
      },
    });
    await openTab('Bulk');

    typeInto(screen.getByLabelText('Links text'), text);

    expect(screen.getByText('Links found: 2')).toBeTruthy();
    const list = screen.getByRole('list', { name: 'Links found: 2' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['evil.comhttps://evil.com/a.exe', 'bad.examplehttp://bad.example/b']);
    fireEvent.click(screen.getByRole('button', { name: 'Create all' }));

    expect(await screen.findByRole('heading', { name: 'Created: 2' })).toBeTruthy();
    expect(sent('bulkCreate')).toEqual([{ urls: ['https://evil.com/a.exe', 'http://bad.example/b'] }]);
    expect(screen.getByText('https://launch.isolation.example/ctx/c1')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Failed: 1' })).toBeTruthy();
    expect(screen.getByText('https://other.example/')).toBeTruthy();
    expect(screen.getByText('blocked by policy')).toBeTruthy();
  });

  it('opens all created contexts through the background and copies their launch URLs', async () => {
    const created = [recent('c1', 'evil.com', 0), recent('c2', 'bad.example', 0)];
    const { sent, copied } = await renderPopup({
      handlers: { bulkCreate: () => ({ created, failures: [] }), openContexts: ({ ids }) => ({ opened: ids.length }) },
    });
    await openTab('Bulk');
    typeInto(screen.getByLabelText('Links text'), text);
    fireEvent.click(screen.getByRole('button', { name: 'Create all' }));
    await screen.findByRole('heading', { name: 'Created: 2' });

    fireEvent.click(screen.getByRole('button', { name: 'Open all' }));
    expect(await screen.findByText('Tabs opened: 2')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Copy launch URLs' }));
    expect(await screen.findByText('Copied.')).toBeTruthy();

    expect(sent('openContexts')).toEqual([{ ids: ['c1', 'c2'] }]);
    expect(copied).toEqual(['https://launch.isolation.example/ctx/c1\nhttps://launch.isolation.example/ctx/c2']);
  });

  it('keeps Create all disabled without links and shows a bulk error inline', async () => {
    const { actions } = await renderPopup({
      handlers: {
        bulkCreate: () => {
          throw new RemoteError({ name: 'NetworkError', message: 'The service did not answer. Check the connection and try again.' });
        },
      },
    });
    await openTab('Bulk');

    typeInto(screen.getByLabelText('Links text'), 'no links here, only evil[.]com without a scheme');
    expect(screen.getByText('Links found: 0')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Create all' }).getAttribute('aria-disabled')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: 'Create all' }));
    expect(actions()).toEqual([]);
    typeInto(screen.getByLabelText('Links text'), 'hxxps://evil[.]com');
    fireEvent.click(screen.getByRole('button', { name: 'Create all' }));

    expect((await screen.findByRole('alert')).textContent).toBe('The service did not answer. Check the connection and try again.');
    expect(actions()).toEqual(['bulkCreate']);
  });

  it('refuses more links than one request may carry', async () => {
    const { actions } = await renderPopup();
    await openTab('Bulk');

    const many = Array.from({ length: 501 }, (_, index) => `https://host${String(index)}.example/`).join('\n');
    typeInto(screen.getByLabelText('Links text'), many);

    expect(screen.getByRole('alert').textContent).toBe('Links found: 501. At most 500 can be created at once: paste fewer and try again.');
    expect(screen.getByRole('button', { name: 'Create all' }).getAttribute('aria-disabled')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: 'Create all' }));
    expect(actions()).toEqual([]);
  });
});

// ---- recent -----------------------------------------------------------------

describe('popup recent contexts', () => {
  const list = [recent('old', 'old.example', 120), recent('new', 'new.example', 5, { name: 'phish #12' })];

  function summaries(): string[] {
    const items = within(screen.getByRole('list', { name: 'Recent contexts' })).getAllByRole('listitem');
    return items.map((item) => item.querySelector('.host')?.textContent ?? '');
  }

  it('lists the contexts newest first with their creation and expiry', async () => {
    await renderPopup({ handlers: { listRecent: () => list } });
    await openTab('Recent');

    await screen.findByRole('list', { name: 'Recent contexts' });
    expect(summaries()).toEqual(['new.example', 'old.example']);
    expect(screen.getByText('phish #12')).toBeTruthy();
    const newest = screen.getByRole('button', { name: /new\.example/ });
    expect(newest.getAttribute('aria-expanded')).toBe('false');
    expect(newest.textContent).toContain('Created 5 minutes ago');
    expect(newest.textContent).toContain('Expires in 1 hour');
  });

  it('says so when there are none', async () => {
    await renderPopup();
    await openTab('Recent');

    expect(await screen.findByText('No contexts yet. Links you isolate appear here.')).toBeTruthy();
  });

  it('loads the live details when a context is expanded', async () => {
    const { sent } = await renderPopup({
      handlers: { listRecent: () => list, contextDetails: ({ id }) => view(id, { useCount: 4, usesLeft: 1, enabled: false }) },
    });
    await openTab('Recent');

    fireEvent.click(await screen.findByRole('button', { name: /old\.example/ }));

    expect(await screen.findByText('Disabled')).toBeTruthy();
    expect(sent('contextDetails')).toEqual([{ id: 'old' }]);
    const facts = [...document.querySelectorAll('.facts dt')].map((term) => `${term.textContent}=${term.nextElementSibling?.textContent ?? ''}`);
    expect(facts).toEqual(['Uses=4', 'Uses left=1', 'State=Disabled']);
    expect(screen.getByRole('button', { name: /old\.example/ }).getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByRole('button', { name: 'Enable' })).toBeTruthy();
  });

  it('asks for confirmation before deleting, and sends nothing on cancel', async () => {
    const { sent } = await renderPopup({
      handlers: { listRecent: () => list, contextDetails: ({ id }) => view(id), deleteContext: () => ({ deleted: true }) },
    });
    await openTab('Recent');
    fireEvent.click(await screen.findByRole('button', { name: /old\.example/ }));
    await screen.findByText('Enabled');

    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    expect(screen.getByText('Delete this context? Its launch URL stops working and it cannot be undone.')).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cancel' }));
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(sent('deleteContext')).toEqual([]);

    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    fireEvent.click(screen.getByRole('button', { name: 'Yes, delete' }));

    expect(await screen.findByText('Context deleted.')).toBeTruthy();
    expect(sent('deleteContext')).toEqual([{ id: 'old' }]);
    expect(summaries()).toEqual(['new.example']);
  });

  it('relaunches, copies, disables and renames a context through the background', async () => {
    const { sent, copied } = await renderPopup({
      handlers: {
        listRecent: () => list,
        contextDetails: ({ id }) => view(id),
        openContexts: ({ ids }) => ({ opened: ids.length }),
        updateContext: ({ id, enabled, name }) => view(id, { enabled: enabled ?? true, name: name ?? '' }),
      },
    });
    await openTab('Recent');
    fireEvent.click(await screen.findByRole('button', { name: /old\.example/ }));
    await screen.findByText('Enabled');

    fireEvent.click(screen.getByRole('button', { name: 'Relaunch' }));
    expect(await screen.findByText('Opened again in isolation.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Copy launch URL' }));
    expect(await screen.findByText('Copied.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Disable' }));
    expect(await screen.findByText('Disabled: the launch URL no longer works until you enable it.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Rename' }));
    const nameField = screen.getByLabelText<HTMLInputElement>('New name');
    expect(document.activeElement).toBe(nameField);
    typeInto(nameField, ' invoice lure ');
    submitForm(nameField);

    expect(await screen.findByText('Renamed.')).toBeTruthy();
    expect(screen.getByText('invoice lure')).toBeTruthy();
    expect(sent('openContexts')).toEqual([{ ids: ['old'] }]);
    expect(copied).toEqual(['https://launch.isolation.example/ctx/old']);
    expect(sent('updateContext')).toEqual([
      { id: 'old', enabled: false },
      { id: 'old', name: 'invoice lure' },
    ]);
  });

  it('shows an error from the background inside the context', async () => {
    await renderPopup({
      handlers: {
        listRecent: () => list,
        contextDetails: () => {
          throw new RemoteError({ name: 'NotFoundError', message: 'The service no longer knows this context. Delete it from the list.' });
        },
      },
    });
    await openTab('Recent');

    fireEvent.click(await screen.findByRole('button', { name: /new\.example/ }));

    expect((await screen.findByRole('alert')).textContent).toBe('The service no longer knows this context. Delete it from the list.');
  });
});

/** Submits the form of a text field (a browser does so on Enter; happy-dom does not). */
function submitForm(element: HTMLInputElement): void {
  const form = element.form;
  expect(form).not.toBeNull();
  if (form !== null) fireEvent.submit(form);
}

// ---- fang -------------------------------------------------------------------

describe('popup defang/refang tool', () => {
  it('converts the text both ways in place and copies it', async () => {
    const { copied, actions } = await renderPopup();
    await openTab('Fang');
    const field = screen.getByLabelText<HTMLTextAreaElement>('Text to convert');

    typeInto(field, 'see https://evil.example.com/a.php and 8.8.8.8');
    fireEvent.click(screen.getByRole('button', { name: 'Defang' }));
    expect(field.value).toBe('see hxxps://evil[.]example[.]com/a.php and 8[.]8[.]8[.]8');
    fireEvent.click(screen.getByRole('button', { name: 'Copy' }));
    expect(await screen.findByText('Copied.')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Refang' }));
    expect(field.value).toBe('see https://evil.example.com/a.php and 8.8.8.8');

    expect(copied).toEqual(['see hxxps://evil[.]example[.]com/a.php and 8[.]8[.]8[.]8']);
    expect(actions()).toEqual([]);
  });
});

// ---- wrapped links ------------------------------------------------------------

describe('popup: links rewritten by a mail gateway', () => {
  const REAL = 'https://real-phish.example/login';
  const SAFE_LINK = wrap.safelinks(REAL);

  it('previews the real target and says what wrapped it', async () => {
    await renderPopup();

    typeInto(urlField(), wrap.safelinks(wrap.proofpointV3(REAL)));

    expect((await screen.findByText(REAL)).tagName).toBe('DD');
    expect(screen.getByText('real-phish.example')).toBeTruthy();
    expect(screen.getByText('from Microsoft Safe Links, Proofpoint URL Defense').previousElementSibling?.textContent).toBe('Unwrapped');
  });

  it('previews a Mimecast link as it is, and says why', async () => {
    await renderPopup();
    const mimecast = 'https://protect-us.mimecast.com/s/AbCdEf?domain=real-phish.example';

    typeInto(urlField(), mimecast);

    expect(await screen.findByText(mimecast)).toBeTruthy();
    expect(screen.getByText('by Mimecast URL Protect, whose target cannot be read offline: isolated as it is, with no automatic domain allow')).toBeTruthy();
  });

  it('refuses a wrapped javascript: link inline, as the background would, and sends nothing', async () => {
    const { actions } = await renderPopup();

    typeInto(urlField(), wrap.safelinks('javascript:alert(1)'));
    pressEnter(urlField());

    expect((await screen.findByRole('alert')).textContent).toBe('Links starting with javascript: cannot be isolated. Only http and https links can.');
    expect(actions()).toEqual([]);
  });

  it('"keep" previews the wrapper, which is what opens', async () => {
    await renderPopup({ handlers: { getSettings: () => settingsView({ unwrap: 'keep' }) } });

    typeInto(urlField(), SAFE_LINK);

    expect(await screen.findByText(SAFE_LINK)).toBeTruthy();
    expect(screen.getByText('by Microsoft Safe Links: isolated as it is (your settings), with no automatic domain allow')).toBeTruthy();
  });

  it('"ask" shows both choices; the one chosen is previewed and sent', async () => {
    const { sent } = await renderPopup({ handlers: { getSettings: () => settingsView({ unwrap: 'ask' }), isolate: () => isolated('safelinks.example') } });

    typeInto(urlField(), SAFE_LINK);
    const group = await screen.findByRole('group', { name: 'Wrapped by Microsoft Safe Links. Open:' });
    expect(within(group).getByLabelText<HTMLInputElement>(/the real target/).checked).toBe(true);
    fireEvent.click(within(group).getByLabelText(/the link as written/));

    expect(screen.getAllByText(SAFE_LINK).some((element) => element.tagName === 'DD')).toBe(true);
    pressEnter(urlField());
    await screen.findByText('Opened in isolation: safelinks.example');
    expect(sent('isolate')).toEqual([{ url: SAFE_LINK, session: 'standard', wrapped: 'keep' }]);
  });

  it('sends no choice for a link that is not wrapped', async () => {
    const { sent } = await renderPopup({ handlers: { getSettings: () => settingsView({ unwrap: 'ask' }), isolate: () => isolated('evil.example') } });

    typeInto(urlField(), 'https://evil.example/');
    pressEnter(urlField());
    await screen.findByText('Opened in isolation: evil.example');

    expect(screen.queryByRole('group', { name: /Wrapped by/ })).toBeNull();
    expect(sent('isolate')).toEqual([{ url: 'https://evil.example/', session: 'standard' }]);
  });

  it('the bulk list shows each real target and what wrapped it; under "ask" the choice is sent', async () => {
    const { sent } = await renderPopup({ handlers: { getSettings: () => settingsView({ unwrap: 'ask' }), bulkCreate: () => ({ created: [], failures: [] }) } });
    await openTab('Bulk');

    typeInto(screen.getByLabelText('Links text'), `${SAFE_LINK}\nhttps://plain.example/`);

    const list = screen.getByRole('list', { name: 'Links found: 2' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([`real-phish.example${REAL}wrapped by Microsoft Safe Links → the real target above`, 'plain.examplehttps://plain.example/']);
    const group = screen.getByRole('group', { name: 'Some links are wrapped by a mail gateway. Open:' });
    fireEvent.click(within(group).getByLabelText('the link as written'));
    expect(within(list).getAllByRole('listitem')[0]?.textContent).toBe(`nam12.safelinks.protection.outlook.com${SAFE_LINK}wrapped by Microsoft Safe Links`);
    fireEvent.click(screen.getByRole('button', { name: 'Create all' }));

    await screen.findByRole('heading', { name: 'Created: 0' });
    expect(sent('bulkCreate')).toEqual([{ urls: [SAFE_LINK, 'https://plain.example/'], wrapped: 'keep' }]);
  });

  it('recent contexts show what the link was wrapped by', async () => {
    await renderPopup({ handlers: { listRecent: () => [recent('r1', 'real-phish.example', 1, { wrappedBy: ['safelinks', 'proofpoint'] })] } });
    await openTab('Recent');

    expect(await screen.findByText('wrapped by Microsoft Safe Links, Proofpoint URL Defense')).toBeTruthy();
  });

  it('the fang tool refangs and unwraps in place', async () => {
    await renderPopup();
    await openTab('Fang');
    const field = screen.getByLabelText<HTMLTextAreaElement>('Text to convert');

    typeInto(field, `Reported: ${SAFE_LINK.replace('https://', 'hxxps://')} and hxxp://x[.]example/`);
    fireEvent.click(screen.getByRole('button', { name: 'Refang + unwrap' }));

    expect(field.value).toBe(`Reported: ${REAL} and http://x.example/`);
  });
});

// ---- defects found in review ------------------------------------------------

describe('popup: answers that come back after the analyst moved on', () => {
  it('keeps the research choices made before the settings arrived', async () => {
    const research: Settings['research'] = {
      egressRegion: 'Frankfurt',
      browserProfile: { os: 'mac', browser: 'safari', timezone: 'Europe/Berlin', languages: 'de-DE' },
      availability: ['public'],
      connectivity: [],
    };
    const settings = deferred<SettingsView>();
    const fake = fakeConnector({ getSettings: () => settings.promise, research: () => isolated('') });
    const { container } = render(<App connector={fake.connector} copyText={() => Promise.resolve()} openOptions={() => Promise.resolve()} now={() => NOW} />);

    fireEvent.change(await chooseResearch(), { target: { value: 'Tokyo' } });
    settings.resolve(settingsView({ research }));
    await waitReady(container);

    expect(screen.getByLabelText<HTMLSelectElement>('Egress location').value).toBe('Tokyo');
    fireEvent.click(screen.getByRole('button', { name: 'Open' }));
    await screen.findByText('Research session opened in isolation.');
    expect(fake.sent('research')).toEqual([{ research: { egressRegion: 'Tokyo', browserProfile: null, availability: [], connectivity: [] } }]);
  });

  it('does not mark the URL field for an error about a link it no longer holds', async () => {
    let refuse: (error: unknown) => void = () => undefined;
    const answer = new Promise<ProtocolValues['isolate']>((_, reject) => {
      refuse = reject;
    });
    await renderPopup({ handlers: { isolate: () => answer } });

    typeInto(urlField(), 'https://first.example/');
    pressEnter(urlField());
    typeInto(urlField(), 'https://second.example/');
    refuse(new RemoteError({ name: 'ValidationError', message: 'url is too long', field: 'url' }));

    expect((await screen.findByRole('alert')).textContent).toBe('url is too long');
    expect(urlField().getAttribute('aria-invalid')).toBe('false');
  });
});

describe('popup: focus', () => {
  let removeFixup: () => void = () => undefined;
  beforeEach(() => {
    removeFixup = installFocusFixup();
  });
  afterEach(() => {
    removeFixup();
  });

  it('keeps focus on Open while the request runs and after, and ignores activation meanwhile', async () => {
    const pending = deferred<ProtocolValues['isolate']>();
    const { sent, actions } = await renderPopup({ handlers: { isolate: () => pending.promise } });
    typeInto(urlField(), 'https://evil.com/');
    const open = screen.getByRole<HTMLButtonElement>('button', { name: 'Open' });
    open.focus();

    fireEvent.click(open);
    await expect.poll(() => open.getAttribute('aria-disabled')).toBe('true');
    expect(document.activeElement).toBe(open);
    // A second click (Enter and Space on a button are clicks), a form submission and
    // Isolate current tab, all while the request runs: nothing more is sent.
    fireEvent.click(open);
    fireEvent.submit(open.closest('form') as HTMLFormElement);
    pressEnter(urlField());
    fireEvent.click(screen.getByRole('button', { name: 'Isolate current tab' }));
    expect(document.activeElement).toBe(open);

    pending.resolve(isolated('evil.com'));
    await screen.findByText('Opened in isolation: evil.com');
    expect(document.activeElement).toBe(open);
    expect(sent('isolate')).toHaveLength(1);
    expect(actions()).toEqual(['isolate']);
  });

  it('keeps focus on Yes, delete while the deletion runs, and after it failed', async () => {
    let refuse: (error: unknown) => void = () => undefined;
    const answer = new Promise<ProtocolValues['deleteContext']>((_, reject) => {
      refuse = reject;
    });
    const { sent } = await renderPopup({
      handlers: { listRecent: () => [recent('old', 'old.example', 120)], contextDetails: ({ id }) => view(id), deleteContext: () => answer },
    });
    await openTab('Recent');
    fireEvent.click(await screen.findByRole('button', { name: /old\.example/ }));
    await screen.findByText('Enabled');
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    const confirm = screen.getByRole('button', { name: 'Yes, delete' });
    confirm.focus();

    fireEvent.click(confirm);
    await expect.poll(() => confirm.getAttribute('aria-disabled')).toBe('true');
    fireEvent.click(confirm);
    expect(document.activeElement).toBe(confirm);
    refuse(new RemoteError({ name: 'NetworkError', message: 'The service did not answer. Check the connection and try again.' }));

    expect((await screen.findByRole('alert')).textContent).toBe('The service did not answer. Check the connection and try again.');
    expect(confirm.getAttribute('aria-disabled')).toBeNull();
    expect(document.activeElement).toBe(confirm);
    expect(sent('deleteContext')).toEqual([{ id: 'old' }]);
  });

  it('returns focus to Delete when the service did not delete the context', async () => {
    await renderPopup({
      handlers: {
        listRecent: () => [recent('old', 'old.example', 120)],
        contextDetails: ({ id }) => view(id),
        deleteContext: () => ({ deleted: false }),
      },
    });
    await openTab('Recent');
    fireEvent.click(await screen.findByRole('button', { name: /old\.example/ }));
    await screen.findByText('Enabled');

    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    fireEvent.click(screen.getByRole('button', { name: 'Yes, delete' }));

    expect((await screen.findByRole('alert')).textContent).toBe('The service did not delete this context. Refresh the list and try again.');
    await waitFor(() => {
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Delete' }));
    });
  });
});
