/**
 * The admin token's storage: session only by default, local only when remembered,
 * never sync, a managed token wins, and moving or clearing leaves no copy behind.
 */
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { beforeEach, describe, expect, it } from 'vitest';
import { apiErrorText } from '../../src/i18n/errors';
import { TokenError } from '../../src/settings/errors';
import { MAX_TOKEN_LENGTH } from '../../src/service/values';
import { clearToken, moveToken, readToken, writeToken } from '../../src/settings/token';
import { installMessages } from '../support/i18n';

const CANARY = 'canary-token-4f9c2d7e1b8a6053-ZxQw';
/** The service origin the token is entered for. */
const ORIGIN = 'https://isolation.acme.example';

beforeEach(() => {
  fakeBrowser.reset();
  installMessages();
});

/** Which storage areas hold the canary anywhere in their contents. */
async function whereIsCanary(token = CANARY): Promise<string[]> {
  const areas = ['local', 'session', 'sync', 'managed'] as const;
  const found: string[] = [];
  for (const area of areas) {
    if (JSON.stringify(await fakeBrowser.storage[area].get()).includes(token)) found.push(area);
  }
  return found;
}

describe('writeToken', () => {
  it('keeps the token in the session only by default', async () => {
    // Act
    await writeToken(CANARY, false, ORIGIN);

    // Assert
    expect(await whereIsCanary()).toEqual(['session']);
    expect(await readToken()).toEqual({ token: CANARY, source: 'session', origin: ORIGIN });
  });

  it('keeps a remembered token in local storage only', async () => {
    // Act
    await writeToken(CANARY, true, ORIGIN);

    // Assert
    expect(await whereIsCanary()).toEqual(['local']);
    expect(await readToken()).toEqual({ token: CANARY, source: 'local', origin: ORIGIN });
  });

  it.each([
    ['session to local', false, true, ['local'], 'local'],
    ['local to session', true, false, ['session'], 'session'],
  ] as const)('writing again moves it from %s', async (_label, first, second, expectedAreas, expectedSource) => {
    // Arrange
    await writeToken(CANARY, first, ORIGIN);

    // Act
    await writeToken(CANARY, second, ORIGIN);

    // Assert
    expect(await whereIsCanary()).toEqual(expectedAreas);
    expect((await readToken())?.source).toBe(expectedSource);
  });

  it('stores the token trimmed', async () => {
    // Act
    await writeToken(`  ${CANARY}\n`, false, ORIGIN);

    // Assert
    expect(await readToken()).toEqual({ token: CANARY, source: 'session', origin: ORIGIN });
  });

  it.each([
    ['empty', ''],
    ['only spaces', '   '],
    ['too long', 'x'.repeat(MAX_TOKEN_LENGTH + 1)],
    ['a control character', 'abc\u0000def'],
    ['a line break inside', 'abc\ndef'],
    ['DEL', 'abc\u007fdef'],
  ])('refuses a token that is %s and keeps the one stored', async (_label, token) => {
    // Arrange
    await writeToken(CANARY, true, ORIGIN);
    const before = JSON.stringify([await fakeBrowser.storage.local.get(), await fakeBrowser.storage.session.get()]);

    // Act
    const act = writeToken(token, false, ORIGIN);

    // Assert: a RangeError with a code, which the analyst reads in words (never the token)
    await expect(act).rejects.toThrow(RangeError);
    await expect(act).rejects.toBeInstanceOf(TokenError);
    await expect(act).rejects.toMatchObject({ name: 'TokenError', code: 'tokenInvalid', params: [String(MAX_TOKEN_LENGTH)] });
    const text = apiErrorText(await act.catch((e: unknown) => e));
    expect(text).toBe(`The admin token must be 1 to ${String(MAX_TOKEN_LENGTH)} characters of text, without line breaks or other control characters.`);
    expect(JSON.stringify([await fakeBrowser.storage.local.get(), await fakeBrowser.storage.session.get()])).toBe(before);
  });
});

describe('moveToken', () => {
  it.each([
    ['session to local', false, true, ['local'], 'local'],
    ['local to session', true, false, ['session'], 'session'],
    ['session to session', false, false, ['session'], 'session'],
  ] as const)('moves it from %s and leaves no copy behind', async (_label, from, to, expectedAreas, expectedSource) => {
    // Arrange
    await writeToken(CANARY, from, ORIGIN);

    // Act
    await moveToken(to);

    // Assert
    expect(await whereIsCanary()).toEqual(expectedAreas);
    expect(await readToken()).toEqual({ token: CANARY, source: expectedSource, origin: ORIGIN });
  });

  it('does nothing when there is no token', async () => {
    // Act
    await moveToken(true);

    // Assert
    expect(await readToken()).toBeNull();
    expect(await fakeBrowser.storage.local.get()).toEqual({});
  });
});

describe('clearToken', () => {
  it.each([
    ['session', false],
    ['local', true],
  ])('forgets a %s token everywhere', async (_label, remember) => {
    // Arrange
    await writeToken(CANARY, remember, ORIGIN);

    // Act
    await clearToken();

    // Assert
    expect(await readToken()).toBeNull();

    expect(await whereIsCanary()).toEqual([]);
  });
});

describe('a managed token', () => {
  it('wins over the user’s', async () => {
    // Arrange
    await writeToken(CANARY, true, ORIGIN);
    await fakeBrowser.storage.managed.set({ token: 'managed-admin-token' });

    // Act
    const actual = await readToken();

    // Assert
    expect(actual).toEqual({ token: 'managed-admin-token', source: 'managed', origin: null });
  });

  it('stays when the user clears theirs', async () => {
    // Arrange
    await fakeBrowser.storage.managed.set({ token: 'managed-admin-token' });
    await writeToken(CANARY, false, ORIGIN);

    // Act
    await clearToken();

    // Assert
    expect(await readToken()).toEqual({ token: 'managed-admin-token', source: 'managed', origin: null });
    expect(await whereIsCanary()).toEqual([]);
  });

  it('is ignored when it is blank', async () => {
    // Arrange
    await fakeBrowser.storage.managed.set({ token: '  ' });
    await writeToken(CANARY, false, ORIGIN);

    // Act
    const actual = await readToken();

    // Assert
    expect(actual).toEqual({ token: CANARY, source: 'session', origin: ORIGIN });
  });
});

it('nothing is ever written to storage.sync', async () => {
  // Act
  await writeToken(CANARY, false, ORIGIN);
  await moveToken(true);
  await moveToken(false);
  await writeToken(CANARY, true, ORIGIN);
  await clearToken();

  // Assert
  expect(await fakeBrowser.storage.sync.get()).toEqual({});
});
