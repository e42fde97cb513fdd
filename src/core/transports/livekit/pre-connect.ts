import { ParticipantEvent, RoomEvent } from 'livekit-client';
import { ATTRIBUTE_PUBLISH_ON_BEHALF, PARTICIPANT_KIND_AGENT } from '../avatar-identity';

/** Byte stream topic of a pre-connect audio buffer (livekit-client's and LiveKit Agents'). */
export const PRE_CONNECT_TOPIC = 'lk.agent.pre-connect-audio-buffer';
/** How long the microphone is recorded at most, from the start of the join, ms (livekit-client's own limit). */
export const PRE_CONNECT_MAX_MS = 10_000;
/** How many bytes of recording are kept at most (10 s of Opus is about 40 KB). */
export const PRE_CONNECT_MAX_BYTES = 512 * 1024;

/** A recording of the microphone, as `startRecording` hands it over. */
export interface MicRecording {
  /** The container and codec of the chunks (`audio/webm;codecs=opus`, or `video/mp4` where that is all there is). */
  readonly mimeType: string;
  /** Stops recording and releases the microphone it opened; the last chunk and then `onEnd` follow. Idempotent. */
  stop(): void;
}

/**
 * Opens the microphone (`capture.deviceId`, else the default) and records it: `onChunk` gets the recording's bytes in
 * order, `onEnd` once it stopped. Resolves with null where the page cannot record (no `MediaRecorder`, the
 * microphone refused). Never rejects.
 */
export type StartRecording = (
  capture: { deviceId?: string } | undefined,
  onChunk: (chunk: Uint8Array) => void,
  onEnd: () => void,
) => Promise<MicRecording | null>;

/** The part of a livekit-client byte stream writer the relay uses. */
export interface ByteWriterLike {
  write(chunk: Uint8Array): Promise<void>;
  close(): Promise<void>;
}

/** What the relay reads of a participant (livekit-client's `RemoteParticipant`). */
interface PeerLike {
  identity?: string;
  kind?: number;
  attributes?: Record<string, string>;
  isActive?: boolean;
}

/** The part of a livekit-client Room the relay uses. Public livekit-client API only. */
export interface PreConnectRoom {
  on(event: string, listener: (...args: unknown[]) => void): unknown;
  off(event: string, listener: (...args: unknown[]) => void): unknown;
  remoteParticipants?: Map<string, PeerLike>;
  localParticipant: {
    /** livekit-client's participant events (`localTrackSubscribed`); absent in fakes. */
    on?(event: string, listener: (...args: unknown[]) => void): unknown;
    off?(event: string, listener: (...args: unknown[]) => void): unknown;
    streamBytes?(options: {
      name?: string;
      topic: string;
      mimeType?: string;
      destinationIdentities: string[];
      attributes: Record<string, string>;
    }): Promise<ByteWriterLike>;
  };
}

/** The microphone's publication, as `LocalTrackPublished` gives it. */
type MicPublication = { source?: string; trackSid?: string; track?: { mediaStreamTrack?: { getSettings?(): MediaTrackSettings } } };

/**
 * The recording livekit-client would otherwise lose. An attached session joins with livekit-client's pre-connect
 * audio buffer: it records the microphone from the join and, once the microphone is published, streams the
 * recording to one participant, the participant of kind `agent` that became active last (the first one to become
 * active, when none had). An avatar worker joins with kind `agent` too, so when the avatar is in the room first
 * the recording can go to the avatar, which ignores it.
 *
 * This relay records the same microphone itself from the start of the join (same container and codec), follows the
 * same public room events to tell whom livekit-client addressed, and:
 * - livekit-client addressed the agent (or any participant that is not an avatar): sends nothing, so the agent gets
 *   exactly one recording;
 * - it addressed an avatar (the session's named `avatar_identity`, or a participant carrying
 *   `lk.publish_on_behalf`): streams its own recording on the same topic with the same attributes (`trackId`, the
 *   microphone publication's sid; `sampleRate`; `channels`) to the agent that avatar speaks for (its
 *   `lk.publish_on_behalf`), else to the only other participant of kind `agent`, once it is in the room.
 *
 * Recording stops when someone subscribes to the microphone (the agent then hears it live), after
 * `PRE_CONNECT_MAX_MS` or `PRE_CONNECT_MAX_BYTES`; a recording nobody takes within `PRE_CONNECT_MAX_MS` of the
 * publication is dropped. It never throws into the call: a failure is reported to `log` and the live microphone
 * goes on.
 */
