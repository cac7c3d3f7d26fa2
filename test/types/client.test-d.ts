/**
 * The public types of the client and the link tools, as a library user meets them
 * (through src/lib, the package's entry): checked by the TypeScript compiler with
 * vitest's typecheck; nothing here runs.
 */
import { describe, expectTypeOf, it } from 'vitest';

import {
  createClient,
  isApiError,
  isAuthError,
  isCommandError,
  unwrap,
  type ApiErrorCode,
  type AuthCode,
  type AuthError,
  type BulkCreateResult,
  type ClientOptions,
  type CommandError,
  type CreatedContext,
  type IsolinkClient,
  type LaunchUrl,
  type ResearchContextParams,
  type Unwrapped,
  type WrapperId,
} from '../../src/lib';

const client = createClient({ baseUrl: 'https://isolation.example', launchBase: 'https://isolation.example', token: 't' });

describe('createClient', () => {
  it('takes a base URL, a launch base and a token (text, or a function giving it)', () => {
    expectTypeOf(createClient).parameter(0).toEqualTypeOf<ClientOptions>();
    expectTypeOf<ClientOptions['token']>().toEqualTypeOf<string | (() => string | Promise<string>)>();
    expectTypeOf(client).toEqualTypeOf<IsolinkClient>();
    // @ts-expect-error: the launch base is required
    createClient({ baseUrl: 'https://isolation.example', token: 't' });
    // @ts-expect-error: an unknown option is refused
    createClient({ baseUrl: 'x', launchBase: 'x', token: 't', retries: 3 });
  });
});

describe('the methods', () => {
  it('create contexts and return their id, expiry and uses', () => {
    expectTypeOf<IsolinkClient['createContext']>().returns.resolves.toEqualTypeOf<CreatedContext>();
    expectTypeOf<CreatedContext>().toEqualTypeOf<{ browse_context_id: string; expires: number; max_uses: number }>();
    expectTypeOf<IsolinkClient['launchUrl']>().returns.toEqualTypeOf<LaunchUrl>();
    expectTypeOf<LaunchUrl>().toExtend<string>();
  });

  it('need a username and an egress location for a research session', () => {
    expectTypeOf<ResearchContextParams['username']>().toEqualTypeOf<string>();
    expectTypeOf<ResearchContextParams['egress_region']>().toEqualTypeOf<string>();
    const research = (params: ResearchContextParams): ResearchContextParams => params;
    research({ username: 'u', egress_region: 'Frankfurt' });
    // @ts-expect-error: research sessions take no org
    research({ username: 'u', egress_region: 'Frankfurt', org: 'acme' });
  });

  it('report bulk creations and failures with codes', () => {
    expectTypeOf<IsolinkClient['bulkCreateContexts']>().returns.resolves.toEqualTypeOf<BulkCreateResult>();
    expectTypeOf<BulkCreateResult['failures'][number]['code']>().toEqualTypeOf<ApiErrorCode>();
    expectTypeOf<BulkCreateResult['created'][number]['launch_url']>().toEqualTypeOf<LaunchUrl>();
  });

  it('download files as bytes', () => {
    expectTypeOf<IsolinkClient['getFile']>().returns.resolves.toEqualTypeOf<Uint8Array>();
  });
});

describe('the error guards', () => {
  it('narrow unknown errors to the classes, with their codes', () => {
    const error: unknown = new Error('x');
    if (isAuthError(error)) {
      expectTypeOf(error).toEqualTypeOf<AuthError>();
      expectTypeOf(error.code).toEqualTypeOf<AuthCode>();
    }
    if (isCommandError(error)) {
      expectTypeOf(error).toEqualTypeOf<CommandError>();
      expectTypeOf(error.serviceMessage).toEqualTypeOf<string>();
    }
    if (isApiError(error)) expectTypeOf(error.params).toEqualTypeOf<readonly string[]>();
  });
});

describe('unwrap', () => {
  it('returns the URL, the wrappers peeled and the one it could not read', () => {
    expectTypeOf(unwrap).returns.toEqualTypeOf<Unwrapped>();
    expectTypeOf<Unwrapped['layers']>().toEqualTypeOf<readonly WrapperId[]>();
    expectTypeOf<Unwrapped['opaque']>().toEqualTypeOf<WrapperId | undefined>();
    expectTypeOf<'safelinks'>().toExtend<WrapperId>();
  });
});
