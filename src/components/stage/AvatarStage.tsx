import { useCallback, useEffect } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useAvatarSession } from '../../react';
import { useSessionState } from '../../react/useSessionState';
import { useCallClock } from './useCallClock';
import { AvatarStageView, type AvatarStageViewProps } from './AvatarStageView';
import { expiresAtMs, timeLimitReached } from './clock';
import { useSessionPosterDue } from './useSessionPoster';

/** Props of {@link AvatarStage}: the view's props that do not come from the session, all optional. */
export type AvatarStageProps = Partial<
  Omit<AvatarStageViewProps, 'phase' | 'videoTrack' | 'audioTrack' | 'queue' | 'error' | 'cost' | 'endReason' | 'timeLimitReached'>
>;

/**
 * The avatar of the nearest `AvatarSessionProvider`: its video track, poster (the `imageUrl` prop; the session's own
 * image instead while queued, after the call, or when a call goes 1 s without video), the wait counted from the click
 * on Start, "Tap to unmute"
 * wired to `unblockAudio()`, start / retry / start again.
 * The session plays the audio itself, so no audio track is given to the view.
 */
export function AvatarStage(props: AvatarStageProps) {
  const session = useAvatarSession();
  // Only what the stage shows: the create answer (session id, transport) and status polls do not re-render it while
  // the call connects.
  const { phase, error, cost, endReason } = useSessionState(
    useShallow((st) => ({ phase: st.phase, error: st.error, cost: st.cost, endReason: st.endReason })),
  );
  // Only the media fields the stage shows: moving the volume slider does not re-render the video.
  const videoTrack = useSessionState((st) => st.media.videoTrack);
  // The track is shown the moment the session has it, as a bare `track.attach(video)` would, not after a render.
  const watchVideoTrack = useCallback(
    (show: (track: MediaStreamTrack | null) => void) => session.store.subscribe((st) => show(st.media.videoTrack)),
    [session],
  );
  const audioBlocked = useSessionState((st) => st.media.audioBlocked);
  const queue = useCallClock();
  // The visitor reads a sentence; the technical detail goes to the console (and to onError).
  useEffect(() => {
    if (error) console.warn(`liveai-kit: ${error.code}: ${error.detail}`);
  }, [error]);
  const start = () => void session.start().catch(() => undefined); // the error shows from the store
  // Fixed for a call; read when the phase changes (the countdown shows only while active).
  const expiresAt = expiresAtMs(session.getClientSession()?.session_expires_at);
  const posterDue = useSessionPosterDue(phase, phase === 'active' && !!videoTrack);
  const sessionImage = useSessionState((st) => (posterDue ? st.imageUrl : null));
  return (
    <AvatarStageView
      phase={phase}
      videoTrack={videoTrack}
      audioBlocked={audioBlocked}
      queue={queue}
      error={error}
      cost={cost}
      endReason={endReason}
      expiresAt={expiresAt}
      timeLimitReached={timeLimitReached(phase, endReason, expiresAt)}
      onStart={start}
      onPrefetch={session.prefetch}
      onRetry={start}
      onRestart={start}
      onUnblockAudio={() => void session.unblockAudio().catch(() => undefined)}
      watchVideoTrack={watchVideoTrack}
      {...props}
      imageUrl={sessionImage ?? props.imageUrl}
    />
  );
}
