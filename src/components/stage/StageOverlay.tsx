import type { EndReason, Phase } from '../../core/index';
import { isWaiting } from '../../core/internal';
import { QueueProgressView, type QueueProgressViewProps } from '../controls/QueueProgressView';
import { explainError, formatCredits, type ErrorLike } from '../format';
import { usePrefetchInView } from './usePrefetchInView';
import { useMessages } from '../i18n/context';

/** What the stage shows over the video in each phase (see {@link AvatarStageView}). */
export interface StageOverlayProps {
  phase: Phase;
  queue?: Omit<QueueProgressViewProps, 'phase'> | undefined;
  error?: ErrorLike | null | undefined;
  cost?: number | null | undefined;
  endReason?: EndReason | null | undefined;
  /** The proxy ended the call at its maximum length: the ended screen says so. */
  timeLimitReached?: boolean | undefined;
  onStart?: (() => void) | undefined;
  /** Called when "Start call" comes into view, the pointer enters it or focus reaches it: warm up what start() will download. */
  onPrefetch?: (() => void) | undefined;
  onRetry?: (() => void) | undefined;
  onRestart?: (() => void) | undefined;
  /** The avatar's name, shown over its picture before the call. */
  name?: string | undefined;
  /** Show what the call cost on the ended screen (default true). */
  showCost?: boolean | undefined;
}

function StartButton({ onStart, onPrefetch }: { onStart: () => void; onPrefetch?: (() => void) | undefined }) {
  const ref = usePrefetchInView(onPrefetch);
  const m = useMessages();
  return (
    <button
      ref={ref}
      type="button"
      className="liveai-button liveai-button--primary"
      onClick={onStart}
      onPointerEnter={onPrefetch}
      onFocus={onPrefetch}
    >
      {m.startCall}
    </button>
  );
}

/** Overlay content by phase: start, queue progress, ending, ended (with cost), error (with retry). */
export function StageOverlay({
  phase,
  queue,
  error,
  cost,
  endReason,
  timeLimitReached,
  onStart,
  onPrefetch,
  onRetry,
  onRestart,
  name,
  showCost = true,
}: StageOverlayProps) {
  const m = useMessages();
  if (phase === 'idle') {
    if (!onStart) return name ? <p className="liveai-stage__name">{name}</p> : null;
    return (
      <>
        {name && <p className="liveai-stage__name">{name}</p>}
        <StartButton onStart={onStart} onPrefetch={onPrefetch} />
      </>
    );
  }
  if (isWaiting(phase)) {
    return <QueueProgressView phase={phase} elapsedMs={0} estimateMs={10_000} progress={0} slow={false} {...queue} />;
  }
  if (phase === 'ending')
    return (
      <p className="liveai-stage__title" role="status">
        {m.endingCall}
      </p>
    );
  if (phase === 'ended') {
    const ended = endReason && (m.endReasons as Partial<Record<EndReason, string>>)[endReason];
    return (
      <div className="liveai-stage__message" role="status">
        <p className="liveai-stage__title">{m.callEnded}</p>
        {timeLimitReached ? <p>{m.timeLimitReached}</p> : ended && <p>{ended}</p>}
        {showCost && <p>{cost == null ? m.costPending : m.costUsed(formatCredits(cost, m))}</p>}
        {onRestart && (
          <button type="button" className="liveai-button" onClick={onRestart}>
            {m.startAgain}
          </button>
        )}
      </div>
    );
  }
  if (phase === 'error') {
    const e = explainError(error ?? {}, m);
    return (
      <div className="liveai-stage__message" role="alert">
        {/* A sentence and one action (none when retrying cannot help); the technical detail goes to onError and the
            console, not to the visitor. */}
        <p className="liveai-stage__title">{e.title}</p>
        {e.hint && <p>{e.hint}</p>}
        {onRetry && e.retryable && (
          <button type="button" className="liveai-button liveai-button--primary" onClick={onRetry}>
            {m.tryAgain}
          </button>
        )}
      </div>
    );
  }
  return null;
}
