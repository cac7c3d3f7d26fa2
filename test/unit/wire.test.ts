import { describe, expect, it } from 'vitest';
import { classifyServiceError, decodeExpires, encodeExpires, isWireExpires, SERVICE_ERRORS } from '../../src/service/wire';

describe('expires on the wire', () => {
  it.each([
    [1767225600, '1767225600'],
    [new Date('2026-01-01T00:00:00Z'), '1767225600'],
    ['2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z'],
    ['2026-01-01T01:00:00+01:00', '2026-01-01T01:00:00+01:00'],
    [{ in_seconds: 3600 }, '+3600'],
  ])('encodes %j as %s', (input, wire) => {
    expect(encodeExpires(input)).toBe(wire);
    expect(isWireExpires(wire)).toBe(true);
  });

  it.each([0, -5, 1.5, Number.NaN, new Date('nonsense'), 'tomorrow', '2026-13-45', '', { in_seconds: 0 }, { in_seconds: 2.5 }])('refuses %j', (input) => {
    expect(() => encodeExpires(input)).toThrow(RangeError);
  });

  it('decodes the three forms into epoch seconds', () => {
    const now = 1_800_000_000;
    expect(decodeExpires('1767225600', now)).toBe(1767225600);
    expect(decodeExpires('+3600', now)).toBe(now + 3600);
    expect(decodeExpires('2026-01-01T00:00:00Z', now)).toBe(1767225600);
    expect(decodeExpires('next week', now)).toBeNull();
    expect(decodeExpires({}, now)).toBeNull();
  });
});

describe('classifyServiceError', () => {
  it.each([
    [SERVICE_ERRORS.badToken, 'auth'],
    ['KeyError: something', 'auth'],
    [SERVICE_ERRORS.notFound, 'not_found'],
    ['No org matching acme/x', 'no_org'],
    ['ValueError: bad url', 'other'],
  ] as const)('%s -> %s', (text, kind) => {
    expect(classifyServiceError(text)).toBe(kind);
  });
});
