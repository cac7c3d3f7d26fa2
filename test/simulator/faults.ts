/**
 * Fault switches: ways the service (or whatever stands in front of it) misbehaves.
 * Settable in-process (`sim.faults.status = 502`, `sim.faults.set({...})`) and over
 * HTTP (`POST /__simulator/faults` with a JSON object, `null` clearing a key; `GET`
 * reads them; `DELETE` clears them all).
 *
 * Faults apply to the endpoints in `scope` (default: only `api`, POST /api/).
 * Checked in this order, the first that is set deciding:
 *   latencyMs      wait this long, then go on (combines with all others);
 *   hang           never answer (until reset() or close() ends the request);
 *   dropConnection destroy the socket without an answer;
 *   redirect       answer `{status, location}` as an HTTP redirect;
 *   status         answer this HTTP status with a plain-text body;
 *   htmlErrorPage  answer 502 with an HTML body, as a gateway would.
 * None of those run the request. The reply faults below run the commands first (the
 * service's state changes), then spoil the reply:
 *   errorSlots           `{ [commandName]: error }`: that command is not run and its slot
 *                        is `{error}` (setauth still sets the token);
 *   refuseUrls           create_context for one of these target URLs is not run and
 *                        its slot is `{error}`, as when the service refuses one URL;
 *   wrongLength          the reply array lacks its last slot;
 *   mismatchedCommandId  every slot carries a different command_id than was sent
 *                        (`<sent>-mismatched`, or `mismatched-<index>` where none was sent);
 *   omitCommandIds       no slot carries a command_id (the service documents only the
 *                        order of the slots);
 *   malformedJson        HTTP 200 with a body that is not JSON (also for /putfile/).
 */
import { z } from 'zod';

export const FAULT_SCOPES = ['api', 'getfile', 'putfile', 'ctx', 'launch'] as const;
export type FaultScope = (typeof FAULT_SCOPES)[number];

export interface RedirectFault {
  status: 307 | 308;
  location: string;
}

export interface FaultSettings {
  latencyMs?: number | undefined;
  status?: number | undefined;
  htmlErrorPage?: boolean | undefined;
  malformedJson?: boolean | undefined;
  wrongLength?: boolean | undefined;
  mismatchedCommandId?: boolean | undefined;
  omitCommandIds?: boolean | undefined;
  hang?: boolean | undefined;
  redirect?: RedirectFault | undefined;
  errorSlots?: Record<string, string> | undefined;
  refuseUrls?: string[] | undefined;
  dropConnection?: boolean | undefined;
  scope?: FaultScope[] | undefined;
}

const flag = z.boolean().nullable().optional();

/** The JSON accepted by POST /__simulator/faults and by set(); null clears a key. */
export const faultPatchSchema = z.strictObject({
  latencyMs: z.number().int().min(0).max(600_000).nullable().optional(),
  status: z.number().int().min(200).max(599).nullable().optional(),
  htmlErrorPage: flag,
  malformedJson: flag,
  wrongLength: flag,
  mismatchedCommandId: flag,
  omitCommandIds: flag,
  hang: flag,
  redirect: z
    .strictObject({ status: z.literal([307, 308], { error: 'must be 307 or 308' }), location: z.string().min(1) })
    .nullable()
    .optional(),
  errorSlots: z.record(z.string(), z.string()).nullable().optional(),
  refuseUrls: z.array(z.string()).nullable().optional(),
  dropConnection: flag,
  scope: z.array(z.enum(FAULT_SCOPES)).min(1).nullable().optional(),
});

type FaultKey = keyof FaultSettings;
const FAULT_KEYS = Object.keys(faultPatchSchema.shape) as FaultKey[];

export class FaultSettingsError extends Error {
  override readonly name = 'FaultSettingsError';
}

export class FaultControl implements FaultSettings {
  latencyMs: number | undefined = undefined;
  status: number | undefined = undefined;
  htmlErrorPage: boolean | undefined = undefined;
  malformedJson: boolean | undefined = undefined;
  wrongLength: boolean | undefined = undefined;
  mismatchedCommandId: boolean | undefined = undefined;
  omitCommandIds: boolean | undefined = undefined;
  hang: boolean | undefined = undefined;
  redirect: RedirectFault | undefined = undefined;
  errorSlots: Record<string, string> | undefined = undefined;
  refuseUrls: string[] | undefined = undefined;
  dropConnection: boolean | undefined = undefined;
  scope: FaultScope[] | undefined = undefined;

  /** Sets the keys present in the patch (undefined or null clears one). Throws on invalid values. */
  set(patch: FaultSettings | Record<string, unknown>): this {
    const parsed = faultPatchSchema.safeParse(patch);
    if (!parsed.success) {
      throw new FaultSettingsError(parsed.error.issues.map((i) => `${i.path.join('.') || 'faults'}: ${i.message}`).join('; '));
    }
    const fields = this as unknown as Record<FaultKey, unknown>;
    for (const key of FAULT_KEYS) {
      if (Object.hasOwn(patch, key)) fields[key] = parsed.data[key] ?? undefined;
    }
    return this;
  }

  clear(): void {
    const fields = this as unknown as Record<FaultKey, unknown>;
    for (const key of FAULT_KEYS) fields[key] = undefined;
  }

  /** The keys that are set, as plain data (what GET /__simulator/faults answers). */
  snapshot(): FaultSettings {
    const fields = this as unknown as Record<FaultKey, unknown>;
    const out: FaultSettings = {};
    const set = out as Record<FaultKey, unknown>;
    for (const key of FAULT_KEYS) if (fields[key] !== undefined) set[key] = structuredClone(fields[key]);
    return out;
  }

  appliesTo(endpoint: FaultScope): boolean {
    return (this.scope ?? ['api']).includes(endpoint);
  }
}
