/**
 * A runnable simulator of the browser isolation service, for tests and local work.
 *
 *   const sim = await startSimulator();            // 127.0.0.1, a free port
 *   await fetch(`${sim.url}/api/`, { ... });
 *   sim.faults.status = 502;                       // or sim.faults.set({ status: 502 })
 *   await sim.close();
 *
 * Only loopback addresses are accepted for `host`. See ./http.ts for HTTP decisions,
 * ./commands.ts for the command array, ./faults.ts for the fault switches and
 * ./state.ts for the seed.
 */
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FaultControl } from './faults';
import { PendingRequests, type RecordedRequest, createRequestListener, launchUrlFor } from './http';
import { isLoopbackListenHost } from './ip';
import { DEFAULT_ADMIN_TOKEN, DEFAULT_FILE_TOKEN, type SimState, createState, seedState } from './state';

export type { FaultScope, FaultSettings, RedirectFault } from './faults';
export { FaultControl, FAULT_SCOPES } from './faults';
export type { RecordedFile, RecordedRequest } from './http';
export { CONTROL_PATHS, launchUrlFor } from './http';
export type { ContextRecord, FileRecord, OrgRecord, SimState, TokenRecord, UserRecord } from './state';
export { CONTEXT_DEFAULTS, DEFAULT_ADMIN_TOKEN, DEFAULT_FILE_TOKEN, SEED_TOKENS, allOrgPaths, orgPath } from './state';
export { escapeHtml } from './launch-page';
export { formatOrgPath, parseOrgPath } from './orgs';

export interface SimulatorOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** A loopback address; default 127.0.0.1. */
  host?: string;
  /** The admin token of the top org `acme`; default `demo-admin-token`. */
  adminToken?: string;
  /** The file token of /getfile/ and /putfile/; default `demo-file-token`. */
  fileToken?: string;
  /** Seed orgs, users, proxies and extra tokens (default true); false: a bare `acme` org. */
  seed?: boolean;
  /** The clock, epoch ms; default Date.now. */
  now?: () => number;
}

export interface Simulator {
  /** The base URL, e.g. http://127.0.0.1:41234 (no trailing slash). */
  readonly url: string;
  /** Where /launch is served: the same server. */
  readonly launchBase: string;
  readonly adminToken: string;
  readonly fileToken: string;
  readonly faults: FaultControl;
  /** Every request to the service's paths (not /__simulator/), oldest first. */
  readonly requests: RecordedRequest[];
  readonly state: SimState;
  /** `{launchBase}/launch?ctx=<id>` */
  launchUrl(id: string): string;
  /** Ends held requests, clears faults and the request log, seeds the state again. */
  reset(): void;
  /** Ends held requests and open connections and stops listening. */
  close(): Promise<void>;
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const host = options.host ?? '127.0.0.1';
  if (!isLoopbackListenHost(host)) throw new Error(`the simulator listens on loopback addresses only, not ${host}`);
  const now = options.now ?? Date.now;
  const adminToken = options.adminToken ?? DEFAULT_ADMIN_TOKEN;
  const fileToken = options.fileToken ?? DEFAULT_FILE_TOKEN;
  const seed = options.seed ?? true;

  const state = createState();
  const faults = new FaultControl();
  const requests: RecordedRequest[] = [];
  const pending = new PendingRequests();
  const reseed = (): void => {
    seedState(state, { adminToken, fileToken, seed, nowSeconds: Math.floor(now() / 1000) });
  };
  reseed();

  const reset = (): void => {
    pending.abortAll();
    faults.clear();
    requests.length = 0;
    reseed();
  };

  let base = '';
  const server = createServer(createRequestListener({ state, faults, requests, pending, now, launchBase: () => base, reset }));
  await listen(server, options.port ?? 0, host);
  const address = server.address() as AddressInfo;
  base = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;

  let closing: Promise<void> | undefined;
  return {
    url: base,
    launchBase: base,
    adminToken,
    fileToken,
    faults,
    requests,
    state,
    launchUrl: (id) => launchUrlFor(base, id),
    reset,
    close() {
      closing ??= new Promise<void>((resolve, reject) => {
        pending.abortAll();
        server.close((error) => {
          if (error) reject(error);
          else resolve();
        });
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
