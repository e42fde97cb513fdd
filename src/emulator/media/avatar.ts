import {
  AudioFrame,
  AudioSource,
  DisconnectReason,
  LocalAudioTrack,
  LocalVideoTrack,
  type RemoteParticipant,
  Room,
  RoomEvent,
  TrackPublishOptions,
  TrackSource,
  VideoBufferType,
  VideoFrame,
  VideoSource,
} from '@livekit/rtc-node';
import { LiveAiError } from '../../core/errors';
import { AudioPlayer } from './audio-player';
import { AUDIO_SAMPLE_RATE, DEFAULT_FPS, FRAME_HEIGHT, FRAME_WIDTH } from './face';
import { FramePacer, RateMeter } from './pacer';
import { decodePortrait, type Portrait } from './portrait';
import { retryUntil } from '../../shared/backoff';
import { REJOIN_BACKOFF } from '../../shared/outage';
import { serveAgentAudio } from './datastream';
import { DEFAULT_REJOIN_DEADLINE_MS, OutageClock, shouldRejoin } from './rejoin';
import { AvatarRenderer } from './renderer';
import { ArrayPcmSource, Upsampler3x } from './resample';
import { SpeechStream } from './speech';
import type { AvatarMedia, AvatarMediaOptions, Demeanour } from './types';

/** Identities starting with this are avatars (ours or another session's): not reported as joined viewers. */
export const AVATAR_IDENTITY_PREFIX = 'liveai-avatar-';
/** Audio buffered inside the native source, ms: bounds the lip-sync latency the mouth compensates for. */
const AUDIO_QUEUE_MS = 100;
/** Most PCM (`playPcm`) waiting to be played, in 48 kHz samples (60 s); chunks beyond it are dropped. */
const MAX_PCM_BACKLOG = 60 * AUDIO_SAMPLE_RATE;
/** Most events held while the avatar rejoins the room; older ones are dropped first. */
const MAX_HELD_EVENTS = 200;

type HeldEvent = { event: { type: string; [k: string]: unknown }; to?: string[] };

const encoder = new TextEncoder();

/** The published avatar of one session. Created by `joinAvatar` (index.ts) once the room is connected. */
export class LiveKitAvatar implements AvatarMedia {
  readonly identity: string;
  private readonly renderer: AvatarRenderer;
  private readonly videoFrame: VideoFrame;
  private readonly player: AudioPlayer;
  private readonly pacer: FramePacer;
  private readonly meter = new RateMeter(2000);
  private readonly upsampler = new Upsampler3x();
  private readonly decoder = new TextDecoder('utf-8', { fatal: true });
  private closing: Promise<void> | null = null;
  private lost = false;
  private trackSids: string[] = [];
  private pcmBacklog = 0;
  /** Set while rejoining after a recoverable disconnect (docs/emulator.md "LiveKit outages"). */
  private rejoining: AbortController | null = null;
  private readonly outage: OutageClock;
  private lastReason: DisconnectReason = DisconnectReason.UNKNOWN_REASON;
  private held: HeldEvent[] = [];
  private heldFlush: Promise<void> | null = null;
  private stopAgentAudio: (() => void) | null = null;

  private constructor(
    private room: Room,
    private readonly video: VideoSource,
    private readonly audio: AudioSource,
    portrait: Portrait,
    private readonly opts: AvatarMediaOptions,
  ) {
    this.identity = room.localParticipant?.identity ?? '';
    this.renderer = new AvatarRenderer(portrait, hashSeed(this.identity));
    this.videoFrame = new VideoFrame(this.renderer.frame, FRAME_WIDTH, FRAME_HEIGHT, VideoBufferType.RGBA);
    this.player = new AudioPlayer(
      {
        capture: (data) => audio.captureFrame(new AudioFrame(data, AUDIO_SAMPLE_RATE, 1, data.length)),
        queuedMs: () => audio.queuedDuration,
      },
      () => performance.now(),
    );
    this.pacer = new FramePacer(opts.fps ?? DEFAULT_FPS, this.onFrame);
    this.outage = new OutageClock(opts.rejoinDeadlineMs ?? DEFAULT_REJOIN_DEADLINE_MS, () => this.outageTooLong());
  }

