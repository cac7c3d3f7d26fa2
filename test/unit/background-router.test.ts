/**
 * The one runtime.onMessage router: only this extension's own top-level pages get an
 * answer, each page only for its messages, every message is validated strictly, and
 * errors come back as data, never as a throw.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { AuthError, CommandError, TimeoutError, ValidationError } from '../../src/api';
import type { Handlers } from '../../src/background/handlers';
import { createRouter, pageOf, toWireError, type Sender } from '../../src/background/router';
import { messageSchema, PROTOCOL, type MessageType, type Reply } from '../../src/messaging/protocol';
import { SettingsError } from '../../src/settings/store';
import { installMessages } from '../support/i18n';
// Order matters: settle Node's lazy globals before the poisoning package takes its snapshot.
import { RUNNER_ROOTS } from '../support/settle-globals';

// Replies carry the analyst's words (browser.i18n): the real English messages, installed
// before the poisoning package below takes its snapshot of everything reachable from
// globalThis, browser.i18n included.
installMessages();
const { assertNoPoisoning, restoreGlobals } = await import('@fast-check/poisoning');

const EXTENSION_ID = 'test-extension-id';
const ORIGIN = `chrome-extension://${EXTENSION_ID}`;
/** As RouterOptions documents it: `chrome-extension://<id>` (what Chrome's `new URL(runtime.getURL('/')).origin` gives). */
const OPTIONS = { extensionId: EXTENSION_ID, extensionOrigin: ORIGIN } as const;
const POPUP: Sender = { id: EXTENSION_ID, url: `${ORIGIN}/popup.html`, frameId: 0 };
const OPTIONS_PAGE: Sender = { id: EXTENSION_ID, url: `${ORIGIN}/options.html`, frameId: 0 };
const LANDING: Sender = { id: EXTENSION_ID, url: `${ORIGIN}/isolate.html`, frameId: 0 };

const TYPES = Object.keys(PROTOCOL) as MessageType[];

interface Call {
  readonly type: MessageType;
  readonly data: unknown;
}

/** Handlers that record their calls and answer `{ handled: type }`; `behaviour` replaces one. */
function recordingHandlers(behaviour: Partial<Record<MessageType, (data: unknown) => Promise<unknown>>> = {}): { handlers: Handlers; calls: Call[] } {
  const calls: Call[] = [];
  const entries = TYPES.map((type) => [
    type,
    (data: unknown) => {
      calls.push({ type, data });
      const custom = behaviour[type];
      return custom ? custom(data) : Promise.resolve({ handled: type });
    },
  ]);
  return { handlers: Object.fromEntries(entries) as Handlers, calls };
}

const RESEARCH = { egressRegion: '', browserProfile: null, availability: [], connectivity: [] };

/** One valid message of every type, and the page that sends it. */
const VALID: readonly (readonly [MessageType, 'popup' | 'options' | 'isolate', unknown])[] = [
  ['getStatus', 'popup', {}],
  ['getSettings', 'options', {}],
  ['saveSettings', 'options', { patch: { tabPlacement: 'background' } }],
  ['setToken', 'options', { token: 'a-token', remember: false }],
  ['setRemember', 'options', { remember: true }],
  ['clearToken', 'options', {}],
  ['testConnection', 'options', {}],
  ['isolate', 'popup', { url: 'hxxps://evil[.]example/', session: 'standard', toggles: { readonly: true } }],
  ['isolateCurrentTab', 'popup', { session: 'research' }],
  ['landed', 'isolate', { hash: '#k=0&r=100&u=https://a.example/', go: false }],
  ['research', 'popup', { research: RESEARCH }],
  ['bulkCreate', 'popup', { urls: ['https://a.example/', 'https://b.example/'] }],
  ['openContexts', 'popup', { ids: ['ctx1', 'ctx2'] }],
  ['listRecent', 'popup', {}],
  ['contextDetails', 'popup', { id: 'ctx1' }],
  ['updateContext', 'popup', { id: 'ctx1', enabled: false, name: 'phish 42' }],
  ['deleteContext', 'popup', { id: 'ctx1' }],
  ['getProxies', 'options', { org: 'acme' }],
  ['addProxies', 'options', { org: 'acme', proxies: [{ name: 'p', location: { address: '10.0.0.1' } }] }],
  ['setProxies', 'options', { org: 'acme', proxies: [] }],
  ['deleteProxies', 'options', { org: 'acme', names: ['p'] }],
  ['putFile', 'options', { name: 'a.bin', bucketId: 'b1', fileToken: 'ft', base64: 'AAEC' }],
  ['getFile', 'options', { id: 'f1', fileToken: 'ft' }],
  ['exportSettings', 'options', {}],
  ['previewImport', 'options', { json: '{}' }],
  ['importSettings', 'options', { json: '{}', confirmed: { serviceUrl: 'https://isolation.acme.example', launchUrl: '' } }],
];

