import { DEFAULT_RECONNECT_POLICY, pause, retryDelayMs, shouldReconnect } from '../../core/transports/rtc-a-reconnect';

/** How long the avatar keeps trying to rejoin after losing the room, ms (docs/emulator.md "LiveKit outages"). */
export const DEFAULT_REJOIN_DEADLINE_MS = 60_000;

/**
 * Whether the avatar should rejoin after a LiveKit `DisconnectReason` (same numbers as livekit-client): yes for a
 * server shutdown/restart, a broken signal or media connection, or the SDK giving up; no for our own leave, a
 * duplicate identity, being removed, or the room deleted/closed.
 */
export const shouldRejoin = (reason: number | undefined): boolean => shouldReconnect(reason, { wasConnected: true, ending: false });

/**
 * Retries `attempt` with exponential backoff and jitter (0.5 s doubling, capped at 5 s) until it resolves, the
 * deadline (epoch ms) passes, or `signal` aborts. Each failed attempt's error is passed to `onError`.
 * @returns the attempt's value, or null when the deadline passed or the signal aborted first.
 */
export async function retryUntil<T>(
  attempt: () => Promise<T>,
  opts: { deadline: number; signal: AbortSignal; onError?: (e: unknown, n: number) => void },
): Promise<T | null> {
  for (let n = 0; !opts.signal.aborted; n++) {
    const remaining = opts.deadline - Date.now();
    if (remaining <= 0) return null;
    await pause(retryDelayMs(n, DEFAULT_RECONNECT_POLICY, remaining), opts.signal);
    if (opts.signal.aborted || Date.now() >= opts.deadline) return null;
    try {
      return await attempt();
    } catch (e) {
      opts.onError?.(e, n);
    }
  }
  return null;
}
