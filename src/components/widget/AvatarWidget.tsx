import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import {
  isRunning,
  type AvatarSession,
  type AvatarSessionOptions,
  type EndReason,
  type ImageChangeState,
  type LiveAiError,
  type Phase,
  type TranscriptLine,
} from '../../core/index';
import { AvatarSessionProvider, useAvatarSession } from '../../react';
import { useSessionState } from '../../react/session';
import { AvatarStage, chromaKeyId, prefetchCallScreens } from '../stage/AvatarStage';
import { AvatarWidgetView, type WidgetState } from './AvatarWidgetView';
import { callUi, LiveCaptions, LiveStopTalking, MicNotice, WaitingNotice, openMicWithCall, type MicProblem } from './call-parts';
import { useCurrentLook } from '../images/look';
import { useDeadline } from '../stage/clock';
import type { ChromaKeyOptions } from '../stage/chroma-key';
import { MessagesProvider, useFirstMessages } from '../i18n/context';
import type { MessagesOverride } from '../i18n/messages';

/**
 * What `onEnd` receives, once per call whichever way it ended (phase `ended` or `error`): why (`reason`, e.g. `user`,
 * `completed`, `out_of_credits`, `network`), the cost in credits (null when unknown), the session id (null when the
 * call failed before the session was created) and, for a failure, the error (its `code` and `detail`).
 * @public
 */
export interface WidgetEndInfo {
  reason: EndReason | null;
  cost: number | null;
  sessionId: string | null;
  /** The error of a call that failed (phase `error`); null when it ended without one. */
  error: LiveAiError | null;
}

/**
 * Callbacks of the drop-in widget (and the DOM events of `<liveai-avatar>`).
 * @public
 */
export interface WidgetCallbacks {
  onPhaseChange?: (phase: Phase) => void;
  /** Once per new transcript line, as it arrived (without the paced `spoken`, which captions read from the store). */
  onTranscript?: (line: TranscriptLine) => void;
  /** Every error the session reports (fatal ones also move the phase to `error`). */
  onError?: (error: LiveAiError) => void;
  onImageChange?: (image: ImageChangeState) => void;
  onEnd?: (info: WidgetEndInfo) => void;
}

/**
 * Calls the widget callbacks from the session's store and error bus, without re-rendering anything.
 * The latest callbacks are always used, so callers need not memoize them.
 */
function useWidgetCallbacks(session: AvatarSession, callbacks: WidgetCallbacks): void {
  const cb = useRef(callbacks);
  cb.current = callbacks;
  useEffect(() => {
    const offError = session.onError((e) => cb.current.onError?.(e));
    const offStore = session.store.subscribe((s, prev) => {
      const c = cb.current;
      if (s.phase !== prev.phase) {
        c.onPhaseChange?.(s.phase);
        if (s.phase === 'ended' || s.phase === 'error')
          c.onEnd?.({ reason: s.endReason, cost: s.cost, sessionId: s.sessionId, error: s.phase === 'error' ? s.error : null });
      }
      if (s.transcript !== prev.transcript) {
        const last = prev.transcript[prev.transcript.length - 1]?.id ?? 0;
        for (const { spoken: _revealed, ...line } of s.transcript) if (line.id > last) c.onTranscript?.(line);
      }
      // A reset at start() replaces the idle object with another idle one: not a change the host cares about.
      if (s.image.status !== prev.image.status || s.image.error !== prev.image.error) c.onImageChange?.(s.image);
    });
    return () => {
      offError();
      offStore();
    };
  }, [session]);
}

/**
 * Props of {@link AvatarWidget}.
 * @public
 */
