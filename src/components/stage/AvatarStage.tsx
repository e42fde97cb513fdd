import { useEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import type { AgentStateName, EndReason, Phase } from '../../core/index';
import { TrackVideo, useFirstFrame, useSessionVideoTrack } from '../primitives/AvatarVideo';
import { AudioUnlockButton } from '../primitives/AudioUnlockButton';
import type { QueueProgressViewProps } from '../controls/QueueProgress';
import { Icon } from '../controls/icons';
import { useFirstMessages } from '../i18n/context';
import { onDemand } from '../on-demand';
import { cx } from '../cx';
import type { ErrorLike } from '../format';
import { expiresAtMs, timeLimitReached } from './clock';
import type { ChromaKey, ChromaKeyOptions } from './chroma-key';
import { useShallow } from 'zustand/react/shallow';
import { useAvatarSession } from '../../react';
import { useSessionState } from '../../react/session';
import { useCurrentLook } from '../images/look';

/**
 * A ref for a Start button: `prefetch` runs once the button is at least half in view (IntersectionObserver), so
 * what start() downloads is fetched while the user reads the page. Without IntersectionObserver it does nothing
 * (hover and focus still prefetch).
 */
export function usePrefetchInView(prefetch: (() => void) | undefined) {
  const ref = useRef<HTMLButtonElement>(null);
  const latest = useRef(prefetch);
  latest.current = prefetch;
  const enabled = prefetch !== undefined;
  useEffect(() => {
    const el = ref.current;
    if (!el || !enabled || typeof IntersectionObserver === 'undefined') return;
    const io = new IntersectionObserver(
      (entries) => {
        if (!entries.some((e) => e.isIntersecting)) return;
        io.disconnect();
        latest.current?.();
      },
      { threshold: 0.5 },
    );
    io.observe(el);
    return () => io.disconnect();
  }, [enabled]);
  return ref;
}

/**
 * What {@link AvatarStageView} shows over the video in each phase: a Start button before the call, the queue progress
 * while it starts, "Ending…", the ended screen (reason, cost, "Start again") and the error screen ("Try again").
 * @public
 */
export interface StageOverlayProps {
  /** The session's phase; it picks the overlay (none while `active`). */
  phase: Phase;
  /** The queue progress shown in `creating`, `queued` and `connecting` (see {@link QueueProgressView}). */
  queue?: Omit<QueueProgressViewProps, 'phase'> | undefined;
  /** The error shown in the `error` phase, as a title and a hint in the visitor's language. */
  error?: ErrorLike | null | undefined;
  /** What the call cost, in credits, on the ended screen; `null` says the cost is not known yet. */
  cost?: number | null | undefined;
  /**
   * Why the call ended: said on the ended screen (e.g. "The avatar ended the call."), and as the error screen's title
   * for `timed_out`, `network`, `out_of_credits`, and `failed` once the avatar had been live (see `wasLive`).
   */
  endReason?: EndReason | null | undefined;
  /** The avatar was live in this call (the store's `live`): a failure then reads "The avatar stopped unexpectedly.", not a failed start. */
  wasLive?: boolean | undefined;
  /** The proxy ended the call at its maximum length: the ended screen says so. */
  timeLimitReached?: boolean | undefined;
  /** Called by the Start button; without it no Start button shows. */
  onStart?: (() => void) | undefined;
  /** Called when "Start call" comes into view, the pointer enters it or focus reaches it: warm up what start() will download. */
  onPrefetch?: (() => void) | undefined;
  /** Called by "Try again" on the error screen (shown only when trying again can help). */
  onRetry?: (() => void) | undefined;
  /** Called by "Start again" on the ended screen; without it the button does not show. */
  onRestart?: (() => void) | undefined;
  /** The avatar's name, shown over its picture before the call. */
  name?: string | undefined;
  /**
   * Show what the call cost on the ended screen (default false: the cost is the operator's business, not the
   * visitor's; turn it on for an internal tool).
   */
  showCost?: boolean | undefined;
}

function StartButton({ onStart, onPrefetch }: { onStart: () => void; onPrefetch?: (() => void) | undefined }) {
  const prefetch = () => {
    prefetchCallScreens();
    onPrefetch?.();
  };
  const ref = usePrefetchInView(prefetch);
  const m = useFirstMessages();
  return (
    <button
      ref={ref}
      type="button"
      className="liveai-button liveai-button--primary"
      onClick={() => {
        prefetchCallScreens();
        onStart();
      }}
      onPointerEnter={prefetch}
      onFocus={prefetch}
    >
      {m.startCall}
    </button>
  );
}

/** Before a call: the avatar's name over its picture and Start (without `onStart`, the name only). */
function IdleOverlay({ name, onStart, onPrefetch }: StageOverlayProps) {
  if (!onStart) return name ? <p className="liveai-stage__name">{name}</p> : null;
  return (
    <>
      {name && <p className="liveai-stage__name">{name}</p>}
      <StartButton onStart={onStart} onPrefetch={onPrefetch} />
    </>
  );
}

/**
 * The stage's screens of a placed call (progress, ending, ended, error, the agent's state, the countdown): their own
 * chunk, fetched when Start comes into view (see `StartButton`) and at the latest when the call starts.
 */
const callScreens = onDemand(() => import('./call-screens'));
/** Fetches what the stage shows once a call is placed; a failed download is tried again when the call needs it. */
export const prefetchCallScreens = () => void callScreens.load().catch(() => undefined);
/** Loads the stage's call screens (resolves once a stage draws them in the same render as its phase). */
export const loadCallScreens = (): Promise<unknown> => callScreens.load();

/**
 * Props of {@link AvatarStageView}: everything comes in as props (no session hooks).
 * @public
 */
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
  /**
   * What the agent is doing (`useAgentState().state`): while the call shows video, a ring inside the stage's edge
   * follows it (a thin one while `listening`, a slow pulse while `thinking`, a stronger glow while `speaking`; no
   * pulse when the visitor prefers reduced motion), mirrored on `data-agent-state`. Screen readers hear "Listening"
   * and "Thinking…" (catalogue key `agentStates`) politely, once the state has held for
   * 800 ms, so quick turns are not read out one by one; "Speaking" is not announced, as the
   * avatar's voice says it.
   */
  agentState?: AgentStateName | null | undefined;
  /** Show the agent's state on the stage (default true); `false` leaves out the ring, the label and the announcements. */
  showAgentState?: boolean | undefined;
  /**
   * Drawn in the agent's state label before its word, e.g. bars that follow the voice (the connected `AvatarStage`
   * gives live bars: the avatar's voice while it speaks, the visitor's microphone while it listens). Default: three
   * bars at rest, animated by CSS.
   */
  agentMeter?: ReactNode;
}

