import { EventEmitter } from 'node:events';
import { RoomEvent } from 'livekit-client';
import { describe, expect, it, vi } from 'vitest';
import type { TransportEventMap } from '../../../src/core';
import { createRtcATransport, handleDataMessage, type RoomLike } from '../../../src/core/transports/rtc-a';

const enc = (o: unknown) => new TextEncoder().encode(typeof o === 'string' ? o : JSON.stringify(o));

describe('rtc-a data message parsing (in isolation)', () => {
  it('only the event topic is parsed; valid events and invalid messages are routed', () => {
    const emit = vi.fn();
    expect(handleDataMessage(enc({ type: 'bot_ready' }), 'liveai', 'liveai', emit)).toBe('event');
    expect(handleDataMessage(enc({ type: 'bot_ready' }), 'chat', 'liveai', emit)).toBeNull();
    expect(handleDataMessage(enc({ type: 'bot_ready' }), undefined, 'liveai', emit)).toBeNull();
    expect(handleDataMessage(enc('{"type":'), 'liveai', 'liveai', emit)).toBe('invalidMessage');
    expect(handleDataMessage(enc({ type: 'image_change_error', error: { code: 404 } }), 'liveai', 'liveai', emit)).toBe('event');
    expect(emit.mock.calls.map((c) => c[0])).toEqual(['event', 'invalidMessage', 'event']);
    expect(emit.mock.calls[1]![1].error.code).toBe('invalid_event');
  });
  it('a custom topic is honoured', () => {
    const emit = vi.fn();
    expect(handleDataMessage(enc({ type: 'idle_timeout' }), 'my-topic', 'my-topic', emit)).toBe('event');
  });
});

class FakeRoom extends EventEmitter implements RoomLike {
  published: { data: string; options: unknown }[] = [];
  mic: boolean[] = [];
  switched: unknown[] = [];
  connectArgs: unknown[] = [];
  localParticipant = {
    publishData: async (data: Uint8Array, options: unknown) => void this.published.push({ data: new TextDecoder().decode(data), options }),
    setMicrophoneEnabled: async (on: boolean) => void this.mic.push(on),
  };
  async connect(url: string, token: string) {
    this.connectArgs.push([url, token]);
  }
  async disconnect() {
    this.emit(RoomEvent.Disconnected, 1);
  }
  async switchActiveDevice(kind: MediaDeviceKind, id: string) {
    this.switched.push([kind, id]);
    return true;
  }
}

describe('rtc-a adapter (fake Room)', () => {
  function setup() {
    const room = new FakeRoom();
    const t = createRtcATransport({ createRoom: () => room });
    const log: { [K in keyof TransportEventMap]?: TransportEventMap[K][] } = {};
    for (const k of ['event', 'invalidMessage', 'track', 'connection', 'disconnected', 'mic'] as const) {
      (t.on as (k: string, h: (p: unknown) => void) => void)(k, (p) => void ((log[k] ??= []) as unknown[]).push(p));
    }
    return { room, t, log };
  }
  it('joins, maps data, tracks, reconnects and unexpected disconnects', async () => {
    const { room, t, log } = setup();
    await t.connect({ url: 'ws://127.0.0.1:7880', token: 'tok', eventTopic: 'liveai', micEnabled: true });
    expect(room.connectArgs).toEqual([['ws://127.0.0.1:7880', 'tok']]);
    expect(room.mic).toEqual([true]);
    room.emit(RoomEvent.DataReceived, enc({ type: 'user_transcription', transcription: 'hey' }), undefined, undefined, 'liveai');
    const mst = { id: 'v' } as unknown as MediaStreamTrack;
    room.emit(RoomEvent.TrackSubscribed, { kind: 'video', mediaStreamTrack: mst });
    room.emit(RoomEvent.TrackUnsubscribed, { kind: 'video', mediaStreamTrack: mst });
    room.emit(RoomEvent.Reconnecting);
    room.emit(RoomEvent.Reconnected);
    await t.sendAppMessage({ event: 'chat-msg', message: 'yo', name: 'me' });
    expect(room.published).toEqual([{ data: '{"event":"chat-msg","message":"yo","name":"me"}', options: { reliable: true, topic: 'liveai' } }]);
    room.emit(RoomEvent.Disconnected, 'SERVER_SHUTDOWN');
    expect(log.event).toEqual([{ type: 'user_transcription', transcription: 'hey' }]);
    expect(log.track).toEqual([{ kind: 'video', track: mst }, { kind: 'video', track: null }]);
    expect(log.connection).toEqual(['connecting', 'connected', 'reconnecting', 'connected', 'disconnected']);
    expect(log.disconnected![0]!.error?.code).toBe('transport_failed');
    expect(log.mic).toEqual([{ enabled: true }]);
  });
  it('our disconnect reports no error and switches devices while connected', async () => {
    const { room, t, log } = setup();
    await t.connect({ url: 'wss://x', token: 't', eventTopic: 'liveai' });
    await t.setDevice('audioinput', 'm2');
    await t.disconnect();
    expect(room.switched).toEqual([['audioinput', 'm2']]);
    expect(log.disconnected).toEqual([{ reason: 'client' }]);
    await expect(t.sendAppMessage({ event: 'force-end' })).rejects.toMatchObject({ code: 'transport_failed' });
  });
});
