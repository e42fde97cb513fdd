import { useEffect, useLayoutEffect, useRef, type ReactNode } from 'react';
import { StageOverlay, type StageOverlayProps } from './StageOverlay';
import { cx } from './format';
import { TimeLimitCountdown } from './TimeLimitCountdown';

/** Props of {@link AvatarStageView}: everything comes in as props (no session hooks). */
export interface AvatarStageViewProps extends StageOverlayProps {
  /** The avatar's video, shown muted (the session plays the audio itself). */
  videoTrack?: MediaStreamTrack | null;
  /** Poster / placeholder image of the avatar, shown until video frames arrive (368×560 portrait). */
  imageUrl?: string | null;
  /** The store's `media.audioBlocked`: the browser blocked the session's audio; shows "Tap to unmute". */
  audioBlocked?: boolean;
  /** Called from the "Tap to unmute" click (a user gesture), e.g. `session.unblockAudio()`. */
  onUnblockAudio?: () => void;
  /** When the session reaches its maximum length (epoch ms; the proxy's `session_expires_at`): a countdown shows in the last 30 s. */
  expiresAt?: number | null;
  /** Accessible name of the stage region. */
  label?: string;
  className?: string;
  /** Extra overlay content (e.g. captions), drawn over the video. */
  children?: ReactNode;
}

/** useLayoutEffect in the browser; useEffect where there is no DOM (server rendering), which has nothing to bind. */
const useBeforePaint = typeof document === 'undefined' ? useEffect : useLayoutEffect;

/**
 * The avatar: the session's video track (muted; the session plays the audio), poster while waiting, cold-start progress,
 * "Tap to unmute" when audio is blocked, ended state with the cost in credits, error with retry.
 * State is mirrored on `data-phase`, `data-audio-blocked`, `data-has-video` for styling.
 */
export function AvatarStageView(props: AvatarStageViewProps) {
  const { phase, videoTrack, imageUrl, audioBlocked, label = 'Avatar', className, children } = props;
  const video = useRef<HTMLVideoElement>(null);
  // Bound in the same commit that renders the track (before paint), so decoding starts without waiting a frame.
  useBeforePaint(() => {
    const el = video.current;
    // No MediaStream on the server or in jsdom.
    if (!el || typeof MediaStream === 'undefined') return;
    el.srcObject = videoTrack ? new MediaStream([videoTrack]) : null;
    if (videoTrack) el.play()?.catch(() => undefined);
  }, [videoTrack]);
  const blocked = audioBlocked && phase === 'active';
  const overlay = StageOverlay(props);
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
      <video className="liveai-stage__video" ref={video} autoPlay playsInline muted aria-hidden="true" />
      {overlay && <div className="liveai-stage__overlay">{overlay}</div>}
      {blocked && (
        <button type="button" className="liveai-button liveai-button--primary liveai-stage__unmute" onClick={props.onUnblockAudio}>
          Tap to unmute
        </button>
      )}
      {phase === 'active' && props.expiresAt != null && <TimeLimitCountdown expiresAt={props.expiresAt} />}
      {children}
    </div>
  );
}