/** A CSS hex colour, `#rgb` or `#rrggbb`: the chroma key's `color`, and what `<liveai-avatar chroma-key>` accepts. */
export const HEX_COLOR = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i;

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

/**
 * The avatar: the session's video track (muted; the session plays the audio), poster while waiting (with the avatar's
 * `name` and an optional looping `previewSrc` before the call; its initial when there is no picture), cold-start progress
 * ("Connecting…" until the video's first frame is decoded), "Tap to unmute" when audio is blocked, ended state with the
 * cost in credits, error with retry.
 * State is mirrored on `data-phase`, `data-audio-blocked`, `data-has-video` (the video shows a frame) for styling.
 * The screens of a placed call (progress, ending, ended, error, the agent's state, the countdown) load on demand, in
 * their own chunk: fetched when the Start button comes into view, is pointed at, focused or clicked, or when the stage
 * first renders a later phase; they show once it is there.
 * @public
 */
export function AvatarStageView(props: AvatarStageViewProps) {
  return StageFrame(props);
}

/**
 * The stage's frame; `connected` for the stage of a session (`AvatarStage`), whose call screens read the session's
 * clock and voice levels themselves, so only they re-render with them.
 */
function StageFrame(props: AvatarStageViewProps & { connected?: boolean }) {
  const m = useFirstMessages();
  const { phase, videoTrack, imageUrl, audioBlocked, label = m.avatar, className, children } = props;
  const video = useRef<HTMLVideoElement>(null);
  const blocked = audioBlocked && phase === 'active';
  const framed = useFirstFrame(video, videoTrack);
  const canvas = useRef<HTMLCanvasElement>(null);
  const keying = useChromaKey(video, canvas, props.chromaKey);
  // Everything but the picture and Start comes with the call's screens (their own chunk; see `callScreens`).
  const placed = phase !== 'idle';
  const screens = callScreens.useModule(placed);
  const reduceMotion = useReducedMotion();
  const before = phase === 'idle' || phase === 'creating' || phase === 'queued' || phase === 'connecting';
  const preview = props.previewSrc && before && !framed && !reduceMotion ? props.previewSrc : null;
  // Nothing to show before a call: the name's first letter instead of an empty box.
  const initial = !imageUrl && !preview && phase === 'idle' && props.name ? props.name.trim().charAt(0).toUpperCase() : '';
  // The agent's state shows on the live picture only; its announcer stays mounted through the call so screen readers
  // hear its first change.
  const hint = phase === 'active' && props.showAgentState !== false && props.agentState != null;
  const agentState = hint && framed ? props.agentState : null;
  const idle = phase === 'idle' ? IdleOverlay(props) : null;
  // Active with a video track that has no frame yet: still connecting, as far as the user can see.
  const layer =
    placed && screens
      ? {
          ...props,
          phase: phase === 'active' && videoTrack && !framed ? ('connecting' as const) : phase,
          agentState: agentState ?? null,
          hint,
          expiresAt: props.expiresAt ?? null,
          connected: props.connected === true,
        }
      : null;
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
      data-agent-state={agentState ?? undefined}
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
          tabIndex={-1}
          disablePictureInPicture
          ref={(el) => void (el && (el.inert = true))}
        />
      )}
      <TrackVideo className="liveai-stage__video" ref={video} track={videoTrack} watchTrack={props.watchVideoTrack} aria-hidden="true" />
      {props.chromaKey && <canvas className="liveai-stage__canvas" ref={canvas} aria-hidden="true" />}
      {hint && <span className="liveai-stage__agent" aria-hidden="true" />}
      {layer && screens && <screens.StageCallLayer part="over" {...layer} />}
      {idle && <div className="liveai-stage__overlay">{idle}</div>}
      <AudioUnlockButton
        blocked={!!blocked}
        onUnblock={props.onUnblockAudio}
        className="liveai-button liveai-button--primary liveai-stage__unmute"
      >
        <Icon name="speaker" />
        <span>{m.tapToUnmute}</span>
      </AudioUnlockButton>
      {layer && screens && <screens.StageCallLayer part="after" {...layer} />}
      {children}
    </div>
  );
}

