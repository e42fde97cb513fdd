/**
 * LiveKit's avatar data-stream protocol, avatar side: a LiveKit Agents app (its `DataStreamAudioOutput`, used by
 * published avatar plugins) streams its speech to the avatar, and the avatar reports playback back.
 *
 * - audio arrives as byte streams on the topic `lk.audio_stream`, PCM16 little-endian interleaved, with the
 *   attributes `sample_rate` (Hz) and `num_channels`; one stream is one segment (one agent turn);
 * - the avatar registers the RPC `lk.clear_buffer`: the agent calls it on an interruption and the audio stops;
 * - the avatar calls `lk.playback_started` on the agent when a segment starts playing, and `lk.playback_finished`
 *   with `{"playback_position": seconds, "interrupted": bool}` when it has played out or was cut off;
 * - audio and `lk.clear_buffer` are taken only from the agent the avatar's token names (`lk.publish_on_behalf`);
 *   from anyone else (a viewer), and from everyone when the token names no agent, they are ignored.
 */
import { AudioFrame, AudioResampler, type ByteStreamReader, type Room } from '@livekit/rtc-node';
import { AUDIO_SAMPLE_RATE } from './face';
import type { PcmSource } from './speech';

export const AUDIO_STREAM_TOPIC = 'lk.audio_stream';
export const RPC_CLEAR_BUFFER = 'lk.clear_buffer';
export const RPC_PLAYBACK_STARTED = 'lk.playback_started';
export const RPC_PLAYBACK_FINISHED = 'lk.playback_finished';
export const ATTRIBUTE_PUBLISH_ON_BEHALF = 'lk.publish_on_behalf';

/** What the protocol needs from the avatar's audio path. */
export interface AgentAudioSink {
  /** Queues 48 kHz mono PCM; `onDone` runs once it has been heard (or was cut off). */
  enqueue(src: PcmSource, onDone?: () => void): void;
  /** Cuts off everything queued and the audio buffered in the track, at once. */
  cut(): void;
  /** Called when the agent's audio arrives (an interaction: restarts the idle clock). */
  onActivity?(): void;
  /** Called when a protocol step fails (logged by the caller; the room stays up). */
  onError?(what: string, e: unknown): void;
}

/** Supported input rates, Hz. */
const RATES = new Set([8000, 16000, 22050, 24000, 32000, 44100, 48000]);

/** One byte stream: one segment of agent speech. */
class Segment {
  played = 0;
  started = false;
  finished = false;
  cut = false;
  private odd: Uint8Array = new Uint8Array(0);
  private readonly resampler: AudioResampler | null;

  constructor(
    readonly agent: string,
    readonly rate: number,
    readonly channels: number,
  ) {
    this.resampler = rate === AUDIO_SAMPLE_RATE ? null : new AudioResampler(rate, AUDIO_SAMPLE_RATE, 1);
  }

  /** Bytes as they arrive (a chunk may end inside a sample) → 48 kHz mono samples. */
  convert(bytes: Uint8Array): Int16Array[] {
    const frameBytes = 2 * this.channels;
    const all = new Uint8Array(this.odd.length + bytes.length);
    all.set(this.odd);
    all.set(bytes, this.odd.length);
    const whole = all.length - (all.length % frameBytes);
    this.odd = all.slice(whole);
    const view = new DataView(all.buffer, all.byteOffset, whole);
    const n = whole / frameBytes;
    const mono = new Int16Array(n);
    for (let i = 0; i < n; i++) {
      let sum = 0;
      for (let c = 0; c < this.channels; c++) sum += view.getInt16((i * this.channels + c) * 2, true);
      mono[i] = Math.round(sum / this.channels);
    }
    if (!this.resampler) return n > 0 ? [mono] : [];
    if (n === 0) return [];
    return this.resampler.push(new AudioFrame(mono, this.rate, 1, n)).map((f) => f.data);
  }

  flush(): Int16Array[] {
    const out = this.resampler?.flush().map((f) => f.data) ?? [];
    this.close();
    return out;
  }

  close(): void {
    try {
      this.resampler?.close();
    } catch {
      /* already closed */
    }
  }
}

