import { useAvatarSession, useQueueClock, useSession, useSessionState } from '../react';
import { useRef } from 'react';
import { AvatarStageView, showVideoTrack, useBeforePaint, type AvatarStageViewProps } from './AvatarStageView';
import { expiresAtMs, timeLimitReached } from './TimeLimitCountdown';
import { useSessionPoster } from './useSessionPoster';

/** Props of {@link AvatarStage}: the view's props that do not come from the session, all optional. */
export type AvatarStageProps = Partial<
  Omit<AvatarStageViewProps, 'phase' | 'videoTrack' | 'audioTrack' | 'queue' | 'error' | 'cost' | 'endReason' | 'timeLimitReached'>
>;

/**
 * The avatar of the nearest `AvatarSessionProvider`: its video track, poster (the `imageUrl` prop; the session's own
 * image instead while queued, after the call, or when a call goes 1 s without video), queue clock, "Tap to unmute"
 * wired to `unblockAudio()`, start / retry / start again.
 * The session plays the audio itself, so no audio track is given to the view.
 */
export function AvatarStage(props: AvatarStageProps) {
  const s = useSession();
  const session = useAvatarSession();
  // Only the media fields the stage shows: moving the volume slider does not re-render the video.
  const videoTrack = useSessionState((st) => st.media.videoTrack);
  // The track is shown the moment the session has it, as a bare `track.attach(video)` would, not after a render.
  const video = useRef<HTMLVideoElement>(null);
  useBeforePaint(() => session.store.subscribe((st) => showVideoTrack(video.current, st.media.videoTrack)), [session]);
  const audioBlocked = useSessionState((st) => st.media.audioBlocked);
  const queue = useQueueClock();
  const start = () => void s.start().catch(() => undefined); // the error shows from the store
  const expiresAt = expiresAtMs(session.getClientSession()?.session_expires_at);
  const sessionPoster = useSessionPoster(s.phase, s.imageUrl, s.phase === 'active' && !!videoTrack);
  return (
    <AvatarStageView
      phase={s.phase}
      videoTrack={videoTrack}
      audioBlocked={audioBlocked}
      queue={queue}
      error={s.error}
      cost={s.cost}
      endReason={s.endReason}
      expiresAt={expiresAt}
      timeLimitReached={timeLimitReached(s.phase, s.endReason, expiresAt)}
      onStart={start}
      onPrefetch={session.prefetch}
      onRetry={start}
      onRestart={start}
      onUnblockAudio={() => void session.unblockAudio().catch(() => undefined)}
      videoRef={video}
      {...props}
      imageUrl={sessionPoster ?? props.imageUrl}
    />
  );
}
