/**
 * Figure 7: the service worker's heap over many isolations.
 */
import type { Simulator } from '../test/simulator';
import { type BenchBrowser, type WorkerSession } from './browser';
import { round } from './stats';
import { call } from './worker-lib';
import { type ClickSetup, SAMPLE_TIMEOUT_MS, apiCount, readyOn } from './click';

// ---- Figure 7 -----------------------------------------------------------------------

export interface MemoryResult {
  readonly isolations: number;
  readonly failed: number;
  readonly warmup: number;
  /** Runtime.getHeapUsage usedSize after HeapProfiler.collectGarbage, at each checkpoint. */
  readonly checkpoints: { readonly after: number; readonly usedBytes: number; readonly totalBytes: number }[];
  readonly growthBytes: number;
  readonly apiRequests: number;
  /** Worker starts during the run: 0, or the heap figures compare two different workers. */
  readonly workerRestarts: number;
  readonly seconds: number;
}

async function settledHeap(w: WorkerSession): Promise<{ usedSize: number; totalSize: number }> {
  // Twice: a second full collection frees what the first one's finalizers released.
  await w.collectGarbage();
  await w.collectGarbage();
  return w.heapUsage();
}

export async function memoryBench(
  b: BenchBrowser,
  sim: Simulator,
  setup: ClickSetup,
  isolations: number,
  warmup: number,
  checkpoints: number,
): Promise<MemoryResult> {
  const start = performance.now();
  let w = await readyOn(b);
  await w.evaluate(call('loop', warmup, setup.info, setup.tab, setup.prefix, SAMPLE_TIMEOUT_MS), 600_000);
  const heap0 = await settledHeap(w);
  const startsBefore = b.workerStarts();
  const points: MemoryResult['checkpoints'] = [{ after: 0, usedBytes: heap0.usedSize, totalBytes: heap0.totalSize }];
  const apiBefore = apiCount(sim);
  const step = Math.ceil(isolations / checkpoints);
  let failed = 0;
  let done = 0;
  while (done < isolations) {
    const n = Math.min(step, isolations - done);
    w = await readyOn(b);
    const result = await w.evaluate<{ failed: number }>(call('loop', n, setup.info, setup.tab, setup.prefix, SAMPLE_TIMEOUT_MS), 600_000);
    failed += result.failed;
    done += n;
    const heap = await settledHeap(w);
    points.push({ after: done, usedBytes: heap.usedSize, totalBytes: heap.totalSize });
  }
  const last = points.at(-1) ?? points[0];
  return {
    isolations,
    failed,
    warmup,
    checkpoints: points,
    growthBytes: (last?.usedBytes ?? 0) - heap0.usedSize,
    apiRequests: apiCount(sim) - apiBefore,
    workerRestarts: b.workerStarts() - startsBefore,
    seconds: round((performance.now() - start) / 1000, 1),
  };
}
