import { EventEmitter } from 'node:events';
import { ParticipantEvent, RoomEvent } from 'livekit-client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  PRE_CONNECT_MAX_BYTES,
  PRE_CONNECT_MAX_MS,
  PRE_CONNECT_TOPIC,
  PreConnectRelay,
  type StartRecording,
} from '../../../src/core/transports/livekit/pre-connect';
import { AvatarIdentity, PARTICIPANT_KIND_AGENT } from '../../../src/core/transports/avatar-identity';
import { RoomSession, type RoomHooks, type RoomLike } from '../../../src/core/transports/livekit/room';

// Issue 40.1: who gets the visitor's pre-connect audio. livekit-client sends its recording to the agent-kind participant
// that became active last; the relay sends its own to the agent exactly when that participant was an avatar.
beforeEach(() => void vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] }));
afterEach(() => void vi.useRealTimers());

type Peer = { identity: string; kind?: number; attributes?: Record<string, string>; isActive?: boolean };
const AGENT: Peer = { identity: 'agent', kind: PARTICIPANT_KIND_AGENT, isActive: true };
const AVATAR: Peer = {
  identity: 'avatar-1',
  kind: PARTICIPANT_KIND_AGENT,
  isActive: true,
  attributes: { 'lk.publish_on_behalf': 'agent' },
};
const MIC = {
  source: 'microphone',
  trackSid: 'TR_mic',
  track: { mediaStreamTrack: { getSettings: () => ({ sampleRate: 48000, channelCount: 1 }) } },
};

/** A livekit-client Room stand-in: the test plays its events in livekit-client's order. */
class FakeRoom extends EventEmitter {
  remoteParticipants = new Map<string, Peer>();
  streams: { options: Record<string, unknown>; chunks: number[]; closed: boolean }[] = [];
  streamError: Error | null = null;
  /** The local participant's own events (livekit-client emits `localTrackSubscribed` there even while connecting). */
  readonly local = new EventEmitter();
  localParticipant = {
    on: (event: string, fn: (...args: unknown[]) => void) => this.local.on(event, fn),
    off: (event: string, fn: (...args: unknown[]) => void) => this.local.off(event, fn),
    streamBytes: async (options: Record<string, unknown>) => {
      if (this.streamError) throw this.streamError;
      const s = { options, chunks: [] as number[], closed: false };
      this.streams.push(s);
      return {
        write: async (chunk: Uint8Array) => void s.chunks.push(...chunk),
        close: async () => void (s.closed = true),
      };
    },
  };
  /** Participants already in the room when the join answers, in the server's order. */
  joinWith(...peers: Peer[]) {
    for (const p of peers) this.remoteParticipants.set(p.identity, p);
    this.emit(RoomEvent.SignalConnected);
  }
  /** A participant joins and becomes active after the room connected. */
  arrive(p: Peer) {
    this.remoteParticipants.set(p.identity, p);
    this.emit(RoomEvent.ParticipantConnected, p);
    this.emit(RoomEvent.ParticipantActive, p);
  }
}

/** A recording whose chunks the test hands out; `stop` ends it (the last chunk, then the end, as MediaRecorder does). */
function fakeRecorder(opts: { fail?: boolean } = {}) {
  const rec = { started: 0, stopped: 0, chunk: (_c: number[]) => {}, end: () => {} };
  const record: StartRecording = async (_capture, onChunk, onEnd) => {
    if (opts.fail) return null;
    rec.started++;
    rec.chunk = (c) => onChunk(new Uint8Array(c));
    rec.end = onEnd;
    return {
      mimeType: 'audio/webm;codecs=opus',
      stop() {
        if (rec.stopped) return; // idempotent
        rec.stopped++;
        onChunk(new Uint8Array([99]));
        onEnd();
      },
    };
  };
  return { rec, record };
}

async function setup(o: { expected?: string; fail?: boolean } = {}) {
  const room = new FakeRoom();
  const { rec, record } = fakeRecorder(o);
  const log = vi.fn();
  const relay = new PreConnectRelay(room, {
    isAvatar: (p) => !!p.attributes?.['lk.publish_on_behalf'] || p.identity === o.expected,
    agentOf: () => null,
    record,
    log,
  });
  await relay.start(undefined);
  return { room, rec, relay, log };
}
const flush = () => vi.advanceTimersByTimeAsync(0);

