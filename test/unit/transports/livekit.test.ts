import { EventEmitter } from 'node:events';
import { RoomEvent } from 'livekit-client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { recordEvents } from './record-events';
import { LiveAiError } from '../../../src/core/errors';
import {
  createLiveKitTransport,
  handleDataMessage,
  LK_REASON,
  retryDelayMs,
  shouldReconnect,
  type RoomLike,
} from '../../../src/core/transports/livekit/adapter';
import { AVATAR_GONE_MS, SDK_HEAL_MS, createOutbox } from '../../../src/core/transports/livekit/link';

// Fake timers: backoff, deadlines and the waits below run on a fake clock (vi.waitFor advances it as it checks).
beforeEach(() => void vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] }));
afterEach(() => void vi.useRealTimers());

const enc = (o: unknown) => new TextEncoder().encode(typeof o === 'string' ? o : JSON.stringify(o));

describe('LiveKit data message parsing (in isolation)', () => {
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

const AVATAR = { identity: 'liveai-avatar-1' };

/** A livekit-client Room stand-in: records what the adapter does; the test drives its events. */
class FakeRoom extends EventEmitter implements RoomLike {
  published: { data: string; options: unknown }[] = [];
  mic: boolean[] = [];
  switched: unknown[] = [];
  connectArgs: unknown[] = [];
  remoteParticipants = new Map<
    string,
    { identity: string; trackPublications: Map<string, unknown>; attributes?: Record<string, string> }
  >();
  disconnects = 0;
  /** The capture options each publish of the microphone asked for. */
  micCapture: Array<{ deviceId: string }> = [];
  /** The publish options of each switch of the microphone (livekit-client's `preConnectBuffer`). */
  micPublish: Array<{ preConnectBuffer?: boolean } | undefined> = [];
  /** Set: `connect` waits for it (the room is joining meanwhile). */
  joining: Promise<void> | null = null;
  constructor(private readonly failConnect = false) {
    super();
  }
  localParticipant = {
    publishData: async (data: Uint8Array, options: unknown) => void this.published.push({ data: new TextDecoder().decode(data), options }),
    setMicrophoneEnabled: async (on: boolean, capture?: { deviceId: string }, publish?: { preConnectBuffer?: boolean }) =>
      void (this.mic.push(on), capture && this.micCapture.push(capture), this.micPublish.push(publish)),
    performRpc: async (params: { destinationIdentity: string; method: string; payload: string }) => {
      this.rpcs.push(params);
      return this.rpcAnswer(params);
    },
  };
  /** RPC calls made, and how the other side answers them. */
  rpcs: { destinationIdentity: string; method: string; payload: string }[] = [];
  rpcAnswer: (p: { method: string }) => Promise<string> = async () => 'ok';
  async connect(url: string, token: string) {
    this.connectArgs.push([url, token]);
    await this.joining;
    if (this.failConnect) throw new Error('could not establish signal connection');
  }
  async disconnect() {
    this.disconnects++;
    this.emit(RoomEvent.Disconnected, LK_REASON.CLIENT_INITIATED);
  }
  /** Set: the next switch rejects with it (as livekit-client does with the browser's getUserMedia error). */
  switchError: Error | null = null;
  async switchActiveDevice(kind: MediaDeviceKind, id: string, exact?: boolean) {
    this.switched.push(exact === undefined ? [kind, id] : [kind, id, exact]);
    if (this.switchError) throw this.switchError;
    return true;
  }
  /** The avatar is (back) in the room with its video: as livekit-client reports it. */
  avatarArrives(track = { kind: 'video', mediaStreamTrack: { id: 'v' } }) {
    this.emit(RoomEvent.TrackSubscribed, track, {}, AVATAR);
  }
  chats = () => this.published.map((p) => JSON.parse(p.data).message as string);
}

const FAST = { baseDelayMs: 1, maxDelayMs: 2, deadlineMs: 300, agentWaitMs: 5_000 };
const chat = (message: string) => ({ event: 'chat-msg' as const, message, name: 'me' });
const enc2 = (o: unknown) => new TextEncoder().encode(JSON.stringify(o));

function setup(opts: { failFrom?: number; reconnect?: Partial<typeof FAST>; joining?: Promise<void> } = {}) {
  const rooms: FakeRoom[] = [];
  const t = createLiveKitTransport({
    createRoom: () => {
      const r = new FakeRoom(opts.failFrom !== undefined && rooms.length >= opts.failFrom);
      r.joining = opts.joining ?? null;
      rooms.push(r);
      return r;
    },
    reconnect: { ...FAST, ...opts.reconnect },
  });
  const log = recordEvents(t);
  const room = (i = -1) => rooms.at(i)!;
  return { rooms, room, t, log };
}

describe('LiveKit reconnect decisions (in isolation)', () => {
  it('retries only recoverable reasons of a room that had been joined and is not ending', () => {
    const live = { wasConnected: true, ending: false };
    for (const r of [
      LK_REASON.SERVER_SHUTDOWN,
      LK_REASON.SIGNAL_CLOSE,
      LK_REASON.JOIN_FAILURE,
      LK_REASON.CONNECTION_TIMEOUT,
      LK_REASON.MEDIA_FAILURE,
      LK_REASON.STATE_MISMATCH,
      LK_REASON.MIGRATION,
      LK_REASON.UNKNOWN_REASON,
      undefined,
    ]) {
      expect(shouldReconnect(r, live)).toBe(true);
    }
    for (const r of [
      LK_REASON.CLIENT_INITIATED,
      LK_REASON.DUPLICATE_IDENTITY,
      LK_REASON.PARTICIPANT_REMOVED,
      LK_REASON.ROOM_DELETED,
      LK_REASON.ROOM_CLOSED,
      12,
    ]) {
      expect(shouldReconnect(r, live)).toBe(false);
    }
    expect(shouldReconnect(LK_REASON.JOIN_FAILURE, { wasConnected: false, ending: false })).toBe(false);
    expect(shouldReconnect(LK_REASON.SERVER_SHUTDOWN, { wasConnected: true, ending: true })).toBe(false);
  });
  it('backs off exponentially with ±50 % jitter, capped, never past the deadline', () => {
    const p = { baseDelayMs: 500, maxDelayMs: 5_000 };
    expect([0, 1, 2, 3, 4, 5].map((n) => retryDelayMs(n, p, 60_000, 0.5))).toEqual([500, 1000, 2000, 4000, 5000, 5000]);
    expect(retryDelayMs(1, p, 60_000, 0)).toBe(500);
    expect(retryDelayMs(1, p, 60_000, 0.999)).toBe(1499);
    expect(retryDelayMs(6, p, 800, 0.9)).toBe(800);
  });
});

describe('LiveKit app message outbox', () => {
  it('keeps order, holds chat for the avatar (up to agentWaitMs), lets force-end through, fails what is left', async () => {
    vi.setTimerTickMode('nextTimerAsync'); // the awaited waits below run to their end on the fake clock
    const sent: string[] = [];
    let up = false;
    let agent = false;
    const box = createOutbox({
      publish: async (m) => void sent.push(m.event === 'chat-msg' ? m.message : m.event),
      linkUp: () => up,
      agentReady: () => agent,
      agentWaitMs: 30,
    });
    const a = box.push(chat('a'));
    const b = box.push(chat('b'));
    up = true;
    box.kick();
    await Promise.resolve();
    expect(sent).toEqual([]); // the link is up but the avatar is not back yet
    agent = true;
    box.kick();
    await Promise.all([a, b]);
    expect(sent).toEqual(['a', 'b']);
    agent = false;
    const late = box.push(chat('nobody there'));
    await expect(box.push({ event: 'force-end' })).resolves.toBeUndefined(); // queued behind the chat, which times out first
    await late;
    expect(sent).toEqual(['a', 'b', 'nobody there', 'force-end']);
    up = false;
    const lost = box.push(chat('lost'));
    box.failAll(new LiveAiError('transport_failed', 'gone'));
    await expect(lost).rejects.toMatchObject({ code: 'transport_failed' });
    expect(box.size).toBe(0);
  });
});

describe('LiveKit adapter (fake Room)', () => {
  it('publishes the chosen microphone from the start, not the default one and then a switch', async () => {
    const { room, t } = setup();
    await t.connect({ url: 'ws://127.0.0.1:7880', token: 'tok', eventTopic: 'liveai', micEnabled: true, micDeviceId: 'mic-2' });
    expect(room().mic).toEqual([true]);
    expect(room().micCapture).toEqual([{ deviceId: 'mic-2' }]);
    await t.setMicEnabled(false);
    await t.setMicEnabled(true); // turned on again later: still that microphone
    expect(room().micCapture).toEqual([{ deviceId: 'mic-2' }, { deviceId: 'mic-2' }]);
  });

  it('pre-connect audio (issue 40.1): the microphone records from the start of the join, for the agent', async () => {
    let connected!: () => void;
    const { room, t, log } = setup({ joining: new Promise<void>((r) => (connected = r)) });
    const joined = t.connect({
      url: 'ws://127.0.0.1:7880',
      token: 'tok',
      eventTopic: 'liveai',
      micEnabled: true,
      micDeviceId: 'mic-2',
      preConnectAudio: true,
    });
    for (let i = 0; i < 20; i++) await Promise.resolve();
    // Still joining: the microphone is already on, with livekit-client's pre-connect buffer and the chosen device.
    expect(room().mic).toEqual([true]);
    expect(room().micPublish).toEqual([{ preConnectBuffer: true }]);
    expect(room().micCapture).toEqual([{ deviceId: 'mic-2', preConnectBuffer: true }]);
    connected();
    await joined;
    expect(log.mic?.at(-1)).toEqual({ enabled: true });
  });

  it('without preConnectAudio the microphone is published once the room is joined', async () => {
    let connected!: () => void;
    const { room, t } = setup({ joining: new Promise<void>((r) => (connected = r)) });
    const joined = t.connect({ url: 'ws://127.0.0.1:7880', token: 'tok', eventTopic: 'liveai', micEnabled: true });
    for (let i = 0; i < 20; i++) await Promise.resolve();
    expect(room().mic).toEqual([]);
    connected();
    await joined;
    expect(room().micPublish).toEqual([undefined]);
  });

  it('joins, maps data, tracks and livekit-client’s own reconnect; a chat typed meanwhile goes out after it', async () => {
    const { room, t, log } = setup();
    await t.connect({ url: 'ws://127.0.0.1:7880', token: 'tok', eventTopic: 'liveai', micEnabled: true });
    expect(room().connectArgs).toEqual([['ws://127.0.0.1:7880', 'tok']]);
    expect(room().mic).toEqual([true]);
    room().emit(RoomEvent.DataReceived, enc({ type: 'user_transcription', transcription: 'hey' }), AVATAR, undefined, 'liveai');
    const mst = { id: 'v' } as unknown as MediaStreamTrack;
    room().emit(RoomEvent.TrackSubscribed, { kind: 'video', mediaStreamTrack: mst }, {}, AVATAR);
    room().emit(RoomEvent.TrackUnsubscribed, { kind: 'video', mediaStreamTrack: mst }, {}, AVATAR);
    await t.sendAppMessage(chat('yo'));
    expect(room().published).toEqual([
      { data: '{"event":"chat-msg","message":"yo","name":"me"}', options: { reliable: true, topic: 'liveai' } },
    ]);

    room().emit(RoomEvent.SignalReconnecting);
    const during = t.sendAppMessage(chat('during'));
    await vi.advanceTimersByTimeAsync(20);
    expect(room().chats()).toEqual(['yo']); // not into a room that is still reconnecting
    room().emit(RoomEvent.Reconnected);
    await during;
    expect(room().chats()).toEqual(['yo', 'during']);
    expect(log.event).toEqual([{ type: 'user_transcription', transcription: 'hey' }]);
    expect(log.track).toEqual([
      { kind: 'video', track: mst },
      { kind: 'video', track: null },
    ]);
    expect(log.connection).toEqual(['connecting', 'connected', 'reconnecting', 'connected']);
    expect(log.mic).toEqual([{ enabled: true }]);
    expect(log.disconnected).toBeUndefined();
  });

  it('SERVER_SHUTDOWN: rejoins a fresh Room with the same URL and token, restores mic and devices, resumes tracks, events and queued chat', async () => {
    const { rooms, room, t, log } = setup();
    await t.connect({ url: 'wss://lk', token: 'tok-1', eventTopic: 'liveai', micEnabled: true });
    await t.setDevice('audioinput', 'mic-2');
    room().avatarArrives();
    room().emit(RoomEvent.DataReceived, enc2({ type: 'bot_ready' }), AVATAR, undefined, 'liveai');
    room().emit(RoomEvent.Disconnected, LK_REASON.SERVER_SHUTDOWN);
    expect(log.connection?.at(-1)).toBe('reconnecting');
    const queued = t.sendAppMessage(chat('typed during the outage'));
    await vi.waitFor(() => expect(rooms).toHaveLength(2));
    await vi.waitFor(() => expect(log.connection?.at(-1)).toBe('connected'));
    expect(room().connectArgs).toEqual([['wss://lk', 'tok-1']]);
    expect(room().mic).toEqual([true]);
    expect(room().switched).toEqual([['audioinput', 'mic-2']]);
    expect(room().chats()).toEqual([]); // connected, but the avatar has not rejoined yet
    room().avatarArrives();
    await queued;
    expect(room().chats()).toEqual(['typed during the outage']);
    room().emit(RoomEvent.DataReceived, enc2({ type: 'agent_transcription', transcription: 'back' }), AVATAR, undefined, 'liveai');
    expect(log.event?.at(-1)).toEqual({ type: 'agent_transcription', transcription: 'back' });
    expect(log.track?.filter((x) => x.track !== null)).toHaveLength(2);
    expect(log.connection).toEqual(['connecting', 'connected', 'reconnecting', 'connected']);
    expect(log.disconnected).toBeUndefined();
  });

  it('livekit-client healing for SDK_HEAL_MS without a result: the Room is left and a fresh one joins (Firefox after a crash)', async () => {
    const { rooms, room, t, log } = setup({ reconnect: { deadlineMs: 60_000 } });
    await t.connect({ url: 'wss://lk', token: 'tok', eventTopic: 'liveai' });
    room().avatarArrives();
    room().emit(RoomEvent.SignalReconnecting); // … and then nothing: neither Reconnected nor Disconnected
    const queued = t.sendAppMessage(chat('typed during the outage'));
    await vi.advanceTimersByTimeAsync(SDK_HEAL_MS - 1);
    expect(rooms).toHaveLength(1); // livekit-client is given its time
    await vi.advanceTimersByTimeAsync(1);
    await vi.waitFor(() => expect(rooms).toHaveLength(2));
    expect(rooms[0]!.disconnects).toBe(1); // the stuck Room is left
    await vi.waitFor(() => expect(log.connection?.at(-1)).toBe('connected'));
    room().avatarArrives();
    await queued;
    expect(room().chats()).toEqual(['typed during the outage']);
    expect(log.connection).toEqual(['connecting', 'connected', 'reconnecting', 'connected']);
    expect(log.disconnected).toBeUndefined();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(rooms).toHaveLength(2); // no second rejoin
  });

  it('livekit-client healing in time is left alone', async () => {
    const { rooms, room, t, log } = setup({ reconnect: { deadlineMs: 60_000 } });
    await t.connect({ url: 'wss://lk', token: 'tok', eventTopic: 'liveai' });
    room().emit(RoomEvent.SignalReconnecting);
    await vi.advanceTimersByTimeAsync(SDK_HEAL_MS - 1000);
    room().emit(RoomEvent.Reconnected);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(rooms).toHaveLength(1);
    expect(room().disconnects).toBe(0);
    expect(log.connection).toEqual(['connecting', 'connected', 'reconnecting', 'connected']);
  });

  it("livekit-client's full reconnect (Reconnecting) is not left to it: a fresh Room joins, and a chat typed then reaches the avatar", async () => {
    // livekit-client 2.x says Reconnected after a full reconnect while its engine still reconnects (when it
    // republished the microphone); data published then waits for a resume replay that never comes.
    const { rooms, room, t, log } = setup({ reconnect: { deadlineMs: 60_000 } });
    await t.connect({ url: 'wss://lk', token: 'tok', eventTopic: 'liveai', micEnabled: true });
    room().avatarArrives();
    room().emit(RoomEvent.SignalReconnecting); // a resume first (the server is down) …
    room().emit(RoomEvent.Reconnecting); // … then livekit-client starts over as a new participant
    const queued = t.sendAppMessage(chat('typed during the outage'));
    await vi.waitFor(() => expect(rooms).toHaveLength(2));
    expect(rooms[0]!.disconnects).toBe(1); // that Room is left, not left to finish
    await vi.waitFor(() => expect(log.connection?.at(-1)).toBe('connected'));
    expect(room().mic).toEqual([true]); // the microphone is published again on the fresh Room
    room().avatarArrives();
    await queued;
    expect(room().chats()).toEqual(['typed during the outage']);
    expect(rooms[0]!.chats()).toEqual([]);
    rooms[0]!.emit(RoomEvent.Reconnected); // the old Room is not listened to any more
    expect(log.connection).toEqual(['connecting', 'connected', 'reconnecting', 'connected']);
    expect(log.disconnected).toBeUndefined();
  });

  it('livekit-client giving up (no reason) is retried with backoff until the deadline, then transport_failed; queued chat is rejected', async () => {
    vi.setTimerTickMode('nextTimerAsync'); // the awaited waits below run to their end on the fake clock
    const { rooms, room, t, log } = setup({ failFrom: 1 });
    await t.connect({ url: 'wss://lk', token: 'tok', eventTopic: 'liveai' });
    room().emit(RoomEvent.SignalReconnecting);
    const queued = t.sendAppMessage(chat('never'));
    room().emit(RoomEvent.Disconnected, undefined);
    await expect(queued).rejects.toMatchObject({ code: 'transport_failed' });
    expect(rooms.length).toBeGreaterThan(2); // several attempts, each with a fresh Room
    expect(log.connection).toEqual(['connecting', 'connected', 'reconnecting', 'disconnected']);
    expect(log.disconnected).toHaveLength(1);
    expect(log.disconnected![0]!.error).toMatchObject({ code: 'transport_failed' });
    expect(log.disconnected![0]!.error!.detail).toMatch(/could not be re-established within 0 s \(reason unknown\)/);
    const n = rooms.length;
    await vi.advanceTimersByTimeAsync(30);
    expect(rooms).toHaveLength(n); // and then it stops
    await expect(t.sendAppMessage(chat('late'))).rejects.toMatchObject({ code: 'transport_failed' });
  });

  it('final reasons are not retried: removed, room deleted, duplicate identity', async () => {
    for (const reason of [LK_REASON.PARTICIPANT_REMOVED, LK_REASON.ROOM_DELETED, LK_REASON.DUPLICATE_IDENTITY]) {
      const { rooms, room, t, log } = setup();
      await t.connect({ url: 'wss://lk', token: 'tok', eventTopic: 'liveai' });
      room().emit(RoomEvent.Disconnected, reason);
      expect(log.connection).toEqual(['connecting', 'connected', 'disconnected']);
      expect(log.disconnected![0]!.error?.code).toBe('transport_failed');
      await vi.advanceTimersByTimeAsync(10);
      expect(rooms).toHaveLength(1);
    }
  });

  it("shows only the avatar's tracks, each once, and stops listening when left", async () => {
    let joined!: () => void;
    const { rooms, room, t, log } = setup({ joining: new Promise<void>((r) => (joined = r)) });
    const connecting = t.connect({ url: 'wss://lk', token: 'tok', eventTopic: 'liveai' });
    await vi.waitFor(() => expect(rooms).toHaveLength(1));
    // The join answer lists the avatar and a user with a microphone; an agent worker marks its avatar by attribute.
    room().remoteParticipants.set('liveai-avatar-1', {
      ...AVATAR,
      trackPublications: new Map(),
      attributes: { 'lk.publish_on_behalf': 'agent-1' },
    });
    room().remoteParticipants.set('user-2', { identity: 'user-2', trackPublications: new Map() });
    joined();
    await connecting;
    expect(log.connection).toEqual(['connecting', 'connected']);
    const video = { kind: 'video', id: 'v' } as MediaStreamTrack;
    const theirs = { kind: 'audio', id: 'a2' } as MediaStreamTrack;
    room().emit(RoomEvent.TrackSubscribed, { kind: 'audio', mediaStreamTrack: theirs }, {}, { identity: 'user-2' });
    room().emit(RoomEvent.TrackSubscribed, { kind: 'video', mediaStreamTrack: video }, {}, AVATAR);
    room().emit(RoomEvent.TrackSubscribed, { kind: 'video', mediaStreamTrack: video }, {}, AVATAR);
    expect(log.track).toEqual([{ kind: 'video', track: video }]);
    room().emit(RoomEvent.TrackUnsubscribed, { kind: 'video', mediaStreamTrack: video }, {}, AVATAR);
    expect(log.track?.at(-1)).toEqual({ kind: 'video', track: null });
    await t.disconnect();
    expect(room().listenerCount(RoomEvent.TrackSubscribed)).toBe(0);
    expect(room().listenerCount(RoomEvent.DataReceived)).toBe(0);
  });

  it("ignores another participant's data messages and tracks: no fake idle_timeout, no transcript line, no camera as the avatar", async () => {
    const { room, t, log } = setup();
    await t.connect({ url: 'wss://lk', token: 'tok', eventTopic: 'liveai' });
    room().remoteParticipants.set('liveai-avatar-1', { ...AVATAR, trackPublications: new Map() });
    room().emit(RoomEvent.ParticipantConnected, AVATAR);
    const intruder = { identity: 'viewer-2' };
    room().emit(RoomEvent.DataReceived, enc({ type: 'idle_timeout' }), intruder, undefined, 'liveai');
    room().emit(
      RoomEvent.DataReceived,
      enc({ type: 'user_transcription', transcription: '<img src=x onerror=alert(1)>' }),
      intruder,
      undefined,
      'liveai',
    );
    const camera = { id: 'camera' } as MediaStreamTrack;
    room().emit(RoomEvent.TrackSubscribed, { kind: 'video', mediaStreamTrack: camera }, {}, intruder);
    expect(log.event).toBeUndefined();
    expect(log.track).toBeUndefined();
    // The avatar's own messages and video still come through.
    room().emit(RoomEvent.DataReceived, enc({ type: 'bot_ready' }), AVATAR, undefined, 'liveai');
    room().avatarArrives();
    expect(log.event).toEqual([{ type: 'bot_ready' }]);
    expect(log.track).toEqual([{ kind: 'video', track: { id: 'v' } }]);
  });

  it('a participant that joins before the avatar is never taken for it: its camera and fake events are ignored until and after the avatar comes', async () => {
    const { room, t, log } = setup();
    await t.connect({ url: 'wss://lk', token: 'tok', eventTopic: 'liveai' });
    const first = { identity: 'intruder-1' };
    const camera = { id: 'camera' } as MediaStreamTrack;
    room().emit(RoomEvent.ParticipantConnected, first);
    room().emit(RoomEvent.TrackSubscribed, { kind: 'video', mediaStreamTrack: camera }, {}, first);
    room().emit(RoomEvent.DataReceived, enc({ type: 'user_transcription', transcription: 'forged' }), first, undefined, 'liveai');
    room().emit(RoomEvent.DataReceived, enc({ type: 'idle_timeout' }), first, undefined, 'liveai');
    expect(log.track).toBeUndefined();
    expect(log.event).toBeUndefined();
    room().avatarArrives(); // the named avatar publishes its video
    room().emit(RoomEvent.DataReceived, enc({ type: 'bot_ready' }), AVATAR, undefined, 'liveai');
    room().emit(RoomEvent.DataReceived, enc({ type: 'idle_timeout' }), first, undefined, 'liveai');
    expect(log.track).toEqual([{ kind: 'video', track: { id: 'v' } }]);
    expect(log.event).toEqual([{ type: 'bot_ready' }]);
  });

  it('a message that comes before its sender is known here is read by the identity the server stamped on it', async () => {
    const { room, t, log } = setup();
    await t.connect({ url: 'wss://lk', token: 'tok', eventTopic: 'liveai' });
    room().emit(RoomEvent.DataReceived, enc({ type: 'idle_timeout' }), undefined, undefined, 'liveai', undefined, 'intruder-1');
    room().emit(RoomEvent.DataReceived, enc({ type: 'idle_timeout' }), undefined, undefined, 'liveai'); // nobody: dropped
    room().emit(RoomEvent.DataReceived, enc({ type: 'bot_ready' }), undefined, undefined, 'liveai', undefined, 'liveai-avatar-1');
    expect(log.event).toEqual([{ type: 'bot_ready' }]);
  });

  it('with the identity the session handle names (avatar_identity), nobody else is the avatar: not a liveai-avatar-… name, not lk.publish_on_behalf', async () => {
    const { room, t, log } = setup();
    await t.connect({ url: 'wss://lk', token: 'tok', eventTopic: 'liveai', avatarIdentity: 'liveai-avatar-real' });
    const impostors = [
      { identity: 'liveai-avatar-fake' },
      { identity: 'worker', attributes: { 'lk.publish_on_behalf': 'agent-x' } },
      { identity: 'bot', kind: 4 },
    ];
    for (const p of impostors) {
      room().emit(RoomEvent.ParticipantConnected, p);
      room().emit(RoomEvent.TrackSubscribed, { kind: 'video', mediaStreamTrack: { id: p.identity } }, {}, p);
      room().emit(RoomEvent.DataReceived, enc({ type: 'idle_timeout' }), p, undefined, 'liveai');
    }
    expect(log.track).toBeUndefined();
    expect(log.event).toBeUndefined();
    const real = { identity: 'liveai-avatar-real', attributes: { 'lk.publish_on_behalf': 'liveai-agent-real' } };
    room().emit(RoomEvent.TrackSubscribed, { kind: 'video', mediaStreamTrack: { id: 'v' } }, {}, real);
    room().emit(RoomEvent.DataReceived, enc({ type: 'bot_ready' }), real, undefined, 'liveai');
    expect(log.track).toEqual([{ kind: 'video', track: { id: 'v' } }]);
    expect(log.event).toEqual([{ type: 'bot_ready' }]);
  });

  it('a room that names its avatar in no other way: the participant of kind agent (its server-minted token says so)', async () => {
    const { room, t, log } = setup();
    await t.connect({ url: 'wss://lk', token: 'tok', eventTopic: 'liveai' });
    const viewer = { identity: 'viewer-9', kind: 0 };
    const avatar = { identity: 'service-avatar', kind: 4 };
    room().emit(RoomEvent.DataReceived, enc({ type: 'idle_timeout' }), viewer, undefined, 'liveai');
    room().emit(RoomEvent.DataReceived, enc({ type: 'bot_ready' }), avatar, undefined, 'liveai');
    expect(log.event).toEqual([{ type: 'bot_ready' }]);
  });

  it('the avatar leaving for good is reported (avatarLeft) after the grace time; one that comes back, or our own outage, is not', async () => {
    const { room, t, log } = setup({ reconnect: { deadlineMs: 120_000 } });
    await t.connect({ url: 'wss://lk', token: 'tok', eventTopic: 'liveai' });
    const leave = () => {
      room().remoteParticipants.delete(AVATAR.identity);
      room().emit(RoomEvent.ParticipantDisconnected, AVATAR);
    };
    const back = () => {
      room().remoteParticipants.set(AVATAR.identity, { ...AVATAR, trackPublications: new Map() });
      room().emit(RoomEvent.ParticipantConnected, AVATAR);
    };
    room().emit(RoomEvent.ParticipantDisconnected, { identity: 'viewer-2' }); // not the avatar: nothing
    back();
    leave();
    await vi.advanceTimersByTimeAsync(AVATAR_GONE_MS - 1000);
    back(); // it rejoined in time
    await vi.advanceTimersByTimeAsync(AVATAR_GONE_MS * 2);
    expect(log.avatarLeft).toBeUndefined();
    leave();
    room().emit(RoomEvent.SignalReconnecting); // our own outage stops the clock …
    await vi.advanceTimersByTimeAsync(AVATAR_GONE_MS * 2);
    expect(log.avatarLeft).toBeUndefined();
    room().emit(RoomEvent.Reconnected); // … and connecting again restarts it
    await vi.advanceTimersByTimeAsync(AVATAR_GONE_MS - 1);
    expect(log.avatarLeft).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(log.avatarLeft).toEqual([{ identity: AVATAR.identity }]);
  });

  it('an avatar that was never in the room is not reported as gone (a queued session)', async () => {
    const { t, log } = setup();
    await t.connect({ url: 'wss://lk', token: 'tok', eventTopic: 'liveai', avatarIdentity: 'liveai-avatar-1' });
    await vi.advanceTimersByTimeAsync(AVATAR_GONE_MS * 3);
    expect(log.avatarLeft).toBeUndefined();
  });

  it('a chat sent while the room is joining is queued and goes out once joined; a failed join rejects it', async () => {
    let joined!: () => void;
    const ok = setup({ joining: new Promise<void>((r) => (joined = r)) });
    const connecting = ok.t.connect({ url: 'wss://lk', token: 'tok', eventTopic: 'liveai' });
    await vi.waitFor(() => expect(ok.rooms).toHaveLength(1));
    const early = ok.t.sendAppMessage({ event: 'force-end' });
    await vi.advanceTimersByTimeAsync(10);
    expect(ok.room().published).toEqual([]);
    joined();
    await connecting;
    await early;
    expect(ok.room().published.map((p) => JSON.parse(p.data))).toEqual([{ event: 'force-end' }]);

    let failed!: () => void;
    const bad = setup({ failFrom: 0, joining: new Promise<void>((r) => (failed = r)) });
    const attempt = bad.t.connect({ url: 'wss://lk', token: 'tok', eventTopic: 'liveai' });
    await vi.waitFor(() => expect(bad.rooms).toHaveLength(1));
    const lost = bad.t.sendAppMessage(chat('hello?'));
    failed();
    await expect(attempt).rejects.toMatchObject({ code: 'transport_failed' });
    await expect(lost).rejects.toMatchObject({ code: 'transport_failed' });
    expect(bad.room().published).toEqual([]);
  });

  it('a first join that fails is not retried here: connect rejects with transport_failed', async () => {
    const { rooms, t, log } = setup({ failFrom: 0 });
    await expect(t.connect({ url: 'wss://lk', token: 'tok', eventTopic: 'liveai' })).rejects.toMatchObject({ code: 'transport_failed' });
    expect(rooms).toHaveLength(1);
    expect(log.connection).toEqual(['connecting', 'disconnected']);
  });

  it('the deadline error names the reason of the drop', async () => {
    const { room, t, log } = setup({ failFrom: 1, reconnect: { deadlineMs: 50 } });
    await t.connect({ url: 'wss://lk', token: 'tok', eventTopic: 'liveai' });
    room().emit(RoomEvent.Disconnected, LK_REASON.SERVER_SHUTDOWN);
    await vi.waitFor(() => expect(log.disconnected).toHaveLength(1));
    expect(log.disconnected![0]).toMatchObject({ reason: 'SERVER_SHUTDOWN', error: { code: 'transport_failed' } });
    expect(log.disconnected![0]!.error!.detail).toMatch(/\(reason SERVER_SHUTDOWN\)$/);
  });

  it('connect({ reconnectDeadlineMs }) (the session option) sets the deadline', async () => {
    const { room, t, log } = setup({ failFrom: 1, reconnect: { deadlineMs: 60_000 } });
    await t.connect({ url: 'wss://lk', token: 'tok', eventTopic: 'liveai', reconnectDeadlineMs: 40 });
    room().emit(RoomEvent.Disconnected, LK_REASON.SERVER_SHUTDOWN);
    await vi.waitFor(() => expect(log.disconnected).toHaveLength(1));
    expect(log.disconnected![0]!.error!.detail).toMatch(/within 0 s/);
  });

  it('connect({ jitterBufferTargetMs: n }) (the session option) fixes the receivers of the subscribed tracks', async () => {
    const target = async (ms: number | 'auto' | undefined) => {
      const { room, t } = setup();
      await t.connect({ url: 'wss://lk', token: 'tok', eventTopic: 'liveai', jitterBufferTargetMs: ms });
      const receiver = { jitterBufferTarget: null as number | null };
      room().avatarArrives({ kind: 'video', mediaStreamTrack: { id: 'v' }, receiver } as never);
      await t.disconnect();
      return receiver.jitterBufferTarget;
    };
    expect(await target(250)).toBe(250);
    expect(await target(60_000)).toBe(4000); // the standard's maximum
    expect(await target(0)).toBeNull(); // the browser's own
    // 'auto' (the default, also for values that are not a target) leaves the receiver alone until the link loses packets.
    for (const ms of [undefined, 'auto', -5, Number.NaN] as const) expect(await target(ms)).toBeNull();
    // A browser without the property (or a track without a receiver) is left alone.
    const { room, t } = setup();
    await t.connect({ url: 'wss://lk', token: 'tok', eventTopic: 'liveai', jitterBufferTargetMs: 250 });
    const old = {};
    room().avatarArrives({ kind: 'video', mediaStreamTrack: { id: 'v' }, receiver: old } as never);
    expect(old).toEqual({});
  });

  it("jitterBufferTargetMs 'auto': 200 ms on the avatar's audio and video while the video loses packets, back after 30 s clean", async () => {
    const { room, t } = setup();
    await t.connect({ url: 'wss://lk', token: 'tok', eventTopic: 'liveai' });
    // The received video's inbound RTP totals, as its receiver's getStats reports them; 100 packets per 2 s.
    const totals = { packetsReceived: 0, packetsLost: 0, freezeCount: 0 };
    let reads = 0;
    const report = () => {
      reads++;
      return new Map([['in-v', { id: 'in-v', type: 'inbound-rtp', kind: 'video', ...totals }]]) as unknown as RTCStatsReport;
    };
    const video = { jitterBufferTarget: null as number | null };
    const audio = { jitterBufferTarget: null as number | null };
    const videoTrack = { kind: 'video', mediaStreamTrack: { id: 'v' }, receiver: video, getRTCStatsReport: async () => report() };
    room().avatarArrives(videoTrack as never);
    room().avatarArrives({ kind: 'audio', mediaStreamTrack: { id: 'a' }, receiver: audio } as never);
    const targets = () => [video.jitterBufferTarget, audio.jitterBufferTarget];
    /** `seconds` of playback, each 2 s losing `lost` of 100 packets (and freezing `froze` times). */
    const play = async (seconds: number, lost = 0, froze = 0) => {
      for (let s = 0; s < seconds; s += 2) {
        totals.packetsReceived += 100 - lost;
        totals.packetsLost += lost;
        totals.freezeCount += froze;
        await vi.advanceTimersByTimeAsync(2_000);
      }
    };

    await play(20);
    expect(targets()).toEqual([null, null]); // a clean link: the browser's own buffer, no added latency
    expect(reads).toBe(10); // every 2 s once the video is shown; none at once, while the call is being set up
    await play(4, 0, 1);
    expect(targets()).toEqual([null, null]); // a freeze without loss (a busy CPU) is not what a buffer cures
    await play(2, 1); // one packet lost in 10 s: under 1 %
    await play(8);
    expect(targets()).toEqual([null, null]);

    await play(6, 2); // 2 % loss: raised once the last 10 s lost 1 %
    expect(targets()).toEqual([200, 200]);
    await play(60, 2);
    expect(targets()).toEqual([200, 200]); // held while the loss lasts
    // A track shown while the target is raised (here the audio, republished) gets it too.
    const audio2 = { jitterBufferTarget: null as number | null };
    room().avatarArrives({ kind: 'audio', mediaStreamTrack: { id: 'a2' }, receiver: audio2 } as never);
    expect(audio2.jitterBufferTarget).toBe(200);
    await play(30);
    expect(targets()).toEqual([200, 200]); // 30 s after the loss stopped: still raised (the last 10 s still held it)
    await play(10);
    expect([video.jitterBufferTarget, audio2.jitterBufferTarget]).toEqual([null, null]);

    await play(10, 0, 1);
    totals.packetsLost += 1; // a freeze while a packet was lost
    await play(2, 0, 1);
    expect(video.jitterBufferTarget).toBe(200);

    // Sampling stops when the video goes away and when the room is left.
    room().emit(RoomEvent.TrackUnsubscribed, videoTrack, {}, AVATAR);
    const before = reads;
    await play(10);
    expect(reads).toBe(before);
    room().avatarArrives({ kind: 'video', mediaStreamTrack: { id: 'v3' }, getRTCStatsReport: async () => report() } as never);
    await play(4);
    expect(reads).toBe(before + 2);
    await t.disconnect();
    await play(10);
    expect(reads).toBe(before + 2);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("the old track's late unsubscribe after a reconnect does not blank the new video", async () => {
    const { room, t, log } = setup();
    await t.connect({ url: 'wss://lk', token: 'tok', eventTopic: 'liveai' });
    const old = { kind: 'video', mediaStreamTrack: { id: 'old' } };
    const fresh = { kind: 'video', mediaStreamTrack: { id: 'new' } };
    room().avatarArrives(old);
    room().emit(RoomEvent.SignalReconnecting);
    room().avatarArrives(fresh); // the republished track arrives first …
    room().emit(RoomEvent.TrackUnsubscribed, old, {}, AVATAR); // … then the old one is reported gone
    room().emit(RoomEvent.Reconnected);
    expect(log.track!.at(-1)).toEqual({ kind: 'video', track: fresh.mediaStreamTrack });
    room().emit(RoomEvent.TrackUnsubscribed, fresh, {}, AVATAR); // the current track going away still clears it
    expect(log.track!.at(-1)).toEqual({ kind: 'video', track: null });
  });

  it('our disconnect() during a rejoin stops it: no error, no more attempts, queued chat rejected', async () => {
    const { rooms, room, t, log } = setup({ failFrom: 1, reconnect: { deadlineMs: 10_000, baseDelayMs: 5 } });
    await t.connect({ url: 'wss://lk', token: 'tok', eventTopic: 'liveai' });
    room().emit(RoomEvent.Disconnected, LK_REASON.SIGNAL_CLOSE);
    const queued = t.sendAppMessage(chat('bye'));
    await vi.waitFor(() => expect(rooms.length).toBeGreaterThan(1));
    await t.disconnect();
    await expect(queued).rejects.toMatchObject({ code: 'transport_failed' });
    const n = rooms.length;
    await vi.advanceTimersByTimeAsync(40);
    expect(rooms).toHaveLength(n);
    expect(log.disconnected).toEqual([{ reason: 'client' }]);
    expect(log.connection?.at(-1)).toBe('disconnected');
  });

  it('after force-end a shutdown is not retried and is not an error (the session is ending)', async () => {
    const { rooms, room, t, log } = setup();
    await t.connect({ url: 'wss://lk', token: 'tok', eventTopic: 'liveai' });
    await t.sendAppMessage({ event: 'force-end' }); // no avatar yet: force-end never waits for it
    expect(room().published.map((p) => p.data)).toEqual(['{"event":"force-end"}']);
    room().emit(RoomEvent.Disconnected, LK_REASON.SERVER_SHUTDOWN);
    expect(log.disconnected).toEqual([{ reason: 'SERVER_SHUTDOWN' }]);
    await vi.advanceTimersByTimeAsync(10);
    expect(rooms).toHaveLength(1);
  });

  it('our disconnect reports no error and switches devices while connected', async () => {
    const { room, t, log } = setup();
    await t.connect({ url: 'wss://x', token: 't', eventTopic: 'liveai' });
    await t.setDevice('audioinput', 'm2');
    await t.disconnect();
    expect(room().switched).toEqual([['audioinput', 'm2']]);
    expect(room().disconnects).toBe(1);
    expect(log.disconnected).toEqual([{ reason: 'client' }]);
    await expect(t.sendAppMessage({ event: 'force-end' })).rejects.toMatchObject({ code: 'transport_failed' });
  });
});

describe('devices (issue 39.3)', () => {
  it("'' and 'default' are the system default: a preference, never the exact id '' (an OverconstrainedError)", async () => {
    const { room, t } = setup();
    await t.connect({ url: 'wss://x', token: 't', eventTopic: 'liveai' });
    await t.setDevice('audioinput', 'm2');
    await t.setDevice('audioinput', '');
    await t.setDevice('audioinput', 'default');
    await t.setDevice('audiooutput', '');
    expect(room().switched).toEqual([
      ['audioinput', 'm2'],
      ['audioinput', 'default', false],
      ['audioinput', 'default', false],
      ['audiooutput', '', false],
    ]);
    // The microphone then starts on the default device: no deviceId in its capture options.
    await t.setMicEnabled(true);
    expect(room().micCapture).toEqual([]);
  });

  it('a device the browser refuses rejects with device_failed, naming the device and what the browser said', async () => {
    const { room, t } = setup();
    await t.connect({ url: 'wss://x', token: 't', eventTopic: 'liveai' });
    room().switchError = Object.assign(new Error('Requested device not found'), { name: 'NotFoundError' });
    const failed = await t.setDevice('audioinput', 'gone').catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(LiveAiError);
    expect(failed).toMatchObject({
      code: 'device_failed',
      detail: expect.stringMatching(/"gone" microphone: no such device.*NotFoundError/),
    });
  });
});

describe('livekit-client logging', () => {
  it('is lowered to warn once, unless the page chose a level with setLogLevel', async () => {
    const { getLogger } = await import('livekit-client');
    const { quietLiveKitLogs } = await import('../../../src/core/transports/livekit/adapter');
    const level = () => getLogger('livekit').getLevel();
    const before = level();
    quietLiveKitLogs({ getItem: () => 'DEBUG' }); // the page persisted its own level
    expect(level()).toBe(before);
    quietLiveKitLogs({ getItem: () => null });
    expect(level()).toBe(3); // LogLevel.warn: no info lines on every connect
  });
});

describe('a browser without WebRTC', () => {
  it('connect rejects with transport_failed, not retryable, in words a visitor understands', async () => {
    expect(typeof (globalThis as { RTCPeerConnection?: unknown }).RTCPeerConnection).toBe('undefined'); // jsdom
    const error = await createLiveKitTransport()
      .connect({ url: 'ws://127.0.0.1:1', token: 't', eventTopic: 'liveai' } as Parameters<
        ReturnType<typeof createLiveKitTransport>['connect']
      >[0])
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LiveAiError);
    expect(error).toMatchObject({ code: 'transport_failed', retryable: false });
    expect((error as LiveAiError).detail).toMatch(/^This browser cannot make video calls \(it has no WebRTC\)/);
  });
});

describe('LiveKit agent state, speakers, microphone track and stats (issue 27)', () => {
  const AGENT = { identity: 'agent', attributes: { 'lk.agent.state': 'listening' } };
  it('reports the agent’s lk.agent.state, who speaks (avatar, us), and our published microphone track', async () => {
    const { room, t, log } = setup();
    await t.connect({ url: 'ws://127.0.0.1:7880', token: 'tok', eventTopic: 'liveai' });
    (room().localParticipant as { identity?: string }).identity = 'user-1';
    const avatar = { identity: 'liveai-avatar-1', attributes: { 'lk.publish_on_behalf': 'agent' } };
    room().emit(RoomEvent.ParticipantConnected, avatar);
    room().emit(RoomEvent.ParticipantAttributesChanged, {}, AGENT);
    room().emit(RoomEvent.ParticipantAttributesChanged, {}, { identity: 'other-agent', attributes: { 'lk.agent.state': 'speaking' } });
    room().emit(RoomEvent.ParticipantAttributesChanged, {}, { ...AGENT, attributes: { 'lk.agent.state': 'thinking' } });
    expect(log.agentState).toEqual([{ state: 'listening' }, { state: 'thinking' }]);

    room().emit(RoomEvent.ActiveSpeakersChanged, [{ identity: 'user-1' }]);
    room().emit(RoomEvent.ActiveSpeakersChanged, [{ identity: 'user-1' }, { identity: 'someone' }]);
    room().emit(RoomEvent.ActiveSpeakersChanged, [avatar]);
    room().emit(RoomEvent.ActiveSpeakersChanged, []);
    expect(log.speaking).toEqual([
      { who: 'user', speaking: true },
      { who: 'avatar', speaking: true },
      { who: 'user', speaking: false },
      { who: 'avatar', speaking: false },
    ]);

    const mic = { id: 'mic' } as unknown as MediaStreamTrack;
    room().emit(RoomEvent.LocalTrackPublished, { source: 'camera', track: { mediaStreamTrack: { id: 'cam' } } });
    room().emit(RoomEvent.LocalTrackPublished, { source: 'microphone', track: { mediaStreamTrack: mic } });
    room().emit(RoomEvent.LocalTrackUnpublished, { source: 'microphone', track: { mediaStreamTrack: mic } });
    expect(log.micTrack).toEqual([{ track: mic }, { track: null }]);
  });

  it('getStats reads the receivers of the avatar’s tracks: rtt, jitter, loss and bitrate since the last sample, fps', async () => {
    const { room, t } = setup();
    expect(await t.getStats!()).toBeNull();
    await t.connect({ url: 'ws://127.0.0.1:7880', token: 'tok', eventTopic: 'liveai' });
    const sample = (bytes: number, received: number, lost: number) =>
      new Map<string, Record<string, unknown>>([
        [
          'in-v',
          {
            id: 'in-v',
            type: 'inbound-rtp',
            kind: 'video',
            bytesReceived: bytes,
            packetsReceived: received,
            packetsLost: lost,
            jitter: 0.012,
            framesPerSecond: 25,
          },
        ],
        ['cp', { id: 'cp', type: 'candidate-pair', state: 'succeeded', nominated: true, currentRoundTripTime: 0.042 }],
      ]) as unknown as RTCStatsReport;
    let report = sample(100_000, 1000, 0);
    const video = { kind: 'video', mediaStreamTrack: { id: 'v' }, getRTCStatsReport: async () => report };
    room().emit(RoomEvent.TrackSubscribed, video, {}, AVATAR);
    const first = (await t.getStats!())!;
    expect(first).toMatchObject({ rttMs: 42, jitterMs: 12, packetLossPct: 0, fps: 25, bitrateKbps: null });
    vi.advanceTimersByTime(2_000);
    report = sample(350_000, 1180, 20);
    const second = (await t.getStats!())!;
    expect(second.bitrateKbps).toBe(1000); // 250 000 bytes in 2 s
    expect(second.packetLossPct).toBe(10); // 20 lost of 200 expected
    // A second reader on the page (a quality indicator beside the app's own useCallStats) asking at the same
    // moment gets the same rates, not a null bitrate over a zero-length interval.
    report = sample(360_000, 1190, 20);
    expect(await t.getStats!()).toEqual(second);
    await t.disconnect();
    expect(await t.getStats!()).toBeNull();
  });
});

describe('LiveKit interrupt (issue 40.5)', () => {
  const connected = async () => {
    const env = setup();
    await env.t.connect({ url: 'ws://127.0.0.1:7880', token: 'tok', eventTopic: 'liveai' });
    return env;
  };
  it('asks the agent the avatar speaks for (lk.publish_on_behalf) through the RPC liveai.interrupt', async () => {
    const { room, t } = await connected();
    room().emit(RoomEvent.ParticipantConnected, { identity: 'liveai-avatar-1', attributes: { 'lk.publish_on_behalf': 'agent-7' } });
    await t.interrupt!();
    expect(room().rpcs).toEqual([expect.objectContaining({ destinationIdentity: 'agent-7', method: 'liveai.interrupt', payload: '' })]);
  });
  it('a room whose avatar speaks for no agent (a hosted room): invalid_request, nothing sent', async () => {
    const { room, t } = await connected();
    room().emit(RoomEvent.ParticipantConnected, AVATAR);
    await expect(t.interrupt!()).rejects.toMatchObject({ code: 'invalid_request' });
    expect(room().rpcs).toEqual([]);
  });
  it('an agent without the method: invalid_request naming it; an agent that fails: transport_failed', async () => {
    const { room, t } = await connected();
    room().emit(RoomEvent.ParticipantConnected, { identity: 'liveai-avatar-1', attributes: { 'lk.publish_on_behalf': 'agent-7' } });
    room().rpcAnswer = async () => Promise.reject(Object.assign(new Error('Method not supported at destination'), { code: 1400 }));
    await expect(t.interrupt!()).rejects.toMatchObject({ code: 'invalid_request', detail: expect.stringContaining('liveai.interrupt') });
    room().rpcAnswer = async () => Promise.reject(Object.assign(new Error('Response timeout'), { code: 1502 }));
    await expect(t.interrupt!()).rejects.toMatchObject({ code: 'transport_failed' });
  });
  it('not connected: transport_failed', async () => {
    const { t } = setup();
    await expect(t.interrupt!()).rejects.toMatchObject({ code: 'transport_failed' });
  });
});
