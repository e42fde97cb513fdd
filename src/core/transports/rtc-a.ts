import { Room, RoomEvent, type RemoteTrack } from 'livekit-client';
import { LiveAiError } from '../errors';
import { createEventBus } from '../events/bus';
import { parseAvatarEventMessage } from '../events/parse';
import type { AppMessage } from '../schemas';
import { createOutbox } from './rtc-a-outbox';
import { backoffOf, DEFAULT_RECONNECT_POLICY, reasonName, shouldReconnect, type ReconnectPolicy } from './rtc-a-reconnect';
import { retryUntil } from '../../shared/backoff';
import type { ConnectOptions, Transport, TransportEventMap } from './types';

export { DEFAULT_RECONNECT_POLICY, LK_REASON, retryDelayMs, shouldReconnect, type ReconnectPolicy } from './rtc-a-reconnect';

/** The part of a livekit-client `Room` the adapter uses (so tests can inject a fake). */
export interface RoomLike {
  on(event: string, listener: (...args: unknown[]) => void): unknown;
  off(event: string, listener: (...args: unknown[]) => void): unknown;
  connect(url: string, token: string): Promise<void>;
  disconnect(): Promise<void>;
  switchActiveDevice(kind: MediaDeviceKind, deviceId: string): Promise<boolean>;
  localParticipant: {
    publishData(data: Uint8Array, options: { reliable: boolean; topic: string }): Promise<void>;
    setMicrophoneEnabled(enabled: boolean): Promise<unknown>;
  };
  /** Participants already in the room when `connect` resolves (livekit-client: identity → participant). */
  remoteParticipants?: Map<string, { identity: string; trackPublications?: Map<string, unknown> }>;
  /** livekit-client's engine (created by `connect`); only its `tokenRefreshed` event is used. */
  engine?: { on(event: 'tokenRefreshed', listener: (token: string) => void): unknown; off(event: 'tokenRefreshed', listener: (token: string) => void): unknown };
}

/**
 * Routes one rtc-a data message (spec §6): only messages on `eventTopic` are service events; others are ignored
 * (returns null). Events and invalid messages go to `emit`. Pure apart from `emit`.
 */
export function handleDataMessage(
  payload: Uint8Array,
  topic: string | undefined,
  eventTopic: string,
  emit: <K extends 'event' | 'invalidMessage'>(name: K, value: TransportEventMap[K]) => void,
): 'event' | 'invalidMessage' | null {
  if (topic !== eventTopic) return null;
  const parsed = parseAvatarEventMessage(payload);
  if (parsed.ok) emit('event', parsed.event);
  else emit('invalidMessage', { error: parsed.error, raw: payload });
  return parsed.ok ? 'event' : 'invalidMessage';
}

type Identity = { identity?: string } | undefined;

/**
 * rtc-a adapter on livekit-client (architecture §1, docs/core.md "Reconnect"). Events arrive as data messages on
 * the event topic; the avatar's tracks as `TrackSubscribed`. Short drops are healed by livekit-client itself
 * (`Reconnecting` → `Reconnected`); a `Disconnected` for a recoverable reason (SERVER_SHUTDOWN, signal/ICE
 * failure, livekit-client giving up, …) is retried here with a fresh Room, the same URL and the latest token,
 * with backoff and jitter, until `reconnect.deadlineMs` from the first drop. Meanwhile `connection` is
 * `reconnecting`; after the deadline the adapter emits `disconnected` with `transport_failed`. Our own
 * `disconnect()` and a sent `force-end` are never retried. App messages are reliable JSON on the event topic,
 * queued in order while reconnecting and until the avatar participant is back (see rtc-a-outbox.ts).
 * @param deps.createRoom inject a Room (tests); default `new Room()`. Called once per join attempt.
 * @param deps.reconnect overrides of `DEFAULT_RECONNECT_POLICY` (ms).
 */