export interface AvatarWidgetProps extends WidgetCallbacks {
  /** Where `createAvatarProxy` is mounted, e.g. `/api/avatar`. */
  proxyUrl?: string;
  /** Agent of the hosted room. Without `proxyUrl` + `agentId` (or `session`) nothing renders. */
  agentId?: string;
  /** More session options (e.g. `keepAliveMs`, `flow`, `transport`); read when the session is created. */
  options?: Partial<AvatarSessionOptions>;
  /** Use this session instead of creating one (tests, stories, the attach flow). */
  session?: AvatarSession;
  /** Default `floating`. */
  variant?: 'floating' | 'inline';
  /** Uncontrolled start state (default: floating → `minimized`, inline → `active`). */
  initialState?: WidgetState;
  /** Controlled state; pair with `onStateChange`. */
  state?: WidgetState;
  onStateChange?: (state: WidgetState) => void;
  /** Default `auto` (follows `prefers-color-scheme`). */
  theme?: 'light' | 'dark' | 'auto';
  /** Name shown in the header (default `Avatar`). */
  title?: string;
  /**
   * The agent's picture (368×560 portrait): the first impression before a call (with `title` over it), and the
   * poster until the video plays.
   */
  imageUrl?: string;
  /**
   * A short looping preview video of the agent (URL; e.g. a few seconds of MP4 or WebM, 368×560) shown before the
   * call, muted and inline, over `imageUrl` (its poster). Not loaded for visitors who prefer reduced motion.
   */
  previewSrc?: string;
  /** Ends the call this long after it became active, ms; a countdown shows in the last 30 s. */
  maxDurationMs?: number;
  /**
   * A limit for minimized calls, ms: a call minimized this long is ended, and the Minimize button and the launcher
   * say so. Default none: minimizing keeps the call, as a phone call goes on when you switch apps. A widget hidden
   * (`state="hidden"`: nothing on screen to come back to) ends its call after this long, or 30000 ms by default.
   */
  minimizedEndMs?: number;
  /** Minimizing keeps the call even when `minimizedEndMs` is set (that limit then applies to `hidden` only). */
  minimizeKeepsCall?: boolean;
  /**
   * Open the microphone when the call starts (default true): the Start click is the gesture the browser's permission
   * prompt follows, and the visitor can talk at once. Refused or missing, the call goes on with the chat open and a
   * line that says so. `false` makes a text-only widget: no microphone is asked for, the chat shows from the start.
   */
  microphone?: boolean;
  /** Default: floating → `caption` over the video, inline → `conversation` beside it. */
  transcriptMode?: 'caption' | 'conversation';
  /** Show the "Change look" image swapper (default false). */
  imageSwapper?: boolean;
  /**
   * Transparent backdrop (chroma key): `true` removes green (`#00ff00`), or give `{color: '#rrggbb', similarity,
   * smoothness, spill}` (0–1 each). For avatars rendered on that solid colour. See `AvatarStageView`'s `chromaKey`.
   */
  chromaKey?: boolean | ChromaKeyOptions;
  /**
   * A step before the first call (default false): over the avatar's picture, in place of Start, the widget asks for
   * the microphone, shows its live level and the microphone and speaker selects (the choice is remembered in
   * `localStorage`), then "Join call" starts the call with that microphone. Denied or missing, it explains why and
   * offers "Try again" and "Join without microphone". The step's code downloads only when it shows.
   */
  preJoin?: boolean;
  /**
   * Show "Your connection is unstable" while the call's quality stays poor (default true): a polite line under the
   * header the visitor can dismiss. It appears after two poor samples in a row (2 s apart: ≥ 5 % packet loss, ≥ 400
   * ms round trip or ≥ 50 ms jitter) and goes after two good ones.
   */
  showConnectionHint?: boolean;
  /** Show what the call cost (credits) on the ended screen (default false: visitors do not see the operator's costs). */
  showCost?: boolean;
  /**
   * Show "Stop talking" over the video while the avatar speaks: it interrupts the reply (`session.interrupt()`).
   * Interrupting needs a LiveKit room with an agent of yours (the `attach` flow); the service's hosted rooms offer
   * none. Default: on when `options.flow` is `attach`, off otherwise (and for a given `session`).
   */
  stopSpeaking?: boolean;
  /**
   * The language of every string a visitor sees: a translation (e.g. `es` from `liveai-kit/messages`) or a partial
   * override of English (e.g. `{ startCall: 'Call Ava' }`). Numbers, clocks and credits follow its `locale`; with
   * `dir: 'rtl'` (Arabic) the widget lays out right to left.
   */
  messages?: MessagesOverride;
  /** Receives the session whenever the widget gets one (e.g. to call its methods). */
  onSession?: (session: AvatarSession) => void;
  className?: string;
}

/**
 * The drop-in widget: the avatar's face edge to edge, with its name and Minimize over the top and the call controls
 * over the bottom. Start opens the call and the microphone together; while it starts, one line with the clock and
 * Cancel; live, a label says what the agent does (Listening, Thinking…, Speaking) and captions show its latest words;
 * the chat, speaker, devices, "Stay connected" and "Change look" are one tap away; the ended and error screens offer
 * only what can help. Creates its own session (one store per widget, so several widgets stay independent) unless
 * `session` is given. Minimizing keeps the call (unless `minimizedEndMs` sets a limit); ends at `maxDurationMs`.
 * Escape minimizes the floating panel; keyboard focus stays on a sensible control through every state change.
 * @public
 */
