import { RoomEvent, type RemoteTrack } from 'livekit-client';
import type { AppMessage } from '../../schemas';
import { ATTRIBUTE_PUBLISH_ON_BEHALF, type AvatarIdentity } from '../avatar-identity';
import { PreConnectRelay, recordMicrophone, type PreConnectRoom, type StartRecording } from './pre-connect';
import type { TransportEventMap } from '../types';

/** Participant attribute a LiveKit Agents agent publishes its state in (initializing, idle, listening, thinking, speaking). */
export const ATTRIBUTE_AGENT_STATE = 'lk.agent.state';

/** The part of a livekit-client `Room` the adapter uses (so tests can inject a fake). Public livekit-client API only. */
export interface RoomLike {
  on(event: string, listener: (...args: unknown[]) => void): unknown;
  off(event: string, listener: (...args: unknown[]) => void): unknown;
  connect(url: string, token: string): Promise<void>;
  disconnect(): Promise<void>;
  /** `exact` (livekit-client's default true) asks for exactly this device; false makes it a preference. */
  switchActiveDevice(kind: MediaDeviceKind, deviceId: string, exact?: boolean): Promise<boolean>;
  localParticipant: {
    /** Our own identity in the room (livekit-client sets it once connected). */
    identity?: string;
    publishData(data: Uint8Array, options: { reliable: boolean; topic: string }): Promise<void>;
    setMicrophoneEnabled(enabled: boolean, capture?: { deviceId: string }, publish?: { preConnectBuffer?: boolean }): Promise<unknown>;
    /** livekit-client's RPC call to another participant; absent in fakes. */
    performRpc?(params: { destinationIdentity: string; method: string; payload: string; responseTimeout?: number }): Promise<string>;
    /** livekit-client's publication of a source (`microphone`); absent in fakes. */
    getTrackPublication?(source: 'microphone'): LocalPublication | undefined;
  } & PreConnectRoom['localParticipant'];
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
  /** LiveKit's participant kind (4: an agent), as its server-minted token says. */
  kind?: number;
  /** The participant is active (livekit-client: it can receive data). */
  isActive?: boolean;
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
  /** livekit-client lost the signal connection and is resuming it itself. */
  trouble(): void;
  /**
   * livekit-client started a full reconnect (it rejoins as a new participant). It must not be left to finish it:
   * livekit-client 2.x reports `Reconnected` while its engine is still reconnecting when it republished a local
   * track (the microphone), and reliable data published then is kept for a resume replay that a full reconnect
   * never makes, so chat messages typed then, and every later one the avatar receives out of order, are lost.
   */
  restart(): void;
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
  /** A participant is in the room (joined, listed, published, sent a message). */
  present(identity: string): void;
  /** A participant left the room. */
  left(identity: string): void;
}

/** The part of a livekit-client remote track the adapter reads: its receiver's statistics and jitter buffer. */
type StatsSource = { getRTCStatsReport?(): Promise<RTCStatsReport | undefined>; receiver?: RTCRtpReceiver };
/** The part of a livekit-client local track publication the adapter reads. */
type LocalPublication = { source?: string; track?: { mediaStreamTrack?: MediaStreamTrack } };

type Who = { identity?: string; attributes?: Record<string, string>; kind?: number } | undefined;

/** The session option `jitterBufferTargetMs`: a jitter buffer target in ms, or `'auto'` (the default). */
export type JitterBufferTargetOption = number | 'auto';

/** The target `'auto'` gives the avatar's receivers while the received video loses packets, ms. */
const AUTO_JITTER_BUFFER_TARGET_MS = 200;
/** `'auto'`: how often the received video's statistics are read, ms. */
const AUTO_SAMPLE_MS = 2000;
/** `'auto'`: samples the loss is summed over (10 s), the share of packets lost that raises the target, and the
 * fewest packets that window must hold to count. */
const AUTO_WINDOW = 5;
const AUTO_RAISE_LOSS = 0.01;
const AUTO_MIN_PACKETS = 100;
/** `'auto'`: consecutive clean samples (30 s) before the target goes back to the browser's own. */
const AUTO_CLEAN_SAMPLES = 15;

