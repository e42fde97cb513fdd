export { OUTAGE_DEADLINE_MS, REJOIN_BACKOFF } from './outage-limits';

/**
 * Measures the time out of the room (from the first sign of trouble until back), across outages, and calls
 * `onDeadline` once if one outage lasts `deadlineMs`.
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

  /** Starts an outage (no-op during one) and arms its deadline. Returns true when an outage started. */
  begin(): boolean {
    if (this.since !== null) return false;
    this.since = performance.now();
    this.sinceEpoch = Date.now();
    this.timer = setTimeout(() => this.onDeadline(), this.deadlineMs);
    return true;
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