const SENDERS = { popup: POPUP, options: OPTIONS_PAGE, isolate: LANDING } as const;

function refused(message: string): Reply<never> {
  return { ok: false, error: { name: 'RefusedMessage', message } };
}

describe('accepted messages', () => {
  it('the table covers every message type of the protocol', () => {
    // Act
    const actual = VALID.map(([type]) => type).sort();

    // Assert
    expect(actual).toEqual([...TYPES].sort());
  });

  it.each(VALID.map(([type, page, data]) => [type, page, data] as const))('%s from the %s page reaches its handler with its data', async (type, page, data) => {
    // Arrange
    const { handlers, calls } = recordingHandlers();
    const router = createRouter(handlers, OPTIONS);

    // Act
    const reply = await router({ type, data }, SENDERS[page]);

    // Assert
    expect(reply).toEqual({ ok: true, value: { handled: type } });
    expect(calls).toEqual([{ type, data }]);
  });

  it.each([
    ['a popup URL with a query and fragment', { id: EXTENSION_ID, url: `${ORIGIN}/popup.html?tab=1#x`, frameId: 0 }, 'popup'],
    ['the options page without a frameId', { id: EXTENSION_ID, url: `${ORIGIN}/options.html` }, 'options'],
  ] as const)('pageOf: %s is %s', (_label, sender, expected) => {
    // Act
    const actual = pageOf(sender, OPTIONS);

    // Assert
    expect(actual).toBe(expected);
  });

  it('pageOf accepts a Firefox popup with the moz-extension origin it is given', () => {
    // Arrange
    const firefox = { extensionId: 'isolink@example', extensionOrigin: 'moz-extension://0b7c1d6e-5f4a-4c3b-9d2e-1a0f9e8d7c6b' };

    // Act
    const actual = pageOf({ id: 'isolink@example', url: `${firefox.extensionOrigin}/popup.html`, frameId: 0 }, firefox);

    // Assert
    expect(actual).toBe('popup');
  });
});

describe.each([
  ['the reported mail page', 'mail', { id: EXTENSION_ID, url: `${ORIGIN}/mail.html`, frameId: 0 }, ['getStatus', 'getSettings', 'bulkCreate', 'openContexts']],
  // The landing page of a navigation stopped by isolate-by-policy rules: it reads the settings and isolates what it checked.
  ['the landing page', 'isolate', { ...LANDING, url: `${LANDING.url ?? ''}#k=0&r=1&u=https://a.example/` }, ['landed']],
] as const)('%s', (_name, page, sender: Sender, allowed: readonly MessageType[]) => {
  it('is a page of the extension, whatever its fragment', () => {
    expect(pageOf(sender, OPTIONS)).toBe(page);
  });

  it.each(VALID.filter(([type]) => allowed.includes(type)).map(([type, , data]) => [type, data] as const))('may send %s', async (type, data) => {
    const { handlers, calls } = recordingHandlers();
    const reply = await createRouter(handlers, OPTIONS)({ type, data }, sender);

    expect(reply).toEqual({ ok: true, value: { handled: type } });
    expect(calls).toEqual([{ type, data }]);
  });

  it('may send nothing else', async () => {
    const others = VALID.filter(([type]) => !allowed.includes(type));
    const { handlers, calls } = recordingHandlers();
    const router = createRouter(handlers, OPTIONS);

    const replies = await Promise.all(others.map(async ([type, , data]) => router({ type, data }, sender)));

    expect(replies).toEqual(others.map(([type]) => refused(`The ${page} page may not send ${type}.`)));
    expect(others.length).toBe(TYPES.length - allowed.length);
    expect(calls).toEqual([]);
  });
});