  /** Creates the sources, publishes camera + microphone tracks, wires room events and starts both loops. */
  static async start(room: Room, portrait: Portrait, opts: AvatarMediaOptions): Promise<LiveKitAvatar> {
    const lp = room.localParticipant;
    if (!lp) throw new LiveAiError('transport_failed', 'the avatar is not connected to the room');
    const fps = opts.fps ?? DEFAULT_FPS;
    const video = new VideoSource(FRAME_WIDTH, FRAME_HEIGHT);
    const audio = new AudioSource(AUDIO_SAMPLE_RATE, 1, AUDIO_QUEUE_MS);
    const avatar = new LiveKitAvatar(room, video, audio, portrait, { ...opts, fps });
    avatar.wire(room);
    avatar.pacer.start();
    avatar.player.start();
    try {
      await avatar.publishTracks(room);
    } catch (e) {
      await avatar.close();
      throw e;
    }
    return avatar;
  }

  /** Publishes fresh camera + microphone tracks backed by our sources into `room` (first join and every rejoin). */
  private async publishTracks(room: Room): Promise<void> {
    const lp = room.localParticipant;
    if (!lp) throw new LiveAiError('transport_failed', 'the avatar is not connected to the room');
    const vTrack = LocalVideoTrack.createVideoTrack('avatar-video', this.video);
    const aTrack = LocalAudioTrack.createAudioTrack('avatar-audio', this.audio);
    const vPub = await lp.publishTrack(
      vTrack,
      new TrackPublishOptions({
        source: TrackSource.SOURCE_CAMERA,
        simulcast: false,
        videoEncoding: { maxBitrate: 900_000n, maxFramerate: this.opts.fps ?? DEFAULT_FPS },
      }),
    );
    const aPub = await lp.publishTrack(aTrack, new TrackPublishOptions({ source: TrackSource.SOURCE_MICROPHONE }));
    this.trackSids = [vPub.sid, aPub.sid].filter((s): s is string => !!s);
  }

