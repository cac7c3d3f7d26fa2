/**
 * Integration harness: one simulator per test file on 127.0.0.1, reset before each
 * test, and helpers to read what the client sent.
 */
import { createClient, type ClientOptions, type IsolinkClient } from '../../src/api';
import type { RecordedRequest, Simulator } from '../simulator';
import { useSimulator as useSimulatorHooks } from '../simulator/helpers';

export interface Harness {
  readonly sim: Simulator;
  client(overrides?: Partial<ClientOptions>): IsolinkClient;
  /** The JSON command arrays posted to /api/, oldest first. */
  apiBodies(): unknown[][];
  apiRequests(): RecordedRequest[];
}

export function useSimulator(): Harness {
  const hooks = useSimulatorHooks();
  const apiRequests = (): RecordedRequest[] => hooks.sim.requests.filter((r) => r.path === '/api/');
  return {
    get sim() {
      return hooks.sim;
    },
    client: (overrides = {}) => createClient({ baseUrl: hooks.sim.url, launchBase: hooks.sim.launchBase, token: hooks.sim.adminToken, ...overrides }),
    apiRequests,
    apiBodies: () =>
      apiRequests().map((r) => {
        if (typeof r.body !== 'string') throw new Error('an /api/ body must be text');
        return JSON.parse(r.body) as unknown[];
      }),
  };
}
