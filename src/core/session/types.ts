import type { LiveAiError } from '../errors';
import type {
  AvatarEvent,
  AvatarEventMap,
  AvatarEventType,
  ClientSession,
  ControlEvent,
  ProxySessionRequest,
  SessionStatus,
  TransportType,
} from '../schemas';
import type { CallStats, ConnectionState, TransportLoader } from '../transports/types';
import type { AgentState } from './agent-state';
import type { TransportRegistry } from '../transports/choose';
import type { SessionMetric } from './metrics';

export type { SessionMetric, SessionMetricName } from './metrics';

/**
 * Client phase, one value derived in core:
 * `idle → creating → queued → connecting → active → ending → ended`, or `error`.
 * @public
 */
export type Phase = 'idle' | 'creating' | 'queued' | 'connecting' | 'active' | 'ending' | 'ended' | 'error';

/**
 * Why a session ended.
 * @public
 */
export type EndReason =
  | 'user' // end() was called
  | 'unload' // page unload (sendBeacon)
  | 'unmount' // the provider unmounted
  | 'idle_timeout' // idle_timeout event
  | 'completed' // the service reported COMPLETED on its own
  | 'timed_out' // TIMED_OUT
  | 'failed' // FAILED or a fatal error
  | 'remote' // the avatar (or the agent it speaks for) left the room mid-call while the service still ran the session
  | 'max_duration' // the proxy ended it at its maximum length (its status answer's end_reason)
  | 'network' // the room was lost for good (the connection dropped and could not come back)
  | 'out_of_credits'; // the account behind the avatar has no credits: the service refused the call (402, insufficient_funds)

/**
 * One transcript line; `id` is increasing per session.
 * @public
 */
export interface TranscriptLine {
  id: number;
  role: 'user' | 'agent';
  text: string;
  /**
   * Agent lines while the avatar is saying them: the part of `text` said so far, whole words only (so never a
   * broken character, emoji or right-to-left word); `''` until the avatar starts it. Absent once it said the line
   * (and on user lines). A line cut by an interrupt keeps what was said. Show `spoken ?? text` for captions in step
   * with the voice (`useTranscript({ paced: true })` does it). See `pacedCaptions`.
   */
  spoken?: string;
  /** Epoch ms when the line arrived. */
  at: number;
}

/**
 * Progress of an image change (update-image → image_change_* events).
 * @public
 */
export interface ImageChangeState {
  status: 'idle' | 'sending' | 'requested' | 'created' | 'complete' | 'error';
  error?: string;
}

/**
 * Media state of the room, for `useMedia`.
 * @public
 */
export interface MediaState {
  connection: ConnectionState;
  videoTrack: MediaStreamTrack | null;
  audioTrack: MediaStreamTrack | null;
  /** True when the browser blocked audio playback; call `session.unblockAudio()` from a user gesture. */
  audioBlocked: boolean;
  micEnabled: boolean;
  /** The published microphone track while the microphone is on in the room (for level meters); else null. */
  micTrack: MediaStreamTrack | null;
  /** True while `setMicEnabled` is switching the microphone (show the toggle busy); false once it settled. */
  micPending: boolean;
  speakerMuted: boolean;
  /** Speaker volume 0..1. */
  volume: number;
}

/**
 * What every state of a session holds, whatever its phase: the media, the transcript, the image change, the
 * agent's state and the user's choices. See {@link SessionState}.
 * @public
 */
export interface SessionStateCommon {
  /** The session's `transport_type` (or the room's transport); null before the create call answered. */
  transport: TransportType | null;
  /** Placeholder / poster image of the avatar, when known. */
  imageUrl: string | null;
  /** Credits the call used: set by the status answer that carries it (once `COMPLETED`); else null. */
  cost: number | null;
  /**
   * True once the avatar is live in the room: its `bot_ready` event came, or its video track arrived (a page that
   * joins after the avatar never receives `bot_ready`). The phase turns `active` once its frames arrive or the room
   * is connected.
   */
  live: boolean;
  transcript: TranscriptLine[];
  image: ImageChangeState;
  media: MediaState;
  /** Last event received, any type. */
  lastEvent: AvatarEvent | null;
  /** Keep-alive is on (see `AvatarSession.setKeepAlive`). */
  keepAlive: boolean;
  /** What the agent is doing: idle, listening, thinking or speaking, since when (see `useAgentState`). */
  agentState: AgentState;
}

