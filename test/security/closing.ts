/**
 * Checks every Chromium file makes about its own session before closing it: no uncaught
 * error or unhandled rejection in any context, and no request to the GET /ctx/ shortcut
 * (neither as the browser saw it nor as the simulator received it).
 */
import { expect } from 'vitest';
import { realErrors, type SecuritySession } from './browser';
import { prove } from './ledger';

/** Text of the suite's own deliberate rejection (the positive control of the error watch). */
export const CONTROL_MARKER = 'isolink-security-positive-control';

/**
 * `provoked`: console errors the test itself caused on purpose and expects (the browser
 * reporting a blocked frame, say); they are counted, not failures.
 */
export async function closingChecks(session: SecuritySession, part: string, provoked?: RegExp): Promise<void> {
  await session.harvestNotes();
  await prove(
    'no-unhandled',
    () => {
      const errors = realErrors(session, CONTROL_MARKER).filter((e) => provoked === undefined || !provoked.test(e.text));
      expect(errors.map((e) => `${e.source}: ${e.text}`)).toEqual([]);
      const contexts = new Set(session.consoles.map((c) => c.source.split(' ')[0]));
      return {
        cases: session.consoles.length + session.navigations.length,
        detail: `${session.consoles.length} console/log records from ${contexts.size} kinds of source`,
      };
    },
    part,
  );
  await prove(
    'ctx-never',
    () => {
      const browserSide = session.requests.filter((r) => {
        try {
          return new URL(r.url).pathname.startsWith('/ctx');
        } catch {
          return false;
        }
      });
      const serverSide = session.sim.requests.filter((r) => r.path.startsWith('/ctx'));
      expect(browserSide.map((r) => r.url)).toEqual([]);
      expect(serverSide.map((r) => r.path)).toEqual([]);
      return {
        cases: session.requests.length + session.sim.requests.length,
        detail: `${session.requests.length + session.sim.requests.length} requests`,
        requestsScanned: session.requests.length + session.sim.requests.length,
      };
    },
    part,
  );
}

/**
 * Makes the worker reject a promise nobody handles, and waits until the watch reports
 * it: proves that an unhandled rejection in the worker would not go unseen.
 */
export async function positiveControl(session: SecuritySession): Promise<void> {
  const worker = await session.worker();
  await worker.evaluate((marker) => {
    void Promise.reject(new Error(marker));
  }, CONTROL_MARKER);
  const deadline = Date.now() + 5_000;
  while (!session.errors.some((e) => e.text.includes(CONTROL_MARKER))) {
    if (Date.now() > deadline) throw new Error('the error watch did not see an unhandled rejection in the worker');
    await new Promise((r) => setTimeout(r, 50));
  }
}