/** The option as the room uses it: `'auto'` (undefined, `'auto'`, under 0 or not a number), else ms up to 4000. */
function jitterBufferTarget(option: JitterBufferTargetOption | undefined): JitterBufferTargetOption {
  return typeof option === 'number' && option >= 0 ? Math.min(option, 4000) : 'auto';
}

/**
 * Sets the standard `RTCRtpReceiver.jitterBufferTarget` of a subscribed track's receiver (livekit-client's public
 * `RemoteTrack.receiver`), where the browser has it: `ms` 0 or null → the browser's own.
 */
function setJitterBufferTarget(track: StatsSource | undefined, ms: number | null): void {
  const receiver = track?.receiver as (RTCRtpReceiver & { jitterBufferTarget?: number | null }) | undefined;
  if (!receiver || !('jitterBufferTarget' in receiver)) return;
  try {
    receiver.jitterBufferTarget = ms || null;
  } catch {
    // a browser that rejects the value keeps its own
  }
}

/** Totals of the received video's inbound RTP stream at one sample. */
type VideoTotals = { lost: number; expected: number; freezes: number };

function videoTotals(report: RTCStatsReport): VideoTotals | undefined {
  let totals: VideoTotals | undefined;
  report.forEach((s: Record<string, unknown>) => {
    if (s.type !== 'inbound-rtp' || s.kind !== 'video') return;
    const n = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? Math.max(0, v) : 0);
    totals = { lost: n(s.packetsLost), expected: n(s.packetsLost) + n(s.packetsReceived), freezes: n(s.freezeCount) };
  });
  return totals;
}

/**
 * `jitterBufferTargetMs: 'auto'`: while the avatar's video is subscribed, reads its receiver's statistics every
 * 2 s, the first time 2 s after the track arrived. When 1 % or more of the video's packets were lost over the last
 * 10 s (of at least 100 packets), or the video froze while packets were being lost, the avatar's receivers get a
 * 200 ms target; after 30 s without either, the browser's own buffer again. (A freeze without loss, e.g. a busy
 * CPU, is not what a larger buffer cures.)
 */
class AdaptiveJitterBuffer {
  /** The target the avatar's receivers have now, ms (null: the browser's own). */
  target: number | null = null;
  private timer: ReturnType<typeof setInterval> | undefined;
  private source: StatsSource | undefined;
  private history: VideoTotals[] = [];
  private clean = 0;
  private reading = false;

  constructor(private readonly apply: (ms: number | null) => void) {}

  /** Watches this video track (replacing the one watched before); `undefined` stops. */
  watch(source: StatsSource | undefined): void {
    if (source === this.source) return;
    clearInterval(this.timer);
    this.timer = undefined;
    this.source = source;
    // A newly subscribed track's counters start at zero, so the first reading, one interval later, already covers
    // the time since: nothing is read while the call is being set up (the page's busiest moment).
    this.history = source ? [{ lost: 0, expected: 0, freezes: 0 }] : [];
    if (!source) return;
    this.timer = setInterval(() => void this.sample(source), AUTO_SAMPLE_MS);
  }