/** A chunk of a segment; counts what was played and reports the segment's first sample. */
class SegmentChunk implements PcmSource {
  private at = 0;
  constructor(
    private readonly seg: Segment,
    private readonly samples: Int16Array,
    private readonly onFirst: (seg: Segment) => void,
  ) {}
  read(dst: Int16Array, offset: number, n: number): number {
    if (this.seg.cut) return 0;
    const take = Math.min(n, this.samples.length - this.at);
    if (take > 0 && !this.seg.started) this.onFirst(this.seg);
    dst.set(this.samples.subarray(this.at, this.at + take), offset);
    this.at += take;
    this.seg.played += take;
    return take;
  }
}

const EMPTY: PcmSource = { read: () => 0 };

/**
 * Serves the protocol in `room` for the avatar whose audio path is `sink`. Call again for a new Room (after a
 * rejoin). Returns a function that stops it (unregisters the handlers; a segment still playing is reported
 * interrupted).
 */
export function serveAgentAudio(room: Room, sink: AgentAudioSink): () => void {
  /** Segments received and not yet reported finished, oldest first (a turn may queue behind the previous one). */
  const active = new Set<Segment>();
  const rpc = (seg: Segment, method: string, payload: string) => {
    const lp = room.localParticipant;
    if (!lp) return;
    lp.performRpc({ destinationIdentity: seg.agent, method, payload, responseTimeout: 5000 }).catch((e: unknown) =>
      sink.onError?.(method, e),
    );
  };
  const started = (seg: Segment) => {
    seg.started = true;
    rpc(seg, RPC_PLAYBACK_STARTED, '');
  };
  const finish = (seg: Segment, interrupted: boolean) => {
    if (seg.finished) return;
    seg.finished = true;
    active.delete(seg);
    seg.close();
    const payload = { playback_position: seg.played / AUDIO_SAMPLE_RATE, interrupted, synchronized_transcript: null };
    rpc(seg, RPC_PLAYBACK_FINISHED, JSON.stringify(payload));
  };
  const push = (seg: Segment, chunks: Int16Array[]) => {
    for (const c of chunks) if (c.length > 0) sink.enqueue(new SegmentChunk(seg, c, started));
  };

  /** The agent this avatar publishes for (its token's `lk.publish_on_behalf`): only its audio is played. */
  const owner = () => room.localParticipant?.attributes?.[ATTRIBUTE_PUBLISH_ON_BEHALF];
  const onStream = (reader: ByteStreamReader, from: { identity: string }) => {
    const attrs = reader.info.attributes ?? {};
    const agent = owner();
    if (!agent || from.identity !== agent) {
      const why = agent ? `this avatar speaks for ${agent}` : 'this avatar speaks for no agent (no lk.publish_on_behalf)';
      sink.onError?.(AUDIO_STREAM_TOPIC, new Error(`ignored audio from ${from.identity}: ${why}`));
      void reader.close();
      return;
    }
    const rate = Number(attrs.sample_rate);
    const channels = Number(attrs.num_channels ?? '1');
    if (!RATES.has(rate) || !Number.isInteger(channels) || channels < 1 || channels > 8) {
      sink.onError?.(
        AUDIO_STREAM_TOPIC,
        new Error(`unsupported audio: sample_rate ${attrs.sample_rate}, num_channels ${attrs.num_channels}`),
      );
      void reader.close();
      return;
    }
    const seg = new Segment(from.identity, rate, channels);
    active.add(seg);
    void (async () => {
      try {
        for await (const bytes of reader) {
          if (seg.cut) continue; // cleared: drain what is still in flight, play none of it
          sink.onActivity?.();
          push(seg, seg.convert(bytes));
        }
      } catch (e) {
        sink.onError?.(AUDIO_STREAM_TOPIC, e);
      }
      if (seg.cut || seg.finished) return;
      push(seg, seg.flush());
      // An empty marker after the last chunk: its onDone runs once everything before it has been heard.
      sink.enqueue(EMPTY, () => finish(seg, seg.cut));
    })();
  };

  room.registerByteStreamHandler(AUDIO_STREAM_TOPIC, onStream);
  room.localParticipant?.registerRpcMethod(RPC_CLEAR_BUFFER, async (data) => {
    const agent = owner();
    if (!agent || data.callerIdentity !== agent) return 'reject';
    const cut = [...active];
    for (const seg of cut) seg.cut = true;
    sink.cut();
    for (const seg of cut) finish(seg, true);
    return 'ok';
  });
  return () => {
    try {
      room.unregisterByteStreamHandler(AUDIO_STREAM_TOPIC);
      room.localParticipant?.unregisterRpcMethod(RPC_CLEAR_BUFFER);
    } catch {
      /* the room is gone */
    }
    for (const seg of active) seg.cut = true;
  };
}
