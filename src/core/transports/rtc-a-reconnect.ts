/**
 * Reconnect decisions of the rtc-a adapter (docs/core.md "Reconnect"), free of livekit-client so they can be
 * tested alone. Reasons are LiveKit's `DisconnectReason` protocol numbers (livekit/protocol, stable on the wire).
 */

/** LiveKit `DisconnectReason` values the adapter reasons about (protocol numbers). */
export const LK_REASON = {
  UNKNOWN_REASON: 0,
  CLIENT_INITIATED: 1,
  DUPLICATE_IDENTITY: 2,
  SERVER_SHUTDOWN: 3,
  PARTICIPANT_REMOVED: 4,
  ROOM_DELETED: 5,
  STATE_MISMATCH: 6,
  JOIN_FAILURE: 7,
  MIGRATION: 8,
  SIGNAL_CLOSE: 9,
  ROOM_CLOSED: 10,
  CONNECTION_TIMEOUT: 14,
  MEDIA_FAILURE: 15,
} as const;

/**
 * Reasons after which the same URL and token can join again: the server went away or restarted
 * (SERVER_SHUTDOWN, MIGRATION), the signal or media connection broke (SIGNAL_CLOSE, CONNECTION_TIMEOUT,
 * MEDIA_FAILURE, STATE_MISMATCH), livekit-client's own reconnect gave up (JOIN_FAILURE, UNKNOWN_REASON, or no
 * reason at all). Everything else is final: our own leave, another tab with our identity, being removed, the
 * room deleted or closed by the service (the session is over).
 */
const RECOVERABLE = new Set<number>([
  LK_REASON.UNKNOWN_REASON,
  LK_REASON.SERVER_SHUTDOWN,
  LK_REASON.STATE_MISMATCH,
  LK_REASON.JOIN_FAILURE,
  LK_REASON.MIGRATION,
  LK_REASON.SIGNAL_CLOSE,
  LK_REASON.CONNECTION_TIMEOUT,
  LK_REASON.MEDIA_FAILURE,
]);

/**
 * Whether an unexpected room disconnect should be retried.
 * @param reason LiveKit `DisconnectReason` number, or undefined when livekit-client gave none (its own retries ran out).
 * @param ctx.wasConnected the room had been joined before (a first join that fails is never retried here).
 * @param ctx.ending the session is ending (`force-end` sent, or our own `disconnect()`): never retried.
 */
export function shouldReconnect(reason: number | undefined, ctx: { wasConnected: boolean; ending: boolean }): boolean {
  if (!ctx.wasConnected || ctx.ending) return false;
  return reason === undefined || RECOVERABLE.has(reason);
}

/** Reconnect policy of the rtc-a adapter. All values in ms. */
export interface ReconnectPolicy {
  /** Overall deadline from the first sign of trouble; after it the adapter reports `transport_failed` (default 60 000). */
  deadlineMs: number;
  /** First retry delay; doubles per attempt (default 500). */
  baseDelayMs: number;
  /** Cap of one retry delay (default 5 000). */
  maxDelayMs: number;
  /** How long a queued chat message waits for the avatar participant once the room is connected (default 15 000); then it is sent anyway. */
  agentWaitMs: number;
}

export const DEFAULT_RECONNECT_POLICY: ReconnectPolicy = { deadlineMs: 60_000, baseDelayMs: 500, maxDelayMs: 5_000, agentWaitMs: 15_000 };

/**
 * Delay before retry number `attempt` (0-based), ms: `min(maxDelayMs, baseDelayMs · 2^attempt)` scaled by a
 * jitter factor in [0.5, 1.5) so many clients dropped together do not retry in lockstep; never past `remainingMs`.
 * @param random a number in [0, 1) (default `Math.random()`).
 */
export function retryDelayMs(attempt: number, policy: Pick<ReconnectPolicy, 'baseDelayMs' | 'maxDelayMs'>, remainingMs: number, random = Math.random()): number {
  const raw = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt));
  const jittered = Math.round(raw * (0.5 + random));
  return Math.max(0, Math.min(jittered, remainingMs));
}

/** Human name of a LiveKit disconnect reason, for error details (`SERVER_SHUTDOWN`, `unknown`). */
export function reasonName(reason: number | undefined): string {
  if (reason === undefined) return 'unknown';
  const entry = Object.entries(LK_REASON).find(([, v]) => v === reason);
  return entry ? entry[0] : String(reason);
}

/** Resolves after `ms`, or at once when `signal` aborts. */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * Retries `attempt` with `retryDelayMs` backoff and jitter (default policy: 0.5 s doubling, capped at 5 s) until it
 * resolves, the deadline (epoch ms) passes, or `signal` aborts. Each failed attempt's error goes to `onError`.
 * Shared by the rtc-a adapter's rejoin and the emulator's media avatar.
 * @returns the attempt's value, or null when the deadline passed or the signal aborted first.
 */
export async function retryUntil<T>(
  attempt: () => Promise<T>,
  opts: { deadline: number; signal: AbortSignal; policy?: Pick<ReconnectPolicy, 'baseDelayMs' | 'maxDelayMs'>; onError?: (e: unknown, n: number) => void },
): Promise<T | null> {
  for (let n = 0; !opts.signal.aborted; n++) {
    const remaining = opts.deadline - Date.now();
    if (remaining <= 0) return null;
    await pause(retryDelayMs(n, opts.policy ?? DEFAULT_RECONNECT_POLICY, remaining), opts.signal);
    if (opts.signal.aborted || Date.now() >= opts.deadline) return null;
    try {
      return await attempt();
    } catch (e) {
      opts.onError?.(e, n);
    }
  }
  return null;
}
