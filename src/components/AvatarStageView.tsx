import { useEffect, useLayoutEffect, useRef, type ReactNode, type RefObject } from 'react';
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
  /** Receives the `<video>` element, e.g. to bind a track as soon as it arrives, before React renders. */
  videoRef?: RefObject<HTMLVideoElement | null>;
}

/** Shows `track` in the muted `<video>` and plays it; nothing when it is already shown (or there is no DOM). */
export function showVideoTrack(el: HTMLVideoElement | null, track: MediaStreamTrack | null | undefined): void {
  // No MediaStream on the server or in jsdom.
  if (!el || typeof MediaStream === 'undefined') return;
  const current = (el.srcObject as MediaStream | null)?.getVideoTracks()[0] ?? null;
  if (current === (track ?? null)) return;
  el.srcObject = track ? new MediaStream([track]) : null;
  if (track) el.play()?.catch(() => undefined);
}

/** useLayoutEffect in the browser; useEffect where there is no DOM (server rendering), which has nothing to bind. */
export const useBeforePaint = typeof document === 'undefined' ? useEffect : useLayoutEffect;

/**
 * The avatar: the session's video track (muted; the session plays the audio), poster while waiting, cold-start progress,
 * "Tap to unmute" when audio is blocked, ended state with the cost in credits, error with retry.
 * State is mirrored on `data-phase`, `data-audio-blocked`, `data-has-video` for styling.
 */
export function AvatarStageView(props: AvatarStageViewProps) {
  const { phase, videoTrack, imageUrl, audioBlocked, label = 'Avatar', className, children } = props;
  const own = useRef<HTMLVideoElement>(null);
  const video = props.videoRef ?? own;
  // Bound in the same commit that renders the track (before paint), so decoding starts without waiting a frame.
  useBeforePaint(() => showVideoTrack(video.current, videoTrack), [videoTrack, video]);
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
      {imageUrl && <img className="liveai-stage__poster" src={imageUrl} alt="" decoding="async" />}
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
