import { describe, expect, it } from 'vitest';
import {
  AuthError, CommandError, HttpError, MAX_SERVICE_TEXT, NetworkError, ProtocolError, TimeoutError, ValidationError,
  isApiError, isAuthError, isCommandError, isHttpError, isNetworkError, isProtocolError, isTimeoutError, isValidationError,
  sanitizeServiceText,
} from '../../src/api/errors';

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
    [new ValidationError('url', 'is bad'), isValidationError, 'ValidationError'],
    [new AuthError(), isAuthError, 'AuthError'],
    [new CommandError('create_context', 'ValueError: x'), isCommandError, 'CommandError'],
    [new TimeoutError(15_000), isTimeoutError, 'TimeoutError'],
    [new NetworkError('down'), isNetworkError, 'NetworkError'],
    [new HttpError(502, ''), isHttpError, 'HttpError'],
    [new ProtocolError('odd'), isProtocolError, 'ProtocolError'],
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
    expect(new ValidationError('policy[0].params', 'must be one colour').message).toBe('policy[0].params must be one colour');
  });
});
