/**
 * Drift-corrected frame timer: tick `n` is scheduled for the absolute time `start + n·period` (ms), so timer
 * lateness never accumulates. If it falls more than two periods behind (a stalled event loop) it skips the
 * missed ticks instead of bursting to catch up.
 */
export class FramePacer {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private t0 = 0;
  private n = 0;
  private running = false;
  readonly periodMs: number;

  /** `fps` frames/s; `onTick(nowMs)` runs once per frame; `now` is a monotonic clock in ms. */
  constructor(
    fps: number,
    private readonly onTick: (nowMs: number) => void,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.periodMs = 1000 / fps;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.t0 = this.now();
    this.n = 0;
    this.tick();
  }

  stop(): void {
    this.running = false;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private readonly tick = (): void => {
    if (!this.running) return;
    try {
      this.onTick(this.now());
    } catch {
      /* one bad frame must not stop the video */
    }
    const delay = nextDelay(this.t0, this.periodMs, ++this.n, this.now());
    this.n = delay.n;
    this.timer = setTimeout(this.tick, delay.ms);
  };
}

/**
 * Pure scheduling rule of {@link FramePacer}: given the start time, period, the next tick number `n` and the
 * current time, returns the tick to wait for and how long to wait (ms, ≥ 0).
 */
export function nextDelay(t0: number, periodMs: number, n: number, nowMs: number): { n: number; ms: number } {
  let target = t0 + n * periodMs;
  if (nowMs - target > 2 * periodMs) {
    n = Math.floor((nowMs - t0) / periodMs) + 1;
    target = t0 + n * periodMs;
  }
  return { n, ms: Math.max(0, target - nowMs) };
}

/** Counts events and reports their rate over the last `windowMs` (default 2 s). */
export class RateMeter {
  private readonly stamps: Float64Array;
  private head = 0;
  private count = 0;
  private startedAt: number | null = null;

  constructor(
    private readonly windowMs = 2000,
    capacity = 512,
  ) {
    this.stamps = new Float64Array(capacity).fill(-Infinity);
  }

  /** Total events recorded. */
  get total(): number {
    return this.count;
  }

  mark(nowMs: number): void {
    this.startedAt ??= nowMs;
    this.stamps[this.head] = nowMs;
    this.head = (this.head + 1) % this.stamps.length;
    this.count++;
  }

  /** Events per second over the last window (or since the first event, when that is shorter). */
  rate(nowMs: number): number {
    if (this.startedAt === null) return 0;
    const span = Math.min(this.windowMs, nowMs - this.startedAt);
    if (span <= 0) return 0;
    let n = 0;
    for (const t of this.stamps) if (t > nowMs - this.windowMs && t <= nowMs) n++;
    return (n * 1000) / Math.max(span, 1000 / 25);
  }
}
