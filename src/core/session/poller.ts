import { isLiveAiError } from '../errors';
import { isFinalStatus } from '../schemas/plain';
import type { SessionStatusResponse } from '../schemas';
import { jitter } from '../../shared/backoff';

/** Options of `createStatusPoller`. Times in ms. */
export interface StatusPollerOptions {
  fetchStatus: (signal: AbortSignal) => Promise<SessionStatusResponse>;
  onStatus: (response: SessionStatusResponse) => void;
  /** Errors of one poll; polling goes on for retryable errors and stops for the others. */
  onError: (error: unknown) => void;
  intervalMs: number;
  maxIntervalMs: number;
  random?: () => number;
}

/** Delay before the next poll: the interval times a jitter factor in [0.8, 1.2). Pure. */
export const jittered = (intervalMs: number, random: () => number): number => jitter(intervalMs, 0.2, random);

/** Next interval after a poll: ×1.5 up to the maximum, back to the first interval when the status changed. Pure. */
export function nextInterval(current: number, opts: { base: number; max: number; changed: boolean }): number {
  if (opts.changed) return opts.base;
  return Math.min(opts.max, Math.max(opts.base, Math.round(current * 1.5)));
}

/**
 * Polls the session status with backoff and jitter until a final status (COMPLETED, TIMED_OUT, FAILED) or `stop()`.
 * One poll at a time. `start()` polls at once; `hurry()` resets the backoff and polls at once (used while ending).
 */
export function createStatusPoller(o: StatusPollerOptions) {
  const random = o.random ?? Math.random;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let controller: AbortController | undefined;
  let running = false;
  let inFlight = false;
  let interval = o.intervalMs;
  let last: string | undefined;

  const schedule = (delay: number) => {
    clearTimeout(timer);
    timer = setTimeout(poll, delay);
  };
  async function poll(): Promise<void> {
    if (!running || inFlight) return;
    inFlight = true;
    controller = new AbortController();
    try {
      const res = await o.fetchStatus(controller.signal);
      if (!running) return;
      const changed = res.session_status !== last;
      last = res.session_status;
      interval = nextInterval(interval, { base: o.intervalMs, max: o.maxIntervalMs, changed });
      if (isFinalStatus(res.session_status)) running = false;
      o.onStatus(res);
    } catch (error) {
      if (!running) return;
      o.onError(error);
      if (isLiveAiError(error) && !error.retryable) running = false;
      interval = nextInterval(interval, { base: o.intervalMs, max: o.maxIntervalMs, changed: false });
    } finally {
      inFlight = false;
      if (running) schedule(jittered(interval, random));
    }
  }
  return {
    start() {
      if (running) return;
      running = true;
      interval = o.intervalMs;
      void poll();
    },
    hurry() {
      if (!running) return this.start();
      interval = o.intervalMs;
      if (!inFlight) schedule(0);
    },
    stop() {
      running = false;
      clearTimeout(timer);
      controller?.abort();
    },
    get running() {
      return running;
    },
  };
}
export type StatusPoller = ReturnType<typeof createStatusPoller>;
