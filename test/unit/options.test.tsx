// @vitest-environment happy-dom
/**
 * The options page against a fake Connector: loading, connection, enterprise locks,
 * session and research defaults, policy, proxies, files, import and export. Each test
 * asserts the exact messages the page sends.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { browser } from 'wxt/browser';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { optionsSectionOf } from '../../src/messaging/options';
import { NoAnswerError, RemoteError } from '../../src/messaging/page';
import type { ImportPreview, ProtocolValues, SettingsView } from '../../src/messaging/protocol';
import { App } from '../../src/ui/options/App';
import { fakeConnector, renderApp, showSection, STATUS, viewOf, type Handlers } from '../support/options-page';
import { installFocusFixup } from '../support/focus-fixup';
import { installMessages } from '../support/i18n';

function connection() {
  return within(screen.getByRole('region', { name: 'Connection' }));
}

function type(element: HTMLElement, value: string): void {
  fireEvent.input(element, { target: { value } });
}

beforeEach(() => {
  fakeBrowser.reset();
  installMessages();
});

afterEach(() => {
  cleanup();
});

describe('options page: loading', () => {
  it('shows no inputs and is not ready until settings and status have loaded', async () => {
    let answer: (view: SettingsView) => void = () => undefined;
    const pending = new Promise<SettingsView>((resolve) => {
      answer = resolve;
    });
    const fake = fakeConnector({ getSettings: () => pending, getStatus: () => STATUS });
    const { container } = render(<App connector={fake.connector} />);

    expect(container.querySelector('[data-ready="false"]')).not.toBeNull();
    expect(screen.queryByRole('textbox')).toBeNull();

    answer(viewOf());
    await waitFor(() => {
      expect(container.querySelector('[data-ready="true"]')).not.toBeNull();
    });
    expect(screen.getByLabelText('Service URL')).toBeTruthy();
  });

  it('is ready with the connection alone when its address names no section', async () => {
    const fake = fakeConnector({ getSettings: () => viewOf(), getStatus: () => STATUS });
    history.replaceState(null, '', location.pathname);
    const { container } = render(<App connector={fake.connector} />);
    await waitFor(() => {
      expect(container.querySelector('[data-ready="true"]')).not.toBeNull();
    });

    expect(screen.getAllByRole('region').map((region) => region.getAttribute('id'))).toEqual(['connection']);
    expect(screen.getByRole('link', { name: 'Connection' }).getAttribute('aria-current')).toBe('page');
  });

  it('says what failed and offers to try again when loading fails', async () => {
    const fake = fakeConnector({
      getSettings: () => {
        throw new RemoteError({ name: 'Error', message: 'Isolink did not answer. Reload the extension and try again.' });
      },
      getStatus: () => STATUS,
    });
    render(<App connector={fake.connector} />);

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The settings could not be loaded: Isolink did not answer.');
    expect(within(alert).getByRole('button', { name: 'Try again' })).toBeTruthy();
  });

  it('links every section from the page navigation, named by its heading', async () => {
    await renderApp();
    const nav = screen.getByRole('navigation', { name: 'Sections' });
    const expected = ['#connection', '#policy', '#session', '#auto-isolate', '#proxies', '#files', '#import-export'];

    const actual = within(nav)
      .getAllByRole('link')
      .map((link) => link.getAttribute('href'));

    expect(actual).toEqual(expected);
    for (const href of expected) {
      const region = await showSection(optionsSectionOf(href));
      const heading = within(region).getByRole('heading', { level: 2 });
      expect(region.id).toBe(href.slice(1));
      expect(within(nav).getByRole('link', { current: 'page' }).textContent).toBe(heading.textContent);
      expect(screen.getAllByRole('region')).toEqual([region]);
    }
  });
});

describe('options page: one section at a time', () => {
  it('shows the section its address names, and the connection for a name it does not know', async () => {
    await renderApp({ at: '#files' });
    expect(screen.getAllByRole('region').map((region) => region.id)).toEqual(['files']);
    cleanup();

    await renderApp({ at: '#nowhere' });
    expect(screen.getAllByRole('region').map((region) => region.id)).toEqual(['connection']);
  });

  it('writes the section into the address, marks its link current and moves the focus to its heading', async () => {
    await renderApp();

    await showSection('auto-isolate');

    expect(location.hash).toBe('#auto-isolate');
    expect(screen.getByRole('link', { name: 'Isolate automatically' }).getAttribute('aria-current')).toBe('page');
    expect(screen.getByRole('link', { name: 'Connection' }).getAttribute('aria-current')).toBeNull();
    await waitFor(() => {
      expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Isolate automatically' }));
    });
  });

  it('follows the address when it changes from outside (back, or another page sending it to a section)', async () => {
    await renderApp();

    history.replaceState(null, '', '#proxies');
    window.dispatchEvent(new HashChangeEvent('hashchange'));

    expect(await screen.findByRole('region', { name: 'Organisation proxies' })).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Connection' })).toBeNull();
  });

  it('keeps what was typed in a section while another is shown', async () => {
    await renderApp({ view: viewOf({ serviceUrl: 'https://old.example.com' }) });
    type(connection().getByLabelText('Service URL'), 'https://typed.example.com');

    await showSection('files');
    await showSection('connection');

    expect(connection().getByLabelText<HTMLInputElement>('Service URL').value).toBe('https://typed.example.com');
  });

  it('marks the links of sections that hold settings the organisation set, in words too', async () => {
    await renderApp({ view: viewOf({}, { locked: ['maxUses', 'autoIsolate'] }) });
    const nav = within(screen.getByRole('navigation', { name: 'Sections' }));

    const marked = nav
      .getAllByRole('link')
      .filter((link) => link.querySelector('svg') !== null)
      .map((link) => link.getAttribute('href'));

    expect(marked).toEqual(['#session', '#auto-isolate']);
    expect(nav.getByRole('link', { name: 'Session defaults (holds settings set by your organisation)' })).toBeTruthy();
    expect(nav.getByRole('link', { name: 'Connection' })).toBeTruthy();
  });

  it('marks the connection when the organisation delivers the token', async () => {
    await renderApp({ view: viewOf({}, { tokenManaged: true }), status: { ...STATUS, tokenSource: 'managed' } });

    expect(screen.getByRole('link', { name: 'Connection (holds settings set by your organisation)' })).toBeTruthy();
  });
});

describe('options page: connection', () => {
  it('names every connection control as admins and tests expect', async () => {
    await renderApp({ view: viewOf({ serviceUrl: 'https://isolation.example.com' }) });
    const form = connection();

    expect(form.getByLabelText<HTMLInputElement>('Service URL').value).toBe('https://isolation.example.com');
    expect(form.getByLabelText<HTMLInputElement>('Launch URL').placeholder).toBe('Same as the service URL');
    expect(form.getByLabelText('Admin token').getAttribute('type')).toBe('password');
    expect(form.getByLabelText('Username')).toBeTruthy();
    expect(form.getByLabelText('Organisation')).toBeTruthy();
    expect(form.getByLabelText('Remember on this device')).toBeTruthy();
    expect(form.getByRole('button', { name: 'Save' })).toBeTruthy();
    expect(form.getByRole('button', { name: 'Test connection' })).toBeTruthy();
    expect(form.getByText(/stored in plain text in the browser profile/)).toBeTruthy();
  });

  it('never fills the token field, and says where the token is kept', async () => {
    await renderApp({ status: { ...STATUS, tokenSource: 'local' } });

    const token = connection().getByLabelText<HTMLInputElement>('Admin token');

    expect(token.value).toBe('');
    expect(connection().getByText('A token is set (remembered on this device)')).toBeTruthy();
  });

  it('saves only the keys that changed, and no token when none was typed', async () => {
    const { calls, sent } = await renderApp({ view: viewOf({ serviceUrl: 'https://old.example.com', username: 'analyst' }) });

    type(connection().getByLabelText('Service URL'), 'https://isolation.example.com');
    fireEvent.click(connection().getByRole('button', { name: 'Save' }));

    await connection().findByText('Saved.');
    expect(sent('saveSettings')).toEqual([{ patch: { serviceUrl: 'https://isolation.example.com' } }]);
    expect(calls.some((call) => call.type === 'setToken' || call.type === 'setRemember')).toBe(false);
  });

  it('sends a typed token once with the remember choice, then clears the field', async () => {
    const { sent, container } = await renderApp({ handlers: { setToken: () => ({ ...STATUS, tokenSource: 'session' }) } });
    const token = connection().getByLabelText<HTMLInputElement>('Admin token');

    type(token, '  tok-3f9a7c1e  ');
    fireEvent.click(connection().getByRole('button', { name: 'Save' }));

    await connection().findByText('Saved.');
    expect(sent('setToken')).toEqual([{ token: 'tok-3f9a7c1e', remember: false }]);
    expect(sent('saveSettings')).toEqual([]);
    expect(token.value).toBe('');
    expect(container.innerHTML).not.toContain('tok-3f9a7c1e');
  });

  it('sends setRemember when only the remember box changed', async () => {
    const { sent } = await renderApp({
      handlers: {
        setRemember: () => ({ ...STATUS, tokenSource: 'local' }),
      },
    });
    fireEvent.click(connection().getByLabelText('Remember on this device'));
    fireEvent.click(connection().getByRole('button', { name: 'Save' }));

    await connection().findByText('Saved.');
    expect(sent('setRemember')).toEqual([{ remember: true }]);
    expect(sent('saveSettings')).toEqual([]);
    expect(sent('setToken')).toEqual([]);
  });

  it('saves exactly one identity: choosing the organisation saves the username as empty', async () => {
    const { sent } = await renderApp({ view: viewOf({ username: 'analyst' }) });

    type(connection().getByLabelText('Organisation'), 'acme/soc');
    fireEvent.click(connection().getByRole('button', { name: 'Save' }));

    await connection().findByText('Saved.');
    expect(sent('saveSettings')).toEqual([{ patch: { username: '', org: 'acme/soc' } }]);
    expect(connection().getByLabelText<HTMLInputElement>('By organisation').checked).toBe(true);
  });

  it('refuses a service URL that is not https, beside the field, without sending it', async () => {
    const { sent } = await renderApp();

    type(connection().getByLabelText('Service URL'), 'http://isolation.example.com');
    fireEvent.click(connection().getByRole('button', { name: 'Save' }));

    expect(await connection().findByText(/The value must be an https URL/)).toBeTruthy();
    expect(connection().getByLabelText('Service URL').getAttribute('aria-invalid')).toBe('true');
    expect(sent('saveSettings')).toEqual([]);
  });

  it('shows the message of Test connection', async () => {
    const { sent } = await renderApp({ handlers: { testConnection: () => ({ message: 'Connected to isolation.example.com: the token works.' }) } });

    fireEvent.click(connection().getByRole('button', { name: 'Test connection' }));

    const status = await connection().findByText('Connected to isolation.example.com: the token works.');
    expect(status.getAttribute('role')).toBe('status');
    expect(sent('testConnection')).toEqual([{}]);
  });

  it('shows the error of Test connection in an alert', async () => {
    await renderApp({
      handlers: {
        testConnection: () => {
          throw new RemoteError({ name: 'AuthError', message: 'The service rejected the admin token. Check the token in the options.' });
        },
      },
    });

    fireEvent.click(connection().getByRole('button', { name: 'Test connection' }));

    const alert = await connection().findByText('The service rejected the admin token. Check the token in the options.');
    expect(alert.getAttribute('role')).toBe('alert');
  });

  it('forgets the token on request', async () => {
    const { sent } = await renderApp({ handlers: { clearToken: () => ({ ...STATUS, hasToken: false, tokenSource: null }) } });

    fireEvent.click(connection().getByRole('button', { name: 'Forget token' }));

    await connection().findByText(/The token was forgotten/);
    expect(sent('clearToken')).toEqual([{}]);
    expect(connection().getByText(/No token is set/)).toBeTruthy();
  });

  it('asks the browser for the exact service origin when access is missing', async () => {
    // The promise form of permissions.request (its typings end with the callback form).
    const permissions = browser.permissions as { request: (permissions: { origins?: string[] }) => Promise<boolean> };
    const request = vi.spyOn(permissions, 'request').mockResolvedValue(true);
    const { sent } = await renderApp({ status: { ...STATUS, hostPermission: false } });

    fireEvent.click(connection().getByRole('button', { name: 'Grant access' }));

    await connection().findByText('Access to https://isolation.example.com granted.');
    expect(request.mock.calls).toEqual([[{ origins: ['https://isolation.example.com/*'] }]]);
    expect(sent('getStatus')).toHaveLength(2);
  });

  it('offers no access button for a loopback service', async () => {
    await renderApp({ status: { ...STATUS, hostPermission: false, serviceOrigin: 'http://127.0.0.1:8787' } });

    expect(connection().queryByRole('button', { name: 'Grant access' })).toBeNull();
  });
});

describe('options page: enterprise', () => {
  it('disables a locked key, marks it, and leaves it out of the save', async () => {
    const view = viewOf({ serviceUrl: 'https://corp.example.com' }, { locked: ['serviceUrl'] });
    const { sent } = await renderApp({ view });
    const serviceUrl = connection().getByLabelText<HTMLInputElement>('Service URL');

    expect(serviceUrl.disabled).toBe(true);
    const note = serviceUrl.closest('.field')?.querySelector('.locked');
    expect(note?.textContent).toBe('Set by your organisation');
    expect(serviceUrl.getAttribute('aria-describedby')).toContain(note?.id ?? 'missing');

    type(connection().getByLabelText('Launch URL'), 'https://launch.example.com');
    fireEvent.click(connection().getByRole('button', { name: 'Save' }));

    await connection().findByText('Saved.');
    expect(sent('saveSettings')).toEqual([{ patch: { launchUrl: 'https://launch.example.com' } }]);
  });

  it('disables the token field when the organisation delivers the token', async () => {
    await renderApp({ view: viewOf({}, { tokenManaged: true }), status: { ...STATUS, tokenSource: 'managed' } });
    const token = connection().getByLabelText<HTMLInputElement>('Admin token');

    expect(token.disabled).toBe(true);
    expect(connection().getByText('A token is set (set by your organisation)')).toBeTruthy();
    expect(connection().queryByRole('button', { name: 'Forget token' })).toBeNull();
  });

  it('lists the managed settings that could not be used, at the top', async () => {
    await renderApp({
      view: viewOf(
        {},
        {
          managedIssues: [
            { key: 'maxUses', code: 'notPositive', params: ['maxUses'], message: 'must be positive' },
            { key: 'colour', code: 'settingUnknown', params: ['colour'], message: 'is not a setting' },
          ],
        },
      ),
    });

    const region = screen.getByRole('region', { name: 'Some settings from your organisation could not be used' });
    expect(
      within(region)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['maxUses must be greater than zero.', 'colour is not a setting of Isolink.']);
    expect(region.textContent).not.toContain('must be positive');
  });

  it('says that nothing is isolated while a managed connection value is broken', async () => {
    await renderApp({
      view: viewOf(
        {},
        { managedIssues: [{ key: 'serviceUrl', code: 'settingServiceBase', params: ['serviceUrl'], message: 'x' }], managedBroken: ['serviceUrl'] },
      ),
    });

    const region = screen.getByRole('region', { name: 'Some settings from your organisation could not be used' });
    expect(
      within(region).getByText(
        "Your organisation's policy for Isolink has a value Isolink cannot use for: serviceUrl. Nothing is isolated until your administrator fixes it.",
      ),
    ).toBeTruthy();
  });

  it('locks the session defaults key by key', async () => {
    await renderApp({ section: 'session', view: viewOf({}, { locked: ['maxUses', 'research'] }) });
    const session = within(screen.getByRole('region', { name: 'Session defaults' }));

    expect(session.getByLabelText<HTMLInputElement>('Max uses').disabled).toBe(true);
    expect(session.getByLabelText<HTMLSelectElement>('Egress location').disabled).toBe(true);
    expect(session.getByLabelText<HTMLSelectElement>('Expiry').disabled).toBe(false);
  });
});

describe('options page: session and research defaults', () => {
  function session() {
    return within(screen.getByRole('region', { name: 'Session defaults' }));
  }

  it('saves the changed session defaults with exact values', async () => {
    const { sent } = await renderApp({ section: 'session', view: viewOf({ maxUses: 3 }) });

    type(session().getByLabelText('Max uses'), '');
    fireEvent.change(session().getByLabelText('Expiry'), { target: { value: 'custom' } });
    type(session().getByLabelText('Custom expiry in minutes'), '90');
    fireEvent.click(session().getByLabelText("Allow the link's own domain"));
    fireEvent.change(session().getByLabelText('Tab placement'), { target: { value: 'background' } });
    type(session().getByLabelText('Bulk confirmation threshold'), '12');
    fireEvent.click(session().getByRole('button', { name: 'Save session defaults' }));

    await session().findByText('Session defaults saved.');
    expect(sent('saveSettings')).toEqual([
      {
        patch: {
          maxUses: null,
          expiry: { preset: 'custom', customMinutes: 90 },
          autoDomainAllow: false,
          tabPlacement: 'background',
          bulkConfirmThreshold: 12,
        },
      },
    ]);
  });

  it('saves the setting for rewritten links; the organisation can lock it', async () => {
    const { sent } = await renderApp({ section: 'session' });
    const unwrap = session().getByLabelText<HTMLSelectElement>('Rewritten links (Safe Links, Proofpoint…)');

    expect([...unwrap.options].map((option) => [option.value, option.textContent])).toEqual([
      ['unwrap', 'Isolate the real target'],
      ['ask', 'Ask each time'],
      ['keep', 'Isolate the rewritten link as it is'],
    ]);
    expect(unwrap.value).toBe('unwrap');
    fireEvent.change(unwrap, { target: { value: 'ask' } });
    fireEvent.click(session().getByRole('button', { name: 'Save session defaults' }));

    await session().findByText('Session defaults saved.');
    expect(sent('saveSettings')).toEqual([{ patch: { unwrap: 'ask' } }]);
    cleanup();

    await renderApp({ section: 'session', view: viewOf({ unwrap: 'keep' }, { locked: ['unwrap'] }) });
    const locked = session().getByLabelText<HTMLSelectElement>('Rewritten links (Safe Links, Proofpoint…)');
    expect(locked.disabled).toBe(true);
    expect(locked.value).toBe('keep');
  });

  it('links the reported mail page, opening in a new tab', async () => {
    await renderApp({ section: 'session' });

    const link = session().getByRole<HTMLAnchorElement>('link', { name: 'Open the reported mail page' });
    expect(link.href).toBe(browser.runtime.getURL('/mail.html'));
    expect(link.target).toBe('_blank');
  });

  it('refuses a max uses that is not a whole number, saying what to enter', async () => {
    const { sent } = await renderApp({ section: 'session' });

    type(session().getByLabelText('Max uses'), '2.5');
    fireEvent.click(session().getByRole('button', { name: 'Save session defaults' }));

    expect(await session().findByText(/Enter a whole number from 1 to 1000000/)).toBeTruthy();
    expect(sent('saveSettings')).toEqual([]);
  });

  it('groups egress locations by region and saves the research defaults', async () => {
    const { sent } = await renderApp({ section: 'session' });
    const egress = session().getByLabelText<HTMLSelectElement>('Egress location');

    const groups = [...egress.querySelectorAll('optgroup')].map((group) => group.label);
    expect(groups).toEqual(['North America', 'Central & South America', 'Europe', 'Middle East & Africa', 'Asia-Pacific']);

    fireEvent.change(egress, { target: { value: 'Frankfurt' } });
    fireEvent.click(session().getByLabelText('Use a browser profile'));
    fireEvent.change(session().getByLabelText('Operating system'), { target: { value: 'linux' } });
    fireEvent.change(session().getByLabelText('Browser'), { target: { value: 'firefox' } });
    type(session().getByLabelText('Time zone'), 'Europe/Berlin');
    type(session().getByLabelText('Languages'), 'de-DE,de;q=0.9');
    fireEvent.click(session().getByLabelText('Public (public)'));
    fireEvent.click(session().getByLabelText('Data centre (datacenter)'));
    fireEvent.click(session().getByRole('button', { name: 'Save session defaults' }));

    await session().findByText('Session defaults saved.');
    expect(sent('saveSettings')).toEqual([
      {
        patch: {
          research: {
            egressRegion: 'Frankfurt',
            browserProfile: { os: 'linux', browser: 'firefox', timezone: 'Europe/Berlin', languages: 'de-DE,de;q=0.9' },
            availability: ['public'],
            connectivity: ['datacenter'],
          },
        },
      },
    ]);
  });

  it('refuses a time zone given as an offset', async () => {
    const { sent } = await renderApp({ section: 'session' });

    fireEvent.click(session().getByLabelText('Use a browser profile'));
    type(session().getByLabelText('Time zone'), '+02:00');
    fireEvent.click(session().getByRole('button', { name: 'Save session defaults' }));

    expect(await session().findByText(/not an offset such as \+02:00/)).toBeTruthy();
    expect(sent('saveSettings')).toEqual([]);
  });
});

describe('options page: policy defaults', () => {
  function policy() {
    return within(screen.getByRole('region', { name: 'Policy defaults' }));
  }

  function savePolicy(): void {
    fireEvent.click(policy().getByRole('button', { name: 'Save policy defaults' }));
  }

  it('has a control for every policy type of the table', async () => {
    await renderApp({ section: 'policy' });
    const form = policy();

    expect(form.getByLabelText('Read-only session').tagName).toBe('SELECT');
    expect(form.getByLabelText('File transfer').tagName).toBe('SELECT');
    expect(form.getByRole('group', { name: 'Clipboard' })).toBeTruthy();
    expect(form.getByLabelText('Ad blocking').tagName).toBe('SELECT');
    expect(form.getByLabelText('Browser interface').tagName).toBe('SELECT');
    expect(form.getByRole('group', { name: 'Allowed domains' })).toBeTruthy();
    expect(form.getByRole('group', { name: 'Blocked domains' })).toBeTruthy();
    expect(form.getByLabelText('Ribbon background colour')).toBeTruthy();
    expect(form.getByLabelText('Ribbon text colour')).toBeTruthy();
    expect(form.getByLabelText('Ribbon message')).toBeTruthy();
    expect(form.getByText('Catchall users always get minimal, whatever is chosen here.')).toBeTruthy();
    const readonly = form.getByLabelText<HTMLSelectElement>('Read-only session');
    expect([...readonly.options].map((option) => option.text)).toEqual(['Not set (service default: false)', 'On (true)', 'Off (false)']);
  });

  it('counts the ribbon message in code points', async () => {
    await renderApp({ section: 'policy' });

    type(policy().getByLabelText('Ribbon message'), 'Phish 🎣🎣');

    expect(policy().getByText('8/100')).toBeTruthy();
  });

  it('refuses a ribbon message over 100 characters, naming the entry', async () => {
    const { sent } = await renderApp({ section: 'policy' });

    type(policy().getByLabelText('Ribbon message'), 'x'.repeat(101));
    savePolicy();

    expect(policy().getByText('101/100').className).toContain('error');
    const expected = 'The policy was not saved: policy[0].params[0] must be at most 100 characters long. Correct it and save again.';
    expect(await policy().findByText(expected, { selector: '[role="alert"]' })).toBeTruthy();
    expect(policy().getByText(expected, { selector: '.field .error' })).toBeTruthy();
    expect(sent('saveSettings')).toEqual([]);
  });

  it('keeps block_all and allow_all apart from every other clipboard value', async () => {
    const { sent } = await renderApp({ section: 'policy' });
    const clipboard = within(policy().getByRole('group', { name: 'Clipboard' }));
    const box = (name: string) => clipboard.getByLabelText<HTMLInputElement>(name);
    const checked = () =>
      [
        'Block both directions (block_all)',
        'Allow both directions (allow_all)',
        'Allow copying from the session to this computer (allow_to_local)',
        'Block pasting from this computer into the session (block_to_silo)',
      ]
        .filter((name) => box(name).checked)
        .map((name) => name.slice(name.lastIndexOf('(') + 1, -1));

    fireEvent.click(box('Allow copying from the session to this computer (allow_to_local)'));
    fireEvent.click(box('Block pasting from this computer into the session (block_to_silo)'));
    expect(checked()).toEqual(['allow_to_local', 'block_to_silo']);

    fireEvent.click(box('Block both directions (block_all)'));
    expect(checked()).toEqual(['block_all']);

    fireEvent.click(box('Allow both directions (allow_all)'));
    expect(checked()).toEqual(['allow_all']);

    fireEvent.click(box('Block pasting from this computer into the session (block_to_silo)'));
    expect(checked()).toEqual(['block_to_silo']);

    savePolicy();
    await policy().findByText('Policy defaults saved.');
    expect(sent('saveSettings')).toEqual([{ patch: { policy: [{ type: 'clipboard', params: ['block_to_silo'] }] } }]);
  });

  it('adds domains in punycode and refuses what is not a host name', async () => {
    const { sent } = await renderApp({ section: 'policy' });
    const allowed = within(policy().getByRole('group', { name: 'Allowed domains' }));

    type(allowed.getByLabelText('Add an allowed domain'), 'Пример.РФ');
    fireEvent.click(allowed.getByRole('button', { name: 'Add' }));
    expect(allowed.getByText('xn--e1afmkfd.xn--p1ai')).toBeTruthy();
    expect(allowed.getByText('Added Пример.РФ as xn--e1afmkfd.xn--p1ai.')).toBeTruthy();

    type(allowed.getByLabelText('Add an allowed domain'), 'https://evil.example/login');
    fireEvent.click(allowed.getByRole('button', { name: 'Add' }));
    expect(allowed.getByText(/“https:\/\/evil\.example\/login” is not a valid domain name/)).toBeTruthy();

    savePolicy();
    await policy().findByText('Policy defaults saved.');
    expect(sent('saveSettings')).toEqual([{ patch: { policy: [{ type: 'domain_allow', params: ['xn--e1afmkfd.xn--p1ai'] }] } }]);
  });

  it('removes a domain from the list', async () => {
    const { sent } = await renderApp({ section: 'policy', view: viewOf({ policy: [{ type: 'domain_block', params: ['bad.example', 'worse.example'] }] }) });
    const blocked = within(policy().getByRole('group', { name: 'Blocked domains' }));

    fireEvent.click(blocked.getByRole('button', { name: 'Remove bad.example' }));
    savePolicy();

    await policy().findByText('Policy defaults saved.');
    expect(sent('saveSettings')).toEqual([{ patch: { policy: [{ type: 'domain_block', params: ['worse.example'] }] } }]);
  });

  it('shows the path and reason of a bad policy beside its control, and sends nothing', async () => {
    const { sent } = await renderApp({ section: 'policy', view: viewOf({ policy: [{ type: 'readonly', params: ['true'] }] }) });

    type(policy().getByLabelText('Ribbon background colour'), '#12');
    savePolicy();

    const expected = 'The policy was not saved: policy[1].params must be one colour, written #rgb or #rrggbb. Correct it and save again.';
    const field = policy().getByLabelText('Ribbon background colour').closest('.field');
    await waitFor(() => {
      expect(field?.textContent).toContain(expected);
    });
    expect(policy().getByRole('alert').textContent).toBe(expected);
    expect(sent('saveSettings')).toEqual([]);
  });

  it('previews the ribbon in its colours', async () => {
    const { container } = await renderApp({ section: 'policy' });

    type(policy().getByLabelText('Ribbon background colour'), '#123456');
    type(policy().getByLabelText('Ribbon text colour'), '#fff');
    type(policy().getByLabelText('Ribbon message'), 'Isolated session');

    const preview = container.querySelector<HTMLElement>('.ribbon-preview');
    expect(preview?.textContent).toBe('Isolated session');
    expect(preview?.style.backgroundColor).toMatch(/^(#123456|rgb\(18, 52, 86\))$/);
    expect(preview?.style.color).toMatch(/^(#fff|rgb\(255, 255, 255\))$/);
  });

  it('keeps entries of unknown types untouched and lists them read-only', async () => {
    const stored = [
      { type: 'watermark', params: ['on', 'Confidential'] },
      { type: 'readonly', params: ['true'] },
    ];
    const { sent } = await renderApp({ section: 'policy', view: viewOf({ policy: stored }) });

    expect(policy().getByText('watermark')).toBeTruthy();
    expect(policy().getByText('on, Confidential')).toBeTruthy();
    fireEvent.change(policy().getByLabelText('Ad blocking'), { target: { value: 'enable' } });
    savePolicy();

    await policy().findByText('Policy defaults saved.');
    expect(sent('saveSettings')).toEqual([
      {
        patch: {
          policy: [
            { type: 'readonly', params: ['true'] },
            { type: 'ad_block', params: ['enable'] },
            { type: 'watermark', params: ['on', 'Confidential'] },
          ],
        },
      },
    ]);
  });

  it('disables every policy control when the organisation sets the policy', async () => {
    await renderApp({ section: 'policy', view: viewOf({}, { locked: ['policy'] }) });

    expect(policy().getByLabelText<HTMLSelectElement>('Read-only session').disabled).toBe(true);
    expect(policy().getByLabelText<HTMLInputElement>('Ribbon message').disabled).toBe(true);
    expect(policy().getByLabelText<HTMLInputElement>('Block both directions (block_all)').disabled).toBe(true);
    expect(policy().queryByLabelText('Add an allowed domain')).toBeNull();
    expect(policy().getAllByText('Set by your organisation').length).toBeGreaterThanOrEqual(10);
    expect(policy().getByRole<HTMLButtonElement>('button', { name: 'Save policy defaults' }).disabled).toBe(true);
  });
});

describe('options page: organisation proxies', () => {
  const OWN = { name: 'web1', location: { address: '203.0.113.7', port: 3128, type: 'http' } };
  const INHERITED = { name: 'corp', location: { address: 'proxy.corp.example', port: 443, type: 'https' }, inherited_from: 'acme' };

  function proxies() {
    return within(screen.getByRole('region', { name: 'Organisation proxies' }));
  }

  async function loaded(handlers: Handlers = {}) {
    const app = await renderApp({
      section: 'proxies',
      view: viewOf({ org: 'acme/soc' }),
      handlers: { getProxies: () => ({ proxies: [OWN, INHERITED] }), ...handlers },
    });
    expect(proxies().getByLabelText<HTMLInputElement>('Organisation whose proxies to manage').value).toBe('acme/soc');
    fireEvent.click(proxies().getByRole('button', { name: 'Load' }));
    await proxies().findByText('Loaded 1 own and 1 inherited proxies of acme/soc.');
    return app;
  }

  it('loads the list, marking inherited proxies and offering no way to delete them', async () => {
    const { sent } = await loaded();

    expect(sent('getProxies')).toEqual([{ org: 'acme/soc' }]);
    expect(proxies().getByText('inherited from acme')).toBeTruthy();
    expect(proxies().getByLabelText('Select web1')).toBeTruthy();
    expect(proxies().queryByLabelText('Select corp')).toBeNull();
    expect(proxies().getByLabelText<HTMLInputElement>('Address of web1').value).toBe('203.0.113.7');
  });

  it('refuses an invalid proxy before sending anything', async () => {
    const { sent } = await loaded();

    type(proxies().getByLabelText('Proxy name'), 'p2');
    type(proxies().getByLabelText('Address'), 'not a host');
    fireEvent.click(proxies().getByRole('button', { name: 'Add proxy' }));

    expect(
      await proxies().findByText('proxy[0].location.address must be an IP address or a fully qualified domain name. Correct it and try again.', {
        selector: '[role="alert"]',
      }),
    ).toBeTruthy();
    expect(sent('addProxies')).toEqual([]);
  });

  it('adds a proxy with its defaults filled in and shows the warnings', async () => {
    const warning = {
      proxy: 'p2',
      code: 'https_certificate_name' as const,
      message: "p2: the address must equal the Common Name of the proxy's certificate, or users get ERR_PROXY_CERTIFICATE_INVALID.",
    };
    const { sent } = await loaded({ addProxies: ({ proxies: added }) => ({ proxies: [OWN, ...(added as (typeof OWN)[])], warnings: [warning] }) });

    type(proxies().getByLabelText('Proxy name'), 'p2');
    type(proxies().getByLabelText('Address'), 'Proxy.Example.com');
    fireEvent.change(proxies().getByLabelText('Type'), { target: { value: 'https' } });
    fireEvent.click(proxies().getByRole('button', { name: 'Add proxy' }));

    await proxies().findByText('Added p2 to acme/soc.');
    expect(sent('addProxies')).toEqual([{ org: 'acme/soc', proxies: [{ name: 'p2', location: { address: 'proxy.example.com', port: 443, type: 'https' } }] }]);
    expect(proxies().getByRole('list', { name: 'Warnings' }).textContent).toBe(warning.message);
  });

  it('reports the names the service did not find when deleting', async () => {
    const { sent } = await loaded({ deleteProxies: () => ({ proxies_deleted: [], proxies_not_found: ['web1'] }) });

    fireEvent.click(proxies().getByLabelText('Select web1'));
    fireEvent.click(proxies().getByRole('button', { name: 'Delete selected' }));

    const alert = await proxies().findByText(/Not found, so not deleted: web1\./);
    expect(alert.getAttribute('role')).toBe('alert');
    expect(sent('deleteProxies')).toEqual([{ org: 'acme/soc', names: ['web1'] }]);
  });

  it('replaces the whole list with the edited one after a confirmation', async () => {
    const { sent } = await loaded({ setProxies: ({ proxies: list }) => ({ proxies: list as (typeof OWN)[], warnings: [] }) });

    type(proxies().getByLabelText('Port of web1'), '8080');
    fireEvent.click(proxies().getByRole('button', { name: 'Replace all' }));

    expect(sent('setProxies')).toEqual([]);
    expect(proxies().getByText('Replace every proxy of acme/soc with the 1 in the list above?')).toBeTruthy();
    expect(document.activeElement?.textContent).toBe('Cancel');
    fireEvent.click(proxies().getByRole('button', { name: 'Replace the list' }));

    await proxies().findByText('The proxy list of acme/soc now holds 1 proxies.');
    expect(sent('setProxies')).toEqual([{ org: 'acme/soc', proxies: [{ name: 'web1', location: { address: '203.0.113.7', port: 8080, type: 'http' } }] }]);
  });

  it('refuses to replace with an invalid row, naming it', async () => {
    const { sent } = await loaded();

    type(proxies().getByLabelText('Port of web1'), '70000');
    fireEvent.click(proxies().getByRole('button', { name: 'Replace all' }));

    expect(
      await proxies().findByText('proxies[0].location.port must be a port number from 1 to 65535. Correct it and try again.', { selector: '.row-error p' }),
    ).toBeTruthy();
    expect(proxies().queryByRole('button', { name: 'Replace the list' })).toBeNull();
    expect(sent('setProxies')).toEqual([]);
  });

  it('asks twice before clearing every proxy, and sends nothing when cancelled', async () => {
    const { sent } = await loaded({ setProxies: () => ({ proxies: [], warnings: [] }) });

    fireEvent.click(proxies().getByRole('button', { name: 'Remove web1 from the list' }));
    fireEvent.click(proxies().getByRole('button', { name: 'Replace all' }));
    fireEvent.click(proxies().getByRole('button', { name: 'Continue' }));
    expect(proxies().getByText('Really clear the whole proxy list of acme/soc? This cannot be undone.')).toBeTruthy();
    fireEvent.click(proxies().getByRole('button', { name: 'Cancel' }));
    expect(sent('setProxies')).toEqual([]);

    fireEvent.click(proxies().getByRole('button', { name: 'Clear all' }));
    fireEvent.click(proxies().getByRole('button', { name: 'Continue' }));
    expect(sent('setProxies')).toEqual([]);
    fireEvent.click(proxies().getByRole('button', { name: 'Clear all proxies' }));

    await proxies().findByText('Every proxy of acme/soc was removed.');
    expect(sent('setProxies')).toEqual([{ org: 'acme/soc', proxies: [] }]);
  });
});

describe('options page: files', () => {
  function files() {
    return within(screen.getByRole('region', { name: 'Files' }));
  }

  function choose(input: HTMLElement, file: File): void {
    fireEvent.change(input, { target: { files: [file] } });
  }

  it('uploads the bytes of the chosen file as base64, named after the file', async () => {
    const { sent } = await renderApp({ section: 'files', handlers: { putFile: () => ({ fileId: 'f-8d2c' }) } });
    const file = new File([new Uint8Array([0, 1, 2, 253, 254, 255])], 'sample.bin', { type: 'application/octet-stream' });

    choose(files().getByLabelText('File to upload'), file);
    type(files().getByLabelText('Destination path'), '/inbox');
    type(files().getByLabelText('Bucket id'), 'bucket-1');
    type(within(files().getByRole('button', { name: 'Upload' }).closest('form') as HTMLElement).getByLabelText('File token'), 'ft-77');
    fireEvent.click(files().getByRole('button', { name: 'Upload' }));

    await files().findByText('f-8d2c');
    expect(files().getByLabelText<HTMLInputElement>('File name').value).toBe('sample.bin');
    expect(sent('putFile')).toEqual([
      { name: 'sample.bin', path: '/inbox', bucketId: 'bucket-1', fileToken: 'ft-77', base64: 'AAEC/f7/', contentType: 'application/octet-stream' },
    ]);
  });

  it('refuses a file over the size limit with a clear message', async () => {
    const { sent } = await renderApp({ section: 'files' });
    const file = new File([new Uint8Array(1)], 'huge.iso');
    Object.defineProperty(file, 'size', { value: 20 * 1024 * 1024 + 1 });

    choose(files().getByLabelText('File to upload'), file);
    type(files().getByLabelText('Bucket id'), 'bucket-1');
    type(within(files().getByRole('button', { name: 'Upload' }).closest('form') as HTMLElement).getByLabelText('File token'), 'ft-77');
    fireEvent.click(files().getByRole('button', { name: 'Upload' }));

    expect(await files().findByText('huge.iso is 20.0 MiB, and Isolink uploads files of at most 20 MiB. Choose a smaller file.')).toBeTruthy();
    expect(sent('putFile')).toEqual([]);
  });

  it('saves a downloaded file through a temporary link', async () => {
    const blobs: Blob[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      blobs.push(blob as Blob);
      return 'blob:isolink/1';
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    const names: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      names.push(`${this.download} ${this.getAttribute('href') ?? ''}`);
    });
    const { sent } = await renderApp({ section: 'files', handlers: { getFile: () => ({ base64: 'aGVsbG8=', size: 5 }) } });
    const form = within(files().getByRole('button', { name: 'Download' }).closest('form') as HTMLElement);

    type(form.getByLabelText('File id'), 'f-8d2c');
    type(form.getByLabelText('File token'), 'ft-77');
    fireEvent.click(form.getByRole('button', { name: 'Download' }));

    await form.findByText('Saved f-8d2c (5 bytes).');
    expect(sent('getFile')).toEqual([{ id: 'f-8d2c', fileToken: 'ft-77' }]);
    expect(names).toEqual(['f-8d2c blob:isolink/1']);
    expect(await blobs[0]?.text()).toBe('hello');
    expect(document.querySelector('a[download]')).toBeNull();
  });
});

describe('options page: import and export', () => {
  function section() {
    return within(screen.getByRole('region', { name: 'Import and export' }));
  }

  it('says the token is never exported, and exports to isolink-settings.json', async () => {
    const blobs: Blob[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      blobs.push(blob as Blob);
      return 'blob:isolink/2';
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    const names: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      names.push(this.download);
    });
    const json = '{"format":"isolink-settings","version":1,"settings":{}}';
    const { sent } = await renderApp({ section: 'import-export', handlers: { exportSettings: () => ({ json }) } });

    expect(section().getByText('The admin token is never included in an export, and an import never sets it.')).toBeTruthy();
    fireEvent.click(section().getByRole('button', { name: 'Export settings' }));

    await section().findByText('Exported to isolink-settings.json.');
    expect(sent('exportSettings')).toEqual([{}]);
    expect(names).toEqual(['isolink-settings.json']);
    expect(await blobs[0]?.text()).toBe(json);
  });

  it('shows the refused key when an import fails', async () => {
    const { sent } = await renderApp({
      section: 'import-export',
      handlers: {
        previewImport: () => {
          // The background says a SettingsError from its codes: the words come translated.
          throw new RemoteError({ name: 'SettingsError', message: 'serviceUrl must be an https URL (http only on 127.0.0.1 or localhost).' });
        },
      },
    });
    const text = '{"format":"isolink-settings","version":1,"settings":{"serviceUrl":"http://x.example"}}';

    fireEvent.change(section().getByLabelText('Import settings'), { target: { files: [new File([text], 'settings.json', { type: 'application/json' })] } });

    const alert = await section().findByText('Import refused, nothing was changed: serviceUrl must be an https URL (http only on 127.0.0.1 or localhost).');
    expect(alert.getAttribute('role')).toBe('alert');
    expect(sent('previewImport')).toEqual([{ json: text }]);
    expect(sent('importSettings')).toEqual([]);
  });

  const MOVING: ImportPreview = {
    changes: ['serviceUrl', 'launchUrl', 'maxUses'],
    service: { from: 'https://isolation.acme.example', to: 'https://isolation.evil.example' },
    launch: { from: 'https://launch.acme.example', to: 'https://launch.evil.example' },
    connection: { serviceUrl: 'https://isolation.evil.example', launchUrl: 'https://launch.evil.example' },
    exceptAdded: ['evil.example'],
  };

  it('choosing a file changes nothing: it names the old and new origins and waits for Apply', async () => {
    const { sent } = await renderApp({
      section: 'import-export',
      handlers: { previewImport: () => MOVING, importSettings: () => viewOf({ serviceUrl: 'https://isolation.evil.example' }) },
    });

    fireEvent.change(section().getByLabelText('Import settings'), { target: { files: [new File(['{"x":1}'], 'from-it.json')] } });

    const review = await section().findByRole('group', { name: 'Importing from-it.json changes these settings: Service URL, Launch URL, Max uses.' });
    expect(
      within(review).getByText(
        'The service changes from https://isolation.acme.example to https://isolation.evil.example. Your admin token is kept for https://isolation.acme.example and never sent to https://isolation.evil.example: enter the token for https://isolation.evil.example after importing.',
      ),
    ).toBeTruthy();
    expect(within(review).getByText('Isolated tabs will open on https://launch.evil.example instead of https://launch.acme.example.')).toBeTruthy();
    expect(
      within(review).getByText('This file adds domains that are never isolated automatically: evil.example. Links to them will load on this computer.'),
    ).toBeTruthy();
    expect(sent('importSettings')).toEqual([]);

    fireEvent.click(within(review).getByRole('button', { name: 'Apply import' }));

    await section().findByText('Imported the settings from from-it.json.');
    expect(sent('importSettings')).toEqual([{ json: '{"x":1}', confirmed: MOVING.connection }]);
    await showSection('connection');
    expect(connection().getByLabelText<HTMLInputElement>('Service URL').value).toBe('https://isolation.evil.example');
  });

  it('Cancel imports nothing', async () => {
    const { sent } = await renderApp({ section: 'import-export', handlers: { previewImport: () => MOVING } });

    fireEvent.change(section().getByLabelText('Import settings'), { target: { files: [new File(['{}'], 'settings.json')] } });
    fireEvent.click(await section().findByRole('button', { name: 'Cancel' }));

    expect(await section().findByText('Nothing was imported.')).toBeTruthy();
    expect(section().queryByRole('button', { name: 'Apply import' })).toBeNull();
    expect(sent('importSettings')).toEqual([]);
  });
});

// ---- defects found in review ------------------------------------------------

function deferred<T>() {
  let resolve: (value: T) => void = () => undefined;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

describe('options page: errors say what to do', () => {
  it('shows what to do, not the raw text, when the background cannot be reached', async () => {
    await renderApp({
      handlers: {
        testConnection: () => {
          throw new Error('Could not establish connection. Receiving end does not exist.');
        },
      },
    });

    fireEvent.click(connection().getByRole('button', { name: 'Test connection' }));

    const alert = await connection().findByRole('alert');
    expect(alert.textContent).toBe('Something went wrong. Reload the page and try again.');
  });
});

describe('options page: answers that come back after the user moved on', () => {
  it('keeps what was typed while a save ran', async () => {
    const saved = deferred<SettingsView>();
    await renderApp({ handlers: { saveSettings: () => saved.promise } });

    type(connection().getByLabelText('Service URL'), 'https://isolation.example.com');
    fireEvent.click(connection().getByRole('button', { name: 'Save' }));
    type(connection().getByLabelText('Launch URL'), 'https://launch.example.com');
    saved.resolve(viewOf({ serviceUrl: 'https://isolation.example.com' }));

    await connection().findByText('Saved.');
    expect(connection().getByLabelText<HTMLInputElement>('Launch URL').value).toBe('https://launch.example.com');
  });

  it('keeps the session defaults typed while a save ran', async () => {
    const saved = deferred<SettingsView>();
    await renderApp({ section: 'session', handlers: { saveSettings: () => saved.promise } });
    const session = within(screen.getByRole('region', { name: 'Session defaults' }));

    type(session.getByLabelText('Max uses'), '7');
    fireEvent.click(session.getByRole('button', { name: 'Save session defaults' }));
    type(session.getByLabelText('Bulk confirmation threshold'), '9');
    saved.resolve(viewOf({ maxUses: 7 }));

    await session.findByText('Session defaults saved.');
    expect(session.getByLabelText<HTMLInputElement>('Bulk confirmation threshold').value).toBe('9');
  });

  it('does not show the proxies of an organisation no longer entered', async () => {
    const list = deferred<ProtocolValues['getProxies']>();
    await renderApp({ section: 'proxies', view: viewOf({ org: 'acme/soc' }), handlers: { getProxies: () => list.promise } });
    const proxies = within(screen.getByRole('region', { name: 'Organisation proxies' }));

    const load = proxies.getByRole('button', { name: 'Load' });
    fireEvent.click(load);
    await waitFor(() => {
      expect(load.getAttribute('aria-disabled')).toBe('true');
    });
    type(proxies.getByLabelText('Organisation whose proxies to manage'), 'other/org');
    list.resolve({ proxies: [{ name: 'web1', location: { address: '203.0.113.7', port: 3128, type: 'http' } }] });

    await waitFor(() => {
      expect(load.getAttribute('aria-disabled')).toBeNull();
    });
    expect(proxies.queryByLabelText('Select web1')).toBeNull();
    expect(proxies.queryByText(/Loaded 1 own/)).toBeNull();
  });
});

describe('options page: busy buttons keep focus', () => {
  let removeFixup: () => void = () => undefined;
  beforeEach(() => {
    removeFixup = installFocusFixup();
  });
  afterEach(() => {
    removeFixup();
  });

  it('keeps focus on Save while the save runs and after, and sends nothing more meanwhile', async () => {
    const saved = deferred<SettingsView>();
    const { sent } = await renderApp({ handlers: { saveSettings: () => saved.promise } });
    type(connection().getByLabelText('Service URL'), 'https://isolation.example.com');
    const save = connection().getByRole<HTMLButtonElement>('button', { name: 'Save' });
    save.focus();

    fireEvent.click(save);
    await waitFor(() => {
      expect(save.getAttribute('aria-disabled')).toBe('true');
    });
    expect(save.getAttribute('aria-busy')).toBe('true');
    expect(document.activeElement).toBe(save);
    // Again by click (Enter and Space on a button are clicks), by submitting the form,
    // and Test connection: all while the save runs.
    fireEvent.click(save);
    fireEvent.submit(save.closest('form') as HTMLFormElement);
    fireEvent.click(connection().getByRole('button', { name: 'Test connection' }));
    expect(document.activeElement).toBe(save);

    saved.resolve(viewOf({ serviceUrl: 'https://isolation.example.com' }));
    await connection().findByText('Saved.');
    expect(save.getAttribute('aria-disabled')).toBeNull();
    expect(document.activeElement).toBe(save);
    expect(sent('saveSettings')).toEqual([{ patch: { serviceUrl: 'https://isolation.example.com' } }]);
    expect(sent('testConnection')).toEqual([]);
  });

  it('keeps focus on Test connection while the test runs', async () => {
    const answer = deferred<ProtocolValues['testConnection']>();
    const { sent } = await renderApp({ handlers: { testConnection: () => answer.promise } });
    const test = connection().getByRole('button', { name: 'Test connection' });
    test.focus();

    fireEvent.click(test);
    await waitFor(() => {
      expect(test.getAttribute('aria-disabled')).toBe('true');
    });
    fireEvent.click(test);
    expect(document.activeElement).toBe(test);
    answer.resolve({ message: 'Connected to isolation.example.com: the token works.' });

    await connection().findByText('Connected to isolation.example.com: the token works.');
    expect(document.activeElement).toBe(test);
    expect(sent('testConnection')).toEqual([{}]);
  });

  it('ignores Delete selected while nothing is selected, without disabling it', async () => {
    const { sent } = await renderApp({
      section: 'proxies',
      view: viewOf({ org: 'acme/soc' }),
      handlers: { getProxies: () => ({ proxies: [{ name: 'web1', location: { address: '203.0.113.7', port: 3128, type: 'http' } }] }) },
    });
    const proxies = within(screen.getByRole('region', { name: 'Organisation proxies' }));
    fireEvent.click(proxies.getByRole('button', { name: 'Load' }));
    await proxies.findByText('Loaded 1 own and 0 inherited proxies of acme/soc.');

    const remove = proxies.getByRole<HTMLButtonElement>('button', { name: 'Delete selected' });
    expect(remove.getAttribute('aria-disabled')).toBe('true');
    expect(remove.disabled).toBe(false);
    fireEvent.click(remove);
    expect(sent('deleteProxies')).toEqual([]);
  });

  it('still disables what the organisation locked: the policy Save, and a locked field', async () => {
    const { sent } = await renderApp({ view: viewOf({ serviceUrl: 'https://corp.example.com' }, { locked: ['policy', 'serviceUrl'] }), section: 'policy' });
    const policy = within(screen.getByRole('region', { name: 'Policy defaults' }));
    const save = policy.getByRole<HTMLButtonElement>('button', { name: 'Save policy defaults' });

    expect(save.disabled).toBe(true);
    fireEvent.click(save);
    fireEvent.submit(save.closest('form') as HTMLFormElement);
    await showSection('connection');
    const serviceUrl = connection().getByLabelText<HTMLInputElement>('Service URL');
    expect(serviceUrl.disabled).toBe(true);
    type(serviceUrl, 'https://other.example.com');
    fireEvent.click(connection().getByRole('button', { name: 'Save' }));

    expect(await connection().findByText('Nothing to save: no setting was changed.')).toBeTruthy();
    expect(sent('saveSettings')).toEqual([]);
  });
});

describe('options page: focus and descriptions', () => {
  function policy() {
    return within(screen.getByRole('region', { name: 'Policy defaults' }));
  }

  function proxies() {
    return within(screen.getByRole('region', { name: 'Organisation proxies' }));
  }

  async function loadProxies(): Promise<void> {
    await renderApp({
      section: 'proxies',
      view: viewOf({ org: 'acme/soc' }),
      handlers: { getProxies: () => ({ proxies: [{ name: 'web1', location: { address: '203.0.113.7', port: 3128, type: 'http' } }] }) },
    });
    fireEvent.click(proxies().getByRole('button', { name: 'Load' }));
    await proxies().findByText('Loaded 1 own and 0 inherited proxies of acme/soc.');
  }

  it('returns focus to Replace all when its confirmation is cancelled', async () => {
    await loadProxies();

    fireEvent.click(proxies().getByRole('button', { name: 'Replace all' }));
    fireEvent.click(proxies().getByRole('button', { name: 'Cancel' }));

    await waitFor(() => {
      expect(document.activeElement).toBe(proxies().getByRole('button', { name: 'Replace all' }));
    });
  });

  it('moves focus to Replace all when the last row is removed from the list', async () => {
    await loadProxies();

    fireEvent.click(proxies().getByRole('button', { name: 'Remove web1 from the list' }));

    expect(proxies().queryByRole('button', { name: 'Remove web1 from the list' })).toBeNull();
    expect(document.activeElement).toBe(proxies().getByRole('button', { name: 'Replace all' }));
  });

  it('moves focus to the next domain, then to the field, when a domain is removed', async () => {
    await renderApp({ section: 'policy', view: viewOf({ policy: [{ type: 'domain_block', params: ['bad.example', 'worse.example'] }] }) });
    const blocked = within(policy().getByRole('group', { name: 'Blocked domains' }));

    fireEvent.click(blocked.getByRole('button', { name: 'Remove bad.example' }));
    expect(document.activeElement).toBe(blocked.getByRole('button', { name: 'Remove worse.example' }));

    fireEvent.click(blocked.getByRole('button', { name: 'Remove worse.example' }));
    expect(document.activeElement).toBe(blocked.getByLabelText('Add a blocked domain'));
  });

  it('keeps focus in the colour field when it is cleared', async () => {
    await renderApp({ section: 'policy' });
    const colour = policy().getByLabelText<HTMLInputElement>('Ribbon background colour');

    type(colour, '#123456');
    fireEvent.click(policy().getByRole('button', { name: 'Clear Ribbon background colour' }));

    expect(colour.value).toBe('');
    expect(document.activeElement).toBe(colour);
  });

  it('says a locked remember choice is set by the organisation', async () => {
    await renderApp({ view: viewOf({}, { locked: ['rememberToken'] }) });
    const remember = connection().getByLabelText<HTMLInputElement>('Remember on this device');

    const note = remember.closest('.check')?.querySelector('.locked');
    expect(note?.textContent).toBe('Set by your organisation');
    expect(remember.getAttribute('aria-describedby')?.split(' ')).toContain(note?.id);
  });
});

// ---- in another language ----------------------------------------------------------

describe('options page: in German, the page’s own checks and the background’s codes are said in German', () => {
  const german = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../public/_locales/de/messages.json'), 'utf8')) as Record<
    string,
    { message: string }
  >;
  const english = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../public/_locales/en/messages.json'), 'utf8')) as Record<
    string,
    { message: string }
  >;

  /** browser.i18n.getMessage over the German messages, $1..$9 filled in. */
  function de(key: string, substitutions?: string | string[]): string {
    const subs = substitutions === undefined ? [] : Array.isArray(substitutions) ? substitutions : [substitutions];
    return (german[key]?.message ?? '').replace(/\$(\d)/g, (_, n: string) => subs[Number(n) - 1] ?? '');
  }

  /** No English message (of some length, without values) appears in the text. */
  function expectNoEnglish(text: string | null): void {
    const leaks = Object.entries(english).filter(
      ([key, entry]) =>
        !entry.message.includes('$') && entry.message.length >= 12 && german[key]?.message !== entry.message && (text ?? '').includes(entry.message),
    );
    expect(leaks.map(([key]) => key)).toEqual([]);
  }

  beforeEach(() => {
    (fakeBrowser.i18n as { getMessage: (key: string, subs?: string | string[]) => string }).getMessage = de;
  });

  function region(titleKey: string) {
    return within(screen.getByRole('region', { name: de(titleKey) }));
  }

  it('lists the managed settings that could not be used from their codes', async () => {
    await renderApp({
      view: viewOf(
        {},
        {
          managedIssues: [
            { key: 'tabPlacement', code: 'notOneOf', params: ['tabPlacement', 'foreground, background'], message: 'must be one of foreground, background' },
          ],
        },
      ),
    });

    const issues = screen.getByRole('region', { name: de('optionsManagedIssuesTitle') });
    expect(within(issues).getByRole('listitem').textContent).toBe('tabPlacement muss einer dieser Werte sein: foreground, background.');
    expect(issues.textContent).toBe(
      de('optionsManagedIssuesTitle') + de('optionsManagedIssuesIntro') + de('apiNotOneOf', ['tabPlacement', 'foreground, background']),
    );
  });

  it.each([
    ['a service URL that is not https', 'optionsServiceUrl', 'http://isolation.example.com', 'optionsFieldServiceBase', []],
    ['a service URL that is too long', 'optionsServiceUrl', `https://isolation.example.com/${'a'.repeat(2048)}`, 'optionsFieldTooLong', ['2048']],
  ])('refuses %s beside the field', async (_label, labelKey, value, messageKey, subs) => {
    const { sent } = await renderApp();

    type(region('optionsConnectionTitle').getByLabelText(de(labelKey)), value);
    fireEvent.click(region('optionsConnectionTitle').getByRole('button', { name: de('optionsSave') }));

    const error = await region('optionsConnectionTitle').findByText(de(messageKey, subs));
    expect(error.textContent).toMatch(/^Der Wert /u);
    expectNoEnglish(error.textContent);
    expect(sent('saveSettings')).toEqual([]);
  });

  it('refuses a bad policy entry with the rule’s words', async () => {
    const { sent } = await renderApp({ section: 'policy' });

    type(region('optionsPolicyTitle').getByLabelText(de('optionsPolicyRibbonBackground')), '#12');
    fireEvent.click(region('optionsPolicyTitle').getByRole('button', { name: de('optionsPolicySave') }));

    const expected = de('optionsPolicyIssue', de('apiPolicyColor', 'policy[0].params'));
    expect(expected).toBe(
      'Die Richtlinie wurde nicht gespeichert: policy[0].params muss genau eine Farbe sein, geschrieben als #rgb oder #rrggbb. Korrigieren Sie sie und speichern Sie erneut.',
    );
    expect((await region('optionsPolicyTitle').findByRole('alert')).textContent).toBe(expected);
    expect(sent('saveSettings')).toEqual([]);
  });

  it('refuses an invalid proxy, and shows the warnings it finds itself, in German', async () => {
    const OWN = { name: 'web1', location: { address: '203.0.113.7', port: 3128, type: 'http' } };
    const { sent } = await renderApp({ section: 'proxies', view: viewOf({ org: 'acme/soc' }), handlers: { getProxies: () => ({ proxies: [OWN] }) } });
    const proxies = () => region('optionsProxiesTitle');

    type(proxies().getByLabelText(de('optionsProxyName')), 'p2');
    type(proxies().getByLabelText(de('optionsProxyAddress')), 'not a host');
    fireEvent.click(proxies().getByRole('button', { name: de('optionsProxyAdd') }));
    const invalid = de('optionsProxyInvalid', de('apiNotIpOrFqdn', 'proxy[0].location.address'));
    expect(await proxies().findByText(invalid, { selector: '[role="alert"]' })).toBeTruthy();
    expectNoEnglish(invalid);

    fireEvent.click(proxies().getByRole('button', { name: de('optionsProxyLoad') }));
    await proxies().findByText(de('optionsProxyLoaded', ['1', '0', 'acme/soc']));
    fireEvent.change(proxies().getByLabelText(de('optionsProxyRowType', 'web1')), { target: { value: 'socks5' } });
    fireEvent.click(proxies().getByRole('button', { name: de('optionsProxyReplaceAll') }));

    const warnings = proxies().getByRole('list', { name: de('optionsProxyWarnings') });
    expect(warnings.textContent).toBe('web1: Chrome unterstützt keine Authentifizierung für SOCKSv5-Proxys.');
    expect(sent('addProxies')).toEqual([]);
  });

  it('says what to do when the background does not answer at all', async () => {
    await renderApp({
      handlers: {
        testConnection: () => {
          throw new NoAnswerError();
        },
      },
    });

    fireEvent.click(region('optionsConnectionTitle').getByRole('button', { name: de('optionsTestConnection') }));

    const alert = await region('optionsConnectionTitle').findByRole('alert');
    expect(alert.textContent).toBe(de('optionsErrorNoAnswer'));
    expect(alert.textContent).not.toContain(new NoAnswerError().message);
  });
});
