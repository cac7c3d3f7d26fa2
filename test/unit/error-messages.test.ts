/**
 * The analyst's words for the errors Isolink builds (src/i18n/errors.ts): every code of
 * the client maps to a message key that says it in en, de and ja with every value
 * filled in; the background shows those words, never an error's English message; and
 * service text only ever appears inside Isolink's own frame, without the token.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { beforeEach, describe, expect, it } from 'vitest';
import { createClient } from '../../src/api';
import {
  AUTH_MESSAGES,
  AuthError,
  CommandError,
  HttpError,
  NetworkError,
  PROTOCOL_MESSAGES,
  ProtocolError,
  TimeoutError,
  VALIDATION_REASONS,
  ValidationError,
  type ApiError,
  type ApiErrorCode,
  type ProtocolCode,
  type ValidationCode,
} from '../../src/service/errors';
import type { ProxyWarningCode } from '../../src/api/params';
import { LaunchRefusedError, NotConfiguredError, PermissionMissingError, describeFailure, errorText } from '../../src/background/failures';
import { toWireError } from '../../src/background/router';
import {
  FIELD_PROBLEM_KEYS,
  IMPORT_MESSAGE_KEYS,
  REFUSED_URL_MESSAGE_KEYS,
  SETTING_MESSAGE_KEYS,
  TOKEN_MESSAGE_KEYS,
  apiErrorText,
  bulkFailureText,
  codeText,
  errorMessageKey,
  fieldProblemText,
  proxyWarningText,
  refusedUrlText,
  settingsIssueText,
  type ErrorCode,
} from '../../src/i18n/errors';
import type { TargetUrlProblemCode } from '../../src/net/url';
import {
  IMPORT_PROBLEMS,
  SETTING_REASONS,
  SettingsError,
  TokenError,
  importIssue,
  settingIssue,
  type ImportCode,
  type SettingCode,
  type SettingsIssue,
} from '../../src/settings/errors';
import type { TextSettingProblem, TextSettingProblemCode } from '../../src/settings/limits';

const LOCALES_DIR = resolve(import.meta.dirname, '../../public/_locales');
const LOCALES = ['en', 'de', 'ja'] as const;
type Locale = (typeof LOCALES)[number];

interface Message {
  readonly message: string;
  readonly placeholders?: Record<string, { readonly content: string }>;
}
type Messages = Record<string, Message>;

const MESSAGES: Record<Locale, Messages> = Object.fromEntries(
  LOCALES.map((locale) => [locale, JSON.parse(readFileSync(join(LOCALES_DIR, locale, 'messages.json'), 'utf8')) as Messages]),
) as Record<Locale, Messages>;

/**
 * browser.i18n.getMessage for one locale: `$$` is a dollar, `$1`..`$9` the
 * substitutions (missing ones empty), `$name$` a declared placeholder's content with
 * its own `$n` filled. An unknown key is the empty string.
 */
function getMessage(locale: Locale, key: string, substitutions?: string | string[]): string {
  const entry = MESSAGES[locale][key];
  if (!entry) return '';
  const subs = substitutions === undefined ? [] : Array.isArray(substitutions) ? substitutions : [substitutions];
  const fill = (text: string): string => text.replace(/\$([1-9])/gu, (_, n: string) => subs[Number(n) - 1] ?? '');
  return entry.message.replace(/\$(?:([$1-9])|(\w+)\$)/gu, (whole, single: string | undefined, named: string | undefined) => {
    if (single === '$') return '$';
    if (single !== undefined) return subs[Number(single) - 1] ?? '';
    return fill(entry.placeholders?.[(named ?? '').toLowerCase()]?.content ?? whole);
  });
}

function useLocale(locale: Locale): void {
  (fakeBrowser.i18n as { getMessage: (key: string, subs?: string | string[]) => string }).getMessage = (key, subs) => getMessage(locale, key, subs);
}

