import { deviceError, isDefaultDevice } from '../../session/devices';
import { LiveAiError } from '../../errors';
import type { EventBus } from '../../events/bus';
import { readAvatarEventMessage } from '../../events/read';
import type { AppMessage } from '../../schemas';
import { backoffDelay, retryUntil, type Backoff } from '../../../shared/backoff';
import { isRecoverable, reasonName } from '../../../shared/livekit-reasons';
import { OutageClock } from '../../../shared/outage';
import type { ReconnectPolicy } from './policy';
import type { AvatarIdentity } from '../avatar-identity';
import { RoomSession, type JitterBufferTargetOption, type RoomHooks, type RoomLike, type TextStreamHandler } from './room';
import type { TransportEventMap } from '../types';

/** What one `connect()` is given. Never changed afterwards. */
export interface LinkSetup {
  readonly url: string;
  readonly token: string;
  readonly topic: string;
  readonly policy: Readonly<ReconnectPolicy>;
  readonly newRoom: () => RoomLike;
  readonly bus: EventBus<TransportEventMap>;
  /** Text stream handlers registered on every Room of this link, by topic. */
  readonly textStreams?: Record<string, TextStreamHandler>;
  /** Who the avatar is; kept across rejoins. */
  readonly avatar: AvatarIdentity;
  /** The session option `jitterBufferTargetMs`, for every Room of this link. */
  readonly jitterBufferTargetMs?: JitterBufferTargetOption;
  /** Switch the microphone on during the first join, with livekit-client's pre-connect buffer (`preConnectAudio`). */
  readonly preConnectMic?: boolean;
}

type LinkState = 'joining' | 'connected' | 'reconnecting' | 'closed';

/**
 * How long livekit-client may heal a drop by itself (`Reconnecting` until `Reconnected` or `Disconnected`), ms. Past
 * it the Room is left and a fresh one joins, as after a `Disconnected`: a resume that can no longer succeed must not
 * use up the whole reconnect deadline. It happens: after a LiveKit server crash the restarted server answers the
 * resume with a leave and closes the socket at once; Firefox then fires `close` without `open`, and livekit-client
 * 2.x waits for that `open` forever, holding its connect lock, so it neither reconnects nor gives up.
 */
export const SDK_HEAL_MS = 20_000;

/**
 * How long the avatar may be out of the room (it left, or it is not back after our own reconnect) while the room is
 * connected before the adapter reports `avatarLeft`, ms. Long enough for an avatar that rejoins (after a LiveKit
 * restart it joins the restarted server as we do).
 */
export const AVATAR_GONE_MS = 20_000;

/**
 * Routes one LiveKit data message: only messages on `eventTopic` are service events; others are ignored
 * (returns null). Events and invalid messages go to `emit`; `onEvent` runs before each event is emitted and drops it by returning
 * false (a sender that turned out not to be the avatar). Returns what was emitted.
 */
export function handleDataMessage(
  payload: Uint8Array,
  topic: string | undefined,
  eventTopic: string,
  emit: <K extends 'event' | 'invalidMessage'>(name: K, value: TransportEventMap[K]) => void,
  onEvent?: () => boolean | void,
): 'event' | 'invalidMessage' | null {
  if (topic !== eventTopic) return null;
  return readAvatarEventMessage(payload, (parsed) => {
    if (!parsed.ok) return emit('invalidMessage', { error: parsed.error, raw: payload });
    if (onEvent?.() !== false) emit('event', parsed.event);
  });
}

/**
 * One connection of the LiveKit adapter, from `connect()` until the room is left for good: the current Room (a
 * fresh one per rejoin), the outage clock, the queued app messages, the wanted microphone and devices. Its
 * commands are reached only through the transport, which refuses them once the link is closed.
 */
