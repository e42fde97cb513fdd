import { useEffect, useState } from 'react';
import { COLD_START_MAX_MS } from '../core/index';
import { useSessionState } from './session';

/**
 * Elapsed queue time after which the wait counts as slow ("more traffic than usual"), in ms.
 * @public
 */
export const SLOW_QUEUE_MS = 20_000;

/**
 * Progress shown for `elapsedMs` of queue: fast at first, 95 % at the 2.5 min cold-start bound, never 1 while queued.
 * @public
 */
export const queueProgress = (elapsedMs: number, estimateMs = COLD_START_MAX_MS): number =>
  Math.min(0.99, 1 - Math.exp((-3 * Math.max(0, elapsedMs)) / estimateMs));

/**
 * What {@link useQueueClock} returns while a session waits in the queue.
 * @public
 */
export interface QueueClock {
  /** Time spent QUEUED so far, in ms (frozen once the session left the queue). */
  elapsedMs: number;
  /** Worst-case queue time: the 2.5 min cold start, in ms. */
  estimateMs: number;
  /** 0..1 for a progress bar; 1 once the session left the queue. */
  progress: number;
  /** True after 20 s in the queue. */
  slow: boolean;
}

/**
 * A clock for the queue (cold start up to 2.5 min); ticks once per second only while `queued`.
 * @public
 */
export function useQueueClock(): QueueClock {
  const phase = useSessionState((s) => s.phase);
  const queuedAt = useSessionState((s) => s.queuedAt);
  const activeAt = useSessionState((s) => s.activeAt);
  const queued = phase === 'queued';
  const now = useNow(queued);
  if (queuedAt === null) return { elapsedMs: 0, estimateMs: COLD_START_MAX_MS, progress: 0, slow: false };
  const end = queued ? Math.max(now, queuedAt) : (activeAt ?? now);
  const elapsedMs = Math.max(0, end - queuedAt);
  const left = !queued && activeAt !== null;
  return { elapsedMs, estimateMs: COLD_START_MAX_MS, progress: left ? 1 : queueProgress(elapsedMs), slow: elapsedMs > SLOW_QUEUE_MS };
}

/**
 * The current time (epoch ms), re-read once a second while `ticking` is true and frozen otherwise: the clock the
 * queue and call timers count with.
 * @internal
 */
export function useNow(ticking: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!ticking) return;
    setNow(Date.now());
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, [ticking]);
  return now;
}