/** The distinct $1..$9 a text holds. */
function placeholders(text: string): number {
  return new Set(text.match(/\$[1-9]/gu) ?? []).size;
}

beforeEach(() => {
  fakeBrowser.reset();
  useLocale('en');
});

// ---- one sample per code --------------------------------------------------------------

/** A validation error of every code: the field, then as many values as its English reason holds. */
const VALIDATION_SAMPLES = Object.fromEntries(
  (Object.keys(VALIDATION_REASONS) as ValidationCode[]).map((code) => {
    const details = Array.from({ length: placeholders(VALIDATION_REASONS[code]) }, (_, i) => `value${i + 1}`);
    return [code, new ValidationError('sample.field', code, details)];
  }),
) as Record<string, ApiError>;

/** A ProtocolError of every code, with as many values as its English words hold. */
const PROTOCOL_SAMPLES = Object.fromEntries(
  (Object.keys(PROTOCOL_MESSAGES) as ProtocolCode[]).map((code) => {
    const params = Array.from({ length: placeholders(PROTOCOL_MESSAGES[code]) }, (_, i) => `value${i + 1}`);
    return [code, new ProtocolError(code, ...params)];
  }),
) as Record<string, ApiError>;

/** The other errors, built as the client builds them. */
const OTHER_SAMPLES = {
  authRejected: new AuthError(),
  authRejectedSaying: new AuthError('authRejectedSaying', 'KeyError: unknown key'),
  authRefusedHttp: new AuthError('authRefusedHttp', 401),
  authNoToken: new AuthError('authNoToken'),
  authMalformedToken: new AuthError('authMalformedToken'),
  commandRefused: new CommandError('create_context', 'ValueError: the licence allows no more contexts'),
  timeout: new TimeoutError(15_000),
  unreachable: new NetworkError('isolation.acme.example'),
  httpStatus: new HttpError(502, ''),
  httpStatusText: new HttpError(500, 'Simulated HTTP 500 Internal Server Error'),
} satisfies Record<Exclude<ApiErrorCode, ValidationCode | ProtocolCode>, ApiError>;

const WARNING_SAMPLES: Record<ProxyWarningCode, readonly string[]> = {
  https_certificate_name: ['tls-proxy'],
  socks4_no_auth: ['old-proxy'],
  socks5_no_auth_chrome: ['socks-proxy'],
};

const SAMPLE_ERRORS: Record<string, ApiError> = { ...VALIDATION_SAMPLES, ...PROTOCOL_SAMPLES, ...OTHER_SAMPLES };

/** Every code with the params its sample carries. */
const SAMPLES: [ErrorCode, readonly string[]][] = [
  ...Object.values(SAMPLE_ERRORS).map((error): [ErrorCode, readonly string[]] => [error.code, error.params]),
  ...(Object.entries(WARNING_SAMPLES) as [ProxyWarningCode, readonly string[]][]),
];