export class LiveKitLink {
  state: LinkState = 'joining';
  room: RoomSession | null = null;
  private ending = false;
  private micOn = false;
  private readonly devices = new Map<MediaDeviceKind, string>();
  private readonly outage: OutageClock;
  private readonly outbox: Outbox;
  private lastReason: number | undefined;
  private rejoining: AbortController | null = null;
  /** Who was last heard speaking (the avatar, the user), to report only changes. */
  private readonly heard = { avatar: false, user: false };
  private healTimer: ReturnType<typeof setTimeout> | undefined;
  /** The avatar has been in the room during this connection (so its absence now means it left). */
  private avatarWasHere = false;
  private goneTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly s: LinkSetup) {
    this.outage = new OutageClock(s.policy.deadlineMs, () => this.giveUp(this.lastReason));
    this.outbox = createOutbox({
      publish: async (message) => {
        const room = this.room;
        if (!room || this.state !== 'connected') throw new LiveAiError('transport_failed', 'not connected to the room');
        await room.publish(message, s.topic);
      },
      linkUp: () => this.state === 'connected',
      agentReady: () => this.room !== null && this.s.avatar.reachableIn(this.room.reachable),
      agentWaitMs: s.policy.agentWaitMs,
    });
  }

  /** The first join; rejects with livekit-client's error. */
  async open(): Promise<void> {
    this.s.bus.emit('connection', 'connecting');
    await this.join(this.s.preConnectMic);
    if (this.state === 'closed') throw new LiveAiError('aborted', 'join was cancelled');
    this.connected();
  }

  /** Queued while joining or reconnecting too; rejected once the room is left. */
  async send(message: AppMessage): Promise<void> {
    if (message.event === 'force-end') this.ending = true;
    await this.outbox.push(message);
  }

  /** During a rejoin the wish is kept and applied to the next Room. */
  async setMic(enabled: boolean): Promise<void> {
    if (this.room && !this.rejoining) {
      try {
        await this.room.room.localParticipant.setMicrophoneEnabled(enabled, enabled ? this.micCapture() : undefined);
      } catch (cause) {
        throw new LiveAiError('transport_failed', `could not switch the microphone: ${String((cause as Error)?.message ?? cause)}`, {
          cause,
        });
      }
    }
    this.micOn = enabled;
    this.s.bus.emit('mic', { enabled });
  }

  /** Remembers a device for the next time the microphone (or camera) starts, without switching now. */
  chooseDevice(kind: MediaDeviceKind, deviceId: string): void {
    if (isDefaultDevice(deviceId)) this.devices.delete(kind);
    else this.devices.set(kind, deviceId);
  }

  /** livekit-client's capture options for the chosen microphone, if one was chosen. */
  private micCapture(): { deviceId: string } | undefined {
    const deviceId = this.devices.get('audioinput');
    return deviceId ? { deviceId } : undefined;
  }

  /**
   * `''` / `'default'`: the system default, asked of livekit-client as a preference (`exact: false`), never as the exact
   * id `''` (an `OverconstrainedError`, also on every later microphone start). Failures are `device_failed`.
   */
  async setDevice(kind: MediaDeviceKind, deviceId: string): Promise<void> {
    const fallback = isDefaultDevice(deviceId);
    if (fallback) this.devices.delete(kind);
    else this.devices.set(kind, deviceId);
    if (!this.room || this.rejoining) return;
    try {
      const done = fallback
        ? await this.room.room.switchActiveDevice(kind, kind === 'audiooutput' ? '' : 'default', false)
        : await this.room.room.switchActiveDevice(kind, deviceId);
      if (done === false) throw new Error('the browser did not switch to it');
    } catch (cause) {
      throw deviceError(kind, deviceId, cause);
    }
  }

  /** Leaves for good: queued messages are rejected with `error`; emits nothing. */
  async close(error: LiveAiError): Promise<void> {
    this.stop(error);
    const room = this.room;
    this.room = null;
    await room?.leave();
  }

  private stop(error: LiveAiError): void {
    this.ending = true;
    this.state = 'closed';
    clearTimeout(this.healTimer);
    clearTimeout(this.goneTimer);
    this.outage.end();
    this.rejoining?.abort();
    this.outbox.failAll(error);
  }

  /** Joins a fresh Room; it becomes the current one at once, so its events (tracks, data) are handled. */
  private async join(preConnectMic = false): Promise<RoomSession> {
    const room: RoomSession = new RoomSession(
      this.s.newRoom(),
      this.s.avatar,
      this.hooks(() => room),
      this.s.textStreams,
      this.s.jitterBufferTargetMs,
    );
    this.room = room;
    try {
      const mic = preConnectMic
        ? { capture: this.micCapture(), micFailed: () => this.s.bus.emit('mic', { enabled: (this.micOn = false) }) }
        : undefined;
      if (mic) this.micOn = true;
      await room.join(this.s.url, this.s.token, mic);
      return room;
    } catch (e) {
      if (this.room === room) this.room = null;
      await room.leave();
      throw e;
    }
  }

  private hooks(self: () => RoomSession): RoomHooks {
    const bus = this.s.bus;
    return {
      // Checked again once parsed: another participant may have been recognised as the avatar meanwhile.
      data: (payload, from, topic) =>
        void handleDataMessage(payload, topic, this.s.topic, bus.emit, () => {
          if (!this.s.avatar.claim(from)) return false;
          self().markReachable(from);
        }),
      track: (kind, track) => bus.emit('track', { kind, track }),
      reachable: () => this.outbox.kick(),
      trouble: () => this.trouble(),
      back: () => this.back(),
      lost: (reason) => this.lost(reason),
      agentState: (state) => bus.emit('agentState', { state }),
      speakers: (ids) => {
        const now = { avatar: ids.has(this.s.avatar.current ?? ''), user: ids.has(self().room.localParticipant.identity ?? '') };
        for (const who of ['avatar', 'user'] as const)
          if (now[who] !== this.heard[who]) bus.emit('speaking', { who, speaking: (this.heard[who] = now[who]) });
      },
      micTrack: (track) => bus.emit('micTrack', { track }),
      present: (identity) => {
        if (identity !== this.s.avatar.current) return;
        this.avatarWasHere = true;
        clearTimeout(this.goneTimer);
      },
      left: (identity) => identity === this.s.avatar.current && this.watchAvatarGone(),
    };
  }

  /**
   * The avatar that was in the room is not (it left, or it is not back after our reconnect): `avatarLeft` once it has
   * been away AVATAR_GONE_MS with the room connected. Our own outage stops the clock; connecting again restarts it.
   */
  private watchAvatarGone(): void {
    clearTimeout(this.goneTimer);
    const who = this.s.avatar.current;
    if (!this.avatarWasHere || !who || this.state !== 'connected') return;
    if (this.room?.room.remoteParticipants?.has(who)) return;
    this.goneTimer = setTimeout(() => {
      if (this.state !== 'connected' || this.s.avatar.current !== who || this.room?.room.remoteParticipants?.has(who)) return;
      this.s.bus.emit('avatarLeft', { identity: who });
    }, AVATAR_GONE_MS);
  }

  /**
   * Enters `reconnecting` once per outage and starts the outage clock. While livekit-client heals the Room itself it
   * gets SDK_HEAL_MS (when that ends before the deadline); then the Room is given up and a fresh one joins.
   */
  private trouble(): void {
    if (this.state === 'closed' || !this.outage.begin()) return;
    this.state = 'reconnecting';
    clearTimeout(this.goneTimer);
    this.s.bus.emit('connection', 'reconnecting');
    clearTimeout(this.healTimer);
    if (!this.rejoining && SDK_HEAL_MS < this.s.policy.deadlineMs) {
      this.healTimer = setTimeout(() => this.state === 'reconnecting' && !this.rejoining && this.lost(undefined), SDK_HEAL_MS);
    }
  }

  /** livekit-client healed the connection. */
  private back(): void {
    if (this.state === 'closed') return;
    this.connected();
  }

  private lost(reason: number | undefined): void {
    if (this.state === 'closed' || this.rejoining) return;
    this.lastReason = reason;
    const room = this.room;
    this.room = null;
    void room?.leave();
    if (!shouldReconnect(reason, { wasConnected: true, ending: this.ending })) return this.giveUp(reason);
    this.trouble();
    clearTimeout(this.healTimer); // the adapter rejoins now: no Room is left healing itself
    void this.rejoin(reason);
  }

  /** Connected (again): the outage, if any, is over and queued messages may go. */
  private connected(): void {
    clearTimeout(this.healTimer);
    this.outage.end();
    this.lastReason = undefined;
    this.state = 'connected';
    this.s.bus.emit('connection', 'connected');
    this.outbox.kick();
    this.watchAvatarGone();
  }

  /** A fresh Room per attempt, backoff + jitter, until success, the outage deadline, or our leave. */
  private async rejoin(reason: number | undefined): Promise<void> {
    const ctl = (this.rejoining = new AbortController());
    const room = await retryUntil(() => this.join(), {
      deadline: this.outage.deadline,
      signal: ctl.signal,
      policy: backoffOf(this.s.policy),
    });
    if (ctl.signal.aborted) return void room?.leave();
    this.rejoining = null;
    if (!room) return this.giveUp(reason);
    this.connected();
    if (this.micOn)
      await room.room.localParticipant
        .setMicrophoneEnabled(true, this.micCapture())
        .catch(() => this.s.bus.emit('mic', { enabled: (this.micOn = false) }));
    for (const [kind, id] of this.devices) await room.room.switchActiveDevice(kind, id).catch(() => false);
  }

  /**
   * The room is gone for good: `transport_failed` (or, after our `force-end`, a plain `disconnected`: the session
   * is ending as asked), queued messages rejected, any attempt in flight stopped.
   */
  private giveUp(reason: number | undefined): void {
    if (this.state === 'closed') return;
    const lost = this.outage.active;
    const detail = lost
      ? `the room connection was lost and could not be re-established within ` +
        `${Math.round(this.s.policy.deadlineMs / 1000)} s (reason ${reasonName(reason)})`
      : `the room connection was lost (reason ${reasonName(reason)})`;
    const error = new LiveAiError('transport_failed', detail);
    const ending = this.ending;
    void this.close(error);
    this.s.bus.emit('connection', 'disconnected');
    this.s.bus.emit('disconnected', ending ? { reason: reasonName(reason) } : { reason: reasonName(reason), error });
  }
}