  private async sample(source: StatsSource): Promise<void> {
    if (this.reading) return;
    this.reading = true;
    const report = await source.getRTCStatsReport?.().catch(() => undefined);
    this.reading = false;
    const now = report && videoTotals(report);
    if (source !== this.source || !now) return;
    const last = this.history.at(-1);
    this.history = [...this.history, now].slice(-AUTO_WINDOW - 1);
    const first = this.history[0]!;
    if (!last) return;
    const expected = now.expected - first.expected;
    const lossy = expected >= AUTO_MIN_PACKETS && now.lost - first.lost >= AUTO_RAISE_LOSS * expected;
    const frozeLosing = now.freezes > last.freezes && now.lost > last.lost;
    this.clean = lossy || frozeLosing ? 0 : this.clean + 1;
    const target = this.clean === 0 ? AUTO_JITTER_BUFFER_TARGET_MS : this.clean >= AUTO_CLEAN_SAMPLES ? null : this.target;
    if (target === this.target) return;
    this.target = target;
    this.apply(target);
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
  /** The session option `jitterBufferTargetMs`: a fixed target (ms), or the adaptive one of `'auto'`. */
  private readonly jitterBuffer: number | AdaptiveJitterBuffer;
  private readonly offs: (() => void)[] = [];
  private joined = false;
  private left = false;
  /** The pre-connect audio relay of a join with `preConnectMic`, until the room is left. */
  private relay: PreConnectRelay | null = null;

  constructor(
    readonly room: RoomLike,
    private readonly avatar: AvatarIdentity,
    private readonly hooks: RoomHooks,
    textStreams: Record<string, TextStreamHandler> = {},
    /** The session option `jitterBufferTargetMs` (see `jitterBufferTarget`). */
    jitterBufferTargetMs?: JitterBufferTargetOption,
    /** How the pre-connect audio relay records the microphone (tests inject one). */
    private readonly record: StartRecording = recordMicrophone,
  ) {
    const target = jitterBufferTarget(jitterBufferTargetMs);
    const setShown = (ms: number | null) =>
      [this.shown.video, this.shown.audio].forEach((t) => t && setJitterBufferTarget(this.sources.get(t), ms));
    this.jitterBuffer = target === 'auto' ? new AdaptiveJitterBuffer(setShown) : target;
    // A message can come before its sender's participant is known here (livekit-client then gives none; the avatar's
    // first events often do): its identity, as the server stamped it, is then the sixth argument. livekit-client
    // gives it from 2.23 on, which is why the peer range starts there: older versions leave the sender unknown, and
    // a message from nobody known is dropped (it could be an intruder's).
    this.listen(RoomEvent.DataReceived, (payload: Uint8Array, p: Who, _kind: unknown, topic?: string, _e?: unknown, id?: string) => {
      const from: Who = p ?? (typeof id === 'string' && id ? { identity: id } : undefined);
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
      this.hooks.left(p.identity);
    });
    this.listen(RoomEvent.ActiveSpeakersChanged, (speakers: Who[]) =>
      this.hooks.speakers(new Set(speakers.map((p) => p?.identity ?? '').filter(Boolean))),
    );
    const mic = (on: boolean) => (pub: LocalPublication) =>
      pub?.source === 'microphone' && this.hooks.micTrack((on && pub.track?.mediaStreamTrack) || null);
    this.listen(RoomEvent.LocalTrackPublished, mic(true));
    this.listen(RoomEvent.LocalTrackUnpublished, mic(false));
    // Switching the microphone restarts its track with a new MediaStreamTrack: the session gets the current one.
    this.listen(RoomEvent.ActiveDeviceChanged, (kind: MediaDeviceKind) => {
      const track = kind === 'audioinput' && this.room.localParticipant.getTrackPublication?.('microphone')?.track?.mediaStreamTrack;
      if (track) this.hooks.micTrack(track);
    });
    // A resume (the signal connection broke; the peer connections and the participant are kept): livekit-client
    // heals it itself.
    this.listen(RoomEvent.SignalReconnecting, () => this.joined && this.hooks.trouble());
    // A full reconnect (livekit-client drops every participant and joins again as a new one; also when the
    // browser went offline): the link joins a fresh Room instead, see `RoomHooks.restart`.
    this.listen(RoomEvent.Reconnecting, () => this.joined && this.hooks.restart());
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

  /**
   * Joins; rejects with livekit-client's error (the session then should be left). With `preConnectMic` the
   * microphone is switched on while joining, with livekit-client's pre-connect buffer: what is said before the room's
   * agent listens reaches it afterwards (and reaches the agent, not its avatar: see `PreConnectRelay`). A microphone
   * that fails then does not fail the join (`micFailed`).
   */
  async join(url: string, token: string, preConnectMic?: { capture?: { deviceId: string }; micFailed: () => void }): Promise<void> {
    // The relay opens its own capture first, so livekit-client's (the published one) is the latest of the page.
    const relay = preConnectMic ? (this.relay = this.preConnectRelay()) : null;
    const mic = preConnectMic
      ? relay!
          .start(preConnectMic.capture)
          // livekit-client 2.x reads `preConnectBuffer` from the capture options (merged over its publish defaults),
          // its docs from the publish options: both are given.
          .then(() => {
            const capture = { ...preConnectMic.capture, preConnectBuffer: true } as { deviceId: string };
            return this.room.localParticipant.setMicrophoneEnabled(true, capture, { preConnectBuffer: true });
          })
          .then(
            () => undefined,
            () => preConnectMic.micFailed(),
          )
      : undefined;
    await this.room.connect(url, token);
    await mic;
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
    this.relay?.dispose();
    if (typeof this.jitterBuffer === 'object') this.jitterBuffer.watch(undefined);
    await this.room.disconnect().catch(() => {});
  }

  /** The relay that gets the agent the visitor's pre-connect audio when livekit-client sends it to the avatar. */
  private preConnectRelay(): PreConnectRelay {
    const expected = this.avatar.expected;
    return new PreConnectRelay(this.room, {
      isAvatar: (p) => !!p.attributes?.[ATTRIBUTE_PUBLISH_ON_BEHALF] || (expected !== null && p.identity === expected),
      agentOf: () => this.avatar.agent,
      record: this.record,
      // A recording the agent does not get is no failure of the call: the live microphone goes on.
      log: (message, error) => console.debug(`liveai-kit: ${message}`, error),
    });
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
    if (p?.identity) this.hooks.present(p.identity);
    if (!this.avatar.see(p)) return;
    const mine = this.tracks.get(this.avatar.current ?? '') ?? {};
    for (const kind of ['video', 'audio'] as const) this.show(kind, mine[kind] ?? null);
  }

  private show(kind: Kind, track: MediaStreamTrack | null): void {
    if ((this.shown[kind] ?? null) === track) return;
    if (track) this.shown[kind] = track;
    else delete this.shown[kind];
    // 'auto': the avatar's video is watched while shown; a track shown while the target is raised gets it too.
    const auto = typeof this.jitterBuffer === 'object' ? this.jitterBuffer : undefined;
    if (auto && track && auto.target !== null) setJitterBufferTarget(this.sources.get(track), auto.target);
    if (auto && kind === 'video' && !this.left) auto.watch(track ? this.sources.get(track) : undefined);
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
      if (typeof this.jitterBuffer === 'number') setJitterBufferTarget(track as StatsSource, this.jitterBuffer);
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

/** Text-stream topic of LiveKit Agents transcriptions. */
export const TRANSCRIPTION_TOPIC = 'lk.transcription';
const ATTR_SEGMENT = 'lk.segment_id';

/**
 * A handler for LiveKit Agents' `lk.transcription` text streams. A stream is one segment (`lk.segment_id`): either
 * deltas of one growing text (the agent's speech) or the whole text so far (the user's speech, one stream per
 * update). The segment's text is reported as it grows and once more, `final`, when the stream ends. The speaker is
 * the user when the stream's participant is us (the agent sends the user's transcript on the user's behalf),
 * otherwise the agent. The agent's deltas may come in more than one stream of the same segment (the last part
 * arrives in a stream of its own when the agent flushes after its first stream closed): they continue the
 * segment's text, they do not replace it.
 * Streams from anyone but us and the avatar's side (`fromAvatar`) are ignored.
 * @param localIdentity our identity in the room, when known.
 * @param fromAvatar whether a participant speaks for the avatar (the avatar, or the agent it publishes for).
 */
export function transcriptionHandler(
  localIdentity: () => string | undefined,
  emit: (value: TransportEventMap['transcription']) => void,
  fromAvatar: (identity: string) => boolean = () => true,
): TextStreamHandler {
  /** The agent's segments so far: segment id → text (the last few only). */
  const agentText = new Map<string, string>();
  return (reader, from) => {
    const attrs = reader.info.attributes ?? {};
    const segmentId = attrs[ATTR_SEGMENT] || reader.info.id;
    const role = from.identity && from.identity === localIdentity() ? 'user' : 'agent';
    if (role === 'agent' && !fromAvatar(from.identity)) return;
    void (async () => {
      let text = role === 'agent' ? (agentText.get(segmentId) ?? '') : '';
      const keep = () => {
        if (role !== 'agent') return;
        agentText.delete(segmentId);
        agentText.set(segmentId, text);
        if (agentText.size > 16) agentText.delete(agentText.keys().next().value as string);
      };
      try {
        for await (const chunk of reader) {
          text += chunk;
          keep();
          if (text.trim()) emit({ role, text, segmentId, final: false });
        }
      } catch {
        // the stream broke off (participant left): keep what arrived
      }
      if (text.trim()) emit({ role, text, segmentId, final: true });
    })();
  };
}
