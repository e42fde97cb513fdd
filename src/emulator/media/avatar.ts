import { AudioFrame, AudioSource, type Room, VideoBufferType, VideoFrame, VideoSource } from '@livekit/rtc-node';
import { LiveAiError } from '../../core/index';
import { AudioPlayer } from './audio-player';
import { serveAgentAudio } from './datastream';
import { AUDIO_FRAME_SAMPLES, AUDIO_SAMPLE_RATE, DEFAULT_FPS, FRAME_HEIGHT, FRAME_WIDTH } from './face';
import { FramePacer, RateMeter } from './pacer';
import { decodePortrait, type Portrait } from './portrait';
import { AvatarRenderer } from './renderer';
import { ArrayPcmSource, Upsampler3x } from './resample';
import { type AvatarEvent, RoomLink } from './room-link';
import { errorText, safely } from './safely';
import { SpeechStream } from './speech';
import type { AvatarMedia, AvatarMediaOptions, Demeanour } from './types';

export { AVATAR_IDENTITY_PREFIX } from './room-link';
export { errorText } from './safely';

/** Audio buffered inside the native source, ms: bounds the lip-sync latency the mouth compensates for. */
const AUDIO_QUEUE_MS = 100;
/** Most PCM (`playPcm`) waiting to be played, in 48 kHz samples (60 s); chunks beyond it are dropped. */
const MAX_PCM_BACKLOG = 60 * AUDIO_SAMPLE_RATE;
/**
 * Audio goes to the source in 40 ms frames: each frame is one synchronous FFI call plus one FFI event that rtc-node
 * hands to every room in the process, so 4× fewer than with 10 ms frames. The mouth still follows 10 ms steps.
 */
const AUDIO_CAPTURE_SAMPLES = 4 * AUDIO_FRAME_SAMPLES;

/**
 * The published avatar of one session: renders the face, plays speech, agent audio and PCM lip-synced. Its place
 * in the room (tracks, events, rejoining) is the RoomLink. Created by `joinAvatar` once the room is connected.
 */
export class LiveKitAvatar implements AvatarMedia {
  readonly identity: string;
  private readonly renderer: AvatarRenderer;
  private readonly videoFrame: VideoFrame;
  private readonly player: AudioPlayer;
  private readonly pacer: FramePacer;
  private readonly link: RoomLink;
  private readonly meter = new RateMeter(2000);
  private readonly upsampler = new Upsampler3x();
  private closing: Promise<void> | null = null;
  private pcmBacklog = 0;
  private stopAgentAudio: (() => void) | null = null;

  private constructor(
    room: Room,
    private readonly video: VideoSource,
    private readonly audio: AudioSource,
    portrait: Portrait,
    private readonly opts: AvatarMediaOptions & { fps: number },
  ) {
    this.identity = room.localParticipant?.identity ?? '';
    this.renderer = new AvatarRenderer(portrait, hashSeed(this.identity));
    this.videoFrame = new VideoFrame(this.renderer.frame.data, FRAME_WIDTH, FRAME_HEIGHT, VideoBufferType.I420);
    this.player = new AudioPlayer(
      {
        capture: (data) => audio.captureFrame(new AudioFrame(data, AUDIO_SAMPLE_RATE, 1, data.length)),
        queuedMs: () => audio.queuedDuration,
      },
      () => performance.now(),
      AUDIO_CAPTURE_SAMPLES,
    );
    this.pacer = new FramePacer(opts.fps, this.onFrame);
    this.link = new RoomLink(room, { video, audio, fps: opts.fps }, opts, {
      onRoom: (r) => this.serveAgentAudio(r),
      onRejoined: () => this.player.start(), // restarts the audio loop if the source failed while the room was gone
      onLost: () => void this.stopLoops(),
    });
  }

