import { shouldReconnect } from '../../core/transports/rtc-a-reconnect';

/** How long the avatar keeps trying to rejoin after losing the room, ms (docs/emulator.md "LiveKit outages"). */
export const DEFAULT_REJOIN_DEADLINE_MS = 60_000;

/**
 * Whether the avatar should rejoin after a LiveKit `DisconnectReason` (same numbers as livekit-client): yes for a
 * server shutdown/restart, a broken signal or media connection, or the SDK giving up; no for our own leave, a
 * duplicate identity, being removed, or the room deleted/closed.
 */
export const shouldRejoin = (reason: number | undefined): boolean => shouldReconnect(reason, { wasConnected: true, ending: false });

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
