import type { Phase } from '../../core/index';
import { cx, formatClock } from '../format';

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

const HEADLINES: Partial<Record<Phase, string>> = {
  creating: 'Calling…',
  queued: 'Waiting for the avatar…',
  connecting: 'Connecting…',
};

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
  const pct = Math.round(Math.min(1, Math.max(0, progress)) * 100);
  const creating = phase === 'creating';
  const slowCreate = creating && elapsedMs > SLOW_CREATE_MS;
  const over = creating ? slowCreate : elapsedMs > estimateMs;
  const headline = HEADLINES[phase] ?? HEADLINES.queued;
  const note = slowCreate
    ? 'Still waiting for the avatar service to answer…'
    : slow
      ? 'More traffic than usual… a cold start can take up to 2.5 minutes.'
      : 'Usually ready in a few seconds.';
  return (
    <div className={cx('liveai-queue', className)} data-phase={phase} data-slow={slow || slowCreate || undefined}>
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
        <span>{over ? 'taking longer than usual' : creating ? 'usually a few seconds' : `up to ${formatClock(estimateMs)}`}</span>
      </p>
      <p className="liveai-queue__note" role="status">
        {note}
      </p>
    </div>
  );
}