describe('the table from code to message key', () => {
  it('samples carry the code they stand for', () => {
    for (const [code, error] of Object.entries(SAMPLE_ERRORS)) expect(error.code).toBe(code);
  });

  it('has a sample here for every code, each once, and reads the code of every sample', () => {
    expect(new Set(SAMPLES.map(([code]) => code)).size).toBe(SAMPLES.length);
    expect(SAMPLES.length).toBeGreaterThan(80);
    for (const [code, params] of SAMPLES) expect(apiErrorText({ name: 'HttpError', code, params }), code).toBe(codeText(code, params));
  });

  it('reads no code it has no words for', () => {
    for (const code of ['', 'apiEmpty', 'Empty', 'toString', '__proto__', 'constructor', 'tokenInvalid', 'settingLocked']) {
      expect(apiErrorText({ name: 'HttpError', code, params: [] }), code).toBe(getMessage('en', 'errorSomethingWrong'));
    }
  });

  it('names keys that exist in en, de and ja', () => {
    const keys = [...SAMPLES.map(([code]) => errorMessageKey(code)), ...Object.values(REFUSED_URL_MESSAGE_KEYS)];
    for (const locale of LOCALES)
      expect(
        keys.filter((key) => !Object.hasOwn(MESSAGES[locale], key)),
        locale,
      ).toEqual([]);
  });

  it('gives each message exactly the values the English words hold: the field first for validation, then the reason’s values', () => {
    const differ: string[] = [];
    const want = (code: ErrorCode): number => {
      if (Object.hasOwn(VALIDATION_REASONS, code)) return 1 + placeholders(VALIDATION_REASONS[code as ValidationCode]);
      if (Object.hasOwn(PROTOCOL_MESSAGES, code)) return placeholders(PROTOCOL_MESSAGES[code as ProtocolCode]);
      if (Object.hasOwn(AUTH_MESSAGES, code)) return placeholders(AUTH_MESSAGES[code as keyof typeof AUTH_MESSAGES]);
      return -1;
    };
    for (const [code, params] of SAMPLES) {
      const have = placeholders(MESSAGES.en[errorMessageKey(code)]?.message ?? '');
      if (have !== params.length) differ.push(`${code}: the message holds ${have} values, the error carries ${params.length}`);
      const english = want(code);
      if (english !== -1 && english !== have) differ.push(`${code}: the message holds ${have} values, the English words ${english}`);
    }
    expect(differ).toEqual([]);
  });

  describe.each(LOCALES)('in %s', (locale) => {
    beforeEach(() => {
      useLocale(locale);
    });

    it.each(SAMPLES)('%s says something, with every value filled in', (code, params) => {
      const text = codeText(code, params);
      expect(text.trim()).not.toBe('');
      expect(text).not.toBe(errorMessageKey(code));
      expect(text).not.toMatch(/\$[1-9$]/u);
      for (const value of params) expect(text).toContain(value);
    });

    it.each(Object.entries(REFUSED_URL_MESSAGE_KEYS) as [TargetUrlProblemCode, string][])('a link refused for %s is said in full', (code) => {
      const params = code === 'urlTooLong' ? ['16384'] : code === 'urlScheme' ? ['javascript:'] : [];
      const text = refusedUrlText(code, params);
      expect(text.trim()).not.toBe('');
      expect(text).not.toMatch(/\$[1-9$]/u);
      for (const value of params) expect(text).toContain(value);
      expect(placeholders(MESSAGES[locale][REFUSED_URL_MESSAGE_KEYS[code]]?.message ?? '')).toBe(params.length);
    });
  });
});

// ---- the settings' codes ---------------------------------------------------------------

/** A settings issue of every setting's code and import code, with as many values as its English words hold. */
const SETTINGS_SAMPLES: SettingsIssue[] = [
  ...(Object.keys(SETTING_REASONS) as SettingCode[]).map((code) =>
    settingIssue(
      'sampleKey',
      code,
      Array.from({ length: placeholders(SETTING_REASONS[code]) }, (_, i) => `value${i + 1}`),
    ),
  ),
  ...(Object.keys(IMPORT_PROBLEMS) as ImportCode[]).map((code) =>
    importIssue(code, ...Array.from({ length: placeholders(IMPORT_PROBLEMS[code]) }, (_, i) => `value${i + 1}`)),
  ),
];

/** What the options page refuses beside a text field, one per code. */
const FIELD_SAMPLES: Record<TextSettingProblemCode, TextSettingProblem> = {
  tooLong: { code: 'tooLong', details: ['2048'] },
  settingServiceBase: { code: 'settingServiceBase', details: [] },
  settingSpaces: { code: 'settingSpaces', details: [] },
};

/** The message key of a settings issue. */
function settingsKey(issue: SettingsIssue): string {
  const code = issue.code as string;
  if (Object.hasOwn(SETTING_MESSAGE_KEYS, code)) return SETTING_MESSAGE_KEYS[code as SettingCode];
  return IMPORT_MESSAGE_KEYS[code as ImportCode];
}

