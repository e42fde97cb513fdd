import {
  AudioSource,
  DisconnectReason,
  LocalAudioTrack,
  LocalVideoTrack,
  type RemoteParticipant,
  Room,
  RoomEvent,
  TrackPublishOptions,
  TrackSource,
  VideoSource,
} from '@livekit/rtc-node';
import { LiveAiError } from '../../core/index';
import { retryUntil } from '../../shared/backoff';
import { REJOIN_BACKOFF } from '../../shared/outage';
import { DEFAULT_REJOIN_DEADLINE_MS, OutageClock, shouldRejoin } from './rejoin';
import { errorText, safely } from './safely';
import type { AvatarMediaOptions } from './types';

/** Identities starting with this are avatars (ours or another session's): not reported as joined viewers. */
export const AVATAR_IDENTITY_PREFIX = 'liveai-avatar-';
/** Most events held while the avatar rejoins the room; older ones are dropped first. */
const MAX_HELD_EVENTS = 200;

export type AvatarEvent = { type: string; [k: string]: unknown };
type HeldEvent = { event: AvatarEvent; to?: string[] };

/** The avatar's media sources, published as camera + microphone tracks in every room it joins. */
export interface AvatarSources {
  video: VideoSource;
  audio: AudioSource;
  fps: number;
}

/** What the avatar does when the link changes rooms or loses the room. */
export interface RoomLinkHooks {
  /** Each room the avatar is in (the first and every rejoined one), before the link wires its own handlers. */
  onRoom(room: Room): void;
  /** Back in a fresh room after a rejoin, before the held events go out. */
  onRejoined(): void;
  /** The room is given up for good, just before `onDisconnected`. */
  onLost(): void;
}

const encoder = new TextEncoder();

/**
 * The avatar's place in the LiveKit room: publishes its tracks, delivers its events as data messages (held while
 * an outage lasts), passes app messages and joining viewers on, rejoins after a recoverable disconnect and gives
 * the room up once the outage lasts `rejoinDeadlineMs`.
 */
/** Largest data message taken as an app message, bytes (a 2000-character chat in any script fits). */
export const MAX_APP_MESSAGE_BYTES = 16 * 1024;

export class RoomLink {
  private readonly decoder = new TextDecoder('utf-8', { fatal: true });
  private readonly outage: OutageClock;
  private closed = false;
  private lost = false;
  private trackSids: string[] = [];
  /** Set while rejoining after a recoverable disconnect (docs/emulator.md "LiveKit outages"). */
  private rejoining: AbortController | null = null;
  private lastReason: DisconnectReason = DisconnectReason.UNKNOWN_REASON;
  private held: HeldEvent[] = [];
  private heldFlush: Promise<void> | null = null;

  constructor(
    private room: Room,
    private readonly sources: AvatarSources,
    private readonly opts: AvatarMediaOptions,
    private readonly hooks: RoomLinkHooks,
  ) {
    this.outage = new OutageClock(opts.rejoinDeadlineMs ?? DEFAULT_REJOIN_DEADLINE_MS, () => this.outageTooLong());
  }

  /** Neither closed nor lost. */
  get active(): boolean {
    return !this.closed && !this.lost;
  }

  /** Total time out of the room while rejoining, ms. */
  outageMs(): number {
    return this.outage.ms();
  }

  /** Wires the first room's events. */
  wire(): void {
    this.wireRoom(this.room);
  }

  /** Publishes fresh camera + microphone tracks backed by our sources into `room` (first join and every rejoin). */
  async publishTracks(room: Room = this.room): Promise<void> {
    const lp = room.localParticipant;
    if (!lp) throw new LiveAiError('transport_failed', 'the avatar is not connected to the room');
    const vTrack = LocalVideoTrack.createVideoTrack('avatar-video', this.sources.video);
    const aTrack = LocalAudioTrack.createAudioTrack('avatar-audio', this.sources.audio);
    const vPub = await lp.publishTrack(
      vTrack,
      new TrackPublishOptions({
        source: TrackSource.SOURCE_CAMERA,
        simulcast: false,
        videoEncoding: { maxBitrate: 900_000n, maxFramerate: this.sources.fps },
      }),
    );
    const aPub = await lp.publishTrack(aTrack, new TrackPublishOptions({ source: TrackSource.SOURCE_MICROPHONE }));
    this.trackSids = [vPub.sid, aPub.sid].filter((s): s is string => !!s);
  }