export function AvatarWidget(props: AvatarWidgetProps) {
  const { proxyUrl, agentId, session, options } = props;
  if (!session && !(proxyUrl && agentId)) {
    warnMissing(proxyUrl, agentId);
    return null;
  }
  const created: AvatarSessionOptions | undefined = session
    ? undefined
    : { proxyUrl: proxyUrl!, flow: { kind: 'room', agentId: agentId! }, ...options };
  return (
    <AvatarSessionProvider key={session ? 'given' : `${proxyUrl}|${agentId}`} session={session} options={created}>
      <MessagesProvider messages={props.messages}>
        <AvatarWidgetBody {...props} />
      </MessagesProvider>
    </AvatarSessionProvider>
  );
}

let warned = false;
/** In development, says once why the widget renders nothing (a blank page is hard to debug). */
function warnMissing(proxyUrl: string | undefined, agentId: string | undefined): void {
  if (warned || (typeof process !== 'undefined' && process.env?.NODE_ENV === 'production')) return;
  warned = true;
  const missing = [!proxyUrl && 'proxyUrl', !agentId && 'agentId'].filter(Boolean).join(' and ');
  console.warn(`<AvatarWidget/> renders nothing: give it ${missing} (where createAvatarProxy is mounted, and the agent), or a session.`);
}

/** Warms up what a call needs: the session's own downloads, the call's parts and the stage's call screens. */
const prefetchCall = (session: AvatarSession) => () => {
  session.prefetch();
  void callUi.load().catch(() => undefined);
  prefetchCallScreens();
};

/** "Change look" and its image swapper download the first time a visitor opens it. */
const LookPanel = lazy(() => import('./LookPanel'));

/** The pre-join step downloads only when a widget with `preJoin` shows it. */
const PreJoin = lazy(() => import('../devices/PreJoin').then((m) => ({ default: m.PreJoin })));