describe('the tables of the settings’ codes', () => {
  it('have a sample here for every code they map', () => {
    expect(SETTINGS_SAMPLES.map((issue) => issue.code).sort()).toEqual([...Object.keys(SETTING_MESSAGE_KEYS), ...Object.keys(IMPORT_MESSAGE_KEYS)].sort());
    expect(Object.keys(FIELD_SAMPLES).sort()).toEqual(Object.keys(FIELD_PROBLEM_KEYS).sort());
  });

  it('name keys that exist in en, de and ja', () => {
    const keys = [
      ...Object.values(SETTING_MESSAGE_KEYS),
      ...Object.values(IMPORT_MESSAGE_KEYS),
      ...Object.values(FIELD_PROBLEM_KEYS),
      ...Object.values(TOKEN_MESSAGE_KEYS),
      'optionsErrorNoAnswer',
    ];
    for (const locale of LOCALES)
      expect(
        keys.filter((key) => !Object.hasOwn(MESSAGES[locale], key)),
        locale,
      ).toEqual([]);
  });

  it('give each message exactly the values the issue carries: the setting first, then the English words’ values', () => {
    const differ: string[] = [];
    for (const issue of SETTINGS_SAMPLES) {
      const have = placeholders(MESSAGES.en[settingsKey(issue)]?.message ?? '');
      if (have !== issue.params.length) differ.push(`${issue.code}: the message holds ${have} values, the issue carries ${issue.params.length}`);
    }
    for (const problem of Object.values(FIELD_SAMPLES)) {
      const have = placeholders(MESSAGES.en[FIELD_PROBLEM_KEYS[problem.code]]?.message ?? '');
      if (have !== problem.details.length) differ.push(`${problem.code}: the message holds ${have} values, the problem carries ${problem.details.length}`);
    }
    expect(differ).toEqual([]);
  });

  describe.each(LOCALES)('in %s', (locale) => {
    beforeEach(() => {
      useLocale(locale);
    });

    /** Said, not a key, every $ filled, every value in it. */
    function expectSaid(text: string, key: string, values: readonly string[]): void {
      expect(text.trim()).not.toBe('');
      expect(text).not.toBe(key);
      expect(text).not.toMatch(/\$[1-9$]/u);
      for (const value of values) expect(text).toContain(value);
    }

    it.each(SETTINGS_SAMPLES.map((issue): [string, SettingsIssue] => [issue.code, issue]))(
      'a settings issue %s says something, with every value filled in',
      (_code, issue) => {
        const text = settingsIssueText(issue);
        expectSaid(text, settingsKey(issue), issue.params);
        expect(text).toBe(getMessage(locale, settingsKey(issue), [...issue.params]));
        if (locale !== 'en') expect(text).not.toContain(issue.message);
        expect(apiErrorText(new SettingsError([issue]))).toBe(text);
      },
    );

    it.each(Object.values(FIELD_SAMPLES).map((problem): [string, TextSettingProblem] => [problem.code, problem]))(
      'a field refused for %s is said beside it in full',
      (_code, problem) => {
        expectSaid(fieldProblemText(problem), FIELD_PROBLEM_KEYS[problem.code], problem.details);
      },
    );

    it('a token that cannot be stored is said with its longest length', () => {
      const error = new TokenError(4096);
      const text = apiErrorText(error) ?? '';
      expectSaid(text, TOKEN_MESSAGE_KEYS.tokenInvalid, ['4096']);
      expect(text).not.toBe(error.message);
    });

    it('a settings issue of a validation code is said from the client’s table', () => {
      const issue = settingIssue('maxUses', 'notInteger');
      expect(settingsIssueText(issue)).toBe(codeText('notInteger', ['maxUses']));
    });

    it('a SettingsError with several issues says each of them', () => {
      const issues = [settingIssue('serviceUrl', 'settingLocked'), settingIssue('colour', 'settingUnknown')];
      expect(apiErrorText(new SettingsError(issues))).toBe(`${settingsIssueText(issues[0] as SettingsIssue)} ${settingsIssueText(issues[1] as SettingsIssue)}`);
    });
  });
});

