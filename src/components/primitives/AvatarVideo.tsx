import { forwardRef, useCallback, useEffect, useLayoutEffect, useRef, useState, type RefObject, type VideoHTMLAttributes } from 'react';
import { useAvatarSession } from '../../react';
import { useSessionState } from '../../react/session';

/**
 * Props of {@link AvatarVideo}: any `<video>` attribute except its source and audio, which the component owns.
 * @public
 */
export type AvatarVideoProps = Omit<VideoHTMLAttributes<HTMLVideoElement>, 'src' | 'muted' | 'autoPlay' | 'playsInline' | 'children'>;

/** Props of {@link TrackVideo}: the track to show and, optionally, a way to hear of a new one before React renders. */
export type TrackVideoProps = AvatarVideoProps & {
  track: MediaStreamTrack | null | undefined;
  /**
   * Subscribes to the track so it is shown the moment it changes, before React renders (e.g. a store subscription);
   * returns the unsubscribe function. `track` is shown either way.
   */
  watchTrack?: ((show: (track: MediaStreamTrack | null) => void) => () => void) | undefined;
};

/** The track `el` shows (its MediaStream's video track), or null. */
const shownTrack = (el: HTMLVideoElement): MediaStreamTrack | null => (el.srcObject as MediaStream | null)?.getVideoTracks()[0] ?? null;

/** Shows `track` in the muted `<video>` and plays it; nothing when it is already shown (or there is no DOM). */
function showVideoTrack(el: HTMLVideoElement | null, track: MediaStreamTrack | null | undefined): void {
  // No MediaStream on the server or in jsdom.
  if (!el || typeof MediaStream === 'undefined') return;
  if (shownTrack(el) === (track ?? null)) return;
  el.srcObject = track ? new MediaStream([track]) : null;
  // Muted video may autoplay everywhere; play() is still needed where the element was paused by a source change.
  if (track) el.play()?.catch(() => undefined);
}

/** useLayoutEffect in the browser; useEffect where there is no DOM (server rendering), which has nothing to bind. */
const useBeforePaint = typeof document === 'undefined' ? useEffect : useLayoutEffect;

/**
 * Whether `video` has decoded a frame of `track` (its `loadeddata`): a new track (a rejoin) waits for its own first
 * frame, so a caller can keep its poster until the picture is really there.
 */
export function useFirstFrame(video: RefObject<HTMLVideoElement | null>, track: MediaStreamTrack | null | undefined): boolean {
  const [framed, setFramed] = useState<MediaStreamTrack | null>(null);
  useEffect(() => {
    const el = video.current;
    if (!el || !track) return;
    // HAVE_CURRENT_DATA: a frame of what the element shows now.
    const check = () => el.readyState >= 2 && shownTrack(el) === track && setFramed(track);
    check();
    el.addEventListener('loadeddata', check);
    return () => el.removeEventListener('loadeddata', check);
  }, [video, track]);
  return !!track && framed === track;
}

/**
 * The one place a video track is bound to a `<video>`: muted, `autoplay`, `playsinline` (iOS Safari plays it inline
 * and without a tap), bound in the commit that renders the track (before paint, so decoding starts without waiting a
 * frame) and, with `watchTrack`, the moment the track changes, as a bare `track.attach()` would. A replaced track is
 * shown at once; no track empties the video. It is a picture, not a control: no browser controls, no tab stop, no
 * picture-in-picture button (`disablePictureInPicture`, and `inert`, so Firefox's "Pop out this video" toggle is not
 * focusable either). Used by {@link AvatarVideo} and the styled stage.
 */
export const TrackVideo = forwardRef<HTMLVideoElement, TrackVideoProps>(function TrackVideo({ track, watchTrack, ...rest }, ref) {
  const own = useRef<HTMLVideoElement | null>(null);
  useBeforePaint(() => {
    const show = (t: MediaStreamTrack | null | undefined) => showVideoTrack(own.current, t);
    show(track);
    return watchTrack?.(show);
  }, [track, watchTrack]);
  const setRef = useCallback(
    (el: HTMLVideoElement | null) => {
      own.current = el;
      // Set on the element: React 18 does not know the attribute.
      if (el) el.inert = true;
      if (typeof ref === 'function') ref(el);
      else if (ref) ref.current = el;
    },
    [ref],
  );
  return <video tabIndex={-1} disablePictureInPicture {...rest} ref={setRef} controls={false} muted autoPlay playsInline />;
});

/**
 * The nearest session's video track (re-rendering when it changes) and a subscription that hears of a new one before
 * React renders, for {@link TrackVideo}.
 */
export function useSessionVideoTrack() {
  const session = useAvatarSession();
  const track = useSessionState((s) => s.media.videoTrack);
  const watchTrack = useCallback(
    (show: (track: MediaStreamTrack | null) => void) => session.store.subscribe((st) => show(st.media.videoTrack)),
    [session],
  );
  return { track, watchTrack };
}

/**
 * The avatar's video track of the nearest session in a `<video>`: muted (the session plays the audio itself, see
 * `AvatarAudio`), `autoplay` and `playsinline` (so iOS Safari plays it inline and without a tap). When the track is
 * replaced (a reconnect, a new call) the new one is shown the moment the session has it; without a track the video
 * is empty and `poster` shows. `data-has-track` is set while there is a track, `data-has-frame` once the video shows a
 * frame of it (e.g. to fade it in over a picture). Unstyled: give it a class or style.
 * @public
 */
export function AvatarVideo(props: AvatarVideoProps) {
  const { track, watchTrack } = useSessionVideoTrack();
  const ref = useRef<HTMLVideoElement>(null);
  const framed = useFirstFrame(ref, track);
  return (
    <TrackVideo
      {...props}
      ref={ref}
      track={track}
      watchTrack={watchTrack}
      data-has-track={track ? '' : undefined}
      data-has-frame={framed ? '' : undefined}
    />
  );
}