/**
 * Props of {@link AvatarStage}: the view's props that do not come from the session, all optional.
 * @public
 */
export type AvatarStageProps = Partial<
  Omit<
    AvatarStageViewProps,
    'phase' | 'videoTrack' | 'audioTrack' | 'queue' | 'error' | 'cost' | 'endReason' | 'wasLive' | 'timeLimitReached' | 'agentState'
  >
>;

/**
 * The avatar of the nearest `AvatarSessionProvider`: its video track, poster (the `imageUrl` prop; the session's own
 * image instead while queued, after the call, or when a call goes 1 s without video; once a look change made with
 * `ImageSwapper` completed, the picture of that look until the next call starts), the wait counted from the click
 * on Start, "Tap to unmute" wired to `unblockAudio()`, start / retry / start again, and what the agent is doing
 * (`useAgentState()`: a ring that follows listening / thinking / speaking, announced politely; `showAgentState={false}`
 * leaves it out). The session plays the audio itself, so no audio track is given to the view.
 * @public
 */
export function AvatarStage(props: AvatarStageProps) {
  const session = useAvatarSession();
  // Only what the stage shows: the create answer (session id, transport) and status polls do not re-render it while
  // the call connects.
  const { phase, error, cost, endReason, wasLive } = useSessionState(
    useShallow((st) => ({ phase: st.phase, error: st.error, cost: st.cost, endReason: st.endReason, wasLive: st.live })),
  );
  // Only the media fields the stage shows: moving the volume slider does not re-render the video. The track is shown
  // the moment the session has it, as a bare `track.attach(video)` would, not after a render.
  const { track: videoTrack, watchTrack: watchVideoTrack } = useSessionVideoTrack();
  const audioBlocked = useSessionState((st) => st.media.audioBlocked);
  // Read only when the stage shows it: a stage with `showAgentState={false}` does not re-render on every turn.
  const agentState = useSessionState((st) => (props.showAgentState === false ? null : st.agentState.state));
  // The visitor reads a sentence; the technical detail goes to the console (and to onError).
  useEffect(() => {
    if (error) console.warn(`liveai-kit: ${error.code}: ${error.detail}`);
  }, [error]);
  const start = () => void session.start().catch(() => undefined); // the error shows from the store
  // Fixed for a call; read when the phase changes (the countdown shows only while active).
  const expiresAt = expiresAtMs(session.getClientSession()?.session_expires_at);
  const posterDue = useSessionPosterDue(phase, phase === 'active' && !!videoTrack);
  const sessionImage = useSessionState((st) => (posterDue ? st.imageUrl : null));
  // After "Change look", the look the avatar has now, not the one it started with.
  const look = useCurrentLook(session);
  return (
    <StageFrame
      connected
      phase={phase}
      videoTrack={videoTrack}
      audioBlocked={audioBlocked}
      error={error}
      cost={cost}
      endReason={endReason}
      wasLive={wasLive}
      expiresAt={expiresAt}
      timeLimitReached={timeLimitReached(phase, endReason, expiresAt)}
      onStart={start}
      onPrefetch={session.prefetch}
      onRetry={start}
      onRestart={start}
      onUnblockAudio={() => void session.unblockAudio().catch(() => undefined)}
      watchVideoTrack={watchVideoTrack}
      agentState={agentState}
      {...props}
      imageUrl={look ?? sessionImage ?? props.imageUrl}
    />
  );
}

