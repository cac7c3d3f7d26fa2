// @vitest-environment happy-dom
/**
 * The landing page (isolate.html) against a fake background that checks the fragment as
 * the real one does (against the rules, background-autoisolate tests the real one): the
 * launch URL put in the tab's place, ask first, and failures that open nothing. Its place in the browser (the rules
 * that send a navigation here, a hostile page that tries) is end to end, test/e2e/autoisolate.
 */
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { autoIsolateOf, buildRules, landingOf, reasonOf, type AutoIsolate, type NetRule } from '../../src/autoisolate';
import { RemoteError } from '../../src/messaging/page';
import type { BulkResult } from '../../src/messaging/protocol';
import { App } from '../../src/ui/isolate/App';
import type { LandingDeps } from '../../src/ui/isolate/landing';
import { installMessages } from '../support/i18n';
import { fakeConnector } from '../support/options-page';

const PAGE = 'chrome-extension://isolink/isolate.html';
const KEY = 'a'.repeat(32);
const TARGET = 'https://phish.example/login?x=1';
const LAUNCH = 'https://isolation.example/launch?ctx=c1';

beforeEach(() => {
  fakeBrowser.reset();
  installMessages();
});
afterEach(() => {
  cleanup();
});

const created = (launchUrl: string): BulkResult => ({
  created: [{ id: 'c1', url: TARGET, host: 'phish.example', sessionType: 'service-ruby', createdAt: 0, expires: 0, maxUses: 0, launchUrl, name: '' }],
  failures: [],
});

function renderPage(hash: string, options: { config?: Partial<AutoIsolate>; bulk?: () => BulkResult | Promise<BulkResult>; rules?: NetRule[] } = {}) {
  const config = autoIsolateOf(options.config ?? { from: ['mail.example'] });
  const rules = options.rules ?? buildRules(config, { page: PAGE, key: KEY, exempt: [], access: { all: true, to: true } });
  const replaced: string[] = [];
  let left = 0;
  // The background's own check (src/background/rules.ts landed), on these rules, with bulkCreate's answer.
  const bulk = options.bulk ?? (() => created(LAUNCH));
  const fake = fakeConnector({
    landed: async ({ hash: fragment, go }) => {
      const landing = landingOf(fragment);
      const reason = landing && reasonOf(landing, rules, { page: PAGE });
      if (!landing || !reason) return { kind: 'refused' };
      const target = { url: landing.url, host: new URL(landing.url).hostname, reason };
      if (!go && config.ask) return { ...target, kind: 'ask', local: 'from' in reason };
      const result = await bulk();
      const launchUrl = result.created[0]?.launchUrl;
      return launchUrl === undefined ? { ...target, kind: 'failed', error: result.failures[0]?.error ?? '' } : { ...target, kind: 'opened', launchUrl };
    },
  });
  const deps: LandingDeps = {
    connector: fake.connector,
    replaceWith: (url) => {
      replaced.push(url);
    },
    leave: () => {
      left += 1;
    },
    openOptions: () => Promise.resolve(),
  };
  const utils = render(<App deps={deps} hash={hash} first={fake.connector('landed', { hash, go: false })} />);
  return { ...utils, ...fake, replaced, left: () => left };
}

const phase = (container: Element): string | null => container.querySelector('main')?.getAttribute('data-phase') ?? null;

describe('the landing page', () => {
  it('isolates the target the rules sent at once: one bulkCreate, the launch URL in the tab’s place', async () => {
    const { container, sent, replaced } = renderPage(`#k=${KEY}&r=100&u=${TARGET}`);
    await waitFor(() => {
      expect(replaced).toEqual([LAUNCH]);
    });
    expect(sent('landed')).toEqual([{ hash: `#k=${KEY}&r=100&u=${TARGET}`, go: false }]);
    expect(phase(container)).toBe('opening');
    expect(screen.getByText('Links opened from mail.example open in isolation.')).toBeTruthy();
  });

  it.each([
    ['no fragment', ''],
    ['a guessed key', `#k=${'b'.repeat(32)}&r=100&u=${TARGET}`],
    ['a rule that is not a redirect', `#k=${KEY}&r=101&u=${TARGET}`],
    ['a target on the from site itself', `#k=${KEY}&r=100&u=https://www.mail.example/`],
    ['a script URL', `#k=${KEY}&r=100&u=javascript:alert(1)`],
  ])('sends nothing for %s, and says the rules did not open it', async (_name, hash) => {
    const { container, calls, replaced } = renderPage(hash, {
      config: { from: ['mail.example'] },
      rules: buildRules(autoIsolateOf({ from: ['mail.example'] }), { page: PAGE, key: KEY, exempt: [], access: { all: false, to: false } }),
    });
    await waitFor(() => {
      expect(phase(container)).toBe('refused');
    });
    expect(screen.getByRole('heading').textContent).toBe('Isolink did not open this link');
    expect(calls.map((call) => call.type)).toEqual(['landed']);
    expect(replaced).toEqual([]);
  });

  it('ask: shows the target and creates nothing until chosen; Cancel leaves, Open in isolation creates', async () => {
    const { container, sent, replaced, left } = renderPage(`#k=${KEY}&r=100&u=${TARGET}`, { config: { from: ['mail.example'], ask: true } });
    await waitFor(() => {
      expect(phase(container)).toBe('ask');
    });
    expect(container.querySelector('.target-url')?.textContent).toBe(TARGET);
    expect(container.querySelector('a')).toBeNull();
    expect(replaced).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(left()).toBe(1);
    fireEvent.click(screen.getByRole('button', { name: 'Open in isolation' }));
    await waitFor(() => {
      expect(replaced).toEqual([LAUNCH]);
    });
    expect(sent('landed').map((data) => (data as { go: boolean }).go)).toEqual([false, true]);
  });

  it('ask: offers to open a link leaving a from site on this computer, never one to a watched domain', async () => {
    const local = renderPage(`#k=${KEY}&r=100&u=${TARGET}`, { config: { from: ['mail.example'], ask: true } });
    fireEvent.click(await screen.findByRole('button', { name: 'Open on this computer' }));
    expect(local.replaced).toEqual([TARGET]);
    cleanup();
    const watched = renderPage(`#k=${KEY}&r=10&u=https://a.watched.example/`, { config: { to: ['watched.example'], ask: true } });
    await waitFor(() => {
      expect(phase(watched.container)).toBe('ask');
    });
    expect(screen.getByText('watched.example is on the list of domains that always open in isolation.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Open on this computer' })).toBeNull();
  });

  it('a failure opens nothing, says why and what to do, and Try again sends again', async () => {
    let answers = 0;
    const { container, sent, replaced } = renderPage(`#k=${KEY}&r=100&u=${TARGET}`, {
      bulk: () => {
        answers += 1;
        if (answers === 1) throw new RemoteError({ name: 'NetworkError', message: 'The isolation service could not be reached.' });
        return { created: [], failures: [{ url: TARGET, error: 'The service refused this link.' }] };
      },
    });
    await waitFor(() => {
      expect(phase(container)).toBe('failed');
    });
    expect(screen.getByRole('alert').textContent).toBe('The isolation service could not be reached.');
    expect(screen.getByText(/Nothing was loaded on this computer/u)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => {
      expect(screen.getByRole('alert').textContent).toBe('The service refused this link.');
    });
    expect(sent('landed')).toHaveLength(2);
    expect(replaced).toEqual([]);
  });
});