export class PreConnectRelay {
  private recording: MicRecording | null = null;
  private readonly chunks: Uint8Array[] = [];
  private bytes = 0;
  private ended = false;
  private done = false;
  /** Active agent-kind participants when the join answered, in the order livekit-client took them. */
  private atJoin: string[] | null = null;
  /** Agent-kind participants that became active since (`ParticipantActive`), in order. */
  private readonly activated: string[] = [];
  private mic: { sid: string; settings: MediaTrackSettings } | null = null;
  /** Our tracks someone subscribed to (the microphone's subscription can be reported before its publication). */
  private readonly subscribed = new Set<string>();
  /** Whom livekit-client sends its recording to: undefined while it waits for an agent. */
  private addressed: string | undefined;
  /** Where the relay sends its own recording, once known. */
  private target: string | undefined;
  private writer: ByteWriterLike | null = null;
  private writing: Promise<void> = Promise.resolve();
  private readonly offs: (() => void)[] = [];
  private readonly timers: ReturnType<typeof setTimeout>[] = [];

  /**
   * @param isAvatar whether a participant is an avatar (the session's named avatar, or one with `lk.publish_on_behalf`).
   * @param agentOf the agent a named avatar speaks for, when its attributes do not say it.
   * @param log a failure that did not stop the call (debug level).
   */
  constructor(
    private readonly room: PreConnectRoom,
    private readonly o: {
      isAvatar: (p: PeerLike) => boolean;
      agentOf?: () => string | null;
      record: StartRecording;
      log?: (message: string, error?: unknown) => void;
    },
  ) {}

  /**
   * Starts recording (call it before livekit-client opens the microphone, so this capture is the first) and
   * listening. Resolves once recording runs, or the page cannot record; never rejects.
   */
  async start(capture: { deviceId?: string } | undefined): Promise<void> {
    this.listen(RoomEvent.SignalConnected, () => (this.atJoin ??= this.activeAgents()));
    this.listen(RoomEvent.ParticipantActive, (p: PeerLike) => this.onActive(p));
    // A participant that became active while the room was still connecting has no `ParticipantActive`.
    this.listen(RoomEvent.Connected, () => this.addressed === undefined && this.mic && this.onActive(this.unseenActive()[0]));
    this.listen(RoomEvent.LocalTrackPublished, (pub: MicPublication) => this.onPublished(pub));
    // The participant's event: the room's is not emitted while the room is still connecting.
    const local = this.room.localParticipant;
    const onSubscribed = ((pub: { trackSid?: string }) => this.onSubscribed(pub?.trackSid)) as (...args: unknown[]) => void;
    if (local.on && local.off) {
      local.on(ParticipantEvent.LocalTrackSubscribed, onSubscribed);
      this.offs.push(() => local.off?.(ParticipantEvent.LocalTrackSubscribed, onSubscribed));
    } else this.listen(RoomEvent.LocalTrackSubscribed, onSubscribed);
    this.listen(RoomEvent.ParticipantConnected, () => this.findTarget());
    this.listen(RoomEvent.ParticipantAttributesChanged, () => this.findTarget());
    this.later(PRE_CONNECT_MAX_MS, () => this.recording?.stop());
    let recording: MicRecording | null = null;
    try {
      recording = await this.o.record(
        capture,
        (chunk) => this.onChunk(chunk),
        () => this.onEnd(),
      );
    } catch (e) {
      this.o.log?.('pre-connect audio: could not record the microphone', e);
    }
    if (!recording) return this.finish();
    if (this.done) return recording.stop();
    this.recording = recording;
  }