describe('forged senders get no answer and cause nothing', () => {
  it.each<[string, Sender]>([
    ['another extension', { id: 'other-extension-id', url: 'chrome-extension://other-extension-id/popup.html', frameId: 0 }],
    ['another extension claiming our page', { id: 'other-extension-id', url: `${ORIGIN}/popup.html`, frameId: 0 }],
    ["another extension's page sent with our id", { id: EXTENSION_ID, url: 'chrome-extension://other-extension-id/popup.html', frameId: 0 }],
    ['a page of another non-web scheme', { id: EXTENSION_ID, url: 'isolink-evil://test-extension-id/popup.html', frameId: 0 }],
    ['a web page', { id: EXTENSION_ID, url: 'https://evil.example/', frameId: 0 }],
    ['a web page with our page path', { id: EXTENSION_ID, url: 'https://evil.example/popup.html', frameId: 0 }],
    ['our id without a URL', { id: EXTENSION_ID, frameId: 0 }],
    ['our id with a null URL', { id: EXTENSION_ID, url: null as unknown as string, frameId: 0 }],
    ['our id with a URL object', { id: EXTENSION_ID, url: new URL(`${ORIGIN}/popup.html`) as unknown as string, frameId: 0 }],
    ['no id', { url: `${ORIGIN}/popup.html`, frameId: 0 }],
    ['a sub-frame of the popup', { id: EXTENSION_ID, url: `${ORIGIN}/popup.html`, frameId: 2 }],
    ['a negative frame id', { id: EXTENSION_ID, url: `${ORIGIN}/options.html`, frameId: -1 }],
    ['the offscreen document', { id: EXTENSION_ID, url: `${ORIGIN}/offscreen.html`, frameId: 0 }],
    ['the background script', { id: EXTENSION_ID, url: `${ORIGIN}/background.js`, frameId: 0 }],
    ['another page of ours', { id: EXTENSION_ID, url: `${ORIGIN}/sandbox.html`, frameId: 0 }],
    ['a look-alike path', { id: EXTENSION_ID, url: `${ORIGIN}/popup.html.evil`, frameId: 0 }],
    ['a double slash path', { id: EXTENSION_ID, url: `${ORIGIN}//popup.html`, frameId: 0 }],
    ['another case', { id: EXTENSION_ID, url: `${ORIGIN}/POPUP.HTML`, frameId: 0 }],
    ['a URL that does not parse', { id: EXTENSION_ID, url: 'popup.html', frameId: 0 }],
    ['userinfo in front of our origin', { id: EXTENSION_ID, url: `https://${EXTENSION_ID}@evil.example/popup.html`, frameId: 0 }],
    ['a blob of our origin', { id: EXTENSION_ID, url: `blob:${ORIGIN}/popup.html`, frameId: 0 }],
  ])('%s', (_label, sender) => {
    // Arrange
    const { handlers, calls } = recordingHandlers();
    const router = createRouter(handlers, OPTIONS);

    // Act
    const reply = router({ type: 'getStatus', data: {} }, sender);

    // Assert
    expect(reply).toBeUndefined();
    expect(pageOf(sender, OPTIONS)).toBeNull();
    expect(calls).toEqual([]);
  });
});

describe('the popup may not send what only the options page may', () => {
  const OPTIONS_ONLY: readonly MessageType[] = [
    'saveSettings',
    'setToken',
    'setRemember',
    'clearToken',
    'testConnection',
    'getProxies',
    'addProxies',
    'setProxies',
    'deleteProxies',
    'putFile',
    'getFile',
    'exportSettings',
    'previewImport',
    'importSettings',
  ];

  it.each(OPTIONS_ONLY.map((type) => [type, VALID.find(([t]) => t === type)?.[2]] as const))('%s is refused from the popup', async (type, data) => {
    // Arrange
    const { handlers, calls } = recordingHandlers();
    const router = createRouter(handlers, OPTIONS);

    // Act
    const reply = await router({ type, data }, POPUP);

    // Assert
    expect(reply).toEqual(refused(`The popup page may not send ${type}.`));
    expect(calls).toEqual([]);
  });
});

