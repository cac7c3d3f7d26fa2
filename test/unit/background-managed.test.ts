import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { describeFailure } from '../../src/background/failures';
import { ManagedPolicyUnavailableError } from '../../src/settings/store';
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
