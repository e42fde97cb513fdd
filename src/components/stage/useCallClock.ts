import { useEffect, useState } from 'react';
import { queueProgress, useQueueClock, type QueueClock } from '../../react';
import { useNow } from '../../react/useQueueClock';
import { useSessionState } from '../../react/session';
import { isRunning } from '../../core/index';
import { isWaiting } from '../../core/internal';

/**
 * The wait the visitor sees, counted from the click on Start (the phase turning `creating`), not from the queue:
 * ticks once a second while the call is being created, queued or connecting. `estimateMs` is the time already spent
 * before the queue plus the queue's worst case (the 2.5 min cold start); `slow` is the queue's (over 20 s queued).
 */
export function useCallClock(): QueueClock {
  const phase = useSessionState((s) => s.phase);
  const queue = useQueueClock();
  const [since, setSince] = useState<number | null>(null);
  const waiting = isWaiting(phase);
  const now = useNow(waiting);
  useEffect(() => {
    if (phase === 'creating') setSince(Date.now());
    else if (!isRunning(phase)) setSince(null);
  }, [phase]);
  if (since === null || !waiting) return queue;
  const elapsedMs = Math.max(0, now - since, queue.elapsedMs);
  const beforeQueue = Math.max(0, elapsedMs - queue.elapsedMs);
  const estimateMs = beforeQueue + queue.estimateMs;
  return { elapsedMs, estimateMs, progress: queueProgress(elapsedMs, estimateMs), slow: queue.slow };
}