// ---- what the analyst sees ------------------------------------------------------------

describe('describeFailure and the replies to pages say it in the analyst’s language, never the error’s English message', () => {
  beforeEach(() => {
    useLocale('de');
  });

  const de = (key: string, subs?: string | string[]): string => getMessage('de', key, subs);

  it.each<[string, ApiError, string, string]>([
    ['ValidationError', new ValidationError('max_uses', 'notInteger'), de('failValidation'), de('apiNotInteger', 'max_uses')],
    ['AuthError', new AuthError(), de('failAuth'), de('apiAuthRejected')],
    [
      'CommandError',
      new CommandError('create_context', 'ValueError: quota'),
      de('failCommand'),
      de('apiCommandRefused', ['create_context', 'ValueError: quota']),
    ],
    ['NetworkError', new NetworkError('isolation.acme.example'), de('failNetwork'), de('apiUnreachable', 'isolation.acme.example')],
    ['HttpError', new HttpError(503, 'busy'), de('failHttp'), de('apiHttpStatusText', ['503', 'busy'])],
    ['ProtocolError', new ProtocolError('replyNotJson'), de('failProtocol'), de('apiReplyNotJson')],
  ])('a %s', (_name, error, title, message) => {
    // Act
    const failure = describeFailure(error);
    const reply = toWireError(error);

    // Assert
    expect(failure.title).toBe(title);
    expect(failure.message).toBe(message);
    expect(failure.message).not.toBe(error.message);
    expect(failure.message).not.toContain(error.message);
    expect(reply.message).toBe(message);
    expect(reply.name).toBe(error.name);
  });

  it.each<[string, Error, string]>([
    [
      'a SettingsError of a key the organisation set',
      new SettingsError([settingIssue('serviceUrl', 'settingLocked')]),
      'serviceUrl wird von Ihrer Organisation festgelegt und kann hier nicht geändert werden.',
    ],
    [
      'a SettingsError of an import file',
      new SettingsError([importIssue('importNotJson')]),
      'Die Datei ist kein JSON und daher kein Isolink-Einstellungsexport.',
    ],
    ['a SettingsError of a zod finding', new SettingsError([settingIssue('maxUses', 'notNumber')]), 'maxUses muss eine Zahl sein.'],
    ['a TokenError', new TokenError(4096), 'Das Admin-Token muss aus 1 bis 4096 Zeichen Text bestehen, ohne Zeilenumbrüche oder andere Steuerzeichen.'],
  ])('the reply to a page says %s in German, never its English message', (_label, error, expected) => {
    // Act
    const reply = toWireError(error);

    // Assert
    expect(reply).toEqual({ name: error.name, message: expected });
    expect(reply.message).not.toContain(error.message);
  });

  it('a SettingsError or TokenError that lost its codes (it crossed a realm) gets generic words, not its English', () => {
    expect(apiErrorText({ name: 'SettingsError', message: 'serviceUrl is set by your organisation' })).toBe(de('errorSomethingWrong'));
    expect(apiErrorText({ name: 'SettingsError', message: 'x', issues: [{ key: 'serviceUrl', message: 'is set by your organisation' }] })).toBe(
      de('errorSomethingWrong'),
    );
    expect(apiErrorText({ name: 'TokenError', message: 'The token must be 1 to 4096 characters of text.' })).toBe(de('errorSomethingWrong'));
  });

  it('a TimeoutError says the context may exist; the reply to a page says the limit', () => {
    // Arrange
    const error = new TimeoutError(15_000);

    // Act
    const failure = describeFailure(error);
    const reply = toWireError(error);

    // Assert
    expect(failure).toEqual({ title: de('failTimeout'), message: de('failTimeoutMessage'), next: 'retry' });
    expect(reply.message).toBe(de('apiTimeout', '15'));
    expect(reply.message).not.toBe(error.message);
  });

  it('a ValidationError keeps its field in the reply', () => {
    expect(toWireError(new ValidationError('proxies[0].location.port', 'notPort'))).toEqual({
      name: 'ValidationError',
      message: 'proxies[0].location.port muss eine Portnummer von 1 bis 65535 sein.',
      field: 'proxies[0].location.port',
    });
  });

  it('the background’s own errors are data, said in the analyst’s words where shown', () => {
    const cases = [
      [new NotConfiguredError('problemNoToken'), de('problemNoToken')],
      [new PermissionMissingError('https://isolation.acme.example'), de('errorPermission', 'https://isolation.acme.example')],
      [new LaunchRefusedError(), de('errorLaunchRefused')],
    ] as const;
    for (const [error, words] of cases) {
      expect(error.message).toBe(error.key);
      expect(errorText(error)).toBe(words);
      expect(describeFailure(error).message).toBe(words);
      expect(toWireError(error).message).toBe(words);
    }
  });

  it('an ApiError that lost its code (it crossed a realm) gets generic words, not its English', () => {
    // Arrange
    const cloned = { name: 'HttpError', message: 'The service answered HTTP 500' };

    // Act
    const text = apiErrorText(cloned);

    // Assert
    expect(text).toBe(de('errorSomethingWrong'));
    expect(errorText(cloned)).toBe(de('errorSomethingWrong'));
  });

  it('a bulk failure of a refused link is said as a refused link; others from their code', () => {
    expect(bulkFailureText({ kind: 'ValidationError', code: 'urlScheme', params: ['urls[3]', 'data:'] })).toBe(de('errorRefusedUrlScheme', 'data:'));
    expect(bulkFailureText({ kind: 'HttpError', code: 'httpStatus', params: ['502'] })).toBe(de('apiHttpStatus', '502'));
  });

  it('a proxy warning is said with the proxy’s name', () => {
    expect(proxyWarningText({ code: 'socks5_no_auth_chrome', proxy: 'p1' })).toBe('p1: Chrome unterstützt keine Authentifizierung für SOCKSv5-Proxys.');
  });
});

