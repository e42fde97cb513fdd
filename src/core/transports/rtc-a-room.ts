import { RoomEvent, type RemoteTrack } from 'livekit-client';
import type { AppMessage } from '../schemas';

/**
 * The part of a livekit-client `Room` the adapter uses (so tests can inject a fake). Public livekit-client API, but
 * for `engine` (optional, feature-detected).
 */
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
  /** Participants already in the room when `connect` resolves (livekit-client: identity → participant). */
  remoteParticipants?: Map<
    string,
    { identity: string; sid?: string; trackPublications?: Map<string, unknown>; attributes?: Record<string, string> }
  >;
  /**
   * livekit-client's connection engine: not public API, so it is only used when it is there and behaves as
   * expected (see `RoomSession`). Absent in fakes.
   */
  engine?: EngineLike;
  /** livekit-client ≥ 2.9 text streams (e.g. `lk.transcription`); absent on older versions and in fakes. */
  registerTextStreamHandler?(topic: string, handler: TextStreamHandler): void;
  unregisterTextStreamHandler?(topic: string): void;
}

/**
 * The one internal part of livekit-client the adapter listens to: `mediaTrackAdded` (a remote track and the stream
 * whose id is `participantSid|trackSid`), which comes as soon as WebRTC has the track. livekit-client holds its
 * public `TrackSubscribed` back until `connect()` resolves, which it notices by polling every 50 ms.
 */
export interface EngineLike {
  on(event: 'mediaTrackAdded', listener: (track: MediaStreamTrack, stream?: MediaStream) => void): unknown;
  off(event: 'mediaTrackAdded', listener: (track: MediaStreamTrack, stream?: MediaStream) => void): unknown;
}

/** The part of a livekit-client text stream reader the adapter uses: its header and its chunks as they arrive. */
export interface TextStreamReaderLike extends AsyncIterable<string> {
  readonly info: { id: string; attributes?: Record<string, string> };
  readAll(): Promise<string>;
}
/** A livekit-client text stream handler: `(reader, { identity })`. */
export type TextStreamHandler = (reader: TextStreamReaderLike, from: { identity: string }) => void;

/**
 * What one room reports to the link that owns it. Called only while the room is joined and not yet left, except
 * `track`, which may also come while joining.
 */
export interface RoomHooks {
  /** A data message; `from` is the sender's identity. */
  data(payload: Uint8Array, from: string | undefined, topic: string | undefined): void;
  /** The avatar's current track of a kind appeared (track) or went away (null); may come while joining. */
  track(kind: 'audio' | 'video', track: MediaStreamTrack | null, from: string | undefined): void;
  /** Whether a track of `from` (with these participant attributes) is the avatar's; others are not shown or played. */
  isAvatar(from: string | undefined, attributes: Readonly<Record<string, string>> | undefined): boolean;
  /** A participant became reachable (it published or subscribed a track, or sent a message). */
  reachable(): void;
  /** livekit-client lost the connection and is healing it itself. */
  trouble(): void;
  /** livekit-client healed the connection. */
  back(): void;
  /** The room is gone (LiveKit `DisconnectReason`, or undefined when livekit-client gave none). */
  lost(reason: number | undefined): void;
}

type Who = { identity?: string; attributes?: Record<string, string> } | undefined;

/**
 * One livekit-client Room: the listeners of that Room and the state that belongs to it (who is reachable, the
 * current track per kind). A new RoomSession is made for every join attempt, so events of an old Room can never
 * reach the adapter: `leave()` removes its listeners before it disconnects.
 */
export class RoomSession {
  /** Identities of participants of this room that publish tracks or sent messages. */
  readonly reachable = new Set<string>();
  private readonly current: Partial<Record<'audio' | 'video', MediaStreamTrack>> = {};
  private readonly offs: (() => void)[] = [];
  private joined = false;
  private left = false;

  constructor(
    readonly room: RoomLike,
    private readonly hooks: RoomHooks,
    textStreams: Record<string, TextStreamHandler> = {},
  ) {
    this.listen(RoomEvent.DataReceived, (payload: Uint8Array, from: Who, _kind: unknown, topic?: string) =>
      this.hooks.data(payload, from?.identity, topic),
    );
    this.listen(RoomEvent.TrackSubscribed, (track: RemoteTrack, _pub: unknown, from: Who) => this.onTrack(track, true, from));
    this.listen(RoomEvent.TrackUnsubscribed, (track: RemoteTrack, _pub: unknown, from: Who) => this.onTrack(track, false, from));
    this.listen(RoomEvent.ParticipantDisconnected, (p: Who) => void (p?.identity && this.reachable.delete(p.identity)));
    this.listen(RoomEvent.Reconnecting, () => this.joined && this.hooks.trouble());
    this.listen(RoomEvent.SignalReconnecting, () => this.joined && this.hooks.trouble());
    this.listen(RoomEvent.Reconnected, () => {
      if (!this.joined) return;
      this.noteParticipants();
      this.hooks.back();
    });
    // Before `connect` resolves, a failure rejects the join itself.
    this.listen(RoomEvent.Disconnected, (reason?: number) => this.joined && this.hooks.lost(reason));
    // The avatar's tracks while joining: WebRTC has them before the connection is up, and attaching them then lets
    // the first frame show the moment it is decoded, not after livekit-client's connect() resolves (up to 50 ms later).
    const engine = room.engine;
    if (engine?.off) {
      const early = (track: MediaStreamTrack, stream?: MediaStream) => this.onEarlyTrack(track, stream);
      engine.on('mediaTrackAdded', early);
      this.offs.push(() => engine.off('mediaTrackAdded', early));
    }
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

  /** Participants already in the room that publish tracks count as reachable. */
  private noteParticipants(): void {
    for (const p of this.room.remoteParticipants?.values() ?? []) if (p.trackPublications?.size) this.reachable.add(p.identity);
  }

  /**
   * A remote track WebRTC has while the room is still joining. Only the avatar's, known by the participant sid in the
   * stream id (`participantSid|trackSid`) among the participants the join answer listed; anything else waits for
   * `TrackSubscribed` as before.
   */
  private onEarlyTrack(track: MediaStreamTrack, stream: MediaStream | undefined): void {
    const sid = stream?.id.split('|')[0];
    const from = sid && [...(this.room.remoteParticipants?.values() ?? [])].find((p) => p.sid === sid);
    const kind = track.kind as 'audio' | 'video';
    if (from && !this.joined && !this.current[kind]) this.show(kind, track, from); // left: no longer listening
  }

  /**
   * Shows `track` when it is the avatar's (the room may also hold the agent it speaks for and other users with
   * microphones) and not shown already (a track taken while joining comes again as `TrackSubscribed`).
   */
  private show(kind: 'audio' | 'video', track: MediaStreamTrack, from: Who): void {
    if (this.current[kind] === track || !this.hooks.isAvatar(from?.identity, from?.attributes)) return;
    this.current[kind] = track;
    this.hooks.track(kind, track, from?.identity);
  }

  // After livekit-client heals a connection the old track's unsubscribe can arrive after the new track's subscribe:
  // only the current track of a kind may clear it, else the video would go blank on a working connection.
  private onTrack(track: RemoteTrack, present: boolean, from: Who): void {
    const kind = track.kind;
    if (kind !== 'audio' && kind !== 'video') return;
    if (present) {
      this.show(kind, track.mediaStreamTrack, from);
      this.markReachable(from?.identity);
    } else if (this.current[kind] === track.mediaStreamTrack) {
      delete this.current[kind];
      this.hooks.track(kind, null, from?.identity);
    }
  }
}
