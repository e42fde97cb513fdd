import { RoomEvent, type RemoteTrack } from 'livekit-client';
import type { AppMessage } from '../../schemas';
import type { AvatarIdentity } from '../avatar-identity';

/** Participant attribute a LiveKit Agents agent publishes its state in (initializing, idle, listening, thinking, speaking). */
export const ATTRIBUTE_AGENT_STATE = 'lk.agent.state';

/** The part of a livekit-client `Room` the adapter uses (so tests can inject a fake). Public livekit-client API only. */
export interface RoomLike {
  on(event: string, listener: (...args: unknown[]) => void): unknown;
  off(event: string, listener: (...args: unknown[]) => void): unknown;
  connect(url: string, token: string): Promise<void>;
  disconnect(): Promise<void>;
  switchActiveDevice(kind: MediaDeviceKind, deviceId: string): Promise<boolean>;
  localParticipant: {
    /** Our own identity in the room (livekit-client sets it once connected). */
    identity?: string;
    publishData(data: Uint8Array, options: { reliable: boolean; topic: string }): Promise<void>;
    setMicrophoneEnabled(enabled: boolean): Promise<unknown>;
  };
  /** Participants in the room (livekit-client: identity → participant). */
  remoteParticipants?: Map<string, Participant>;
  /** livekit-client ≥ 2.9 text streams (e.g. `lk.transcription`); absent in fakes. */
  registerTextStreamHandler?(topic: string, handler: TextStreamHandler): void;
  unregisterTextStreamHandler?(topic: string): void;
}

/** The part of a livekit-client remote participant the adapter reads. */
interface Participant {
  identity: string;
  trackPublications?: Map<string, unknown>;
  attributes?: Record<string, string>;
}

/** The part of a livekit-client text stream reader the adapter uses: its header and its chunks as they arrive. */
export interface TextStreamReaderLike extends AsyncIterable<string> {
  readonly info: { id: string; attributes?: Record<string, string> };
  readAll(): Promise<string>;
}
/** A livekit-client text stream handler: `(reader, { identity })`. */
export type TextStreamHandler = (reader: TextStreamReaderLike, from: { identity: string }) => void;

/** What one room reports to the link that owns it. Called only while the room is joined and not yet left, except `track`. */
export interface RoomHooks {
  /** A data message of the avatar (or of someone while the avatar is not known yet). */
  data(payload: Uint8Array, from: string | undefined, topic: string | undefined): void;
  /** The avatar's current track of a kind appeared (track) or went away (null); may come while joining. */
  track(kind: 'audio' | 'video', track: MediaStreamTrack | null): void;
  /** A participant became reachable (it published or subscribed a track, or sent a message). */
  reachable(): void;
  /** livekit-client lost the connection and is healing it itself. */
  trouble(): void;
  /** livekit-client healed the connection. */
  back(): void;
  /** The room is gone (LiveKit `DisconnectReason`, or undefined when livekit-client gave none). */
  lost(reason: number | undefined): void;
  /** The agent's `lk.agent.state` attribute, as it is now. */
  agentState(state: string): void;
  /** The identities the server hears speaking now (livekit-client's active speakers). */
  speakers(identities: ReadonlySet<string>): void;
  /** Our published microphone track appeared (or went away). */
  micTrack(track: MediaStreamTrack | null): void;
}

/** The part of a livekit-client track the adapter reads for statistics. */
type StatsSource = { getRTCStatsReport?(): Promise<RTCStatsReport | undefined> };
/** The part of a livekit-client local track publication the adapter reads. */
type LocalPublication = { source?: string; track?: { mediaStreamTrack?: MediaStreamTrack } };

type Who = { identity?: string; attributes?: Record<string, string> } | undefined;

/** The jitter buffer the avatar's receivers get when the session sets none, ms (the session option's default). */
export const DEFAULT_JITTER_BUFFER_TARGET_MS = 200;

/**
 * Sets the standard `RTCRtpReceiver.jitterBufferTarget` (ms) of a subscribed track's receiver (livekit-client's
 * public `RemoteTrack.receiver`), where the browser has it: `ms` undefined, under 0 or not a number → the default;
 * 0 → the browser's own; over 4000 (the standard's maximum) → 4000.
 */
