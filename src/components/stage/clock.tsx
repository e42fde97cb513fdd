/**
 * The call's clocks as the stage shows them: the wait counted from the click on Start (`useCallClock`), a countdown
 * to a deadline (`useDeadline`), and the time limit's last 30 s (`TimeLimitCountdown`).
 */
import { useEffect, useRef, useState } from 'react';
import { queueProgress, useQueueClock, type QueueClock } from '../../react';
import { useNow } from '../../react/useQueueClock';
import { useSessionState } from '../../react/session';
import { isRunning, type EndReason, type Phase } from '../../core/index';
import { isWaiting } from '../../core/internal';
import { useMessages } from '../i18n/context';
import { formatClock, formatNumber, type Messages } from '../i18n/messages';

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

/** How long before the end the countdown shows, ms. */
export const COUNTDOWN_WINDOW_MS = 30_000;
const noop = () => undefined;

const spoken = (m: Messages, seconds: number) =>
  m.endsInSpoken(formatNumber(seconds, m), new Intl.PluralRules(m.locale).select(seconds), seconds === 30);

/**
 * The session's maximum length running out: "Call ends in 0:27" during the last 30 s before `expiresAt`
 * (epoch ms; the proxy's `session_expires_at`), nothing before. The seconds are shown, not announced; a polite
 * live region says it twice (at 30 s and at 10 s).
 */
export function TimeLimitCountdown({ expiresAt }: { expiresAt: number | null }) {
  const m = useMessages();
  const left = useDeadline(expiresAt, noop, COUNTDOWN_WINDOW_MS);
  const show = left !== null && left > 0 && left <= COUNTDOWN_WINDOW_MS;
  const s = show ? Math.ceil(left / 1000) : 0;
  return (
    <div className="liveai-stage__countdown" data-visible={show || undefined}>
      {show && <span aria-hidden="true">{m.callEndsIn(formatClock(s * 1000, m.locale))}</span>}
      <span className="liveai-visually-hidden" role="status" aria-live="polite">
        {/* What screen readers hear: once when the countdown appears, once at 10 s (not every second). */}
        {show ? spoken(m, s > 10 ? 30 : 10) : ''}
      </span>
    </div>
  );
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