  private wire(room: Room): void {
    const { opts } = this;
    if (opts.agentAudio) {
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
    room.on(RoomEvent.DataReceived, (payload: Uint8Array, participant?: RemoteParticipant, _kind?: unknown, topic?: string) => {
      if (room !== this.room || topic !== opts.eventTopic || !opts.onAppMessage || this.closing) return;
      let message: unknown;
      try {
        message = JSON.parse(this.decoder.decode(payload));
      } catch {
        return; // malformed: not JSON or not UTF-8
      }
      safely(() => opts.onAppMessage?.(message, participant?.identity ?? ''));
    });
    room.on(RoomEvent.ParticipantConnected, (p: RemoteParticipant) => {
      if (room === this.room && !p.identity.startsWith(AVATAR_IDENTITY_PREFIX)) safely(() => opts.onParticipantJoined?.(p.identity));
    });
    // rtc-node heals short drops itself (Reconnecting → Reconnected): that counts as an outage too.
    room.on(RoomEvent.Reconnecting, () => room === this.room && this.active && this.outage.begin());
    room.on(RoomEvent.Reconnected, () => room === this.room && this.active && this.back());
    room.on(RoomEvent.Disconnected, (reason: DisconnectReason) => {
      if (room !== this.room || this.closing || this.lost || this.rejoining) return;
      this.lastReason = reason;
      if (shouldRejoin(reason)) void this.rejoin();
      else this.loseRoom(reason);
    });
  }

  /** Back in a room after an outage: stop the clock, publish the held events in order (before any new one). */
  private back(): void {
    this.outage.end();
    const held = this.held.splice(0);
    this.heldFlush = (async () => {
      for (const item of held) await this.send(item.event, item.to).catch(() => {});
    })().finally(() => (this.heldFlush = null));
  }

  /** The outage lasted `rejoinDeadlineMs`: stop rejoining (and any SDK-internal reconnect) and give the room up. */
  private outageTooLong(): void {
    this.rejoining?.abort();
    void this.room.disconnect().catch(() => {});
    const limit = (this.opts.rejoinDeadlineMs ?? DEFAULT_REJOIN_DEADLINE_MS) / 1000;
    this.loseRoom(this.lastReason, `, not back within ${limit} s`);
  }

  /** Gives the room up for good: loops stop, held events are dropped, `onDisconnected` runs once. */
  private loseRoom(reason: DisconnectReason, suffix = ''): void {
    if (this.closing || this.lost) return;
    this.lost = true;
    this.outage.end();
    this.held = [];
    void this.stopLoops();
    safely(() => this.opts.onDisconnected?.(`${DisconnectReason[reason] ?? String(reason)}${suffix}`));
  }

  /**
   * After a recoverable disconnect (e.g. SERVER_SHUTDOWN on a graceful LiveKit restart): joins a fresh Room with
   * the same URL and the latest token, republishes the tracks (the loops keep running meanwhile), publishes the
   * events held during the outage and greets the viewers already there (`onParticipantJoined`). Gives up after
   * `rejoinDeadlineMs` (default 60 s) from the start of the outage → `onDisconnected` (see the OutageClock).
   */
  private async rejoin(): Promise<void> {
    const ctl = (this.rejoining = new AbortController());
    this.outage.begin();
    const token = this.room.token ?? this.opts.token; // the server refreshes tokens while connected
    const deadline = this.outage.deadline;
    const room = await retryUntil(
      async () => {
        const next = new Room();
        try {
          await next.connect(this.opts.livekitUrl, token, { autoSubscribe: false, dynacast: false });
          await this.publishTracks(next);
          return next;
        } catch (e) {
          await next.disconnect().catch(() => {});
          throw e;
        }
      },
      { deadline, signal: ctl.signal, policy: REJOIN_BACKOFF },
    );
    this.rejoining = null;
    if (!room || !this.active) {
      await room?.disconnect().catch(() => {});
      // The retries stop at the outage deadline, which may come a moment before the OutageClock's timer fires:
      // report it the same way either way (a no-op after close() or once reported).
      if (!ctl.signal.aborted) this.outageTooLong();
      return;
    }
    this.room = room;
    this.wire(room);
    this.player.start(); // restarts the audio loop if the source failed while the room was gone
    this.back();
    for (const p of room.remoteParticipants.values()) {
      if (!p.identity.startsWith(AVATAR_IDENTITY_PREFIX)) safely(() => this.opts.onParticipantJoined?.(p.identity));
    }
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
    return !this.closing && !this.lost;
  }

  /** While rejoining, events are held (at most 200, oldest dropped) and published in order once back. */
  async publishEvent(event: { type: string; [k: string]: unknown }, to?: string[]): Promise<void> {
    if (this.outage.active && this.active) {
      if (this.held.length >= MAX_HELD_EVENTS) this.held.shift();
      this.held.push({ event, to });
      return;
    }
    await this.heldFlush;
    return this.send(event, to);
  }

  private async send(event: { type: string; [k: string]: unknown }, to?: string[]): Promise<void> {
    const lp = this.room.localParticipant;
    if (!this.active || !lp) return;
    try {
      await lp.publishData(encoder.encode(JSON.stringify(event)), {
        reliable: true,
        topic: this.opts.eventTopic,
        ...(to && to.length > 0 ? { destination_identities: to } : {}),
      });
    } catch (e) {
      throw new LiveAiError('transport_failed', `could not publish the ${event.type} event: ${errorText(e)}`, { cause: e });
    }
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
    return this.outage.ms();
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
    this.rejoining?.abort();
    this.outage.end();
    this.held = [];
    await this.stopLoops();
    const lp = this.room.localParticipant;
    if (!this.lost && lp) {
      for (const sid of this.trackSids) await lp.unpublishTrack(sid).catch(() => {});
    }
    await this.room.disconnect().catch(() => {});
    await this.video.close().catch(() => {});
    await this.audio.close().catch(() => {});
  }
}

function safely(fn: () => void): void {
  try {
    fn();
  } catch {
    /* a caller's handler must never break the room's event loop */
  }
}

/** First line of an error's message (never includes the token: rtc-node errors do not echo it). */
export function errorText(e: unknown): string {
  return (e instanceof Error ? e.message : String(e)).split('\n')[0] ?? '';
}

function hashSeed(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}