/**
 * Ordered queue of app messages (`chat-msg`, `force-end`) of the LiveKit adapter. A message goes out only
 * when the link is up (the room is connected and not reconnecting) and, for `chat-msg`, the avatar participant is
 * in the room and reachable, or it has waited `agentWaitMs` for it. This keeps a chat typed during or right after
 * a reconnect from being published into a room the avatar has not rejoined yet (it would be dropped).
 */
export interface Outbox {
  /** Queues `message`; resolves once it was handed to the room, rejects with the error given to `failAll`. */
  push(message: AppMessage): Promise<void>;
  /** Re-checks the gates and sends what may go, in order. Call it on every connection or participant change. */
  kick(): void;
  /** Rejects every queued message with `error` (the room was left or could not be rejoined). */
  failAll(error: LiveAiError): void;
  /** Messages waiting. */
  readonly size: number;
}

interface Item {
  message: AppMessage;
  at: number;
  resolve: () => void;
  reject: (e: unknown) => void;
}

/**
 * @param deps.publish hands one message to the room; a rejection rejects that message only.
 * @param deps.linkUp the room is connected and not reconnecting.
 * @param deps.agentReady the avatar participant is in the room (see `AvatarIdentity`).
 * @param deps.agentWaitMs how long a `chat-msg` waits for the avatar once the link is up, ms.
 */