export function applyJitterBufferTarget(track: { receiver?: RTCRtpReceiver }, ms: number | undefined): void {
  const receiver = track.receiver as (RTCRtpReceiver & { jitterBufferTarget?: number | null }) | undefined;
  if (!receiver || !('jitterBufferTarget' in receiver)) return;
  const target = ms === undefined || !(ms >= 0) ? DEFAULT_JITTER_BUFFER_TARGET_MS : Math.min(ms, 4000);
  try {
    receiver.jitterBufferTarget = target || null;
  } catch {
    // a browser that rejects the value keeps its own
  }
}
type Kind = 'audio' | 'video';

/**
 * One livekit-client Room: its listeners and the state that belongs to it (who is reachable, the subscribed tracks
 * of each participant, the track shown per kind). A new RoomSession is made for every join attempt, so events of an
 * old Room can never reach the adapter: `leave()` removes its listeners before it disconnects. Tracks are taken on
 * `TrackSubscribed`, which livekit-client sends once `connect()` resolved.
 */
export class RoomSession {
  /** Identities of participants of this room that publish tracks or sent messages. */
  readonly reachable = new Set<string>();
  /** Subscribed tracks by participant identity, so the avatar's can be shown when it is recognised late. */
  private readonly tracks = new Map<string, Partial<Record<Kind, MediaStreamTrack>>>();
  private readonly shown: Partial<Record<Kind, MediaStreamTrack>> = {};
  /** The livekit-client track of each subscribed media track (for its receiver's statistics). */
  private readonly sources = new WeakMap<MediaStreamTrack, StatsSource>();
  private readonly offs: (() => void)[] = [];
  private joined = false;
  private left = false;

  constructor(
    readonly room: RoomLike,
    private readonly avatar: AvatarIdentity,
    private readonly hooks: RoomHooks,
    textStreams: Record<string, TextStreamHandler> = {},
    /** The session option `jitterBufferTargetMs` (see `applyJitterBufferTarget`). */
    private readonly jitterBufferTargetMs?: number,
  ) {
    this.listen(RoomEvent.DataReceived, (payload: Uint8Array, from: Who, _kind: unknown, topic?: string) => {
      this.see(from);
      if (this.avatar.accepts(from?.identity)) this.hooks.data(payload, from?.identity, topic);
    });
    this.listen(RoomEvent.TrackSubscribed, (track: RemoteTrack, _pub: unknown, from: Who) => this.onTrack(track, true, from));
    this.listen(RoomEvent.TrackUnsubscribed, (track: RemoteTrack, _pub: unknown, from: Who) => this.onTrack(track, false, from));
    this.listen(RoomEvent.ParticipantConnected, (p: Who) => this.see(p));
    this.listen(RoomEvent.ParticipantAttributesChanged, (_changed: unknown, p: Who) => this.see(p));
    this.listen(RoomEvent.ParticipantDisconnected, (p: Who) => {
      if (!p?.identity) return;
      this.reachable.delete(p.identity);
      this.tracks.delete(p.identity);
    });
    this.listen(RoomEvent.ActiveSpeakersChanged, (speakers: Who[]) =>
      this.hooks.speakers(new Set(speakers.map((p) => p?.identity ?? '').filter(Boolean))),
    );
    const mic = (on: boolean) => (pub: LocalPublication) =>
      pub?.source === 'microphone' && this.hooks.micTrack((on && pub.track?.mediaStreamTrack) || null);
    this.listen(RoomEvent.LocalTrackPublished, mic(true));
    this.listen(RoomEvent.LocalTrackUnpublished, mic(false));
    this.listen(RoomEvent.Reconnecting, () => this.joined && this.hooks.trouble());
    this.listen(RoomEvent.SignalReconnecting, () => this.joined && this.hooks.trouble());
    this.listen(RoomEvent.Reconnected, () => {
      if (!this.joined) return;
      this.noteParticipants();
      this.hooks.back();
    });
    // Before `connect` resolves, a failure rejects the join itself.
    this.listen(RoomEvent.Disconnected, (reason?: number) => this.joined && this.hooks.lost(reason));
    for (const [topic, handler] of Object.entries(textStreams)) {
      if (!room.registerTextStreamHandler) break;
      room.registerTextStreamHandler(topic, handler);
      this.offs.push(() => room.unregisterTextStreamHandler?.(topic));
    }
  }

