/**
 * Backoff with jitter, and a retry loop built on it. Browser- and Node-safe (timers only), shared by the rtc-a
 * adapter, the status poller, the API-key service client and the emulator's media avatar.
 */

/** Growth and spread of a backoff. Times in ms. */
export interface Backoff {
  /** First delay. */
  baseMs: number;
  /** Cap of one delay (before jitter). */
  maxMs: number;
}

/**
 * `ms` scaled by a random factor in [1 − spread, 1 + spread), rounded, so many clients that failed together do
 * not retry in lockstep. `spread` 0.5 gives [0.5, 1.5); 0.2 gives [0.8, 1.2).
 * @param random a function returning a number in [0, 1) (default `Math.random`).
 */
export function jitter(ms: number, spread: number, random: () => number = Math.random): number {
  return Math.round(ms * (1 - spread + 2 * spread * random()));
}

/**
 * Delay before retry number `attempt` (0-based), ms: `min(maxMs, baseMs · 2^attempt)` with ±50 % jitter, never
 * past `remainingMs` (default unlimited).
 */
export function backoffDelay(attempt: number, policy: Backoff, remainingMs = Number.POSITIVE_INFINITY, random?: () => number): number {
  const raw = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.max(0, attempt));
  return Math.max(0, Math.min(jitter(raw, 0.5, random), remainingMs));
}

/** Resolves after `ms`, or at once when `signal` aborts (it never rejects). */
export function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

/**
 * Retries `attempt` with `backoffDelay` pacing until it resolves, the deadline (epoch ms) passes, or `signal`
 * aborts. It waits before every attempt, the first included. Each failed attempt's error goes to `onError`.
 * @returns the attempt's value, or null when the deadline passed or the signal aborted first.
 */
export async function retryUntil<T>(
  attempt: () => Promise<T>,
  opts: { deadline: number; signal: AbortSignal; policy: Backoff; onError?: (e: unknown, n: number) => void },
): Promise<T | null> {
  for (let n = 0; !opts.signal.aborted; n++) {
    const remaining = opts.deadline - Date.now();
    if (remaining <= 0) return null;
    await pause(backoffDelay(n, opts.policy, remaining), opts.signal);
    if (opts.signal.aborted || Date.now() >= opts.deadline) return null;
    try {
      return await attempt();
    } catch (e) {
      opts.onError?.(e, n);
    }
  }
  return null;
}
