/**
 * Figure 5: bulk creation from Node against the simulator with 50 ms added per request.
 * `client.bulkCreateContexts` (batched) against the reference client's way: one
 * `client.createContext` per URL, one after another. Both alternate in one run.
 */
import { createClient } from '../src/api';
import { startSimulator } from '../test/simulator';
import { median, round, summary } from './stats';

export interface BulkResult {
  readonly urls: number;
  readonly latencyMs: number;
  readonly repeats: number;
  readonly bulkMs: ReturnType<typeof summary>;
  readonly sequentialMs: ReturnType<typeof summary>;
  readonly speedup: number;
  readonly bulkRequests: { readonly min: number; readonly max: number };
  readonly sequentialRequests: { readonly min: number; readonly max: number };
  readonly bulkFailures: number;
}

export async function bulkBench(options: { urls: number; latencyMs: number; repeats: number }): Promise<BulkResult> {
  const sim = await startSimulator({ port: 0 });
  try {
    const username = 'analyst@acme.example';
    const client = createClient({ baseUrl: sim.url, launchBase: sim.launchBase, token: sim.adminToken });
    const urls = Array.from({ length: options.urls }, (_, i) => `https://bulk-${i}.evil.example/payload/${i}?ref=bench`);
    const api = (): number => sim.requests.filter((r) => r.path === '/api/').length;
    // Warm-up without added latency: connection, JIT, the simulator's own first requests.
    await client.createContext({ username, url: urls[0] ?? '' });
    await client.bulkCreateContexts({ username, urls: urls.slice(0, 5) });
    sim.faults.set({ latencyMs: options.latencyMs });

    const bulkMs: number[] = [];
    const seqMs: number[] = [];
    const bulkReq: number[] = [];
    const seqReq: number[] = [];
    let bulkFailures = 0;
    const bulk = async (): Promise<void> => {
      const before = api();
      const start = performance.now();
      const result = await client.bulkCreateContexts({ username, urls });
      bulkMs.push(performance.now() - start);
      bulkReq.push(api() - before);
      bulkFailures += result.failures.length + (options.urls - result.created.length - result.failures.length);
    };
    const sequential = async (): Promise<void> => {
      const before = api();
      const start = performance.now();
      for (const url of urls) await client.createContext({ username, url });
      seqMs.push(performance.now() - start);
      seqReq.push(api() - before);
    };
    for (let i = 0; i < options.repeats; i++) {
      if (i % 2 === 0) {
        await bulk();
        await sequential();
      } else {
        await sequential();
        await bulk();
      }
    }
    return {
      urls: options.urls,
      latencyMs: options.latencyMs,
      repeats: options.repeats,
      bulkMs: summary(bulkMs, 1),
      sequentialMs: summary(seqMs, 1),
      speedup: round(median(seqMs) / median(bulkMs), 2),
      bulkRequests: { min: Math.min(...bulkReq), max: Math.max(...bulkReq) },
      sequentialRequests: { min: Math.min(...seqReq), max: Math.max(...seqReq) },
      bulkFailures,
    };
  } finally {
    await sim.close();
  }
}
