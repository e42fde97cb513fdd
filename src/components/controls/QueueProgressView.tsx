import type { Phase } from '../../core/index';
import { cx, formatClock } from '../format';

/**
 * Props of {@link QueueProgressView}; the values of `useQueueClock()` plus the phase.
 * @public
 */
export interface QueueProgressViewProps {
  /** `creating`, `queued` or `connecting` pick the headline; other phases show the queued text. */
  phase?: Phase;
  /** Time since the call was placed, ms. */
  elapsedMs: number;
  /** Honest estimate of the whole wait, ms (at most 2.5 min = a cold start). */
  estimateMs: number;
  /** 0..1. */
  progress: number;
  /** True after 20 s: shows "More traffic than usual…". */
  slow: boolean;
  className?: string;
}

const HEADLINES: Partial<Record<Phase, string>> = {
  creating: 'Calling…',
  queued: 'Waiting for the avatar…',
  connecting: 'Connecting…',
};

/**
 * Cold-start progress: a progress bar, elapsed time and the estimate; after 20 s the "more traffic"
 * message (QUEUED lasts seconds, or up to 2.5 min on a cold start). Pure view.
 * @public
 */
export function QueueProgressView({ phase = 'queued', elapsedMs, estimateMs, progress, slow, className }: QueueProgressViewProps) {
  const pct = Math.round(Math.min(1, Math.max(0, progress)) * 100);
  const over = elapsedMs > estimateMs;
  const headline = HEADLINES[phase] ?? HEADLINES.queued;
  return (
    <div className={cx('liveai-queue', className)} data-phase={phase} data-slow={slow || undefined}>
      <p className="liveai-queue__headline">{headline}</p>
      <div
        className="liveai-queue__bar"
        role="progressbar"
        aria-label="Starting the avatar"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={pct}
        aria-valuetext={`${formatClock(elapsedMs)} elapsed`}
      >
        <div className="liveai-queue__fill" style={{ width: `${pct}%` }} />
      </div>
      <p className="liveai-queue__time">
        <span>{formatClock(elapsedMs)}</span>
        <span>{over ? 'taking longer than usual' : `up to ${formatClock(estimateMs)}`}</span>
      </p>
      <p className="liveai-queue__note" role="status">
        {slow ? 'More traffic than usual… a cold start can take up to 2.5 minutes.' : 'Usually ready in a few seconds.'}
      </p>
    </div>
  );
}