describe('pre-connect audio relay (issue 40.1)', () => {
  it('livekit-client addressed the avatar (it became active last): the agent gets the relay’s recording, whole', async () => {
    const { room, rec } = await setup();
    rec.chunk([1, 2]);
    room.joinWith(AGENT, AVATAR);
    rec.chunk([3]);
    room.emit(RoomEvent.LocalTrackPublished, MIC);
    await flush();
    rec.chunk([4]);
    await flush();
    room.local.emit(ParticipantEvent.LocalTrackSubscribed, { trackSid: 'TR_mic' }); // the agent listens: recording stops
    await flush();
    expect(rec.stopped).toBe(1);
    expect(room.streams).toHaveLength(1);
    expect(room.streams[0]!.options).toEqual({
      name: 'preconnect-buffer',
      topic: PRE_CONNECT_TOPIC,
      mimeType: 'audio/webm;codecs=opus',
      destinationIdentities: ['agent'],
      attributes: { trackId: 'TR_mic', sampleRate: '48000', channels: '1' },
    });
    expect(room.streams[0]!.chunks).toEqual([1, 2, 3, 4, 99]);
    expect(room.streams[0]!.closed).toBe(true);
  });

  it('the microphone’s subscription reported before its publication (the room still connecting): recording stops then', async () => {
    const { room, rec } = await setup();
    room.joinWith(AGENT, AVATAR);
    rec.chunk([1]);
    room.local.emit(ParticipantEvent.LocalTrackSubscribed, { trackSid: 'TR_mic' });
    expect(rec.stopped).toBe(0);
    room.emit(RoomEvent.LocalTrackPublished, MIC);
    await flush();
    expect(rec.stopped).toBe(1);
    expect(room.streams[0]!.chunks).toEqual([1, 99]);
    expect(room.streams[0]!.closed).toBe(true);
  });

  it('livekit-client addressed the agent (listed last, or the only agent-kind participant): the relay sends nothing', async () => {
    for (const order of [[AVATAR, AGENT], [AGENT]]) {
      const { room, rec } = await setup();
      rec.chunk([1]);
      room.joinWith(...order);
      room.emit(RoomEvent.LocalTrackPublished, MIC);
      await flush();
      expect(rec.stopped).toBe(1); // the microphone the relay opened is released at once
      await vi.advanceTimersByTimeAsync(PRE_CONNECT_MAX_MS * 2);
      expect(room.streams).toEqual([]);
    }
  });

  it('the avatar became active after the join but before the microphone was published: it was addressed', async () => {
    const { room, rec } = await setup();
    room.joinWith(AGENT);
    room.arrive(AVATAR);
    rec.chunk([7]);
    room.emit(RoomEvent.LocalTrackPublished, MIC);
    await flush();
    expect(room.streams.map((s) => s.options.destinationIdentities)).toEqual([['agent']]);
  });

  it('the avatar joins after the microphone was published (the cold start): livekit-client kept the agent; nothing sent', async () => {
    const { room, rec } = await setup();
    room.joinWith(AGENT);
    room.emit(RoomEvent.LocalTrackPublished, MIC);
    room.arrive(AVATAR);
    rec.chunk([7]);
    await vi.advanceTimersByTimeAsync(PRE_CONNECT_MAX_MS * 2);
    expect(room.streams).toEqual([]);
  });

  it('no agent yet at the publication: the first to become active is addressed; an avatar first → to its agent once it is there', async () => {
    const { room, rec } = await setup();
    room.joinWith();
    room.emit(RoomEvent.LocalTrackPublished, MIC);
    rec.chunk([5]);
    room.arrive({ ...AVATAR, attributes: { 'lk.publish_on_behalf': 'agent-2' } });
    await flush();
    expect(room.streams).toEqual([]); // its agent is not in the room yet
    room.arrive({ ...AGENT, identity: 'agent-2' });
    await flush();
    expect(room.streams.map((s) => s.options.destinationIdentities)).toEqual([['agent-2']]);
    expect(room.streams[0]!.chunks).toEqual([5]);
  });

  it('a named avatar without lk.publish_on_behalf: to the only other agent-kind participant', async () => {
    const { room } = await setup({ expected: 'liveai-avatar-9' });
    room.joinWith(AGENT, { identity: 'liveai-avatar-9', kind: PARTICIPANT_KIND_AGENT, isActive: true });
    room.emit(RoomEvent.LocalTrackPublished, MIC);
    await flush();
    expect(room.streams.map((s) => s.options.destinationIdentities)).toEqual([['agent']]);
  });

  it('recording stops after 10 s and at the byte cap; a recording nobody takes within 10 s of the publication is dropped', async () => {
    const { room, rec } = await setup();
    await vi.advanceTimersByTimeAsync(PRE_CONNECT_MAX_MS);
    expect(rec.stopped).toBe(1);

    const b = await setup();
    b.rec.chunk(Array.from({ length: PRE_CONNECT_MAX_BYTES }, () => 1));
    expect(b.rec.stopped).toBe(0);
    b.rec.chunk([1]); // one byte over
    expect(b.rec.stopped).toBe(1);

    room.joinWith(AVATAR); // its agent never comes
    room.emit(RoomEvent.LocalTrackPublished, MIC);
    await vi.advanceTimersByTimeAsync(PRE_CONNECT_MAX_MS);
    room.arrive(AGENT);
    await flush();
    expect(room.streams).toEqual([]);
  });

  it('leaving releases the microphone and sends nothing; a failed send is logged and never thrown', async () => {
    const { room, rec, relay } = await setup();
    relay.dispose();
    expect(rec.stopped).toBe(1);
    room.joinWith(AGENT, AVATAR);
    room.emit(RoomEvent.LocalTrackPublished, MIC);
    await flush();
    expect(room.streams).toEqual([]);
    expect(room.listenerCount(RoomEvent.LocalTrackPublished)).toBe(0);

    const b = await setup();
    b.room.streamError = new Error('data channel closed');
    b.room.joinWith(AGENT, AVATAR);
    b.room.emit(RoomEvent.LocalTrackPublished, MIC);
    await flush();
    expect(b.log).toHaveBeenCalledWith(expect.stringContaining('could not send'), b.room.streamError);
    expect(b.rec.stopped).toBe(1);
  });

  it('a page that cannot record: nothing is listened to after the start, and the call goes on', async () => {
    const { room } = await setup({ fail: true });
    expect(room.eventNames()).toEqual([]);
    expect(room.local.eventNames()).toEqual([]);
  });
});

