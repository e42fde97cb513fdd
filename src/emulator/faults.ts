import * as z from 'zod';

/**
 * Fault injection (docs/emulator.md "Fault injection"). Applied to the service's `/liveai/...` routes only:
 * - `latencyMs`: delay before every request is handled, ms;
 * - `failRate` (0..1): share of requests answered 500 `{detail}` (never control or leave-meeting);
 * - `dropRate` (0..1): share of requests whose socket is destroyed without an answer;
 * - `nextSessionOutcome`: the next created session or room ends `FAILED` / `TIMED_OUT` instead of going `ACTIVE`.
 */
export const FaultsSchema = z.strictObject({
  latencyMs: z.number().int().min(0).max(60_000),
  failRate: z.number().min(0).max(1),
  dropRate: z.number().min(0).max(1),
  nextSessionOutcome: z.enum(['fail', 'timeout']).nullable(),
}) satisfies z.ZodType<Faults>;
/**
 * The local service's injected faults, as set by `POST /__emulator/faults` or `emulator.state.setFaults(patch)`.
 * They apply to the service's `/liveai/...` routes only.
 * @public
 */
export interface Faults {
  /** Delay before every request is handled, ms (an integer, 0 to 60000). */
  latencyMs: number;
  /** Share of requests answered 500 `{detail}`, 0..1 (never control or leave-meeting requests). */
  failRate: number;
  /** Share of requests whose connection is destroyed without an answer, 0..1. */
  dropRate: number;
  /** The next created session or room ends `FAILED` (`'fail'`) or `TIMED_OUT` (`'timeout'`) instead of going `ACTIVE`; null: none. */
  nextSessionOutcome: 'fail' | 'timeout' | null;
}
/** Body of `POST /__emulator/faults`: any subset of the fields. */
export const FaultsPatchSchema = FaultsSchema.partial();

export const NO_FAULTS: Faults = { latencyMs: 0, failRate: 0, dropRate: 0, nextSessionOutcome: null };
