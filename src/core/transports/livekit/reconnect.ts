/**
 * Reconnect decisions of the LiveKit adapter (docs/core.md "Reconnect"), free of livekit-client so they can be
 * tested alone. Reasons are LiveKit's `DisconnectReason` protocol numbers (livekit/protocol, stable on the wire).
 */
import { backoffDelay, type Backoff } from '../../../shared/backoff';
import { isRecoverable } from '../../../shared/livekit-reasons';
import type { ReconnectPolicy } from './policy';

export { LK_REASON, reasonName } from '../../../shared/livekit-reasons';

/**
 * Whether an unexpected room disconnect should be retried.
 * @param reason LiveKit `DisconnectReason` number, or undefined when livekit-client gave none (its own retries ran out).
 * @param ctx.wasConnected the room had been joined before (a first join that fails is never retried here).
 * @param ctx.ending the session is ending (`force-end` sent, or our own `disconnect()`): never retried.
 */
export function shouldReconnect(reason: number | undefined, ctx: { wasConnected: boolean; ending: boolean }): boolean {
  if (!ctx.wasConnected || ctx.ending) return false;
  return isRecoverable(reason);
}

/**
 * Delay before retry number `attempt` (0-based), ms: `min(maxDelayMs, baseDelayMs · 2^attempt)` scaled by a
 * jitter factor in [0.5, 1.5) so many clients dropped together do not retry in lockstep; never past `remainingMs`.
 * @param random a number in [0, 1) (default `Math.random()`).
 */
export function retryDelayMs(
  attempt: number,
  policy: Pick<ReconnectPolicy, 'baseDelayMs' | 'maxDelayMs'>,
  remainingMs: number,
  random = Math.random(),
): number {
  return backoffDelay(attempt, backoffOf(policy), remainingMs, () => random);
}

/** The backoff of a reconnect policy. */
export const backoffOf = (policy: Pick<ReconnectPolicy, 'baseDelayMs' | 'maxDelayMs'>): Backoff => ({
  baseMs: policy.baseDelayMs,
  maxMs: policy.maxDelayMs,
});