/** How long a call may connect without video before the session's own image is shown as the poster, in ms. */
export const SESSION_POSTER_DELAY_MS = 1000;

/**
 * Whether the session's own image (`image_url` of the create answer) is worth its download and decode as a poster:
 * while queued (a cold start lasts seconds to minutes), once the call is ending, ended or failed, or when the call
 * has gone {@link SESSION_POSTER_DELAY_MS} without video. A fast connect shows the video about a tenth of a second
 * after the create answer; loading an image the video then covers would only compete with the connect for the
 * CPU. Once due, it stays due until the next start.
 */
export function useSessionPosterDue(phase: Phase, showingVideo: boolean): boolean {
  const [late, setLate] = useState(false);
  // The phases in which the avatar's video is on its way or playing.
  const videoPhase = phase === 'creating' || phase === 'connecting' || phase === 'active';
  const waitingForVideo = videoPhase && !showingVideo;
  useEffect(() => {
    if (phase === 'creating') setLate(false);
  }, [phase]);
  useEffect(() => {
    if (!waitingForVideo || late) return;
    const timer = setTimeout(() => setLate(true), SESSION_POSTER_DELAY_MS);
    return () => clearTimeout(timer);
  }, [waitingForVideo, late]);
  return late || (phase !== 'idle' && !videoPhase);
}