/**
 * The service's statuses while a session runs (a final one ends it: the phase is then `ending`, `ended` or `error`).
 * @public
 */
export type RunningSessionStatus = Extract<SessionStatus, 'QUEUED' | 'ACTIVE'>;

/**
 * A session that has not started: nothing is known yet.
 * @public
 */
export interface IdleSessionState extends SessionStateCommon {
  phase: 'idle';
  sessionStatus: null;
  sessionId: null;
  error: null;
  endReason: null;
  startedAt: null;
  queuedAt: null;
  activeAt: null;
}

/**
 * `start()` was called; the create call or the first status is under way. `sessionId` is set once the proxy answered.
 * @public
 */
export interface CreatingSessionState extends SessionStateCommon {
  phase: 'creating';
  sessionStatus: null;
  sessionId: string | null;
  error: null;
  endReason: null;
  startedAt: number;
  queuedAt: null;
  activeAt: null;
}

/**
 * The service says `QUEUED` (cold start, up to 2.5 min) and the avatar is not live yet.
 * @public
 */
export interface QueuedSessionState extends SessionStateCommon {
  phase: 'queued';
  sessionStatus: 'QUEUED';
  sessionId: string;
  error: null;
  endReason: null;
  startedAt: number;
  queuedAt: number;
  activeAt: null;
}

/**
 * The avatar is up (`ACTIVE`, or live before the status said so) and the room is being joined.
 * @public
 */
export interface ConnectingSessionState extends SessionStateCommon {
  phase: 'connecting';
  /** `ACTIVE`, or still `QUEUED` / no answer yet while the avatar already said it is live. */
  sessionStatus: RunningSessionStatus | null;
  sessionId: string;
  error: null;
  endReason: null;
  startedAt: number;
  queuedAt: number | null;
  activeAt: null;
}

/**
 * The call is on: the avatar is live and the room joined (or its video arriving).
 * @public
 */
export interface ActiveSessionState extends SessionStateCommon {
  phase: 'active';
  /** `ACTIVE`, or still `QUEUED` / no answer yet while the avatar already said it is live. */
  sessionStatus: RunningSessionStatus | null;
  sessionId: string;
  error: null;
  endReason: null;
  startedAt: number;
  queuedAt: number | null;
  activeAt: number;
}

/**
 * The session is being ended: the room is left and the final status (and `cost`) awaited.
 * @public
 */
export interface EndingSessionState extends SessionStateCommon {
  phase: 'ending';
  sessionStatus: SessionStatus | null;
  /** Null when it was ended before the proxy answered the create call. */
  sessionId: string | null;
  error: null;
  endReason: EndReason;
  startedAt: number;
  queuedAt: number | null;
  activeAt: number | null;
}

/**
 * The session is over; `endReason` says why, `cost` what it cost (once the service said `COMPLETED`).
 * @public
 */
export interface EndedSessionState extends SessionStateCommon {
  phase: 'ended';
  sessionStatus: SessionStatus | null;
  /** Null when it was ended before the proxy answered the create call. */
  sessionId: string | null;
  error: null;
  endReason: EndReason;
  startedAt: number;
  queuedAt: number | null;
  activeAt: number | null;
}

/**
 * The session failed; `error` says how (its `code` and `detail`).
 * @public
 */
export interface ErrorSessionState extends SessionStateCommon {
  phase: 'error';
  sessionStatus: SessionStatus | null;
  /** Null when the create call itself failed. */
  sessionId: string | null;
  error: LiveAiError;
  endReason: EndReason;
  startedAt: number;
  queuedAt: number | null;
  activeAt: number | null;
}

/**
 * The whole per-session store state (one zustand store per session), one variant per `phase`, so checking the phase
 * narrows the rest: after `if (s.phase === 'active')`, `s.sessionId` is a `string` and `s.activeAt` a `number`; after
 * `if (s.phase === 'error')`, `s.error` is a `LiveAiError`. Each field is one fact with one writer (docs: "State").
 * Times (`startedAt`, `queuedAt`, `activeAt`) are epoch ms: of `start()`, of the first `queued` phase and of the first
 * `active` phase of this start.
 * @public
 */
export type SessionState =
  | IdleSessionState
  | CreatingSessionState
  | QueuedSessionState
  | ConnectingSessionState
  | ActiveSessionState
  | EndingSessionState
  | EndedSessionState
  | ErrorSessionState;