  /** Creates the sources, publishes camera + microphone tracks, wires room events and starts both loops. */
  static async start(room: Room, portrait: Portrait, opts: AvatarMediaOptions): Promise<LiveKitAvatar> {
    const lp = room.localParticipant;
    if (!lp) throw new LiveAiError('transport_failed', 'the avatar is not connected to the room');
    const fps = opts.fps ?? DEFAULT_FPS;
    const video = new VideoSource(FRAME_WIDTH, FRAME_HEIGHT);
    const audio = new AudioSource(AUDIO_SAMPLE_RATE, 1, AUDIO_QUEUE_MS);
    const avatar = new LiveKitAvatar(room, video, audio, portrait, { ...opts, fps });
    avatar.link.wire();
    avatar.pacer.start();
    avatar.player.start();
    try {
      await avatar.link.publishTracks();
    } catch (e) {
      await avatar.close();
      throw e;
    }
    return avatar;
  }

  /** With `agentAudio`: serves LiveKit's avatar data-stream protocol in `room` (replacing the previous room's). */
  private serveAgentAudio(room: Room): void {
    const { opts } = this;
    if (!opts.agentAudio) return;
    this.stopAgentAudio?.();
    this.stopAgentAudio = serveAgentAudio(room, {
      enqueue: (src, onDone) => this.active && this.player.enqueue(src, onDone),
      cut: () => {
        this.player.clear();
        this.audio.clearQueue(); // what the track has buffered too: silent within one 10 ms frame
      },
      onActivity: () => safely(() => opts.onAgentAudio?.()),
      onError: (what, e) => safely(() => opts.onWarning?.(`${what}: ${errorText(e)}`)),
    });
  }

  private readonly onFrame = (nowMs: number): void => {
    this.renderer.render(nowMs, this.player.levelAt(nowMs));
    try {
      this.video.captureFrame(this.videoFrame);
    } catch {
      return; // source closed while shutting down
    }
    this.meter.mark(nowMs);
  };

  private get active(): boolean {
    return this.link.active;
  }

  /** While rejoining, events are held (at most 200, oldest dropped) and published in order once back. */
  publishEvent(event: AvatarEvent, to?: string[]): Promise<void> {
    return this.link.publishEvent(event, to);
  }

  speak(text: string): Promise<void> {
    if (!this.active || !text.trim()) return Promise.resolve();
    return new Promise((resolve) => this.player.enqueue(new SpeechStream(text), resolve));
  }

  /** Resamples 16 kHz → 48 kHz and queues; a backlog over 60 s (a sender faster than real time) drops chunks. */
  playPcm(samples: Int16Array): void {
    if (!this.active || !(samples instanceof Int16Array) || samples.length === 0) return;
    if (this.pcmBacklog + samples.length * 3 > MAX_PCM_BACKLOG) return;
    if (!this.player.busy) this.upsampler.reset();
    const up = this.upsampler.push(samples);
    this.pcmBacklog += up.length;
    this.player.enqueue(new ArrayPcmSource(up), () => (this.pcmBacklog -= up.length));
  }

  /** Decodes first (rejecting with `invalid_request` on bad bytes), then swaps the image and cuts off playing audio. */
  async setImage(image: Uint8Array): Promise<void> {
    const portrait = await decodePortrait(image, this.opts.faceLayout);
    if (!this.active) return;
    this.renderer.setPortrait(portrait);
    this.player.clear();
  }

  setDemeanour(demeanour: Demeanour): void {
    this.renderer.setDemeanour(demeanour ?? {});
  }

  playAction(name: string): void {
    this.renderer.playAction(String(name ?? ''), performance.now());
  }

  stats(): { framesSent: number; fps: number } {
    return { framesSent: this.meter.total, fps: this.meter.rate(performance.now()) };
  }

  outageMs(): number {
    return this.link.outageMs();
  }

  rejoin(): Promise<void> {
    return this.link.rejoinNow();
  }

  close(): Promise<void> {
    return (this.closing ??= this.shutdown());
  }

  private stopLoops(): Promise<void> {
    this.stopAgentAudio?.();
    this.pacer.stop();
    return this.player.stop();
  }

  private async shutdown(): Promise<void> {
    this.link.stop();
    await this.stopLoops();
    await this.link.leave();
    await this.video.close().catch(() => {});
    await this.audio.close().catch(() => {});
  }
}

function hashSeed(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}
