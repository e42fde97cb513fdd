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

/**
 * Measures the time the avatar is out of the room (from the first sign of trouble until it is back), across
 * outages, and calls `onDeadline` once if one outage lasts `deadlineMs`.
 */
export class OutageClock {
  private since: number | null = null;
  private sinceEpoch = 0;
  private total = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly deadlineMs: number,
    private readonly onDeadline: () => void,
  ) {}

  /** True during an outage. */
  get active(): boolean {
    return this.since !== null;
  }

  /** Epoch ms at which the current outage hits its deadline. */
  get deadline(): number {
    return this.sinceEpoch + this.deadlineMs;
  }

  /** Starts an outage (no-op during one) and arms its deadline. */
  begin(): void {
    if (this.since !== null) return;
    this.since = performance.now();
    this.sinceEpoch = Date.now();
    this.timer = setTimeout(this.onDeadline, this.deadlineMs);
  }

  /** Ends the current outage (no-op outside one). */
  end(): void {
    if (this.since === null) return;
    clearTimeout(this.timer);
    this.total += performance.now() - this.since;
    this.since = null;
  }

  /** Total outage time, ms, including one still going on. */
  ms(): number {
    return this.total + (this.since === null ? 0 : performance.now() - this.since);
  }
}