/**
 * A change to the session state: any of its fields (the union's `Partial` would keep a patch to one phase's fields).
 * @internal
 */
export type SessionStatePatch = { [K in keyof SessionState]?: SessionState[K] };

/**
 * How the session starts.
 * @public
 */
export type SessionFlow =
  | { kind: 'room'; agentId: string }
  | { kind: 'session'; request: ProxySessionRequest; image?: Blob }
  | { kind: 'attach'; session: ClientSession };

/**
 * Options of `createAvatarSession`.
 * @public
 */
export interface AvatarSessionOptions {
  /** Base URL where `createAvatarProxy` is mounted, e.g. `/api/avatar` (no trailing slash needed). */
  proxyUrl: string;
  flow: SessionFlow;
  /** Force a transport; otherwise chosen from the room URL (`ws(s)://` → rtc-a, `http(s)://` → rtc-b). */
  transport?: 'rtc-a' | 'rtc-b';
  /** rtc-a data-message topic of service events (default `liveai`). */
  eventTopic?: string;
  /** Custom transport loader (tests, or your own adapter); wins over `transports`. */
  loadTransport?: TransportLoader;
  /**
   * The transports this session may join (see `createTransportRegistry`); default: the page's registry, which
   * `import 'liveai-kit/livekit'` / `'liveai-kit/daily'` fill. A registry of its own keeps this session (or this test)
   * apart from what the page registered, and its prediction of the next transport in the memory it was given.
   * @beta
   */
  transports?: TransportRegistry;
  fetch?: typeof fetch;
  /** Status polling: first interval and maximum, in ms (default 1000 → 5000, with jitter). */
  pollIntervalMs?: number;
  maxPollIntervalMs?: number;
  /**
   * Keep-alive: while the call is active and the user is active on the page (pointer, key, wheel, touch, scroll,
   * the page shown again), send `reset-idle-timeout` at most every N ms. Setting it turns keep-alive on from the
   * start; without it keep-alive starts off and `setKeepAlive(true)` uses 30000 ms.
   */
  keepAliveMs?: number;
  /** End the session with sendBeacon on page unload (default true). */
  endOnUnload?: boolean;
  /**
   * Browser-side measurements of each call, for your own analytics: the cold start, the first video frame, each
   * reconnect and each video freeze, with their durations in ms (see {@link SessionMetric}). Off unless given; nothing
   * is sent anywhere but to this function. A handler that throws is reported as a `handler_error`.
   * @beta
   */
  onMetric?: (metric: SessionMetric) => void;
  /** Transcript lines kept in memory (default 200). */
  maxTranscriptLines?: number;
  /**
   * Reveal each agent line as the avatar speaks it, in the line's `spoken` (default true): word by word while the
   * avatar speaks, at its measured speaking rate; whole when it stops, and after 4 s if it never starts. `false`
   * leaves `spoken` out: lines show whole when they arrive, usually ahead of the voice.
   */
  pacedCaptions?: boolean;
  /** Publish the microphone when joining (default false). */
  micEnabled?: boolean;
  /**
   * Attached sessions (a LiveKit agent's room) with the microphone on at the join: record it from the start of the
   * join, before the room is connected, and hand the recording to the agent once it listens, so the visitor can talk
   * at once and nothing said meanwhile is lost (livekit-client's pre-connect audio buffer: a byte stream on the topic
   * `lk.agent.pre-connect-audio-buffer` with the attributes `trackId`, `sampleRate` and `channels`, at most 10 s of
   * audio). The agent gets exactly one recording, also when its avatar is already in the room; it must read that
   * topic (LiveKit Agents for Python does with its pre-connect audio option). Default true for attached sessions;
   * `false` publishes the microphone only once the room is joined. Hosted rooms and created sessions ignore it.
   */
  preConnectAudio?: boolean;
  /**
   * rtc-a: how long a dropped room connection (LiveKit restart, network loss) is retried before the session
   * fails with `transport_failed`, in ms (default 60000). See docs/core.md, "Reconnect".
   */
  reconnectDeadlineMs?: number;
  /**
   * rtc-a: how much of the avatar's video and audio the browser buffers before playing it: `'auto'` (the default),
   * a number of ms (0 to 4000), or `0` to always leave it to the browser. The browser's own buffer adapts to the
   * jitter it sees (often 30–120 ms) but not to packet loss: a lost packet is sent again about one round trip later,
   * and while it is missing a short buffer runs dry and the video freezes. A larger buffer cures that at the cost
   * of latency: what the user sees and hears comes that much later (audio and video stay in sync).
   *
   * `'auto'` keeps the browser's own buffer while the link is clean (the lowest latency for a conversation) and
   * switches to 200 ms only while the link loses packets: every 2 s, while the avatar's video is playing, it reads
   * the video's receive statistics; when 1 % or more of its packets were lost over the last 10 s, or it froze while
   * packets were being lost, the avatar's audio and video get a 200 ms buffer, and after 30 s without either they go
   * back to the browser's own. Measured at 2 % loss and an 80 ms round trip (docs/benchmarks.md): 200 ms cut
   * freezes to about a quarter of the browser's own buffer's; on a clean link it would add about 150 ms of delay,
   * which `'auto'` avoids.
   *
   * A number fixes the buffer for the whole call: lower for the lowest latency, higher (up to 4000) for bad
   * networks. It sets the standard `RTCRtpReceiver.jitterBufferTarget` on the receivers of the room's tracks, where
   * the browser has it; elsewhere it does nothing, and on rtc-b (daily-js gives no access to its receivers) neither
   * `'auto'` nor a number does anything. Under 0 or not a number: `'auto'`; over 4000: 4000.
   */
  jitterBufferTargetMs?: number | 'auto';
  /**
   * Hosts an image that cannot be sent inline and returns its public http(s) URL, which is then sent as
   * `image_url` (larger images are hosted). Called by `updateImage({ blob })` when the prepared
   * 368×560 image is still over `inlineImageMaxBytes`; the original blob is passed. Without it such an image
   * rejects with `payload_too_large`.
   */
  uploadImage?: (image: Blob) => Promise<string>;
  /** Prepared images are compressed under this many bytes, else hosted via `uploadImage` (default 917504, under 921600). */
  inlineImageMaxBytes?: number;
  /** Display name sent with chat messages (default `user`). */
  userName?: string;
  /** How long `end()` waits for a final status (and the cost), in ms (default 15000). */
  endTimeoutMs?: number;
  /** Time limit of each proxy request, in ms (default 30000); exceeding it is a `timeout` error. */
  requestTimeoutMs?: number;
}