describe('malformed messages are refused before any handler runs', () => {
  const big = (length: number): string => 'a'.repeat(length);

  it.each<[string, unknown, Reply<never>]>([
    ['a string', 'getStatus', refused('Isolink refused a message that is not an object.')],
    ['null', null, refused('Isolink refused a message that is not an object.')],
    ['an array', [{ type: 'getStatus', data: {} }], refused('Isolink refused a message that is not an object.')],
    ['a number', 42, refused('Isolink refused a message that is not an object.')],
    ['no type', { data: {} }, refused('Isolink refused a message it does not know.')],
    ['an unknown type', { type: 'getToken', data: {} }, refused('Isolink refused a message it does not know.')],
    ['type __proto__', { type: '__proto__', data: {} }, refused('Isolink refused a message it does not know.')],
    ['type constructor', { type: 'constructor', data: {} }, refused('Isolink refused a message it does not know.')],
    ['type toString', { type: 'toString', data: {} }, refused('Isolink refused a message it does not know.')],
    ['type hasOwnProperty', { type: 'hasOwnProperty', data: {} }, refused('Isolink refused a message it does not know.')],
    ['a type in another case', { type: 'GETSTATUS', data: {} }, refused('Isolink refused a message it does not know.')],
    ['a type that is not text', { type: ['getStatus'], data: {} }, refused('Isolink refused a message it does not know.')],
    ['no data', { type: 'getStatus' }, refused('Isolink refused a malformed getStatus message.')],
    ['data null', { type: 'getStatus', data: null }, refused('Isolink refused a malformed getStatus message.')],
    ['an extra key', { type: 'getStatus', data: { token: 'x' } }, refused('Isolink refused a malformed getStatus message.')],
    [
      'an extra key in isolate',
      { type: 'isolate', data: { url: 'https://a.example/', session: 'standard', open: true } },
      refused('Isolink refused a malformed isolate message.'),
    ],
    [
      'an own __proto__ key',
      { type: 'getStatus', data: JSON.parse('{"__proto__":{"polluted":true}}') as unknown },
      refused('Isolink refused a malformed getStatus message.'),
    ],
    ['a url that is not text', { type: 'isolate', data: { url: 42, session: 'standard' } }, refused('Isolink refused a malformed isolate message.')],
    ['an unknown session', { type: 'isolate', data: { url: 'https://a.example/', session: 'admin' } }, refused('Isolink refused a malformed isolate message.')],
    [
      'a toggle of the wrong type',
      { type: 'isolate', data: { url: 'https://a.example/', session: 'standard', toggles: { readonly: 'true' } } },
      refused('Isolink refused a malformed isolate message.'),
    ],
    [
      'an unknown toggle',
      { type: 'isolate', data: { url: 'https://a.example/', session: 'standard', toggles: { printing: 'allow_all' } } },
      refused('Isolink refused a malformed isolate message.'),
    ],
    [
      'a research choice with an extra key',
      { type: 'research', data: { research: { ...RESEARCH, proxy: 'x' } } },
      refused('Isolink refused a malformed research message.'),
    ],
    [
      'a url over 64 KiB',
      { type: 'isolate', data: { url: `https://a.example/${big(64 * 1024)}`, session: 'standard' } },
      refused('Isolink refused a malformed isolate message.'),
    ],
    [
      '501 bulk URLs',
      { type: 'bulkCreate', data: { urls: Array.from({ length: 501 }, (_, i) => `https://h${i}.example/`) } },
      refused('Isolink refused a malformed bulkCreate message.'),
    ],
    ['no bulk URLs', { type: 'bulkCreate', data: { urls: [] } }, refused('Isolink refused a malformed bulkCreate message.')],
    [
      '501 context ids',
      { type: 'openContexts', data: { ids: Array.from({ length: 501 }, (_, i) => `c${i}`) } },
      refused('Isolink refused a malformed openContexts message.'),
    ],
    ['an id over 256 characters', { type: 'contextDetails', data: { id: big(257) } }, refused('Isolink refused a malformed contextDetails message.')],
    ['an empty id', { type: 'deleteContext', data: { id: '' } }, refused('Isolink refused a malformed deleteContext message.')],
    ['ids that are not a list', { type: 'openContexts', data: { ids: 'ctx1' } }, refused('Isolink refused a malformed openContexts message.')],
    ['a name over 256 characters', { type: 'updateContext', data: { id: 'c', name: big(257) } }, refused('Isolink refused a malformed updateContext message.')],
  ])('from the popup: %s', async (_label, message, expected) => {
    // Arrange
    const { handlers, calls } = recordingHandlers();
    const router = createRouter(handlers, OPTIONS);

    // Act
    const reply = await router(message, POPUP);

    // Assert
    expect(reply).toEqual(expected);
    expect(calls).toEqual([]);
  });

  it.each<[string, unknown, Reply<never>]>([
    [
      'a token over 4096 characters',
      { type: 'setToken', data: { token: big(4097), remember: false } },
      refused('Isolink refused a malformed setToken message.'),
    ],
    ['remember as text', { type: 'setToken', data: { token: 't', remember: 'yes' } }, refused('Isolink refused a malformed setToken message.')],
    [
      'a token with a service URL beside it',
      { type: 'setToken', data: { token: 't', remember: false, serviceUrl: 'https://evil.example' } },
      refused('Isolink refused a malformed setToken message.'),
    ],
    ['a patch that is a list', { type: 'saveSettings', data: { patch: [] } }, refused('Isolink refused a malformed saveSettings message.')],
    [
      'a patch that is text',
      { type: 'saveSettings', data: { patch: 'serviceUrl=https://evil.example' } },
      refused('Isolink refused a malformed saveSettings message.'),
    ],
    [
      'an import over 512 KiB',
      { type: 'importSettings', data: { json: big(512 * 1024 + 1), confirmed: { serviceUrl: '', launchUrl: '' } } },
      refused('Isolink refused a malformed importSettings message.'),
    ],
    ['an empty org', { type: 'getProxies', data: { org: '' } }, refused('Isolink refused a malformed getProxies message.')],
    [
      '1001 proxies',
      { type: 'setProxies', data: { org: 'acme', proxies: Array.from({ length: 1001 }, () => ({})) } },
      refused('Isolink refused a malformed setProxies message.'),
    ],
    ['no proxy names', { type: 'deleteProxies', data: { org: 'acme', names: [] } }, refused('Isolink refused a malformed deleteProxies message.')],
    [
      'a file name over 1024 characters',
      { type: 'putFile', data: { name: big(1025), bucketId: 'b', fileToken: 't', base64: '' } },
      refused('Isolink refused a malformed putFile message.'),
    ],
    [
      'file bytes that are not text',
      { type: 'putFile', data: { name: 'a', bucketId: 'b', fileToken: 't', base64: [1, 2, 3] } },
      refused('Isolink refused a malformed putFile message.'),
    ],
    [
      'a file token over 4096 characters',
      { type: 'getFile', data: { id: 'f', fileToken: big(4097) } },
      refused('Isolink refused a malformed getFile message.'),
    ],
  ])('from the options page: %s', async (_label, message, expected) => {
    // Arrange
    const { handlers, calls } = recordingHandlers();
    const router = createRouter(handlers, OPTIONS);

    // Act
    const reply = await router(message, OPTIONS_PAGE);

    // Assert
    expect(reply).toEqual(expected);
    expect(calls).toEqual([]);
  });

  it('a saveSettings patch with an own __proto__ key reaches the handler without it, and pollutes nothing', async () => {
    // Arrange
    const { handlers, calls } = recordingHandlers();
    const router = createRouter(handlers, OPTIONS);
    const message: unknown = JSON.parse('{"type":"saveSettings","data":{"patch":{"__proto__":{"polluted":true},"tabPlacement":"background"}}}');

    // Act
    await router(message, OPTIONS_PAGE);

    // Assert
    const [call] = calls;
    const patch = (call?.data as { patch: object }).patch;
    expect(Object.getPrototypeOf(patch)).toBe(Object.prototype);
    expect(Object.keys(patch)).toEqual(['tabPlacement']);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});

describe('handler errors come back as data', () => {
  it.each<[string, () => Promise<never>, Reply<never>]>([
    [
      'a ValidationError keeps its field; its words come from its code, not its English message',
      () => Promise.reject(new ValidationError('url', 'urlNotAbsolute')),
      { ok: false, error: { name: 'ValidationError', message: 'url is not an absolute URL (such as https://example.com/).', field: 'url' } },
    ],
    [
      'an AuthError',
      () => Promise.reject(new AuthError()),
      { ok: false, error: { name: 'AuthError', message: 'The service rejected the admin token. Check the token in the options.' } },
    ],
    [
      'a CommandError',
      () => Promise.reject(new CommandError('get_context', 'KeyError: Did not find any matching records', 'not_found')),
      {
        ok: false,
        error: { name: 'CommandError', message: 'The service refused the request (get_context): KeyError: Did not find any matching records' },
      },
    ],
    [
      'a TimeoutError',
      () => Promise.reject(new TimeoutError(15_000)),
      { ok: false, error: { name: 'TimeoutError', message: 'The service did not answer within 15 s. Try again, or check the service URL.' } },
    ],
    [
      'a SettingsError: its words come from its issues’ codes, not its English message',
      () => Promise.reject(new SettingsError([{ key: 'serviceUrl', code: 'settingLocked', params: ['serviceUrl'], message: 'is set by your organisation' }])),
      { ok: false, error: { name: 'SettingsError', message: 'serviceUrl is set by your organisation and cannot be changed here.' } },
    ],
    [
      'something that is not an Error',
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- the point: a rejection that is not an Error
      () => Promise.reject(Object.assign(Object.create(null) as object, { token: 'secret' })),
      { ok: false, error: { name: 'Error', message: 'Something went wrong in Isolink. Try again.' } },
    ],
    [
      'a synchronous throw',
      () => {
        throw new ValidationError('id', 'empty');
      },
      { ok: false, error: { name: 'ValidationError', message: 'id must not be empty.', field: 'id' } },
    ],
  ])('%s', async (_label, fail, expected) => {
    // Arrange
    const { handlers } = recordingHandlers({ contextDetails: fail });
    const router = createRouter(handlers, OPTIONS);
    let reply: Promise<Reply<unknown>> | undefined;

    // Act
    const send = () => {
      reply = router({ type: 'contextDetails', data: { id: 'ctx1' } }, POPUP);
    };

    // Assert
    expect(send).not.toThrow();
    await expect(reply).resolves.toEqual(expected);
  });

  it('toWireError keeps only name, message and a text field', () => {
    // Arrange
    const error = Object.assign(new Error('bad'), { field: 42, token: 'secret-token' });

    // Act
    const actual = toWireError(error);

    // Assert
    expect(actual).toEqual({ name: 'Error', message: 'bad' });
  });
});

describe('any payload (fast-check)', () => {
  afterEach(() => {
    restoreGlobals({ ignoredRootRegex: RUNNER_ROOTS });
  });

  const anything = fc.anything({
    key: fc.oneof(fc.string(), fc.constantFrom('__proto__', 'constructor', 'prototype', 'type', 'data', 'url', 'patch', 'token')),
    withBigInt: true,
    withBoxedValues: true,
    withDate: true,
    withMap: true,
    withSet: true,
    withNullPrototype: true,
    withObjectString: true,
    withSparseArray: true,
    withTypedArray: true,
  });

  /** A valid message with one key added or replaced by anything. */
  const mutated = fc
    .tuple(fc.constantFrom(...VALID), fc.oneof(fc.string(), fc.constantFrom('__proto__', 'constructor', 'url', 'token', 'id')), anything)
    .map(([[type, , data], key, value]) => ({ type, data: { ...(data as object), [key]: value } }));

  const message = fc.oneof(
    anything,
    fc.record({ type: fc.constantFrom(...TYPES, '__proto__', 'constructor', 'toString'), data: anything }),
    fc.constantFrom(...VALID).map(([type, , data]) => ({ type, data })),
    mutated,
  );

  const sender = fc.oneof(
    fc.constantFrom(POPUP, OPTIONS_PAGE),
    fc.record(
      {
        id: fc.constantFrom(EXTENSION_ID, 'other-extension-id', ''),
        url: fc.oneof(
          fc.constantFrom(`${ORIGIN}/popup.html`, `${ORIGIN}/options.html`, `${ORIGIN}/offscreen.html`, 'https://evil.example/popup.html'),
          fc.webUrl(),
          fc.string(),
        ),
        frameId: fc.integer({ min: -1, max: 3 }),
      },
      { requiredKeys: [] },
    ),
  );

  it('never throws, always answers a Reply or nothing, and a handler only ever sees valid data from an allowed page', async () => {
    // Arrange
    const { handlers, calls } = recordingHandlers();
    const router = createRouter(handlers, OPTIONS);
    let reached = 0;

    // Act + Assert (property)
    await fc.assert(
      fc.asyncProperty(message, sender, async (msg, from) => {
        calls.length = 0;
        const reply = router(msg, from);
        const page = pageOf(from, OPTIONS);
        if (page === null) {
          expect(reply).toBeUndefined();
        } else {
          const answer = await reply;
          expect(typeof answer?.ok).toBe('boolean');
        }
        expect(calls.length).toBeLessThanOrEqual(1);
        reached += calls.length;
        for (const call of calls) {
          const entry = PROTOCOL[call.type];
          expect(page !== null && (entry.pages as readonly string[]).includes(page)).toBe(true);
          expect(messageSchema(call.type).safeParse(call.data).success).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
    // The property is not vacuous: valid messages did reach their handlers.
    expect(reached).toBeGreaterThan(0);

    // Assert: nothing reachable from globalThis was changed (no prototype pollution)
    assertNoPoisoning({ ignoredRootRegex: RUNNER_ROOTS });
  });
});