  private wireRoom(room: Room): void {
    const { opts } = this;
    this.hooks.onRoom(room);
    room.on(RoomEvent.DataReceived, (payload: Uint8Array, participant?: RemoteParticipant, _kind?: unknown, topic?: string) => {
      if (room !== this.room || topic !== opts.eventTopic || !opts.onAppMessage || this.closed) return;
      if (payload.byteLength > MAX_APP_MESSAGE_BYTES) return; // no app message is this big: not even decoded
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
    room.on(RoomEvent.Reconnecting, () => room === this.room && this.active && this.beginOutage());
    room.on(RoomEvent.Reconnected, () => room === this.room && this.active && this.back());
    room.on(RoomEvent.Disconnected, (reason: DisconnectReason) => {
      if (room !== this.room || this.closed || this.lost || this.rejoining) return;
      this.lastReason = reason;
      if (shouldRejoin(reason)) void this.rejoin();
      else this.loseRoom(reason);
    });
  }

  /** Back in a room after an outage: stop the clock, publish the held events in order (before any new one). */
  private back(): void {
    this.endOutage();
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

  /** Gives the room up for good: the avatar's loops stop, held events are dropped, `onDisconnected` runs once. */
  private loseRoom(reason: DisconnectReason, suffix = ''): void {
    if (this.closed || this.lost) return;
    this.lost = true;
    this.endOutage();
    this.held = [];
    this.hooks.onLost();
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
    this.beginOutage();
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
    this.wireRoom(room);
    this.hooks.onRejoined();
    this.back();
    for (const p of room.remoteParticipants.values()) {
      if (!p.identity.startsWith(AVATAR_IDENTITY_PREFIX)) safely(() => this.opts.onParticipantJoined?.(p.identity));
    }
  }

  /**
   * Leaves the room and joins it again with fresh tracks, the same way as after a recoverable disconnect (events
   * are held meanwhile). For when LiveKit no longer lists the avatar's tracks although the SDK healed a drop by
   * itself and reported them republished: then no viewer would get the avatar's video. A no-op while rejoining,
   * after the room was lost and after `stop()`.
   */
  async rejoinNow(): Promise<void> {
    if (!this.active || this.rejoining) return;
    const old = this.room;
    const rejoined = this.rejoin(); // marks the link as rejoining at once: the old room's Disconnected is ignored
    await old.disconnect().catch(() => {});
    await rejoined;
  }

  /** While rejoining, events are held (at most 200, oldest dropped) and published in order once back. */
  async publishEvent(event: AvatarEvent, to?: string[]): Promise<void> {
    if (this.outage.active && this.active) {
      if (this.held.length >= MAX_HELD_EVENTS) this.held.shift();
      this.held.push({ event, to });
      return;
    }
    await this.heldFlush;
    return this.send(event, to);
  }

  private async send(event: AvatarEvent, to?: string[]): Promise<void> {
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

  /** Closing: stops rejoining and drops the held events (synchronous; `leave()` then leaves the room). */
  stop(): void {
    this.closed = true;
    this.rejoining?.abort();
    this.endOutage();
    this.held = [];
  }

  private beginOutage(): void {
    if (this.outage.begin()) safely(() => this.opts.onOutage?.(true));
  }

  private endOutage(): void {
    if (!this.outage.active) return;
    this.outage.end();
    safely(() => this.opts.onOutage?.(false));
  }

  /** Unpublishes the tracks (unless the room was lost) and leaves the room. */
  async leave(): Promise<void> {
    const lp = this.room.localParticipant;
    if (!this.lost && lp) {
      for (const sid of this.trackSids) await lp.unpublishTrack(sid).catch(() => {});
    }
    await this.room.disconnect().catch(() => {});
  }
}