export function createOutbox(deps: {
  publish: (message: AppMessage) => Promise<void>;
  linkUp: () => boolean;
  agentReady: () => boolean;
  agentWaitMs: number;
  now?: () => number;
}): Outbox {
  const now = deps.now ?? Date.now;
  const queue: Item[] = [];
  let busy = false;
  let timer: ReturnType<typeof setTimeout> | null = null;

  const arm = (ms: number) => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      kick();
    }, ms);
  };
  const blockedFor = (item: Item): number | null => {
    if (!deps.linkUp()) return Infinity;
    if (item.message.event === 'force-end' || deps.agentReady()) return null;
    const left = item.at + deps.agentWaitMs - now();
    return left > 0 ? left : null;
  };
  async function drain() {
    busy = true;
    try {
      while (queue.length > 0) {
        const head = queue[0]!;
        const wait = blockedFor(head);
        if (wait !== null) {
          if (wait !== Infinity) arm(wait);
          return;
        }
        queue.shift();
        await deps.publish(head.message).then(head.resolve, head.reject);
      }
    } finally {
      busy = false;
    }
  }
  function kick() {
    if (!busy) void drain();
  }
  return {
    push(message) {
      return new Promise<void>((resolve, reject) => {
        queue.push({ message, at: now(), resolve, reject });
        kick();
      });
    },
    kick,
    failAll(error) {
      if (timer) clearTimeout(timer);
      timer = null;
      for (const item of queue.splice(0)) item.reject(error);
    },
    get size() {
      return queue.length;
    },
  };
}

// Reconnect decisions of the LiveKit adapter (docs/core.md "Reconnect"), pure. Reasons are LiveKit's
// `DisconnectReason` protocol numbers (livekit/protocol, stable on the wire).

export { LK_REASON, reasonName } from '../../../shared/livekit-reasons';

/**
 * Whether an unexpected room disconnect should be retried.
 * @param reason LiveKit `DisconnectReason` number, or undefined when livekit-client gave none (its own retries ran out).
 * @param ctx.wasConnected the room had been joined before (a first join that fails is never retried here).
 * @param ctx.ending the session is ending (`force-end` sent, or our own `disconnect()`): never retried.
 */
export function shouldReconnect(reason: number | undefined, ctx: { wasConnected: boolean; ending: boolean }): boolean {
  if (!ctx.wasConnected || ctx.ending) return false;
  return isRecoverable(reason);
}

/**
 * Delay before retry number `attempt` (0-based), ms: `min(maxDelayMs, baseDelayMs · 2^attempt)` scaled by a
 * jitter factor in [0.5, 1.5) so many clients dropped together do not retry in lockstep; never past `remainingMs`.
 * @param random a number in [0, 1) (default `Math.random()`).
 */
export function retryDelayMs(
  attempt: number,
  policy: Pick<ReconnectPolicy, 'baseDelayMs' | 'maxDelayMs'>,
  remainingMs: number,
  random = Math.random(),
): number {
  return backoffDelay(attempt, backoffOf(policy), remainingMs, () => random);
}

/** The backoff of a reconnect policy. */
export const backoffOf = (policy: Pick<ReconnectPolicy, 'baseDelayMs' | 'maxDelayMs'>): Backoff => ({
  baseMs: policy.baseDelayMs,
  maxMs: policy.maxDelayMs,
});