/**
 * Read access to a session's zustand store (works with zustand's `useStore`); only the session writes it.
 * @public
 */
export type ReadonlySessionStore = Pick<import('zustand/vanilla').StoreApi<SessionState>, 'getState' | 'getInitialState' | 'subscribe'>;

/**
 * Typed subscription to service events; `'*'` receives every event. Returns the unsubscribe function.
 * @public
 */
export type OnEvent = {
  <T extends AvatarEventType>(type: T, handler: (event: AvatarEventMap[T]) => void): () => void;
  (type: '*', handler: (event: AvatarEvent) => void): () => void;
  /**
   * Non-fatal problems (malformed transport messages `invalid_event`, failed polls, keep-alive failures) and fatal
   * errors. Never thrown.
   */
  (type: 'error', handler: (error: LiveAiError) => void): () => void;
};

/**
 * Input to `updateImage`: a URL, base64 / data URL, or a Blob/File to be prepared (crop 368×560, compress).
 * @public
 */
export type ImageInput = { url: string } | { base64: string } | { blob: Blob };

/**
 * A running session: the only writer of its store.
 * All methods reject with `LiveAiError` (codes: `ErrorCode`); none throw synchronously.
 * @public
 */
export interface AvatarSession {
  /** The session's zustand store, read-only: `getState()`, `getInitialState()`, `subscribe(listener)`. */
  readonly store: ReadonlySessionStore;
  readonly on: OnEvent;
  /** Same as `on('error', handler)`: errors reported without throwing (malformed messages, failed polls, fatal errors). */
  onError(handler: (error: LiveAiError) => void): () => void;
  /** The session handle from the proxy (ids, room URL, `websocket_address`), once created or attached; else null. */
  getClientSession(): ClientSession | null;
  /**
   * Whether the visitor can talk before the avatar is live: an attached session (a LiveKit agent's room), unless the
   * option `preConnectAudio` is `false`. A microphone switched on before the start is then recorded from the join and
   * its recording handed to the agent once it listens; UIs say "listening" while the avatar is coming. False for
   * hosted rooms and created sessions: the service's own agent hears the visitor only once the avatar is live.
   */
  readonly preConnectAudio: boolean;
  /**
   * Creates (or attaches) and joins. A second call while a start is in flight returns the same promise:
   * one click, one paid session. Resolves when `active`.
   */
  start(): Promise<void>;
  /** Ends: `terminate` via the proxy's `/end` (or `force-end` in rooms), leaves the room, polls to the final status. Idempotent. */
  end(reason?: EndReason): Promise<void>;
  /** Sends `chat-msg`. `invalid_request` for empty text. */
  sendChat(text: string): Promise<void>;
  /** Sends `force-end`. */
  forceEnd(): Promise<void>;
  /**
   * Stops the avatar speaking now ("stop talking"). In a LiveKit room with an agent (the attach flow) it asks that
   * agent, through the RPC method `liveai.interrupt` your agent registers, to interrupt its reply; the agent clears
   * the avatar's audio and the avatar falls silent. Rejects with `invalid_request` where interrupting is not
   * available: hosted rooms (the service's own agent offers no interrupt), a room without an agent, or an agent
   * that did not register the method; `transport_failed` when not in the room or the agent did not answer within 5 s.
   */
  interrupt(): Promise<void>;
  /** Sends one control event through the proxy, validated first (400/413 rules checked client-side). */
  control(event: ControlEvent): Promise<{ success: boolean }>;
  /** update-image from a URL, base64, or a Blob prepared in the browser; progress in `state.image`. */
  updateImage(input: ImageInput): Promise<void>;
  updateAgentPrompt(prompt: string): Promise<void>;
  updateIdlePrompt(prompt: string): Promise<void>;
  action(name: string): Promise<void>;
  resetIdleTimeout(): Promise<void>;
  /** Leaves a third-party meeting (`meeting_bot_id`); LiveKit (rtc-a) sessions only. */
  leaveMeeting(meetingBotId: string): Promise<{ status: 'left' }>;
  /** Publishes or stops the microphone; `media.micPending` is true until it settled. */
  setMicEnabled(enabled: boolean): Promise<void>;
  setSpeakerMuted(muted: boolean): void;
  setVolume(volume: number): void;
  /**
   * Chooses the microphone (`audioinput`), camera (`videoinput`) or speaker (`audiooutput`, where the browser can
   * route audio) by its `deviceId` from `navigator.mediaDevices.enumerateDevices()`. `''` or `'default'` is the
   * system's default device (what `DeviceSelect` calls "Default"; Chromium also lists a `default` entry, other
   * browsers do not): no exact device is asked of the browser. Before the room is joined the choice is remembered and
   * used at the join; it lasts for this session, not across page loads (`DeviceSelect` stores it in `localStorage`).
   * Rejects with `LiveAiError` code `device_failed` (the device is unplugged or unknown, in use, or not allowed; the
   * `detail` names it and the browser's error, `cause` is that error).
   */
  setDevice(kind: 'audioinput' | 'audiooutput' | 'videoinput', deviceId: string): Promise<void>;
  /** Turns keep-alive on or off (see `keepAliveMs`); `state.keepAlive` shows it. Kept across restarts. */
  setKeepAlive(on: boolean): void;
  /**
   * Starts downloading what `start()` will need (the session engine, the validation chunk, and the transport adapter
   * chunk when the transport is known before creation), e.g. on hover or focus of a Start button. Never throws;
   * idempotent.
   */
  prefetch(): void;
  /**
   * One sample of the received call quality (round-trip time, jitter, packet loss, fps, bitrate), read from the
   * room's WebRTC statistics; null while not in a room or where the transport cannot tell. Never rejects.
   */
  getCallStats(): Promise<CallStats | null>;
  /** Resumes blocked audio; call from a user gesture (click/tap). */
  unblockAudio(): Promise<void>;
  /**
   * Stops timers and listeners and ends the session. With `{ end: false }` it only leaves the room: the session goes
   * on at the service (another page can attach to it), and this object shows phase `ended` with `endReason`
   * `unmount`.
   */
  dispose(options?: { end?: boolean }): void;
}

/**
 * The session's commands to the avatar: chat, controls, image change, leave-meeting (what `useControl` returns).
 * @public
 */
export type SessionCommands = Pick<
  AvatarSession,
  | 'sendChat'
  | 'forceEnd'
  | 'interrupt'
  | 'control'
  | 'updateImage'
  | 'updateAgentPrompt'
  | 'updateIdlePrompt'
  | 'action'
  | 'resetIdleTimeout'
  | 'leaveMeeting'
>;