  /** Joins; rejects with livekit-client's error (the session then should be left). */
  async join(url: string, token: string): Promise<void> {
    await this.room.connect(url, token);
    if (this.left) return;
    this.joined = true;
    this.noteParticipants();
  }

  /** Marks `identity` reachable (it sent a message) and tells the link. */
  markReachable(identity: string | undefined): void {
    if (!identity) return;
    this.reachable.add(identity);
    this.hooks.reachable();
  }

  /** Reliable JSON on `topic`. */
  publish(message: AppMessage, topic: string): Promise<void> {
    return this.room.localParticipant.publishData(new TextEncoder().encode(JSON.stringify(message)), { reliable: true, topic });
  }

  /** WebRTC statistics of the receivers of the avatar's shown tracks. */
  async stats(): Promise<RTCStatsReport[]> {
    const shown = [this.shown.video, this.shown.audio].map((t) => (t ? this.sources.get(t)?.getRTCStatsReport?.() : undefined));
    return (await Promise.all(shown.map((p) => p?.catch(() => undefined)))).filter((r): r is RTCStatsReport => !!r);
  }

  /** Stops listening, then leaves the Room. Idempotent; never rejects. */
  async leave(): Promise<void> {
    if (this.left) return;
    this.left = true;
    this.joined = false;
    this.offs.splice(0).forEach((off) => off());
    await this.room.disconnect().catch(() => {});
  }

  private listen(event: string, fn: (...args: never[]) => void): void {
    this.room.on(event, fn as (...args: unknown[]) => void);
    this.offs.push(() => this.room.off(event, fn as (...args: unknown[]) => void));
  }

  /** Participants already in the room: the avatar may be recognised among them; publishers count as reachable. */
  private noteParticipants(): void {
    for (const p of this.room.remoteParticipants?.values() ?? []) {
      this.see(p);
      if (p.trackPublications?.size) this.reachable.add(p.identity);
    }
  }

  /** A participant was seen; when that told who the avatar is, the avatar's tracks replace anyone else's. */
  private see(p: Who): void {
    // The agent's state: from the agent the avatar publishes for, or (while that is not known) whoever carries it.
    const state = p?.attributes?.[ATTRIBUTE_AGENT_STATE];
    if (state && (this.avatar.agent ?? p?.identity) === p?.identity) this.hooks.agentState(state);
    if (!this.avatar.see(p?.identity, p?.attributes)) return;
    const mine = this.tracks.get(this.avatar.current ?? '') ?? {};
    for (const kind of ['video', 'audio'] as const) this.show(kind, mine[kind] ?? null);
  }

  private show(kind: Kind, track: MediaStreamTrack | null): void {
    if ((this.shown[kind] ?? null) === track) return;
    if (track) this.shown[kind] = track;
    else delete this.shown[kind];
    this.hooks.track(kind, track);
  }

  // After livekit-client heals a connection the old track's unsubscribe can arrive after the new track's subscribe:
  // only the current track of a kind may clear it, else the video would go blank on a working connection.
  private onTrack(track: RemoteTrack, present: boolean, from: Who): void {
    const kind = track.kind;
    const identity = from?.identity;
    if ((kind !== 'audio' && kind !== 'video') || !identity) return;
    const mst = track.mediaStreamTrack;
    const own = this.tracks.get(identity) ?? {};
    if (present) {
      applyJitterBufferTarget(track, this.jitterBufferTargetMs);
      this.sources.set(mst, track as StatsSource);
      this.tracks.set(identity, { ...own, [kind]: mst });
      this.see(from);
      this.markReachable(identity);
      if (this.avatar.claim(identity)) this.show(kind, mst);
    } else {
      if (own[kind] === mst) delete own[kind];
      if (this.shown[kind] === mst) this.show(kind, null);
    }
  }
}
