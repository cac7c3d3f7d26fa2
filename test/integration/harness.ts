/**
 * Integration harness: one simulator per test file on 127.0.0.1, reset before each
 * test, and helpers to read what the client sent.
 */
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { createClient, type ClientOptions, type IsolinkClient } from '../../src/api';
import { startSimulator, type RecordedRequest, type Simulator } from '../simulator';

export interface Harness {
  readonly sim: Simulator;
  client(overrides?: Partial<ClientOptions>): IsolinkClient;
  /** The JSON command arrays posted to /api/, oldest first. */
  apiBodies(): unknown[][];
  apiRequests(): RecordedRequest[];
}

export function useSimulator(): Harness {
  let sim: Simulator | undefined;
  beforeAll(async () => {
    sim = await startSimulator();
  });
  afterAll(async () => {
    await sim?.close();
  });
  beforeEach(() => {
    sim?.reset();
  });
  const current = (): Simulator => {
    if (!sim) throw new Error('the simulator is not running');
    return sim;
  };
  const apiRequests = (): RecordedRequest[] => current().requests.filter((r) => r.path === '/api/');
  return {
    get sim() {
      return current();
    },
    client: (overrides = {}) =>
      createClient({ baseUrl: current().url, launchBase: current().launchBase, token: current().adminToken, ...overrides }),
    apiRequests,
    apiBodies: () =>
      apiRequests().map((r) => {
        if (typeof r.body !== 'string') throw new Error('an /api/ body must be text');
        return JSON.parse(r.body) as unknown[];
      }),
  };
}
