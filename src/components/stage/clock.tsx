/**
 * The call's clocks as the stage shows them: the wait counted from the click on Start (`useCallClock`), a countdown
 * to a deadline (`useDeadline`), and whether a call reached its time limit.
 */
import { useEffect, useRef, useState } from 'react';
import { queueProgress, useQueueClock, type QueueClock } from '../../react';
import { useNow } from '../../react/useQueueClock';
import { useSessionState } from '../../react/session';
import { isRunning, type EndReason, type Phase } from '../../core/index';
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

/**
 * Counts down to `deadline` (epoch ms; null = none). Calls `onExpire` once at the deadline and returns the
 * remaining ms. To avoid re-rendering a whole call, it only ticks (once a second) during the last
 * `windowMs` before the deadline; earlier the value is approximate (never smaller than the truth).
 */
export function useDeadline(deadline: number | null, onExpire: () => void, windowMs = Number.POSITIVE_INFINITY): number | null {
  const [now, setNow] = useState(() => Date.now());
  const expire = useRef(onExpire);
  expire.current = onExpire;
  useEffect(() => {
    if (deadline === null) return;
    let interval: ReturnType<typeof setInterval> | undefined;
    const tick = () => setNow(Date.now());
    const startTicking = () => {
      tick();
      interval = setInterval(tick, 1000);
    };
    const wait = deadline - windowMs - Date.now();
    const ticker = wait > 0 ? setTimeout(startTicking, wait) : (startTicking(), undefined);
    const expiry = setTimeout(
      () => {
        tick();
        expire.current();
      },
      Math.max(0, deadline - Date.now()),
    );
    return () => {
      clearTimeout(ticker);
      clearTimeout(expiry);
      clearInterval(interval);
    };
  }, [deadline, windowMs]);
  return deadline === null ? null : Math.max(0, deadline - now);
}

/** The proxy's `session_expires_at` as epoch ms, or null when absent or unreadable. */
export function expiresAtMs(sessionExpiresAt: string | null | undefined): number | null {
  const t = sessionExpiresAt ? Date.parse(sessionExpiresAt) : Number.NaN;
  return Number.isFinite(t) ? t : null;
}

/** Ends the page chose itself (end(), page unload, unmount): never the time limit. */
const OWN_ENDS: ReadonlySet<EndReason> = new Set(['user', 'unload', 'unmount']);

/**
 * Whether the call ended because it reached its maximum length: it ended, not by the page, at or after
 * `expiresAt` (less 5 s for clocks and the proxy's sweep), whatever ended it first on this side (the avatar
 * leaving the room, or the final status).
 */
export function timeLimitReached(phase: Phase, endReason: EndReason | null, expiresAt: number | null, now = Date.now()): boolean {
  return phase === 'ended' && expiresAt !== null && !(endReason && OWN_ENDS.has(endReason)) && now >= expiresAt - 5000;
}
