import { describe, expect, it } from 'vitest';
import {
  AuthError,
  CommandError,
  HttpError,
  MAX_SERVICE_TEXT,
  NetworkError,
  ProtocolError,
  TimeoutError,
  VALIDATION_REASONS,
  ValidationError,
  isApiError,
  isValidationCode,
  type ApiError,
  isAuthError,
  isCommandError,
  isHttpError,
  isNetworkError,
  isProtocolError,
  isTimeoutError,
  isValidationError,
  sanitizeServiceText,
} from '../../src/service/errors';

describe('sanitizeServiceText', () => {
  const token = 'tok_3f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c';

  it('removes the token in its plain, URL-encoded and JSON-escaped forms', () => {
    const weird = 'a/b"c\\d e+f';
    const text = `bad ${weird} and ${encodeURIComponent(weird)} and ${JSON.stringify(weird)}`;
    const out = sanitizeServiceText(text, [weird]);
    expect(out).not.toContain(weird);
    expect(out).not.toContain(encodeURIComponent(weird));
    expect(out).not.toContain(JSON.stringify(weird).slice(1, -1));
    expect(out.match(/\[redacted\]/g)).toHaveLength(3);
  });

  it('removes anything token-shaped even when the token is not known', () => {
    expect(sanitizeServiceText(`KeyError: ${token}`)).toBe('KeyError: [redacted]');
  });

  it('keeps ordinary service text', () => {
    expect(sanitizeServiceText('No org matching acme/soc')).toBe('No org matching acme/soc');
  });

  it('strips control characters and truncates', () => {
    expect(sanitizeServiceText('a\u0000b\nc\u001bd')).toBe('a b c d');
    const long = sanitizeServiceText('word '.repeat(1000));
    expect(long.length).toBe(MAX_SERVICE_TEXT + 1);
    expect(long.endsWith('…')).toBe(true);
  });
});

describe('error classes and guards', () => {
  const cases = [
    [new ValidationError('url', 'urlNotAbsolute'), isValidationError, 'ValidationError'],
    [new AuthError(), isAuthError, 'AuthError'],
    [new CommandError('create_context', 'ValueError: x'), isCommandError, 'CommandError'],
    [new TimeoutError(15_000), isTimeoutError, 'TimeoutError'],
    [new NetworkError('isolation.example.com'), isNetworkError, 'NetworkError'],
    [new HttpError(502, ''), isHttpError, 'HttpError'],
    [new ProtocolError('replyNotJson'), isProtocolError, 'ProtocolError'],
  ] as const;

  it.each(cases)('%o has its name and guard', (error, guard, name) => {
    expect(error.name).toBe(name);
    expect(guard(error)).toBe(true);
    expect(isApiError(error)).toBe(true);
    // Errors that crossed a realm keep only data: the guards go by name.
    const cloned: unknown = structuredClone({ name: error.name, message: error.message });
    expect(guard(cloned)).toBe(true);
    expect(isApiError(cloned)).toBe(true);
  });

  it('guards say no to other errors', () => {
    expect(isAuthError(new Error('x'))).toBe(false);
    expect(isApiError({ name: 'TypeError' })).toBe(false);
    expect(isApiError(null)).toBe(false);
  });

  it('messages say what to do next', () => {
    expect(new AuthError().message).toMatch(/options/);
    expect(new TimeoutError(15_000).message).toBe('The service did not answer within 15 s. Try again, or check the service URL.');
    expect(new ValidationError('policy[0].params', 'policyColor').message).toBe('policy[0].params must be one colour written #rgb or #rrggbb');
  });
});

describe('codes and params: the same as the message, as data', () => {
  it.each<[string, ApiError, string, readonly string[], string]>([
    [
      'a validation error: the field, then the values',
      new ValidationError('url', 'urlTooLong', ['16384']),
      'urlTooLong',
      ['url', '16384'],
      'url is longer than 16384 characters',
    ],
    ['a validation error without values', new ValidationError('max_uses', 'notInteger'), 'notInteger', ['max_uses'], 'max_uses must be a whole number'],
    ['the default AuthError', new AuthError(), 'authRejected', [], 'The service rejected the admin token. Check the token in the options.'],
    [
      'an AuthError for HTTP 403',
      new AuthError('authRefusedHttp', 403),
      'authRefusedHttp',
      ['403'],
      'The service refused the token (HTTP 403). Check the token in the options.',
    ],
    ['no token', new AuthError('authNoToken'), 'authNoToken', [], 'No admin token is set. Enter the token in the options.'],
    [
      'a CommandError: the command and the service text',
      new CommandError('get_context', 'KeyError: x', 'not_found'),
      'commandRefused',
      ['get_context', 'KeyError: x'],
      'The service refused get_context: KeyError: x',
    ],
    ['a TimeoutError: seconds', new TimeoutError(2500), 'timeout', ['2.5'], 'The service did not answer within 2.5 s. Try again, or check the service URL.'],
    [
      'a NetworkError: the host',
      new NetworkError('127.0.0.1:9'),
      'unreachable',
      ['127.0.0.1:9'],
      'Could not reach the service at 127.0.0.1:9. Check the service URL and the network; Isolink refuses redirects.',
    ],
    ['an HttpError without a body', new HttpError(502, ''), 'httpStatus', ['502'], 'The service answered HTTP 502'],
    ['an HttpError with a body', new HttpError(500, 'boom'), 'httpStatusText', ['500', 'boom'], 'The service answered HTTP 500: boom'],
    [
      'a ProtocolError with values',
      new ProtocolError('replySlotCount', '1', '2'),
      'replySlotCount',
      ['1', '2'],
      'The service answered 1 slots for 2 commands.',
    ],
    [
      'a ProtocolError naming a command',
      new ProtocolError('replyShape', 'get_context', 'enabled'),
      'replyShape',
      ['get_context', 'enabled'],
      "The service's reply to get_context has an unexpected shape at enabled.",
    ],
  ])('%s', (_label, error, code, params, message) => {
    expect(error.code).toBe(code);
    expect(error.params).toEqual(params);
    expect(error.message).toBe(message);
  });

  it('every validation code has English words, and a value only ever fills a placeholder', () => {
    for (const [code, reason] of Object.entries(VALIDATION_REASONS)) {
      expect(reason.trim(), code).not.toBe('');
      expect(isValidationCode(code)).toBe(true);
    }
    expect(isValidationCode('must not be empty')).toBe(false);
    expect(isValidationCode('__proto__')).toBe(false);
    // A value holding $1 is not read as a placeholder.
    expect(new ValidationError('name', 'duplicateProxy', ['"$1"']).message).toBe('name repeats "$1"; proxy names must be unique');
  });
});
