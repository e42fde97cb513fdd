import { useAvatarSession, useQueueClock, useSession, useSessionState } from '../react';
import { AvatarStageView, type AvatarStageViewProps } from './AvatarStageView';

/** Props of {@link AvatarStage}: the view's props that do not come from the session, all optional. */
export type AvatarStageProps = Partial<Omit<AvatarStageViewProps, 'phase' | 'videoTrack' | 'audioTrack' | 'queue' | 'error' | 'cost' | 'endReason'>>;

/**
 * The avatar of the nearest `AvatarSessionProvider`: its video track, poster (`imageUrl` prop, else the
 * session's image), queue clock, "Tap to unmute" wired to `unblockAudio()`, start / retry / start again.
 * The session plays the audio itself, so no audio track is given to the view.
 */
export function AvatarStage(props: AvatarStageProps) {
  const s = useSession();
  const session = useAvatarSession();
  // Only the media fields the stage shows: moving the volume slider does not re-render the video.
  const videoTrack = useSessionState((st) => st.media.videoTrack);
  const audioBlocked = useSessionState((st) => st.media.audioBlocked);
  const queue = useQueueClock();
  const start = () => void s.start().catch(() => undefined); // the error shows from the store
  return (
    <AvatarStageView
      phase={s.phase}
      videoTrack={videoTrack}
      audioBlocked={audioBlocked}
      queue={queue}
      error={s.error}
      cost={s.cost}
      endReason={s.endReason}
      onStart={start}
      onPrefetch={session.prefetch}
      onRetry={start}
      onRestart={start}
      onUnblockAudio={() => void session.unblockAudio().catch(() => undefined)}
      {...props}
      imageUrl={s.imageUrl ?? props.imageUrl}
    />
  );
}