describe('service text stays inside Isolink’s frame, and the token never reaches the analyst', () => {
  const TOKEN = 'tok_3f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a';

  /** A client whose service answers every command with `error` (an error slot), echoing the token. */
  function echoingClient(error: string) {
    const fetchImpl = (_url: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
      const commands = JSON.parse(init?.body as string) as { command_id?: string }[];
      const slots = commands.map((command, i) => (i === 0 ? { result: 'setting auth from data' } : { command_id: command.command_id, error }));
      return Promise.resolve(new Response(JSON.stringify(slots), { status: 200, headers: { 'content-type': 'application/json' } }));
    };
    return createClient({ baseUrl: 'https://isolation.acme.example', launchBase: 'https://isolation.acme.example', token: TOKEN, fetch: fetchImpl });
  }

  it.each(LOCALES)('in %s', async (locale) => {
    // Arrange
    useLocale(locale);
    const client = echoingClient(`ValueError: bad request for auth ${TOKEN} (${encodeURIComponent(TOKEN)})`);

    // Act
    const error: unknown = await client.createContext({ username: 'analyst@acme.example', url: 'https://evil.example/' }).catch((e: unknown) => e);
    const failure = describeFailure(error);
    const reply = toWireError(error);

    // Assert
    expect(error).toBeInstanceOf(CommandError);
    const frame = getMessage(locale, 'apiCommandRefused', ['create_context', 'SERVICE']).split('SERVICE')[0] ?? '';
    expect(frame.length).toBeGreaterThan(5);
    for (const text of [failure.title, failure.message, reply.message, JSON.stringify(reply)]) expect(text).not.toContain(TOKEN);
    expect(failure.message.startsWith(frame)).toBe(true);
    expect(failure.message).toContain('ValueError: bad request for auth [redacted]');
    expect(reply.message).toBe(failure.message);
  });
});