  /** Stops recording, releases the microphone it opened and stops listening. Idempotent. */
  dispose(): void {
    this.finish();
  }

  private listen(event: string, fn: (...args: never[]) => void): void {
    const listener = fn as (...args: unknown[]) => void;
    this.room.on(event, listener);
    this.offs.push(() => this.room.off(event, listener));
  }

  private later(ms: number, fn: () => void): void {
    this.timers.push(setTimeout(fn, ms));
  }

  private finish(): void {
    if (this.done) return;
    this.done = true;
    this.offs.splice(0).forEach((off) => off());
    this.timers.splice(0).forEach(clearTimeout);
    this.recording?.stop();
    this.chunks.length = 0;
  }

  /** Agent-kind participants in the room that are active, in the room's order. */
  private activeAgents(): string[] {
    return [...(this.room.remoteParticipants?.values() ?? [])]
      .filter((p) => p.kind === PARTICIPANT_KIND_AGENT && p.isActive !== false && p.identity)
      .map((p) => p.identity!);
  }

  /** Active agent-kind participants the relay saw no activation of (active before `Connected`). */
  private unseenActive(): string[] {
    const seen = new Set([...(this.atJoin ?? []), ...this.activated]);
    return this.activeAgents().filter((id) => !seen.has(id));
  }

  /** Someone subscribed to one of our tracks: the microphone's ends the recording (the agent now hears it live). */
  private onSubscribed(sid: string | undefined): void {
    if (!sid) return;
    this.subscribed.add(sid);
    if (this.mic?.sid === sid) this.recording?.stop();
  }

  private onActive(p: PeerLike | string | undefined): void {
    const identity = typeof p === 'string' ? p : p?.kind === PARTICIPANT_KIND_AGENT ? p.identity : undefined;
    if (!identity || this.done) return;
    // Before the microphone is published this is only the order; after it, the first one is whom livekit-client
    // waited for.
    if (!this.mic) return void this.activated.push(identity);
    if (this.addressed === undefined) this.decide(identity);
  }

  private onPublished(pub: MicPublication): void {
    if (pub?.source !== 'microphone' || this.mic || this.done || !pub.trackSid) return;
    this.mic = { sid: pub.trackSid, settings: pub.track?.mediaStreamTrack?.getSettings?.() ?? {} };
    if (this.subscribed.has(pub.trackSid)) this.recording?.stop();
    // livekit-client addresses the last agent that became active: those listed when the join answered (in the
    // room's order), then those that became active while connecting, then those of `ParticipantActive`.
    const order = [...(this.atJoin ?? this.activeAgents()), ...this.unseenActive(), ...this.activated];
    const last = order.at(-1);
    if (last) this.decide(last);
    // else livekit-client waits for the first agent to become active (ParticipantActive or Connected)
    this.later(PRE_CONNECT_MAX_MS, () => {
      if (!this.writer) this.finish();
    });
  }

  private decide(addressed: string): void {
    this.addressed = addressed;
    const p = this.room.remoteParticipants?.get(addressed) ?? { identity: addressed };
    if (!this.o.isAvatar(p)) return this.finish(); // the agent gets livekit-client's recording
    this.findTarget();
  }

  /** The agent the addressed avatar speaks for, once it is in the room; then the recording goes there. */
  private findTarget(): void {
    if (this.done || this.target || this.addressed === undefined) return;
    const peers = this.room.remoteParticipants;
    const avatar = peers?.get(this.addressed);
    const named = avatar?.attributes?.[ATTRIBUTE_PUBLISH_ON_BEHALF] || this.o.agentOf?.() || undefined;
    let target: string | undefined;
    if (named) target = peers?.has(named) ? named : undefined;
    else {
      const agents = [...(peers?.values() ?? [])].filter((p) => p.kind === PARTICIPANT_KIND_AGENT && p.identity && !this.o.isAvatar(p));
      target = agents.length === 1 ? agents[0]!.identity : undefined;
    }
    if (target) void this.send(target);
  }

