import { Room, RoomEvent, type RemoteTrack } from 'livekit-client';
import { LiveAiError } from '../errors';
import { createEventBus } from '../events/bus';
import { parseAvatarEventMessage } from '../events/parse';
import type { AppMessage } from '../schemas';
import type { ConnectOptions, Transport, TransportEventMap } from './types';

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

/**
 * rtc-a adapter on livekit-client (architecture §1). Events arrive as data messages on the event topic;
 * the avatar's tracks as `TrackSubscribed`; `Reconnecting`/`Reconnected` map to `connection`; a `Disconnected`
 * we did not ask for is `transport_failed`. App messages are published as reliable JSON on the event topic.
 * @param deps.createRoom inject a Room (tests); default `new Room()`.
 */
export function createRtcATransport(deps: { createRoom?: () => RoomLike } = {}): Transport {
  const bus = createEventBus<TransportEventMap>();
  let room: RoomLike | null = null;
  let topic = 'liveai';
  let leaving = false;
  let connected = false;
  const offs: (() => void)[] = [];
  const listen = (r: RoomLike, event: string, fn: (...args: unknown[]) => void) => {
    r.on(event, fn);
    offs.push(() => r.off(event, fn));
  };

  const wire = (r: RoomLike) => {
    listen(r, RoomEvent.DataReceived, ((payload: Uint8Array, _p: unknown, _k: unknown, t?: string) =>
      handleDataMessage(payload, t, topic, bus.emit)) as never);
    const onTrack = (present: boolean) =>
      ((track: RemoteTrack) => {
        if (track.kind === 'audio' || track.kind === 'video') {
          bus.emit('track', { kind: track.kind, track: present ? track.mediaStreamTrack : null });
        }
      }) as never;
    listen(r, RoomEvent.TrackSubscribed, onTrack(true));
    listen(r, RoomEvent.TrackUnsubscribed, onTrack(false));
    listen(r, RoomEvent.Reconnecting, (() => bus.emit('connection', 'reconnecting')) as never);
    listen(r, RoomEvent.SignalReconnecting, (() => bus.emit('connection', 'reconnecting')) as never);
    listen(r, RoomEvent.Reconnected, (() => bus.emit('connection', 'connected')) as never);
    listen(r, RoomEvent.Disconnected, ((reason?: unknown) => {
      const ours = leaving;
      connected = false;
      offs.splice(0).forEach((off) => off());
      bus.emit('connection', 'disconnected');
      bus.emit(
        'disconnected',
        ours
          ? { reason: 'client' }
          : { reason: String(reason ?? 'unknown'), error: new LiveAiError('transport_failed', `the room connection was lost (reason ${String(reason ?? 'unknown')})`) },
      );
    }) as never);
  };

  const transport: Transport = {
    kind: 'rtc-a',
    async connect(o: ConnectOptions) {
      if (o.signal?.aborted) throw new LiveAiError('aborted', 'join was cancelled');
      topic = o.eventTopic;
      leaving = false;
      const r = (room = deps.createRoom ? deps.createRoom() : (new Room() as unknown as RoomLike));
      wire(r);
      bus.emit('connection', 'connecting');
      const onAbort = () => void transport.disconnect();
      o.signal?.addEventListener('abort', onAbort, { once: true });
      try {
        await r.connect(o.url, o.token);
      } catch (cause) {
        if (o.signal?.aborted) throw new LiveAiError('aborted', 'join was cancelled', { cause });
        offs.splice(0).forEach((off) => off());
        bus.emit('connection', 'disconnected');
        throw new LiveAiError('transport_failed', `could not join the rtc-a room: ${String((cause as Error)?.message ?? cause)}`, { cause });
      } finally {
        o.signal?.removeEventListener('abort', onAbort);
      }
      connected = true;
      bus.emit('connection', 'connected');
      if (o.micEnabled) await transport.setMicEnabled(true);
    },
    async disconnect() {
      const r = room;
      if (!r) return;
      leaving = true;
      room = null;
      connected = false;
      await r.disconnect();
    },
    async sendAppMessage(message: AppMessage) {
      if (!room || !connected) throw new LiveAiError('transport_failed', 'not connected to the room');
      const data = new TextEncoder().encode(JSON.stringify(message));
      await room.localParticipant.publishData(data, { reliable: true, topic });
    },
    async setMicEnabled(enabled) {
      if (!room) throw new LiveAiError('transport_failed', 'not connected to the room');
      try {
        await room.localParticipant.setMicrophoneEnabled(enabled);
      } catch (cause) {
        throw new LiveAiError('transport_failed', `could not switch the microphone: ${String((cause as Error)?.message ?? cause)}`, { cause });
      }
      bus.emit('mic', { enabled });
    },
    async setDevice(kind, deviceId) {
      if (!room) throw new LiveAiError('transport_failed', 'not connected to the room');
      await room.switchActiveDevice(kind, deviceId);
    },
    on: (name, handler) => bus.on(name, handler),
  };
  return transport;
}
