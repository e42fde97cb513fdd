import { useEffect, useState } from 'react';
import { isRunning, type Phase } from '../../core/index';
import { cx, formatClock } from '../format';
import { useMessages } from '../i18n/use-messages';
import { queueProgress, useQueueClock, useSession, type QueueClock } from '../../react';
import { useNow } from '../../react/useQueueClock';
import { useSessionState } from '../../react/session';
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
 * Props of {@link QueueProgressView}; the values of `useQueueClock()` plus the phase.
 * @public
 */
export interface QueueProgressViewProps {
  /** `creating`, `queued` or `connecting` pick the headline; other phases show the queued text. */
  phase?: Phase;
  /** Time since the call was placed (the click on Start), ms. */
  elapsedMs: number;
  /** Honest estimate of the whole wait, ms (at most 2.5 min = a cold start). */
  estimateMs: number;
  /** 0..1. */
  progress: number;
  /** True after 20 s queued (a cold start): the note says "More traffic than usual: up to 2:30". */
  slow: boolean;
  className?: string;
}

/** After this long without the service's answer to the create call, the note says it takes longer than usual, ms. */
export const SLOW_CREATE_MS = 8000;

/**
 * Cold-start progress: a headline, a progress bar and one line with the time since the click and one honest note:
 * "usually a few seconds" while the wait is as usual; once queued for 20 s (`slow`: a cold start), "More traffic than
 * usual: up to 2:30" with the estimate of the whole wait; past the estimate (or the create call unanswered after 8 s),
 * "taking longer than usual". The note is a polite live region, so screen readers hear
 * it when it changes, not every tick of the clock. Pure view.
 * @public
 */
export function QueueProgressView({ phase = 'queued', elapsedMs, estimateMs, progress, slow, className }: QueueProgressViewProps) {
  const m = useMessages();
  const pct = Math.round(Math.min(1, Math.max(0, progress)) * 100);
  const creating = phase === 'creating';
  const late = creating ? elapsedMs > SLOW_CREATE_MS : elapsedMs > estimateMs;
  const headline = phase === 'creating' ? m.creating : phase === 'connecting' ? m.connecting : m.queued;
  const note = late ? m.takingLonger : slow && !creating ? m.busyUpTo(formatClock(estimateMs, m.locale)) : m.usuallySeconds;
  const elapsed = formatClock(elapsedMs, m.locale);
  return (
    <div className={cx('liveai-queue', className)} data-phase={phase} data-slow={slow || late || undefined}>
      <p className="liveai-queue__headline">{headline}</p>
      <div
        className="liveai-queue__bar"
        role="progressbar"
        aria-label={m.startingAvatar}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={pct}
        aria-valuetext={m.elapsed(elapsed)}
      >
        <div className="liveai-queue__fill" style={{ width: `${pct}%` }} />
      </div>
      <p className="liveai-queue__time">
        <span className="liveai-queue__clock">{elapsed}</span>
        <span aria-hidden="true"> · </span>
        <span className="liveai-queue__note" role="status">
          {note}
        </span>
      </p>
    </div>
  );
}

/**
 * Cold-start progress of the nearest session, counted from the click on Start; renders nothing unless it is being
 * created, queued or connecting.
 * @public
 */
export function QueueProgress({ className }: { className?: string }) {
  const { phase } = useSession();
  const clock = useCallClock();
  if (!isWaiting(phase)) return null;
  return <QueueProgressView phase={phase} {...clock} className={className} />;
}
