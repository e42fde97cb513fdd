import { useEffect, useLayoutEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import { StageOverlay, type StageOverlayProps } from './StageOverlay';
import { useMessages } from '../i18n/context';
import { cx } from '../format';
import { TimeLimitCountdown } from './clock';
import type { ChromaKey, ChromaKeyOptions } from './chroma-key';

/** Props of {@link AvatarStageView}: everything comes in as props (no session hooks). */
export interface AvatarStageViewProps extends StageOverlayProps {
  /** The avatar's video, shown muted (the session plays the audio itself). */
  videoTrack?: MediaStreamTrack | null;
  /** Poster / placeholder image of the avatar, shown until video frames arrive (368×560 portrait). */
  imageUrl?: string | null;
  /**
   * A short looping preview video (URL) shown before the call and while it starts, muted and inline, over the poster.
   * Left out (the poster shows) when the visitor prefers reduced motion.
   */
  previewSrc?: string | null;
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
  /**
   * Subscribes to the video track so it is shown the moment it changes, before React renders (e.g. a store
   * subscription); returns the unsubscribe function. The `videoTrack` prop is shown either way.
   */
  watchVideoTrack?: (show: (track: MediaStreamTrack | null) => void) => () => void;
  /**
   * Makes the avatar's backdrop transparent (chroma key) so it stands on the page: `true` for a green backdrop
   * (`#00ff00`), or `{color: '#rrggbb', similarity, smoothness, spill}` (0–1 each). The avatar must be rendered on that
   * solid colour, e.g. from an agent image with a green background. The video is then drawn into a `<canvas>` (WebGL,
   * else a 2D canvas); `data-chroma-key` on the stage says which, or `off` when the browser can do neither (the video
   * then shows as it is). The code loads with `import()` the first time a stage asks for it.
   */
  chromaKey?: boolean | ChromaKeyOptions;
}

/** Shows `track` in the muted `<video>` and plays it; nothing when it is already shown (or there is no DOM). */
function showVideoTrack(el: HTMLVideoElement | null, track: MediaStreamTrack | null | undefined): void {
  // No MediaStream on the server or in jsdom.
  if (!el || typeof MediaStream === 'undefined') return;
  if (shownTrack(el) === (track ?? null)) return;
  el.srcObject = track ? new MediaStream([track]) : null;
  if (track) el.play()?.catch(() => undefined);
}

/** The track `el` shows (its MediaStream's video track), or null. */
const shownTrack = (el: HTMLVideoElement): MediaStreamTrack | null => (el.srcObject as MediaStream | null)?.getVideoTracks()[0] ?? null;

/**
 * Whether `video` has decoded a frame of `track` (its `loadeddata`): until then the stage keeps "Connecting…" over the
 * poster, so the picture replaces the overlay instead of an empty stage between the two.
 */
function useFirstFrame(video: RefObject<HTMLVideoElement | null>, track: MediaStreamTrack | null | undefined): boolean {
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

/** One string per set of chroma-key options (null for none), so options written inline do not restart anything. */
export const chromaKeyId = (options: boolean | ChromaKeyOptions | undefined): string | null =>
  options ? JSON.stringify(options === true ? {} : options) : null;

/**
 * Runs the chroma key from `video` into `canvas` while `options` is set; returns how it draws (`webgl`, `2d`, `off`
 * when it cannot), or null while its code loads or when none was asked for. Restarts only when the options change.
 */
function useChromaKey(
  video: RefObject<HTMLVideoElement | null>,
  canvas: RefObject<HTMLCanvasElement | null>,
  options: boolean | ChromaKeyOptions | undefined,
): ChromaKey['mode'] | 'off' | null {
  const [mode, setMode] = useState<ChromaKey['mode'] | 'off' | null>(null);
  const key = chromaKeyId(options);
  useEffect(() => {
    const v = video.current;
    const c = canvas.current;
    if (!key || !v || !c) return setMode(null);
    let running: ChromaKey | null = null;
    let cancelled = false;
    import('./chroma-key')
      .then((m) => {
        if (cancelled) return;
        running = m.startChromaKey(v, c, JSON.parse(key) as ChromaKeyOptions);
        setMode(running?.mode ?? 'off');
      })
      .catch((e: unknown) => {
        if (cancelled) return;
        console.warn(`liveai-kit: chroma key off: ${e instanceof Error ? e.message : String(e)}`);
        setMode('off');
      });
    return () => {
      cancelled = true;
      running?.stop();
    };
  }, [video, canvas, key]);
  return mode;
}

/** Whether the visitor asks for reduced motion (true until known, so no preview starts before it is checked). */
function useReducedMotion(): boolean {
  const [reduce, setReduce] = useState(true);
  useEffect(() => {
    if (typeof matchMedia === 'undefined') return setReduce(false);
    const query = matchMedia('(prefers-reduced-motion: reduce)');
    const update = () => setReduce(query.matches);
    update();
    query.addEventListener('change', update);
    return () => query.removeEventListener('change', update);
  }, []);
  return reduce;
}

/** useLayoutEffect in the browser; useEffect where there is no DOM (server rendering), which has nothing to bind. */
const useBeforePaint = typeof document === 'undefined' ? useEffect : useLayoutEffect;

/**
 * The avatar: the session's video track (muted; the session plays the audio), poster while waiting (with the avatar's
 * `name` and an optional looping `previewSrc` before the call; its initial when there is no picture), cold-start progress
 * ("Connecting…" until the video's first frame is decoded), "Tap to unmute" when audio is blocked, ended state with the
 * cost in credits, error with retry.
 * State is mirrored on `data-phase`, `data-audio-blocked`, `data-has-video` (the video shows a frame) for styling.
 */
export function AvatarStageView(props: AvatarStageViewProps) {
  const m = useMessages();
  const { phase, videoTrack, imageUrl, audioBlocked, label = m.avatar, className, children } = props;
  const video = useRef<HTMLVideoElement>(null);
  const { watchVideoTrack } = props;
  // The one place the <video> is bound: in the commit that renders the track (before paint), so decoding starts
  // without waiting a frame, and, with `watchVideoTrack`, the moment the track changes, as a bare `track.attach()` would.
  useBeforePaint(() => {
    const show = (track: MediaStreamTrack | null | undefined) => showVideoTrack(video.current, track);
    show(videoTrack);
    return watchVideoTrack?.(show);
  }, [videoTrack, watchVideoTrack]);
  const blocked = audioBlocked && phase === 'active';
  const framed = useFirstFrame(video, videoTrack);
  const canvas = useRef<HTMLCanvasElement>(null);
  const keying = useChromaKey(video, canvas, props.chromaKey);
  // Active with a video track that has no frame yet: still connecting, as far as the user can see.
  const overlay = StageOverlay(phase === 'active' && videoTrack && !framed ? { ...props, phase: 'connecting' } : props);
  const reduceMotion = useReducedMotion();
  const before = phase === 'idle' || phase === 'creating' || phase === 'queued' || phase === 'connecting';
  const preview = props.previewSrc && before && !framed && !reduceMotion ? props.previewSrc : null;
  // Nothing to show before a call: the name's first letter instead of an empty box.
  const initial = !imageUrl && !preview && phase === 'idle' && props.name ? props.name.trim().charAt(0).toUpperCase() : '';
  return (
    <div
      className={cx('liveai-stage', className)}
      role="region"
      aria-label={label}
      tabIndex={-1}
      data-phase={phase}
      data-audio-blocked={blocked || undefined}
      data-has-video={(phase === 'active' && framed) || undefined}
      data-chroma-key={props.chromaKey ? (keying ?? 'loading') : undefined}
    >
      {imageUrl && <img className="liveai-stage__poster" src={imageUrl} alt="" decoding="async" />}
      {initial && (
        <span className="liveai-stage__initial" aria-hidden="true">
          {initial}
        </span>
      )}
      {preview && (
        <video
          className="liveai-stage__preview"
          src={preview}
          poster={imageUrl ?? undefined}
          autoPlay
          loop
          muted
          playsInline
          preload="auto"
          aria-hidden="true"
        />
      )}
      <video className="liveai-stage__video" ref={video} autoPlay playsInline muted aria-hidden="true" />
      {props.chromaKey && <canvas className="liveai-stage__canvas" ref={canvas} aria-hidden="true" />}
      {overlay && <div className="liveai-stage__overlay">{overlay}</div>}
      {blocked && (
        <button type="button" className="liveai-button liveai-button--primary liveai-stage__unmute" onClick={props.onUnblockAudio}>
          {m.tapToUnmute}
        </button>
      )}
      {phase === 'active' && props.expiresAt != null && <TimeLimitCountdown expiresAt={props.expiresAt} />}
      {children}
    </div>
  );
}
