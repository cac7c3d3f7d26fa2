/**
 * Settings: lenient reads with per-key fallback, strict saves and imports that leave
 * storage byte-identical when refused, exports without the token, and the managed
 * (enterprise) policy laid over the user's values without ever blocking start-up.
 */
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_SETTINGS, parseStoredSettings, type Settings } from '../../src/settings/schema';
import {
  MANAGED_READ_TIMEOUT_MS,
  ManagedPolicyUnavailableError,
  SettingsError,
  exportSettings,
  importSettings,
  overlay,
  previewImport,
  readManagedPolicy,
  readSettingsView,
  readUserSettings,
  saveSettings,
  type ManagedPolicy,
} from '../../src/settings/store';
import { writeToken } from '../../src/settings/token';
import { apiErrorText } from '../../src/i18n/errors';
import { installMessages } from '../support/i18n';
import { seenConnection } from '../support/import';

beforeEach(() => {
  fakeBrowser.reset();
  installMessages();
});

afterEach(() => {
  vi.useRealTimers();
});

/** The whole of one storage area as text: "byte-identical" means equal text. */
async function snapshot(area: 'local' | 'session' | 'sync' = 'local'): Promise<string> {
  return JSON.stringify(await fakeBrowser.storage[area].get());
}

const SAVED: Settings = {
  ...DEFAULT_SETTINGS,
  serviceUrl: 'https://isolation.acme.example',
  username: 'analyst@acme.example',
  policy: [{ type: 'readonly', params: ['true'] }],
  maxUses: 5,
  tabPlacement: 'background',
};

/** The exported file of SAVED. */
function exportFile(settings: unknown = SAVED, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ format: 'isolink-settings', version: 1, settings, ...extra });
}

