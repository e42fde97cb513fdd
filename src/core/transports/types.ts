import type { LiveAiError } from '../errors';
import type { AppMessage, AvatarEvent, MediaTransport } from '../schemas';

/**
 * Connection state of the media room, as one value.
 * @public
 */
export type ConnectionState = 'disconnected' | 'connecting' | 'connected' | 'reconnecting';

/**
 * Events a transport adapter emits. Handlers never throw into the adapter.
 * @public
 */
export interface TransportEventMap {
  /** A service event, already parsed with `AvatarEventSchema`. */
  event: AvatarEvent;
  /** A data/app message on the event topic that was not valid JSON or not a service event (`invalid_event`). */
  invalidMessage: { error: LiveAiError; raw: unknown };
  /** The avatar's remote video or audio track appeared (track) or went away (null). */
  track: { kind: 'video' | 'audio'; track: MediaStreamTrack | null };
  /** Connection state changes, including `reconnecting` → `connected` after a drop. */
  connection: ConnectionState;
  /** The room was left for good; `error` is set when it was not our own `disconnect()` (`transport_failed`). */
  disconnected: { reason: string; error?: LiveAiError };
  /** The local microphone was switched on or off. */
  mic: { enabled: boolean };
  /**
   * A transcription the room carries besides the service's events (rtc-a: LiveKit Agents' `lk.transcription`
   * text streams): the whole text so far of segment `segmentId`, again with `final` when the segment is complete.
   */
  transcription: { role: 'user' | 'agent'; text: string; segmentId: string; final: boolean };
  /** The state a LiveKit Agents agent publishes (`lk.agent.state`: initializing, idle, listening, thinking, speaking). */
  agentState: { state: string };
  /** The avatar's (or the user's) audio became active or quiet, as the room measures it. */
  speaking: { who: 'avatar' | 'user'; speaking: boolean };
  /** The local microphone's track once published (null when it is gone): for level meters, never a second capture. */
  micTrack: { track: MediaStreamTrack | null };
  /**
   * The avatar participant left the room mid-call and did not come back within the adapter's grace time (rtc-a:
   * 20 000 ms while the room is connected), e.g. its process ended while the service still runs the session.
   */
  avatarLeft: { identity: string };
}
/**
 * The name of an event a transport emits (a key of {@link TransportEventMap}).
 * @public
 */
export type TransportEventName = keyof TransportEventMap;

/**
 * The quality of the call as this browser receives it, one sample. A field is null when the transport does not
 * tell it (e.g. `fps` on Daily) or before enough has been received.
 * @public
 */
export interface CallStats {
  /** Round-trip time to the media server, ms. */
  rttMs: number | null;
  /** Jitter of the received media (the larger of audio and video), ms. */
  jitterMs: number | null;
  /** Received packets lost since the previous sample, percent (0–100). */
  packetLossPct: number | null;
  /** Frames per second of the avatar's video as received and decoded. */
  fps: number | null;
  /** Received bitrate, audio and video together, kbit/s. */
  bitrateKbps: number | null;
  /** When the sample was taken, epoch ms. */
  at: number;
}

/**
 * Options of `Transport.connect`.
 * @public
 */
export interface ConnectOptions {
  /** Room URL: `ws(s)://` LiveKit server for rtc-a, `http(s)://` Daily room for rtc-b. */
  url: string;
  /** Room token (a secret: never log it). */
  token: string;
  /** Data-message topic of service events on rtc-a (default `liveai`). Ignored on rtc-b. */
  eventTopic: string;
  /**
   * The avatar's participant identity, when the session handle names it (`avatar_identity`: the proxy minted the
   * avatar's LiveKit token). rtc-a then takes events, transcriptions and tracks from that participant only. Without
   * it, the avatar is recognised by its `lk.publish_on_behalf` attribute, its `liveai-avatar-…` name or its kind
   * `agent`, never as the first participant seen. rtc-b ignores it.
   */
  avatarIdentity?: string;
  /** Publish the microphone on join (default false). */
  micEnabled?: boolean;
  /** The microphone to publish (`deviceId` from `enumerateDevices()`); the browser's default when absent. */
  micDeviceId?: string;
  /**
   * rtc-a with `micEnabled`: record the microphone from the start of the join, before the room is connected, and
   * hand the recording to the room's LiveKit agent once it is there (livekit-client's pre-connect audio buffer, byte
   * stream topic `lk.agent.pre-connect-audio-buffer`), so nothing the visitor says while joining is lost. rtc-b
   * ignores it.
   */
  preConnectAudio?: boolean;
  /**
   * How long a dropped room connection is retried before the adapter gives up with `transport_failed`, in ms
   * (rtc-a; default 60000). rtc-b leaves reconnecting to daily-js and ignores it.
   */
  reconnectDeadlineMs?: number;
  /**
   * rtc-a: the jitter buffer the browser keeps for the avatar's audio and video, in ms, or `'auto'` (the session
   * option `jitterBufferTargetMs`; `'auto'` when undefined, 0 for the browser's own). rtc-b ignores it.
   */
  jitterBufferTargetMs?: number | 'auto';
  signal?: AbortSignal;
}

/**
 * One media transport adapter: `rtc-a` on livekit-client, `rtc-b` on daily-js.
 * Each lives in its own lazily loaded chunk; nothing else imports the SDKs.
 * Errors: `connect` rejects with `LiveAiError('transport_failed')` or `('aborted')`.
 * @public
 */
export interface Transport {
  readonly kind: MediaTransport;
  connect(options: ConnectOptions): Promise<void>;
  /** Leaves the room; idempotent. */
  disconnect(): Promise<void>;
  /** Sends an app message (`chat-msg`, `force-end`) to the avatar. Rejects with `transport_failed` when not connected. */
  sendAppMessage(message: AppMessage): Promise<void>;
  /**
   * Asks the agent the avatar speaks for to stop speaking now (LiveKit rooms with an agent: the RPC method
   * `liveai.interrupt` on the agent). Optional: a transport without it cannot interrupt.
   */
  interrupt?(): Promise<void>;
  /** Switches the local microphone on or off (publishes/unpublishes or mutes). */
  setMicEnabled(enabled: boolean): Promise<void>;
  /**
   * Selects an input or output device by `deviceId` (`audiooutput` where the browser supports it); `''` or `'default'`
   * is the system default. Rejects with `device_failed`.
   */
  setDevice(kind: 'audioinput' | 'audiooutput' | 'videoinput', deviceId: string): Promise<void>;
  /** The quality of the received media now (see `CallStats`); null while not connected. Optional for custom adapters. */
  getStats?(): Promise<CallStats | null>;
  /** Subscribes to an event; returns the unsubscribe function. */
  on<K extends TransportEventName>(name: K, handler: (payload: TransportEventMap[K]) => void): () => void;
}

/**
 * Creates a fresh transport adapter.
 * @public
 */
export type TransportFactory = () => Transport;
/**
 * Resolves the adapter for a transport kind, loading its chunk with `import()` on first use.
 * Rejects with `LiveAiError('missing_peer')` and an install hint when the SDK is not installed.
 * Inject your own (e.g. the fake transport of `liveai-kit/testing`) through the session options.
 * @public
 */
export type TransportLoader = (kind: MediaTransport) => Promise<TransportFactory>;
