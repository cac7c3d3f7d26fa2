/**
 * The browser notifier: a failure shows what happened, its button is the right next
 * step, and the action behind the button is kept (in the session) for the click.
 */
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { beforeEach, describe, expect, it } from 'vitest';
import { browserNotifier } from '../../src/background/notify';
import type { Failure } from '../../src/background/failures';
import { takePending, type PendingAction } from '../../src/settings/pending';
import { installMessages } from '../support/i18n';

beforeEach(() => {
  fakeBrowser.reset();
  installMessages();
});

const ICON = 'chrome-extension://test-extension-id/icons/128.png';
const RETRY: PendingAction = { kind: 'isolate', url: 'https://evil.example/', session: 'standard', source: { id: 7, index: 2, windowId: 1 } };

/** The one notification shown: its id and options. */
function shown(): { id: string; options: unknown } {
  const all = Object.entries(fakeBrowser.notifications.getAllCreateOptions());
  expect(all).toHaveLength(1);
  const [entry] = all;
  if (!entry) throw new Error('no notification');
  return { id: entry[0], options: entry[1] };
}

describe('failure notifications', () => {
  it.each<[string, Failure, PendingAction | undefined, string | undefined, PendingAction | undefined]>([
    [
      'options step',
      { title: 'Isolink is not set up yet', message: 'No admin token is set.', next: 'options' },
      RETRY,
      'Open options',
      { kind: 'openOptions' },
    ],
    ['retry step with a retry', { title: 'The service reported an error', message: 'HTTP 500', next: 'retry' }, RETRY, 'Retry', RETRY],
    ['retry step without a retry', { title: 'The service reported an error', message: 'HTTP 500', next: 'retry' }, undefined, undefined, undefined],
    ['no step', { title: 'Link not isolated', message: 'javascript: is refused', next: 'none' }, RETRY, undefined, undefined],
  ])('%s', async (_label, failure, retry, expectedButton, expectedAction) => {
    // Act
    await browserNotifier.failure(failure, retry);

    // Assert
    const { id, options } = shown();
    expect(options).toEqual({
      type: 'basic',
      iconUrl: ICON,
      title: failure.title,
      message: failure.message,
      ...(expectedButton ? { buttons: [{ title: expectedButton }] } : {}),
    });
    expect(await takePending(id)).toEqual(expectedAction);
  });

  it('clips long text to 400 characters', async () => {
    // Arrange
    const long = 'x'.repeat(1000);

    // Act
    await browserNotifier.failure({ title: long, message: long, next: 'none' });

    // Assert
    expect(shown().options).toMatchObject({ title: `${'x'.repeat(400)}…`, message: `${'x'.repeat(400)}…` });
  });
});

describe('questions and information', () => {
  it('a question carries its action behind its button', async () => {
    // Arrange
    const action: PendingAction = { kind: 'openMany', urls: ['https://a.example/', 'https://b.example/'], source: undefined };

    // Act
    await browserNotifier.ask('Open 2 links in isolation?', 'https://a.example/\nhttps://b.example/', 'Open 2 tabs', action);

    // Assert
    const { id, options } = shown();
    expect(options).toEqual({
      type: 'basic',
      iconUrl: ICON,
      title: 'Open 2 links in isolation?',
      message: 'https://a.example/\nhttps://b.example/',
      buttons: [{ title: 'Open 2 tabs' }],
    });
    expect(await takePending(id)).toEqual(action);
    expect(await takePending(id)).toBeUndefined();
  });

  it('a question with two answers keeps one action per button; taking one removes both', async () => {
    // Arrange
    const real: PendingAction = { kind: 'isolate', url: 'https://wrapper.example/?url=x', session: 'standard', source: undefined, wrapped: 'unwrap' };
    const kept: PendingAction = { ...real, wrapped: 'keep' };

    // Act
    await browserNotifier.ask('This link was rewritten by Google', 'Real target: x', 'Open the real target', real, {
      label: 'Open the rewritten link',
      action: kept,
    });

    // Assert
    const { id, options } = shown();
    expect(options).toMatchObject({ buttons: [{ title: 'Open the real target' }, { title: 'Open the rewritten link' }] });
    expect(await takePending(id, 1)).toEqual(kept);
    expect(await takePending(id, 0)).toBeUndefined();
    expect(await fakeBrowser.storage.session.get()).toEqual({ pendingNotifications: {} });
  });

  it('a click on the notification itself carries out the first answer', async () => {
    // Arrange
    const real: PendingAction = { kind: 'openMany', urls: ['https://a.example/'], source: undefined, wrapped: 'unwrap' };

    // Act
    await browserNotifier.ask('Open 1 link?', 'x', 'Open', real, { label: 'Open as written', action: { ...real, wrapped: 'keep' } });

    // Assert
    const { id } = shown();
    expect(await takePending(id)).toEqual(real);
    expect(await takePending(id, 1)).toBeUndefined();
  });

  it('information has no button and no action', async () => {
    // Act
    await browserNotifier.info('No links found', 'The selected text holds no http or https link, defanged or not.');

    // Assert
    const { id, options } = shown();
    expect(options).toEqual({
      type: 'basic',
      iconUrl: ICON,
      title: 'No links found',
      message: 'The selected text holds no http or https link, defanged or not.',
    });
    expect(await takePending(id)).toBeUndefined();
    expect(await fakeBrowser.storage.session.get()).toEqual({});
  });

  it('two notifications get two ids', async () => {
    // Act
    await browserNotifier.info('a', 'a');
    await browserNotifier.info('b', 'b');

    // Assert
    expect(Object.keys(fakeBrowser.notifications.getAllCreateOptions())).toHaveLength(2);
  });
});
