import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { describeFailure } from '../../src/background/failures';
import { followRemember } from '../../src/background/handlers';
import { ManagedPolicyUnavailableError, readSettingsView } from '../../src/settings/store';
import { moveToken, readToken, writeToken } from '../../src/settings/token';
import { installMessages } from '../support/i18n';

describe('an unreadable organisation policy', () => {
  beforeEach(() => {
    fakeBrowser.reset();
    installMessages();
  });

  it('is reported as a refusal to retry, never carried on without the policy', () => {
    expect(describeFailure(new ManagedPolicyUnavailableError())).toEqual({
      title: 'Request refused',
      message: "Your organisation's settings could not be read yet. Try again in a moment.",
      next: 'retry',
    });
  });
});

describe("the organisation turns 'remember the token' off", () => {
  beforeEach(() => {
    fakeBrowser.reset();
    installMessages();
  });

  it('the token leaves storage.local at once (what the background runs at start-up and when the policy changes)', async () => {
    // Arrange: the analyst had ticked "Remember on this device".
    await fakeBrowser.storage.local.set({ settings: { serviceUrl: 'https://isolation.acme.example', rememberToken: true } });
    await writeToken('remembered-token', true, 'https://isolation.acme.example');
    await fakeBrowser.storage.managed.set({ rememberToken: false });

    // Act
    await followRemember({ readSettings: readSettingsView, moveToken });

    // Assert
    expect(await fakeBrowser.storage.local.get('token')).toEqual({});
    expect(await readToken()).toEqual({ token: 'remembered-token', source: 'session', origin: 'https://isolation.acme.example' });
  });
});
