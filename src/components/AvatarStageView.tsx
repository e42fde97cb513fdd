import type { ReactNode } from 'react';
import { StageOverlay, type StageOverlayProps } from './StageOverlay';
import { useStageMedia } from './useStageMedia';
import { cx } from './format';
import { TimeLimitCountdown } from './TimeLimitCountdown';

/** Props of {@link AvatarStageView}: everything comes in as props (no session hooks). */
export interface AvatarStageViewProps extends StageOverlayProps {
  videoTrack?: MediaStreamTrack | null;
  audioTrack?: MediaStreamTrack | null;
  /** Poster / placeholder image of the avatar, shown until video frames arrive (368×560 portrait). */
  imageUrl?: string | null;
  /** The store's `media.audioBlocked`; the stage also detects a blocked `play()` itself. */
  audioBlocked?: boolean;
  speakerMuted?: boolean;
  /** Speaker volume 0..1. */
  volume?: number;
  /** Called from the "Tap to unmute" click (a user gesture), e.g. `session.unblockAudio()`. */
  onUnblockAudio?: () => void;
  /** Called when the stage's own `audio.play()` was refused by the autoplay policy. */
  onAudioBlocked?: () => void;
  /** When the session reaches its maximum length (epoch ms; the proxy's `session_expires_at`): a countdown shows in the last 30 s. */
  expiresAt?: number | null;
  /** Accessible name of the stage region. */
  label?: string;
  className?: string;
  /** Extra overlay content (e.g. captions), drawn over the video. */
  children?: ReactNode;
}

/**
 * The avatar: video + audio of the session's tracks, poster while waiting, cold-start progress,
 * "Tap to unmute" when audio is blocked, ended state with the cost in credits, error with retry.
 * State is mirrored on `data-phase`, `data-audio-blocked`, `data-has-video` for styling.
 */
export function AvatarStageView(props: AvatarStageViewProps) {
  const { phase, videoTrack, audioTrack, imageUrl, audioBlocked, speakerMuted, volume, label = 'Avatar', className, children } = props;
  const media = useStageMedia({ videoTrack, audioTrack, speakerMuted, volume, onAudioBlocked: props.onAudioBlocked });
  const blocked = (audioBlocked || media.blocked) && phase === 'active';
  const overlay = StageOverlay(props);
  const unblock = () => {
    media.unblock();
    props.onUnblockAudio?.();
  };
  return (
    <div
      className={cx('liveai-stage', className)}
      role="region"
      aria-label={label}
      data-phase={phase}
      data-audio-blocked={blocked || undefined}
      data-has-video={(phase === 'active' && !!videoTrack) || undefined}
    >
      {imageUrl && <img className="liveai-stage__poster" src={imageUrl} alt="" />}
      <video className="liveai-stage__video" ref={media.video} autoPlay playsInline muted aria-hidden="true" />
      <audio ref={media.audio} autoPlay />
      {overlay && <div className="liveai-stage__overlay">{overlay}</div>}
      {blocked && (
        <button type="button" className="liveai-button liveai-button--primary liveai-stage__unmute" onClick={unblock}>
          Tap to unmute
        </button>
      )}
      {phase === 'active' && props.expiresAt != null && <TimeLimitCountdown expiresAt={props.expiresAt} />}
      {children}
    </div>
  );
}