describe('a join with pre-connect audio (issue 40.1)', () => {
  it('the relay records before livekit-client opens the microphone, and leaving the room releases it', async () => {
    const steps: string[] = [];
    const room = Object.assign(new FakeRoom(), {
      connect: async () => void steps.push('connect'),
      disconnect: async () => void steps.push('disconnect'),
      switchActiveDevice: async () => true,
    });
    Object.assign(room.localParticipant, {
      identity: 'user-1',
      publishData: async () => {},
      setMicrophoneEnabled: async (_on: boolean, capture?: { deviceId?: string; preConnectBuffer?: boolean }) =>
        void steps.push(`mic ${String(capture?.deviceId)} preConnectBuffer=${String(capture?.preConnectBuffer)}`),
    });
    const { rec, record } = fakeRecorder();
    const captured: unknown[] = [];
    const hooks = new Proxy({}, { get: () => () => {} }) as RoomHooks;
    const session = new RoomSession(room as unknown as RoomLike, new AvatarIdentity(), hooks, {}, undefined, (capture, ...rest) => {
      captured.push(capture);
      steps.push('record');
      return record(capture, ...rest);
    });
    await session.join('ws://127.0.0.1:7880', 'tok', { capture: { deviceId: 'mic-2' }, micFailed: () => steps.push('mic failed') });
    expect(steps).toEqual(['record', 'connect', 'mic mic-2 preConnectBuffer=true']);
    expect(captured).toEqual([{ deviceId: 'mic-2' }]);
    expect(rec.stopped).toBe(0);
    await session.leave();
    expect(rec.stopped).toBe(1);
    expect(room.eventNames()).toEqual([]);
    expect(room.local.eventNames()).toEqual([]);
  });
});