  private async send(target: string): Promise<void> {
    this.target = target;
    const mic = this.mic!;
    try {
      const local = this.room.localParticipant;
      if (!local.streamBytes) throw new Error('byte streams are not available');
      const writer = await local.streamBytes({
        name: 'preconnect-buffer',
        topic: PRE_CONNECT_TOPIC,
        mimeType: this.recording?.mimeType,
        destinationIdentities: [target],
        attributes: {
          trackId: mic.sid,
          sampleRate: String(mic.settings.sampleRate ?? 48000),
          channels: String(mic.settings.channelCount ?? 1),
        },
      });
      if (this.done) return void writer.close().catch(() => {});
      this.writer = writer;
      for (const chunk of this.chunks.splice(0)) this.write(chunk);
      if (this.ended) this.close();
    } catch (e) {
      this.o.log?.('pre-connect audio: could not send the recording to the agent', e);
      this.finish();
    }
  }

  private write(chunk: Uint8Array): void {
    const writer = this.writer!;
    this.writing = this.writing.then(() => writer.write(chunk));
  }

  private close(): void {
    const writer = this.writer!;
    const sent = this.writing.then(() => writer.close());
    this.finish();
    sent.catch((e: unknown) => this.o.log?.('pre-connect audio: sending the recording to the agent failed', e));
  }

  private onChunk(chunk: Uint8Array): void {
    if (this.done || this.ended || !chunk.byteLength) return;
    if (this.bytes + chunk.byteLength > PRE_CONNECT_MAX_BYTES) return this.recording?.stop();
    this.bytes += chunk.byteLength;
    if (this.writer) this.write(chunk);
    else this.chunks.push(chunk);
  }

  private onEnd(): void {
    this.ended = true;
    if (this.writer) this.close();
    // else: kept until the recipient is known (or dropped after PRE_CONNECT_MAX_MS)
  }
}

/** The capture constraints livekit-client opens the microphone with by default, so both captures sound alike. */
const CAPTURE = { autoGainControl: true, echoCancellation: true, noiseSuppression: true };

/**
 * The browser's `StartRecording`: `getUserMedia` with livekit-client's default processing and `MediaRecorder` in
 * `audio/webm;codecs=opus` (else `video/mp4`), a chunk every 100 ms.
 */
export const recordMicrophone: StartRecording = async (capture, onChunk, onEnd) => {
  const media = typeof navigator === 'undefined' ? undefined : navigator.mediaDevices;
  if (!media?.getUserMedia || typeof MediaRecorder === 'undefined') return null;
  const deviceId = capture?.deviceId;
  let stream: MediaStream;
  try {
    stream = await media.getUserMedia({ audio: { ...CAPTURE, ...(deviceId ? { deviceId: { exact: deviceId } } : {}) } });
  } catch {
    return null;
  }
  const release = () => stream.getTracks().forEach((t) => t.stop());
  let mimeType = 'audio/webm;codecs=opus';
  if (!MediaRecorder.isTypeSupported(mimeType)) mimeType = 'video/mp4';
  let recorder: MediaRecorder;
  try {
    recorder = new MediaRecorder(stream, { mimeType });
    // Chunks are read in order, and `onEnd` follows the last one (the final chunk comes after `stop`).
    let chain = Promise.resolve();
    recorder.ondataavailable = (e) => {
      const data = e.data;
      if (data.size) chain = chain.then(async () => onChunk(new Uint8Array(await data.arrayBuffer()))).catch(() => {});
    };
    // The microphone is released once the recorder has stopped, so it can still encode what it had buffered.
    recorder.onstop = () => {
      release();
      void chain.then(onEnd);
    };
    recorder.onerror = () => {
      release();
      void chain.then(onEnd);
    };
    recorder.start(100);
  } catch {
    release();
    return null;
  }
  let stopped = false;
  return {
    mimeType,
    stop() {
      if (stopped) return;
      stopped = true;
      try {
        if (recorder.state !== 'inactive') return recorder.stop();
      } catch {
        // already stopped
      }
      release();
    },
  };
};