describe('parseStoredSettings', () => {
  it('keeps every valid key and falls back to the default for each invalid one', () => {
    // Arrange
    const stored = {
      serviceUrl: 'http://isolation.acme.example',
      username: 'analyst@acme.example',
      maxUses: -1,
      tabPlacement: 'sideways',
      bulkConfirmThreshold: 12,
      policy: [{ type: 'readonly', params: ['maybe'] }],
      autoDomainAllow: false,
      colour: 'red',
    };

    // Act
    const actual = parseStoredSettings(stored);

    // Assert
    expect(actual).toEqual({ ...DEFAULT_SETTINGS, username: 'analyst@acme.example', bulkConfirmThreshold: 12, autoDomainAllow: false });
  });

  it.each([
    ['null', null],
    ['a list', [1, 2]],
    ['text', 'settings'],
    ['a number', 42],
    ['a Map', new Map([['username', 'x']])],
    ['undefined', undefined],
  ])('%s gives the defaults', (_label, stored) => {
    // Act
    const actual = parseStoredSettings(stored);

    // Assert
    expect(actual).toEqual(DEFAULT_SETTINGS);
  });

  it('ignores an own __proto__ key and pollutes nothing', () => {
    // Arrange
    const stored: unknown = JSON.parse('{"__proto__":{"serviceUrl":"https://evil.example","polluted":true},"username":"a@acme.example"}');

    // Act
    const actual = parseStoredSettings(stored);

    // Assert
    expect(actual).toEqual({ ...DEFAULT_SETTINGS, username: 'a@acme.example' });
    expect(Object.getPrototypeOf(actual)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('readUserSettings reads storage.local leniently', async () => {
    // Arrange
    await fakeBrowser.storage.local.set({ settings: { username: 'a@acme.example', maxUses: 'many' } });

    // Act
    const actual = await readUserSettings();

    // Assert
    expect(actual).toEqual({ ...DEFAULT_SETTINGS, username: 'a@acme.example' });
  });
});

describe('saveSettings', () => {
  beforeEach(async () => {
    await saveSettings(SAVED);
  });

  it('applies a valid change and keeps the other keys', async () => {
    // Act
    const view = await saveSettings({ tabPlacement: 'foreground', maxUses: null });

    // Assert
    const expected = { ...SAVED, tabPlacement: 'foreground', maxUses: null };
    expect(view).toEqual({ settings: expected, locked: [], tokenManaged: false, managedIssues: [], managedBroken: [] });
    expect(await readUserSettings()).toEqual(expected);
  });

  it.each<[string, () => unknown, string, string, string[], string]>([
    ['an unknown key', () => ({ colour: 'red' }), 'colour is not a setting', 'settingUnknown', ['colour'], 'colour is not a setting of Isolink.'],
    [
      'an own __proto__ key',
      () => JSON.parse('{"__proto__":{"serviceUrl":"https://evil.example"}}') as unknown,
      '__proto__ is not a setting',
      'settingUnknown',
      ['__proto__'],
      '__proto__ is not a setting of Isolink.',
    ],
    [
      'an own constructor key',
      () => JSON.parse('{"constructor":{"prototype":{"polluted":true}}}') as unknown,
      'constructor is not a setting',
      'settingUnknown',
      ['constructor'],
      'constructor is not a setting of Isolink.',
    ],
    ['a prototype key', () => ({ prototype: {} }), 'prototype is not a setting', 'settingUnknown', ['prototype'], 'prototype is not a setting of Isolink.'],
    ['the token', () => ({ token: 'sneaky' }), 'token is not a setting', 'settingUnknown', ['token'], 'token is not a setting of Isolink.'],
    ['a number as text', () => ({ maxUses: '3' }), 'maxUses must be a number', 'notNumber', ['maxUses'], 'maxUses must be a number.'],
    [
      'a boolean as text',
      () => ({ rememberToken: 'yes' }),
      'rememberToken must be true or false',
      'notBoolean',
      ['rememberToken'],
      'rememberToken must be true or false.',
    ],
    [
      'an unknown placement',
      () => ({ tabPlacement: 'sideways' }),
      'tabPlacement must be one of foreground, background',
      'notOneOf',
      ['tabPlacement', 'foreground, background'],
      'tabPlacement must be one of: foreground, background.',
    ],
    [
      'plain http off loopback',
      () => ({ serviceUrl: 'http://isolation.acme.example' }),
      'serviceUrl must be an https URL (http only on 127.0.0.1 or localhost)',
      'settingServiceBase',
      ['serviceUrl'],
      'serviceUrl must be an https URL (http only on 127.0.0.1 or localhost).',
    ],
    [
      'a bad policy entry',
      () => ({ policy: [{ type: 'readonly', params: ['yes'] }] }),
      'policy policy[0].params must be exactly one of true, false',
      'policyChoice',
      ['policy[0].params', 'true, false'],
      'policy[0].params must be exactly one of: true, false.',
    ],
    [
      'a bad time zone in the research defaults',
      () => ({ research: { ...DEFAULT_SETTINGS.research, browserProfile: { os: 'win', browser: 'chrome', timezone: '+02:00', languages: '' } } }),
      'research research.browserProfile.timezone must be an IANA time zone name such as Europe/Berlin',
      'notTimeZone',
      ['research.browserProfile.timezone'],
      'research.browserProfile.timezone must be an IANA time zone name, such as Europe/Berlin.',
    ],
    [
      'a padded username',
      () => ({ username: ' analyst@acme.example ' }),
      'username must not start or end with spaces',
      'settingSpaces',
      ['username'],
      'username must not start or end with spaces.',
    ],
    [
      'an organisation beside the stored username',
      () => ({ org: 'acme' }),
      'username and organisation are mutually exclusive: fill in one',
      'settingIdentityBoth',
      ['username'],
      'Fill in a username or an organisation, not both (username).',
    ],
    [
      'both username and organisation',
      () => ({ username: 'b@acme.example', org: 'acme' }),
      'username and organisation are mutually exclusive: fill in one',
      'settingIdentityBoth',
      ['username'],
      'Fill in a username or an organisation, not both (username).',
    ],
    [
      'a good value beside a bad one',
      () => ({ tabPlacement: 'foreground', colour: 'red' }),
      'colour is not a setting',
      'settingUnknown',
      ['colour'],
      'colour is not a setting of Isolink.',
    ],
    ['not an object', () => 'tabPlacement=foreground', 'settings must be an object', 'notObject', ['settings'], 'settings must be an object.'],
    ['a list', () => [{ tabPlacement: 'foreground' }], 'settings must be an object', 'notObject', ['settings'], 'settings must be an object.'],
  ])('refuses %s and leaves storage byte-identical', async (_label, patch, expectedMessage, expectedCode, expectedParams, expectedText) => {
    // Arrange
    const before = await snapshot();

    // Act
    const act = saveSettings(patch());
    const error: unknown = await act.catch((e: unknown) => e);

    // Assert: English for developers; as data a code and params, which the analyst reads translated
    await expect(act).rejects.toBeInstanceOf(SettingsError);
    await expect(act).rejects.toHaveProperty('message', expectedMessage);
    expect((error as SettingsError).issues.map(({ code, params }) => ({ code, params }))).toEqual([{ code: expectedCode, params: expectedParams }]);
    expect(apiErrorText(error)).toBe(expectedText);
    expect(await snapshot()).toBe(before);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('refuses an organisation when the organisation’s policy sets the username (the settings in force would have both)', async () => {
    // Arrange
    await saveSettings({ username: '' });
    await fakeBrowser.storage.managed.set({ username: 'soc@acme.example' });
    const before = await snapshot();

    // Act
    const act = saveSettings({ org: 'acme' });

    // Assert
    await expect(act).rejects.toBeInstanceOf(SettingsError);
    expect(await snapshot()).toBe(before);
    const { settings } = await readSettingsView();
    expect([settings.username, settings.org]).toEqual(['soc@acme.example', '']);
  });

  it('refuses a key the organisation locked, even with a valid value', async () => {
    // Arrange
    await fakeBrowser.storage.managed.set({ serviceUrl: 'https://isolation.acme.example', autoDomainAllow: false });
    const before = await snapshot();

    // Act
    const act = saveSettings({ tabPlacement: 'foreground', autoDomainAllow: true });

    // Assert
    await expect(act).rejects.toMatchObject({
      name: 'SettingsError',
      issues: [{ key: 'autoDomainAllow', code: 'settingLocked', params: ['autoDomainAllow'], message: 'is set by your organisation' }],
    });
    expect(apiErrorText(await act.catch((e: unknown) => e))).toBe('autoDomainAllow is set by your organisation and cannot be changed here.');
    expect(await snapshot()).toBe(before);
  });
});

describe('importSettings', () => {
  beforeEach(async () => {
    await saveSettings(SAVED);
  });

  it.each<[string, () => string, string, string, string[], string]>([
    [
      'text that is not JSON',
      () => 'username=evil',
      'settings file is not JSON',
      'importNotJson',
      [],
      'The file is not JSON, so it is not an Isolink settings export.',
    ],
    ['a JSON list', () => '[]', 'settings file is not an Isolink settings export', 'importNotExport', [], 'The file is not an Isolink settings export.'],
    ['JSON null', () => 'null', 'settings file is not an Isolink settings export', 'importNotExport', [], 'The file is not an Isolink settings export.'],
    ...(
      [
        ['another format', () => JSON.stringify({ format: 'other-tool', version: 1, settings: SAVED })],
        ['another version', () => JSON.stringify({ format: 'isolink-settings', version: 2, settings: SAVED })],
        ['a token beside the settings', () => exportFile(SAVED, { token: 'sneaky' })],
      ] as const
    ).map(([label, file]): [string, () => string, string, string, string[], string] => [
      label,
      file,
      'settings file is not an Isolink settings export (format isolink-settings, version 1)',
      'importWrongFormat',
      [],
      'The file is not an Isolink settings export of this version (format isolink-settings, version 1).',
    ]),
    [
      'a token among the settings',
      () => exportFile({ ...SAVED, token: 'sneaky' }),
      'token is not a setting',
      'settingUnknown',
      ['token'],
      'token is not a setting of Isolink.',
    ],
    [
      'an unknown key',
      () => exportFile({ ...SAVED, colour: 'red' }),
      'colour is not a setting',
      'settingUnknown',
      ['colour'],
      'colour is not a setting of Isolink.',
    ],
    [
      'an own __proto__ key',
      () => `{"format":"isolink-settings","version":1,"settings":{"__proto__":{"serviceUrl":"https://evil.example"}}}`,
      '__proto__ is not a setting',
      'settingUnknown',
      ['__proto__'],
      '__proto__ is not a setting of Isolink.',
    ],
    [
      'one invalid value',
      () => exportFile({ ...SAVED, serviceUrl: 'http://evil.example' }),
      'serviceUrl must be an https URL (http only on 127.0.0.1 or localhost)',
      'settingServiceBase',
      ['serviceUrl'],
      'serviceUrl must be an https URL (http only on 127.0.0.1 or localhost).',
    ],
    [
      'both username and organisation',
      () => exportFile({ ...SAVED, org: 'acme' }),
      'username and organisation are mutually exclusive: fill in one',
      'settingIdentityBoth',
      ['username'],
      'Fill in a username or an organisation, not both (username).',
    ],
    [
      'no settings',
      () => JSON.stringify({ format: 'isolink-settings', version: 1 }),
      'settings must be an object',
      'notObject',
      ['settings'],
      'settings must be an object.',
    ],
    [
      '600 KiB',
      () => exportFile({ ...SAVED, username: 'x'.repeat(600 * 1024) }),
      'settings file is larger than 512 KiB',
      'importTooLarge',
      ['512'],
      'The file is larger than 512 KiB, so it is not an Isolink settings export.',
    ],
  ])('refuses %s atomically', async (_label, file, expectedMessage, expectedCode, expectedParams, expectedText) => {
    // Arrange
    const before = await snapshot();

    // Act
    const act = importSettings(file(), seenConnection(file()));
    const error: unknown = await act.catch((e: unknown) => e);

    // Assert
    await expect(act).rejects.toMatchObject({ name: 'SettingsError', message: expectedMessage });
    expect((error as SettingsError).issues.map(({ code, params }) => ({ code, params }))).toEqual([{ code: expectedCode, params: expectedParams }]);
    expect(apiErrorText(error)).toBe(expectedText);
    expect(await snapshot()).toBe(before);
    expect(await readUserSettings()).toEqual(SAVED);
  });

  it('replaces the settings with a good file; keys the file omits return to their defaults', async () => {
    // Arrange
    const imported = { serviceUrl: 'https://isolation.globex.example', org: 'globex', expiry: { preset: '7d', customMinutes: 60 } };
    await saveSettings({ username: '' });

    // Act
    const view = await importSettings(exportFile(imported), seenConnection(exportFile(imported)));

    // Assert
    const expected: Settings = { ...DEFAULT_SETTINGS, ...imported, expiry: { preset: '7d', customMinutes: 60 } };
    expect(view.settings).toEqual(expected);
    expect(await readUserSettings()).toEqual(expected);
  });

  it('round-trips its own export', async () => {
    // Arrange
    const file = JSON.stringify(await exportSettings());
    await saveSettings({ tabPlacement: 'foreground', maxUses: null });

    // Act
    await importSettings(file, seenConnection(file));

    // Assert
    expect(await readUserSettings()).toEqual(SAVED);
  });

  it('refuses a file whose organisation would sit beside a username set by policy', async () => {
    // Arrange
    await fakeBrowser.storage.managed.set({ username: 'soc@acme.example' });
    const before = await snapshot();

    // Act
    const act = importSettings(
      exportFile({ serviceUrl: 'https://isolation.acme.example', org: 'acme' }),
      seenConnection(exportFile({ serviceUrl: 'https://isolation.acme.example', org: 'acme' })),
    );

    // Assert
    await expect(act).rejects.toBeInstanceOf(SettingsError);
    expect(await snapshot()).toBe(before);
  });

  it('keeps managed values in force over an imported file', async () => {
    // Arrange
    await fakeBrowser.storage.managed.set({ tabPlacement: 'foreground' });

    // Act
    const view = await importSettings(exportFile(SAVED), seenConnection(exportFile(SAVED)));

    // Assert
    expect(view.settings.tabPlacement).toBe('foreground');
    expect(view.locked).toEqual(['tabPlacement']);
  });
});

describe('an import changes nothing until it is confirmed', () => {
  it('previewImport writes nothing and names the settings and the origins that would change', async () => {
    // Arrange
    await saveSettings(SAVED);
    const before = await snapshot();
    const file = exportFile({ ...SAVED, serviceUrl: 'https://isolation.evil.example', launchUrl: 'https://launch.evil.example', maxUses: 9 });

    // Act
    const preview = await previewImport(file);

    // Assert
    expect(preview).toEqual({
      changes: ['serviceUrl', 'launchUrl', 'maxUses'],
      service: { from: 'https://isolation.acme.example', to: 'https://isolation.evil.example' },
      launch: { from: 'https://isolation.acme.example', to: 'https://launch.evil.example' },
      connection: { serviceUrl: 'https://isolation.evil.example', launchUrl: 'https://launch.evil.example' },
      exceptAdded: [],
    });
    expect(await snapshot()).toBe(before);
  });

  it('previewImport names the domains a file adds to those never isolated by policy (links to them load locally)', async () => {
    await saveSettings({ ...SAVED, autoIsolate: { from: ['mail.acme.example'], except: ['acme.example'] } });
    const file = exportFile({ ...SAVED, autoIsolate: { from: ['mail.acme.example'], except: ['acme.example', 'evil.example', 'cdn.evil.example'] } });
    const preview = await previewImport(file);
    expect(preview.changes).toEqual(['autoIsolate']);
    expect(preview.exceptAdded).toEqual(['evil.example', 'cdn.evil.example']);
  });

  it('previewImport: a managed service URL stays, so the file moves neither the token nor the tabs', async () => {
    await saveSettings(SAVED);
    await fakeBrowser.storage.managed.set({ serviceUrl: 'https://isolation.corp.example' });
    const preview = await previewImport(exportFile({ ...SAVED, serviceUrl: 'https://isolation.evil.example', launchUrl: 'https://launch.evil.example' }));
    expect([preview.service, preview.launch, preview.changes]).toEqual([null, null, []]);
  });

  it.each([
    ['another service URL', { serviceUrl: 'https://isolation.evil.example', launchUrl: '' }],
    ['another launch URL', { serviceUrl: 'https://isolation.acme.example', launchUrl: 'https://launch.evil.example' }],
  ])('importSettings refuses a file confirmed with %s, atomically', async (_label, confirmed) => {
    // Arrange: the analyst saw a preview of one file; another one arrives.
    await saveSettings(SAVED);
    const before = await snapshot();
    const file = exportFile({ ...SAVED, serviceUrl: 'https://isolation.other.example' });

    // Act
    const act = importSettings(file, confirmed);

    // Assert
    await expect(act).rejects.toMatchObject({ name: 'SettingsError', issues: [{ code: 'importNotConfirmed' }] });
    expect(await snapshot()).toBe(before);
  });
});

describe('exportSettings', () => {
  const CANARY = 'canary-7Q2xV9kLm3Np8Rt5Wz1Yb6Hc4Jd0Fg';

  it.each([
    ['kept for the session', false],
    ['remembered on this device', true],
  ])('never contains the token (%s)', async (_label, remember) => {
    // Arrange
    await saveSettings(SAVED);
    await writeToken(CANARY, remember, 'https://isolation.acme.example');

    // Act
    const actual = JSON.stringify(await exportSettings());

    // Assert
    expect(actual).not.toContain(CANARY);
    expect(JSON.parse(actual)).toEqual({ format: 'isolink-settings', version: 1, settings: SAVED });
  });

  it('exports the user’s own values, not the managed ones', async () => {
    // Arrange
    await saveSettings(SAVED);
    await fakeBrowser.storage.managed.set({ tabPlacement: 'foreground', token: CANARY });

    // Act
    const actual = await exportSettings();

    // Assert
    expect(actual.settings).toEqual(SAVED);
    expect(JSON.stringify(actual)).not.toContain(CANARY);
  });
});

/** storage.managed as the store reads it (the promise form of get). */
function managedArea(): { get(): Promise<Record<string, unknown>> } {
  return fakeBrowser.storage.managed;
}

describe('managed policy', () => {
  const NO_POLICY = { values: {}, issues: [] };
  const UNKNOWN_COLOUR = { key: 'colour', code: 'settingUnknown', params: ['colour'], message: 'is not a setting' } as const;

  it('is empty when there is none', async () => {
    // Act
    const actual = await readManagedPolicy();

    // Assert
    expect(actual).toEqual(NO_POLICY);
  });

  it('is empty when managed storage rejects (Firefox without a policy)', async () => {
    // Arrange
    vi.spyOn(managedArea(), 'get').mockRejectedValue(new Error('Managed storage manifest not found'));

    // Act
    const actual = await readManagedPolicy();

    // Assert
    expect(actual).toEqual(NO_POLICY);
  });

  it('fails closed when managed storage never answers: it rejects after MANAGED_READ_TIMEOUT_MS', async () => {
    // Arrange
    vi.useFakeTimers();
    vi.spyOn(managedArea(), 'get').mockReturnValue(new Promise<Record<string, unknown>>(() => undefined));
    let outcome: unknown;
    readManagedPolicy().then(
      (policy) => {
        outcome = policy;
      },
      (error: unknown) => {
        outcome = error;
      },
    );

    // Act + Assert: still waiting just before the limit, refused at it (never "no policy")
    await vi.advanceTimersByTimeAsync(MANAGED_READ_TIMEOUT_MS - 1);
    expect(outcome).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(outcome).toBeInstanceOf(ManagedPolicyUnavailableError);
  });

  it('is read once for callers at the same moment, and again afterwards', async () => {
    // Arrange
    await fakeBrowser.storage.managed.set({ username: 'soc@acme.example' });
    const get = vi.spyOn(managedArea(), 'get');

    // Act
    const [first, second] = await Promise.all([readManagedPolicy(), readManagedPolicy()]);
    await fakeBrowser.storage.managed.set({ username: 'noc@acme.example' });
    const later = await readManagedPolicy();

    // Assert
    expect(get).toHaveBeenCalledTimes(2);
    expect(first.values).toEqual({ username: 'soc@acme.example' });
    expect(second).toBe(first);
    expect(later.values).toEqual({ username: 'noc@acme.example' });
  });

  it('keeps the good keys and reports the bad ones', async () => {
    // Arrange
    await fakeBrowser.storage.managed.set({
      serviceUrl: 'https://isolation.acme.example',
      autoDomainAllow: false,
      maxUses: 'lots',
      colour: 'red',
      token: '   ',
    });

    // Act
    const actual = await readManagedPolicy();

    // Assert
    expect(actual).toEqual({
      values: { serviceUrl: 'https://isolation.acme.example', autoDomainAllow: false },
      issues: [
        { key: 'maxUses', code: 'notNumber', params: ['maxUses'], message: 'must be a number' },
        { key: 'colour', code: 'settingUnknown', params: ['colour'], message: 'is not a setting' },
        { key: 'token', code: 'settingTokenText', params: ['token'], message: 'must be non-empty text' },
      ],
    });
  });

  it('carries a managed token apart from the values', async () => {
    // Arrange
    await fakeBrowser.storage.managed.set({ token: 'managed-token', username: 'soc@acme.example' });

    // Act
    const actual = await readManagedPolicy();

    // Assert
    expect(actual).toEqual({ values: { username: 'soc@acme.example' }, issues: [], token: 'managed-token' });
  });

  it('overlay lays managed values over the user’s key by key and lists them as locked; a managed service locks the launch URL with it', () => {
    // Arrange
    const managed: ManagedPolicy = { values: { serviceUrl: 'https://isolation.corp.example', maxUses: 1 }, issues: [UNKNOWN_COLOUR], token: 't' };

    // Act
    const actual = overlay({ ...SAVED, launchUrl: 'https://launch.user.example' }, managed);

    // Assert: the user's launch URL gives way to the one derived from the managed service
    expect(actual).toEqual({
      settings: { ...SAVED, serviceUrl: 'https://isolation.corp.example', launchUrl: '', maxUses: 1 },
      locked: ['serviceUrl', 'launchUrl', 'maxUses'],
      tokenManaged: true,
      managedIssues: [UNKNOWN_COLOUR],
      managedBroken: [],
    });
  });

  it('overlay: a managed launch URL stays with the managed service', () => {
    const managed: ManagedPolicy = { values: { serviceUrl: 'https://isolation.corp.example', launchUrl: 'https://launch.corp.example' }, issues: [] };
    const actual = overlay({ ...SAVED, launchUrl: 'https://launch.user.example' }, managed);
    expect(actual.settings.launchUrl).toBe('https://launch.corp.example');
    expect(actual.locked).toEqual(['serviceUrl', 'launchUrl']);
  });

  it.each([
    ['an ftp: service URL', { serviceUrl: 'ftp://isolation.corp.example' }, 'serviceUrl'],
    ['a launch URL that does not parse', { launchUrl: 'https://' }, 'launchUrl'],
    ['a 300-character username', { username: 'u'.repeat(300) }, 'username'],
    ['an org that is not text', { org: 42 }, 'org'],
    ['a policy list with an unknown clipboard value', { policy: [{ type: 'clipboard', params: ['sometimes'] }] }, 'policy'],
    ['a token that is not text', { token: 7 }, 'token'],
  ])('a managed connection key with %s is broken: locked, never the user’s value, reported', async (_label, policy, key) => {
    // Arrange
    await saveSettings(SAVED);
    await fakeBrowser.storage.managed.set(policy as Record<string, unknown>);

    // Act
    const actual = await readSettingsView();

    // Assert
    expect(actual.managedBroken).toEqual([key]);
    expect(actual.managedIssues.map((issue) => issue.key)).toEqual([key]);
    if (key !== 'token') {
      expect(actual.locked).toContain(key);
      expect(actual.settings[key as keyof typeof SAVED]).toEqual(DEFAULT_SETTINGS[key as keyof typeof SAVED]);
    } else {
      expect(actual.tokenManaged).toBe(true);
    }
  });

  it('a managed-storage read that fails is an error, not "no policy"', async () => {
    // Arrange
    vi.spyOn(fakeBrowser.storage.managed, 'get').mockRejectedValue(new Error('IO error: policy store corrupted'));

    // Act
    const act = readSettingsView();

    // Assert
    await expect(act).rejects.toMatchObject({ name: 'ManagedPolicyUnavailableError' });
  });

  it("Firefox's answer when no policy exists for the add-on is no policy", async () => {
    // Arrange
    await saveSettings(SAVED);
    vi.spyOn(fakeBrowser.storage.managed, 'get').mockRejectedValue(new Error('Managed storage manifest not found'));

    // Act
    const actual = await readSettingsView();

    // Assert
    expect(actual).toMatchObject({ settings: SAVED, locked: [], managedBroken: [] });
  });

  it('readSettingsView combines storage.local and storage.managed', async () => {
    // Arrange
    await saveSettings(SAVED);
    await fakeBrowser.storage.managed.set({ bulkConfirmThreshold: 2, tabPlacement: 'sideways' });

    // Act
    const actual = await readSettingsView();

    // Assert
    // An invalid managed value falls back to the default, locked: never the user's value.
    expect(actual).toEqual({
      settings: { ...SAVED, bulkConfirmThreshold: 2, tabPlacement: DEFAULT_SETTINGS.tabPlacement },
      locked: ['tabPlacement', 'bulkConfirmThreshold'],
      tokenManaged: false,
      managedIssues: [
        { key: 'tabPlacement', code: 'notOneOf', params: ['tabPlacement', 'foreground, background'], message: 'must be one of foreground, background' },
      ],
      managedBroken: [],
    });
  });
});
