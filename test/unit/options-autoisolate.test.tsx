// @vitest-environment happy-dom
/**
 * The options page's "Isolate automatically" section against a fake Connector: what it
 * saves (exactly), what it refuses before sending, the preview in words, the lock when the
 * organisation sets the key, and the host access it asks for from a click.
 */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { browser } from 'wxt/browser';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { installMessages } from '../support/i18n';
import { renderApp, viewOf } from '../support/options-page';

/** The promise forms of permissions.contains and request (their typings end with the callback forms). */
const permissions = browser.permissions as unknown as {
  contains: (permissions: { origins?: string[] }) => Promise<boolean>;
  request: (permissions: { origins?: string[] }) => Promise<boolean>;
};

beforeEach(() => {
  fakeBrowser.reset();
  installMessages();
  vi.spyOn(permissions, 'contains').mockResolvedValue(false);
});

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const section = () => within(screen.getByRole('region', { name: 'Isolate automatically' }));
const type = (label: string, value: string): void => {
  fireEvent.input(section().getByLabelText(label), { target: { value } });
};
const save = (): void => {
  fireEvent.click(section().getByRole('button', { name: 'Save automatic isolation' }));
};

describe('options page: isolate automatically', () => {
  it('saves the lists as domains (pasted URLs and capitals brought to their host), once each, with ask', async () => {
    const { sent } = await renderApp({ section: 'auto-isolate' });
    type('Links opened from these sites', 'https://Outlook.Office.com/mail/\n\nacme.service-now.com, outlook.office.com');
    type('Links to these domains, always', '*.watched.example');
    type('Never isolate these domains', 'acme.example');
    fireEvent.click(section().getByLabelText('Ask before opening each link'));
    save();
    await section().findByText('Saved. The rules apply to links opened from now on.');
    expect(sent('saveSettings')).toEqual([
      { patch: { autoIsolate: { from: ['outlook.office.com', 'acme.service-now.com'], to: ['watched.example'], except: ['acme.example'], ask: true } } },
    ]);
  });

  it('says what the lists do, in words, as they are typed', async () => {
    await renderApp({ section: 'auto-isolate' });
    expect(section().getByText('Nothing is isolated automatically.')).toBeTruthy();
    type('Links opened from these sites', 'a.example\nb.example\nc.example\nd.example\ne.example');
    type('Never isolate these domains', 'corp.example');
    expect(section().getByText('Links opened from a.example, b.example, c.example and 2 more to other sites will open in isolation.')).toBeTruthy();
    expect(section().getByText('Links to corp.example are never isolated.')).toBeTruthy();
    expect(section().getByText('They open in isolation at once, in the tab they were opened in.')).toBeTruthy();
  });

  it('refuses lines that are no domain, names them beside the list, and sends nothing', async () => {
    const { sent } = await renderApp({ section: 'auto-isolate' });
    type('Links opened from these sites', 'outlook.office.com\nnot a domain\na.example:8080');
    save();
    const list = section().getByLabelText('Links opened from these sites');
    await waitFor(() => {
      expect(list.getAttribute('aria-invalid')).toBe('true');
    });
    expect(section().getByText('Not a domain: not a domain, a.example:8080. Write one domain a line, such as example.com.')).toBeTruthy();
    expect(sent('saveSettings')).toEqual([]);
  });

  it('is locked when the organisation sets it: the lists shown, disabled, no save', async () => {
    await renderApp({ section: 'auto-isolate', view: viewOf({ autoIsolate: { from: ['outlook.office.com'] } }, { locked: ['autoIsolate'] }) });
    const list = section().getByLabelText<HTMLTextAreaElement>('Links opened from these sites');
    expect(list.value).toBe('outlook.office.com');
    expect(list.disabled).toBe(true);
    expect(section().getAllByText('Set by your organisation').length).toBeGreaterThan(0);
    expect(section().queryByRole('button', { name: 'Save automatic isolation' })).toBeNull();
  });

  it('asks for access to every site from a click when from sites are saved, and says what happens without it', async () => {
    const request = vi.spyOn(permissions, 'request').mockResolvedValue(true);
    await renderApp({ section: 'auto-isolate', view: viewOf({ autoIsolate: { from: ['outlook.office.com'] } }) });
    await section().findByText(/Isolink needs access to all sites/);
    fireEvent.click(section().getByRole('button', { name: 'Allow access' }));
    expect(request).toHaveBeenCalledWith({ origins: ['http://*/*', 'https://*/*'] });
    await section().findByText('Access allowed: stopped links now open in isolation.');
  });

  it('asks only for the watched domains when there are no from sites; nothing when access is there', async () => {
    const request = vi.spyOn(permissions, 'request').mockResolvedValue(false);
    await renderApp({ section: 'auto-isolate', view: viewOf({ autoIsolate: { to: ['watched.example'] } }) });
    await section().findByText(/needs access to the watched domains/);
    fireEvent.click(section().getByRole('button', { name: 'Allow access' }));
    expect(request).toHaveBeenCalledWith({ origins: ['http://*.watched.example/*', 'https://*.watched.example/*'] });
    await section().findByText('Access was not allowed: stopped links stay blocked.');
    cleanup();
    vi.spyOn(permissions, 'contains').mockResolvedValue(true);
    await renderApp({ section: 'auto-isolate', view: viewOf({ autoIsolate: { to: ['watched.example'] } }) });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(section().queryByRole('button', { name: 'Allow access' })).toBeNull();
  });
});