/** Inside the provider: state, timers (minimized end, max duration), callbacks, and the composed parts. */
function AvatarWidgetBody(p: AvatarWidgetProps) {
  const session = useAvatarSession();
  // The Start handler the stage gets: one function for the widget's life, calling the latest `start`.
  const startRef = useRef(() => startLatest.current());
  const startLatest = useRef(() => undefined as void);
  // Only what the frame shows: the room's progress during connect does not re-render the whole widget.
  const phase = useSessionState((s) => s.phase);
  const activeAt = useSessionState((s) => s.activeAt);
  const variant = p.variant ?? 'floating';
  const m = useFirstMessages();
  const title = p.title ?? m.avatar;
  const [own, setOwn] = useState<WidgetState>(p.initialState ?? (variant === 'inline' ? 'active' : 'minimized'));
  const state = p.state ?? own;
  const setState = (next: WidgetState) => {
    setOwn(next);
    p.onStateChange?.(next);
  };
  useWidgetCallbacks(session, p);
  const { onSession } = p;
  useEffect(() => onSession?.(session), [session, onSession]);

  // Minimized, the call goes on unless the operator set a limit; hidden (nothing on screen) always counts as away.
  const limit = p.minimizeKeepsCall ? null : (p.minimizedEndMs ?? null);
  const away = isRunning(phase) && (state === 'hidden' || (state === 'minimized' && limit !== null));
  const [awaySince, setAwaySince] = useState<number | null>(null);
  useEffect(() => setAwaySince(away ? Date.now() : null), [away]);
  const endCall = () => void session.end('user').catch(() => undefined);
  const awayMs = state === 'hidden' ? (p.minimizedEndMs ?? 30_000) : (limit ?? 0);
  const minimizedEndMs = useDeadline(awaySince === null ? null : awaySince + awayMs, endCall);
  const maxDeadline = phase === 'active' && activeAt !== null && p.maxDurationMs ? activeAt + p.maxDurationMs : null;
  const remainingMs = useDeadline(maxDeadline, endCall, 30_000);

  // The pre-join step stands in for the stage's Start, over the avatar's picture, until the visitor joins the first call.
  const [joined, setJoined] = useState(false);
  const preJoin = !!p.preJoin && !joined && phase === 'idle';
  const join = useCallback(() => {
    setJoined(true);
    prefetchCall(session)();
    void session.start().catch(() => undefined); // the error shows from the store
  }, [session]);
  // The microphone opens with the call (unless text-only, or the pre-join step chose already).
  const microphone = p.microphone !== false;
  const [micProblem, setMicProblem] = useState<MicProblem>(null);
  const start = () => {
    setMicProblem(null);
    if (microphone && !p.preJoin) openMicWithCall(session, setMicProblem);
    prefetchCall(session)();
    void session.start().catch(() => undefined);
  };
  // The chat shows on the visitor's demand, or by itself when typing is the way to talk.
  const [chatWanted, setChatWanted] = useState(false);
  const running = isRunning(phase);
  useEffect(() => {
    if (!running) setChatWanted(false);
  }, [running]);
  const [lookOpen, setLookOpen] = useState(false);
  // Once opened, the sheet stays mounted (hidden) for the call, so closing it can put focus back.
  const [lookUsed, setLookUsed] = useState(false);
  useEffect(() => {
    if (phase !== 'active') setLookOpen(false);
  }, [phase]);
  // Mounted with the live call only: while the call connects it would add a render of the frame for nothing.
  // The call's parts (their own chunk, fetched before the click): rendered in the same pass once there.
  const ui = callUi.useModule(running);
  const hint = ui && p.showConnectionHint !== false && phase === 'active' ? <ui.ConnectionHint /> : undefined;

  const caption = (p.transcriptMode ?? (variant === 'inline' ? 'conversation' : 'caption')) === 'caption';
  // The parts read the session themselves, so they are made once per change of their own props: a phase change
  // (several while a call connects) re-renders the frame only, not the stage, transcript, chat and controls again.
  const { imageUrl, imageSwapper, previewSrc } = p;
  const showCost = p.showCost ?? false;
  const stopSpeaking = p.stopSpeaking ?? (!p.session && p.options?.flow?.kind === 'attach');
  const chatAlways = !caption || !microphone || micProblem !== null;
  const chatOpen = phase === 'active' && (chatAlways || chatWanted);
  const stageLabel = m.videoOf(title);
  // One key per set of options, so an inline `chromaKey={{…}}` does not re-make the parts on every render.
  const chromaKey = chromaKeyId(p.chromaKey);
  const parts = useMemo(
    () => ({
      stage: (
        <AvatarStage
          imageUrl={imageUrl}
          previewSrc={previewSrc}
          // The header says the name; over the picture only when there is none (with its first letter).
          name={imageUrl ? undefined : title}
          label={stageLabel}
          showCost={showCost}
          chromaKey={chromaKey ? (JSON.parse(chromaKey) as ChromaKeyOptions) : undefined}
          // In the pre-join step, its "Join call" starts the call instead.
          onStart={preJoin ? undefined : startRef.current}
          onPrefetch={prefetchCall(session)}
          onRetry={startRef.current}
          onRestart={startRef.current}
        >
          {caption && <LiveCaptions agentLabel={title} />}
          {microphone && <WaitingNotice session={session} />}
          {stopSpeaking && <LiveStopTalking />}
          {preJoin && (
            <Suspense fallback={null}>
              <PreJoin onJoin={join} />
            </Suspense>
          )}
        </AvatarStage>
      ),
      transcript: caption || !ui ? undefined : <ui.TranscriptPanel agentLabel={title} />,
      chat: ui ? <ui.ChatInput /> : undefined,
    }),
    [imageUrl, previewSrc, title, stageLabel, showCost, caption, chromaKey, session, microphone, preJoin, join, stopSpeaking, ui],
  );
  // Made again only when what it shows changes: the controls read the call's phase themselves.
  const controls = useMemo(
    () =>
      ui ? (
        <ui.CallControls
          microphone={microphone}
          chatOpen={chatOpen}
          onChatOpenChange={chatAlways ? undefined : setChatWanted}
          onChangeLook={
            imageSwapper
              ? () => {
                  setLookUsed(true);
                  setLookOpen(true);
                }
              : undefined
          }
        />
      ) : undefined,
    [microphone, chatOpen, chatAlways, imageSwapper, ui],
  );
  startLatest.current = start;
  // After "Change look", the launcher shows the look the avatar has now.
  const look = useCurrentLook(session);
  const micNotice = micProblem && running ? <MicNotice problem={micProblem} /> : null;
  return (
    <AvatarWidgetView
      variant={variant}
      state={state}
      onStateChange={setState}
      onPrefetch={prefetchCall(session)}
      theme={p.theme ?? 'auto'}
      phase={phase}
      title={title}
      className={p.className}
      remainingMs={remainingMs}
      minimizedEndMs={minimizedEndMs}
      minimizeEndsCallAfterMs={limit}
      imageUrl={look ?? imageUrl}
      stage={parts.stage}
      hint={
        hint || micNotice ? (
          <>
            {micNotice}
            {hint}
          </>
        ) : undefined
      }
      transcript={phase === 'idle' ? undefined : parts.transcript}
      extra={
        imageSwapper && lookUsed ? (
          <Suspense fallback={null}>
            <LookPanel open={lookOpen} onClose={() => setLookOpen(false)} />
          </Suspense>
        ) : undefined
      }
      chat={chatOpen || (!caption && running) ? parts.chat : undefined}
      controls={controls}
    />
  );
}
