import { useEffect, useRef, type VideoHTMLAttributes } from 'react';
import { useSessionState } from '../../react/session';

/**
 * Props of {@link AvatarVideo}: any `<video>` attribute except its source and audio, which the component owns.
 * @public
 */
export type AvatarVideoProps = Omit<VideoHTMLAttributes<HTMLVideoElement>, 'src' | 'muted' | 'autoPlay' | 'playsInline' | 'children'>;

/**
 * The avatar's video track of the nearest session in a `<video>`: muted (the session plays the audio itself, see
 * `AvatarAudio`), `autoplay` and `playsinline` (so iOS Safari plays it inline and without a tap). When the track is
 * replaced (a reconnect, a new call) the new one is shown; without a track the video is empty and `poster` shows.
 * Unstyled: give it a class or style.
 * @public
 */
export function AvatarVideo(props: AvatarVideoProps) {
  const track = useSessionState((s) => s.media.videoTrack);
  const ref = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof MediaStream === 'undefined') return;
    el.srcObject = track ? new MediaStream([track]) : null;
    // Muted video may autoplay everywhere; play() is still needed where the element was paused by a source change.
    if (track) void el.play?.()?.catch(() => {});
  }, [track]);
  return <video {...props} ref={ref} muted autoPlay playsInline data-has-track={track ? '' : undefined} />;
}
