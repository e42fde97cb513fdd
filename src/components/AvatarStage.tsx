import { useAvatarSession, useMedia, useQueueClock, useSession } from '../react';
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
  const m = useMedia();
  const queue = useQueueClock();
  return (
    <AvatarStageView
      phase={s.phase}
      videoTrack={m.videoTrack}
      audioBlocked={m.audioBlocked}
      queue={queue}
      error={s.error}
      cost={s.cost}
      endReason={s.endReason}
      onStart={s.start}
      onPrefetch={session.prefetch}
      onRetry={s.start}
      onRestart={s.start}
      onUnblockAudio={() => void m.unblockAudio().catch(() => undefined)}
      {...props}
      imageUrl={s.imageUrl ?? props.imageUrl}
    />
  );
}