export function createRtcATransport(deps: { createRoom?: () => RoomLike; reconnect?: Partial<ReconnectPolicy> } = {}): Transport {
  const policy: ReconnectPolicy = { ...DEFAULT_RECONNECT_POLICY, ...deps.reconnect };
  const bus = createEventBus<TransportEventMap>();
  const newRoom = () => (deps.createRoom ? deps.createRoom() : (new Room() as unknown as RoomLike));
  let room: RoomLike | null = null;
  let target = { url: '', token: '' };
  let topic = 'liveai';
  let state: 'idle' | 'connected' | 'reconnecting' | 'closed' = 'idle';
  let ending = false;
  let micOn = false;
  const devices = new Map<MediaDeviceKind, string>();
  /** Identity that sent service events (the avatar); participants of the current room that are reachable. */
  let agent: string | null = null;
  const reachable = new Set<string>();
  /** The avatar's current remote track per kind (what the app shows). */
  const current: Partial<Record<'audio' | 'video', MediaStreamTrack>> = {};
  let troubleSince: number | null = null;
  /** Last LiveKit disconnect reason of this outage, for the error detail. */
  let lastReason: number | undefined;
  let deadlineTimer: ReturnType<typeof setTimeout> | null = null;
  let loop: AbortController | null = null;
  const offs: (() => void)[] = [];

  const outbox = createOutbox({
    publish: async (message) => {
      const r = room;
      if (!r || state !== 'connected') throw new LiveAiError('transport_failed', 'not connected to the room');
      await r.localParticipant.publishData(new TextEncoder().encode(JSON.stringify(message)), { reliable: true, topic });
    },
    linkUp: () => state === 'connected',
    agentReady: () => (agent ? reachable.has(agent) : reachable.size > 0),
    agentWaitMs: policy.agentWaitMs,
  });
  const setConnection = (c: TransportEventMap['connection']) => bus.emit('connection', c);
  const unwire = () => offs.splice(0).forEach((off) => off());
  const clearDeadline = () => {
    if (deadlineTimer) clearTimeout(deadlineTimer);
    deadlineTimer = null;
    troubleSince = null;
    lastReason = undefined;
  };

  /** Enters `reconnecting` (once per outage) and arms the overall deadline. */
  const enterTrouble = () => {
    if (troubleSince !== null) return;
    troubleSince = Date.now();
    state = 'reconnecting';
    setConnection('reconnecting');
    deadlineTimer = setTimeout(() => giveUp(lastReason), policy.deadlineMs);
  };

  /**
   * The room is gone for good: `transport_failed` (or, after our `force-end`, a plain `disconnected`: the
   * session is ending as asked), queued messages rejected, any in-flight attempt stopped.
   */
  const giveUp = (reason: number | undefined) => {
    if (state === 'closed') return;
    const lost = troubleSince !== null;
    state = 'closed';
    clearDeadline();
    loop?.abort();
    const r = room;
    room = null;
    unwire();
    void r?.disconnect().catch(() => {});
    const detail = lost
      ? `the room connection was lost and could not be re-established within ${Math.round(policy.deadlineMs / 1000)} s (reason ${reasonName(reason)})`
      : `the room connection was lost (reason ${reasonName(reason)})`;
    const error = new LiveAiError('transport_failed', detail);
    outbox.failAll(error);
    setConnection('disconnected');
    bus.emit('disconnected', ending ? { reason: reasonName(reason) } : { reason: reasonName(reason), error });
  };

  const markReachable = (who: Identity) => {
    if (!who?.identity) return;
    reachable.add(who.identity);
    outbox.kick();
  };

  const wire = (r: RoomLike) => {
    const listen = (event: string, fn: (...args: never[]) => void) => {
      r.on(event, fn as (...args: unknown[]) => void);
      offs.push(() => r.off(event, fn as (...args: unknown[]) => void));
    };
    listen(RoomEvent.DataReceived, (payload: Uint8Array, from: Identity, _kind: unknown, t?: string) => {
      if (handleDataMessage(payload, t, topic, bus.emit) === 'event' && from?.identity) {
        agent ??= from.identity;
        markReachable(from);
      }
    });
    // After a reconnect the old track's unsubscribe can arrive after the new track's subscribe: only the current
    // track of a kind may clear it, else the video would go blank on a working connection.
    const onTrack = (present: boolean) => (track: RemoteTrack, _pub: unknown, from: Identity) => {
      if (track.kind === 'audio' || track.kind === 'video') {
        const kind = track.kind;
        if (present) {
          current[kind] = track.mediaStreamTrack;
          bus.emit('track', { kind, track: track.mediaStreamTrack });
        } else if (current[kind] === track.mediaStreamTrack) {
          delete current[kind];
          bus.emit('track', { kind, track: null });
        }
      }
      if (present) markReachable(from);
    };
    listen(RoomEvent.TrackSubscribed, onTrack(true));
    listen(RoomEvent.TrackUnsubscribed, onTrack(false));
    listen(RoomEvent.ParticipantDisconnected, (p: Identity) => void (p?.identity && reachable.delete(p.identity)));
    listen(RoomEvent.Reconnecting, () => r === room && enterTrouble());
    listen(RoomEvent.SignalReconnecting, () => r === room && enterTrouble());
    listen(RoomEvent.Reconnected, () => {
      if (r !== room || state === 'closed') return;
      // livekit-client still defers reliable sends for a few microtasks after `Reconnected` (and never replays
      // them after a full restart): open the outbox on the next macrotask.
      setTimeout(() => {
        if (r !== room || state === 'closed') return;
        noteParticipants(r);
        connected();
        outbox.kick();
      }, 0);
    });
    listen(RoomEvent.Disconnected, (reason?: number) => {
      if (r !== room || state === 'closed' || state === 'idle' || loop) return; // our loop handles its own attempts
      unwire();
      lastReason = reason;
      if (shouldReconnect(reason, { wasConnected: true, ending })) {
        enterTrouble();
        void rejoin(reason);
      } else giveUp(reason);
    });
  };

  /** Participants already in `r` that publish tracks count as reachable. */
  const noteParticipants = (r: RoomLike) => {
    for (const p of r.remoteParticipants?.values() ?? []) if (p.trackPublications?.size) reachable.add(p.identity);
  };
  /** Joins a fresh Room `r` (it becomes the current room at once, so its events are handled). */
  const join = async (r: RoomLike) => {
    room = r;
    reachable.clear();
    wire(r);
    await r.connect(target.url, target.token);
    noteParticipants(r);
    // The server refreshes short-lived tokens while connected; a later rejoin must use the newest one.
    const engine = r.engine;
    const onToken = (token: unknown) => void (typeof token === 'string' && token && (target = { ...target, token }));
    engine?.on('tokenRefreshed', onToken);
    if (engine) offs.push(() => engine.off('tokenRefreshed', onToken));
  };

  /** Connected (again): the outage, if any, is over and queued messages may go. */
  const connected = () => {
    clearDeadline();
    state = 'connected';
    setConnection('connected');
  };

  /** Our own reconnect loop: a fresh Room per attempt, backoff + jitter, until success, the deadline, or a leave. */
  const rejoin = async (reason: number | undefined) => {
    loop?.abort();
    const ctl = (loop = new AbortController());
    const attempt = async () => {
      const next = newRoom();
      try {
        await join(next);
        return next;
      } catch (e) {
        unwire();
        void next.disconnect().catch(() => {});
        throw e;
      }
    };
    const r = await retryUntil(attempt, { deadline: (troubleSince ?? Date.now()) + policy.deadlineMs, signal: ctl.signal, policy: backoffOf(policy) });
    if (!r) return void (ctl.signal.aborted || giveUp(reason));
    if (ctl.signal.aborted || state === 'closed') return void r.disconnect().catch(() => {});
    loop = null;
    connected();
    if (micOn) await r.localParticipant.setMicrophoneEnabled(true).catch(() => bus.emit('mic', { enabled: (micOn = false) }));
    for (const [kind, id] of devices) await r.switchActiveDevice(kind, id).catch(() => false);
    outbox.kick();
  };

  const transport: Transport = {
    kind: 'rtc-a',
    async connect(o: ConnectOptions) {
      if (o.signal?.aborted) throw new LiveAiError('aborted', 'join was cancelled');
      topic = o.eventTopic;
      if (o.reconnectDeadlineMs !== undefined) policy.deadlineMs = o.reconnectDeadlineMs;
      target = { url: o.url, token: o.token };
      ending = false;
      state = 'idle';
      setConnection('connecting');
      const onAbort = () => void transport.disconnect();
      o.signal?.addEventListener('abort', onAbort, { once: true });
      try {
        await join(newRoom());
      } catch (cause) {
        if (o.signal?.aborted) throw new LiveAiError('aborted', 'join was cancelled', { cause });
        unwire();
        room = null;
        setConnection('disconnected');
        throw new LiveAiError('transport_failed', `could not join the rtc-a room: ${String((cause as Error)?.message ?? cause)}`, { cause });
      } finally {
        o.signal?.removeEventListener('abort', onAbort);
      }
      connected();
      if (o.micEnabled) await transport.setMicEnabled(true);
    },
    async disconnect() {
      if (state === 'closed' && !room) return;
      const r = room;
      const wasLive = state !== 'idle' || r !== null;
      ending = true;
      state = 'closed';
      room = null;
      clearDeadline();
      loop?.abort();
      unwire();
      outbox.failAll(new LiveAiError('transport_failed', 'left the room before the message could be sent'));
      await r?.disconnect().catch(() => {});
      if (!wasLive) return;
      setConnection('disconnected');
      bus.emit('disconnected', { reason: 'client' });
    },
    async sendAppMessage(message: AppMessage) {
      if (state !== 'connected' && state !== 'reconnecting') throw new LiveAiError('transport_failed', 'not connected to the room');
      if (message.event === 'force-end') ending = true;
      await outbox.push(message);
    },
    async setMicEnabled(enabled) {
      if (!room && state !== 'reconnecting') throw new LiveAiError('transport_failed', 'not connected to the room');
      if (room && !loop) {
        try {
          await room.localParticipant.setMicrophoneEnabled(enabled);
        } catch (cause) {
          throw new LiveAiError('transport_failed', `could not switch the microphone: ${String((cause as Error)?.message ?? cause)}`, { cause });
        }
      }
      micOn = enabled; // during our own rejoin: applied to the new room once joined
      bus.emit('mic', { enabled });
    },
    async setDevice(kind, deviceId) {
      if (!room && state !== 'reconnecting') throw new LiveAiError('transport_failed', 'not connected to the room');
      devices.set(kind, deviceId);
      if (room && !loop) await room.switchActiveDevice(kind, deviceId);
    },
    on: (name, handler) => bus.on(name, handler),
  };
  return transport;
}
