/**
 * Contract between the emulator's session logic and its media avatar (the media module, loaded only with media on).
 * The media side is loaded with `import('./media/index.js')` only when `--media on`, so
 * `@livekit/rtc-node` and `sharp` stay optional.
 */

/** Options of `joinAvatar`. */
export interface AvatarMediaOptions {
  /** LiveKit server URL, e.g. `ws://127.0.0.1:7880`. */
  livekitUrl: string;
  /** Access token for the avatar participant (a secret: never log it). */
  token: string;
  /** Avatar reference image bytes (any format sharp reads); center-cropped to 368×560. */
  image: Uint8Array;
  /** Data-message topic for events and app messages (default `liveai`). */
  eventTopic: string;
  /** Video frame rate, frames/s (default 25). */
  fps?: number;
  /** Called with each parsed JSON data message received on `eventTopic` from another participant (e.g. `chat-msg`, `force-end`). */
  onAppMessage?: (message: unknown, fromIdentity: string) => void;
  /** Called when a remote (non-avatar) participant joins; used to re-send `bot_ready` to late viewers. */
  onParticipantJoined?: (identity: string) => void;
  /**
   * Called once if the avatar loses the room for good (not after `close()`): a final disconnect reason
   * (`PARTICIPANT_REMOVED`), or after an outage that lasted `rejoinDeadlineMs` the last reason plus
   * `, not back within 60 s` (e.g. `SERVER_SHUTDOWN, not back within 60 s`).
   */
  onDisconnected?: (reason: string) => void;
  /**
   * Serve LiveKit's avatar data-stream protocol (an agent's speech on `lk.audio_stream`, `lk.clear_buffer`,
   * `lk.playback_started` / `lk.playback_finished`): the avatar lip-syncs to the agent's audio. Default false.
   */
  agentAudio?: boolean;
  /** Called while the agent's audio arrives (counts as activity for the idle timeout). */
  onAgentAudio?: () => void;
  /** Called with a one-line text when a protocol step fails (e.g. an RPC the agent did not answer). */
  onWarning?: (text: string) => void;
  /** Called when an outage begins (`true`: the avatar lost the room and is rejoining) and when it ends (`false`). */
  onOutage?: (active: boolean) => void;
  /** How long the avatar keeps rejoining after a recoverable disconnect, ms (default 60 000). */
  rejoinDeadlineMs?: number;
  /**
   * Where the synthetic eyes and mouth are drawn, as fractions of the frame (default: eyes at 38 % height,
   * ±18 % of the width from the centre; mouth at 63 % height, centred). Pass the landmarks of the image when known.
   */
  faceLayout?: FaceLayout;
}

/** Face landmarks as fractions of the 368×560 frame: `x` of the width, `y` of the height. */
export interface FaceLayout {
  /** Height of the eye centres (default 0.38). */
  eyeY?: number;
  /** Distance of each eye centre from the vertical centre line (default 0.18). */
  eyeDx?: number;
  /** Eye half-width (default 0.065) and half-height (default 0.028). */
  eyeRx?: number;
  eyeRy?: number;
  /** Height of the mouth centre (default 0.63). */
  mouthY?: number;
  /** Mouth half-width (default 0.085). */
  mouthHalfWidth?: number;
}

/** Demeanour set by `update-agent-prompt` / `update-idle-prompt`. */
export interface Demeanour {
  agentPrompt?: string;
  idlePrompt?: string;
}

/** A synthetic avatar that has joined a LiveKit room and publishes video (368×560) and audio (48 kHz mono). */
export interface AvatarMedia {
  /** Identity of the avatar participant in the room. */
  readonly identity: string;
  /** Publishes a service event as a reliable UTF-8 JSON data message on the event topic (to `to` identities only when given). */
  publishEvent(event: { type: string; [k: string]: unknown }, to?: string[]): Promise<void>;
  /** Speaks placeholder speech for `text` with a moving mouth; resolves when playback is done. */
  speak(text: string): Promise<void>;
  /** Queues PCM16 mono 16 kHz samples (websocket transports) to be played lip-synced. */
  playPcm(samples: Int16Array): void;
  /** Replaces the reference image. Rejects if `image` is not a decodable image. */
  setImage(image: Uint8Array): Promise<void>;
  /** Changes idle/speaking demeanour (visible in the video). */
  setDemeanour(demeanour: Demeanour): void;
  /** Plays a visible whole-body motion by name (`wave`, `nod`, `jump`, `spin`, …; unknown names play a generic sway). */
  playAction(name: string): void;
  /** Frames published so far and the measured frame rate over the last 2 s (frames/s). */
  stats(): { framesSent: number; fps: number };
  /** Total time the avatar was out of the room while rejoining (ms, including an outage still going on). Not billed. */
  outageMs?(): number;
  /**
   * Leaves the room and joins it again with fresh tracks (events are held meanwhile, as in an outage). Used when
   * LiveKit no longer lists the avatar's tracks after an outage. Resolves once back in the room or given up.
   */
  rejoin?(): Promise<void>;
  /** Leaves the room and stops all timers; idempotent. */
  close(): Promise<void>;
}

export type JoinAvatar = (options: AvatarMediaOptions) => Promise<AvatarMedia>;
