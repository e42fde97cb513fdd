import type { Phase } from '../../core/index';
import { cx, formatClock } from '../format';
import { useMessages } from '../i18n/context';
import { useSession } from '../../react';
import { useCallClock } from '../stage/clock';
import { isWaiting } from '../../core/internal';

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
  /** True after 20 s: shows "More traffic than usual…". */
  slow: boolean;
  className?: string;
}

/** After this long without the service's answer to the create call, the view says it is still waiting, ms. */
export const SLOW_CREATE_MS = 8000;

/**
 * Cold-start progress: a progress bar, the time since the click and the estimate; after 20 s queued the "more
 * traffic" message (QUEUED lasts seconds, or up to 2.5 min on a cold start). While the call is being created
 * (`creating`: the service has not answered yet, which normally takes a second or two) it promises no cold start:
 * it says "usually a few seconds", and after 8 s that it is still waiting for the avatar service. Pure view.
 * @public
 */
export function QueueProgressView({ phase = 'queued', elapsedMs, estimateMs, progress, slow, className }: QueueProgressViewProps) {
  const m = useMessages();
  const pct = Math.round(Math.min(1, Math.max(0, progress)) * 100);
  const creating = phase === 'creating';
  const slowCreate = creating && elapsedMs > SLOW_CREATE_MS;
  const over = creating ? slowCreate : elapsedMs > estimateMs;
  const headline = phase === 'creating' ? m.creating : phase === 'connecting' ? m.connecting : m.queued;
  const note = slowCreate ? m.stillWaiting : slow ? m.moreTraffic : m.usuallyReady;
  const elapsed = formatClock(elapsedMs, m.locale);
  return (
    <div className={cx('liveai-queue', className)} data-phase={phase} data-slow={slow || slowCreate || undefined}>
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
        <span>{elapsed}</span>
        <span>{over ? m.takingLonger : creating ? m.usuallySeconds : m.upTo(formatClock(estimateMs, m.locale))}</span>
      </p>
      <p className="liveai-queue__note" role="status">
        {note}
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
