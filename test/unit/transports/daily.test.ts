import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { recordEvents } from './record-events';
import { createDailyTransport, type DailyCallLike } from '../../../src/core/transports/daily/adapter';

/** A fake daily-js call object: an EventEmitter with the methods the adapter uses. */
class FakeDailyCall extends EventEmitter implements DailyCallLike {
  joinArgs: unknown[] = [];
  appMessages: [unknown, string | undefined][] = [];
  localAudio: boolean[] = [];
  inputs: unknown[] = [];
  outputs: unknown[] = [];
  left = 0;
  destroyed = 0;
  failJoin: Error | null = null;
  async join(p: unknown) {
    this.joinArgs.push(p);
    if (this.failJoin) throw this.failJoin;
    this.emit('joined-meeting', {});
    return {};
  }
  async leave() {
    this.left++;
    this.emit('left-meeting', { action: 'left-meeting' });
  }
  async destroy() {
    this.destroyed++;
  }
  sendAppMessage(data: unknown, to?: string) {
    this.appMessages.push([data, to]);
    return this;
  }
  setLocalAudio(on: boolean) {
    this.localAudio.push(on);
    return this;
  }
  async setInputDevicesAsync(d: unknown) {
    this.inputs.push(d);
    return {};
  }
  async setOutputDeviceAsync(d: unknown) {
    this.outputs.push(d);
    return {};
  }
  observers: string[] = [];
  async startRemoteParticipantsAudioLevelObserver(ms?: number) {
    this.observers.push(`remote ${ms}`);
  }
  async startLocalAudioLevelObserver(ms?: number) {
    this.observers.push(`local ${ms}`);
  }
  latest: Record<string, number | null> = {};
  async getNetworkStats() {
    return { stats: { latest: this.latest } };
  }
}

function setup() {
  const call = new FakeDailyCall();
  const t = createDailyTransport({ createCallObject: () => call });
  const log = recordEvents(t);
  return { call, t, log };
}
const opts = { url: 'https://acme.daily.co/room-1', token: 'room-token', eventTopic: 'liveai' };
const track = (id: string) => ({ id, kind: id.startsWith('v') ? 'video' : 'audio' }) as unknown as MediaStreamTrack;

describe('rtc-b adapter (fake DailyCall)', () => {
  it('joins with url and token, camera off, mic per option; connection connecting → connected', async () => {
    const { call, t, log } = setup();
    await t.connect({ ...opts, micEnabled: false });
    expect(t.kind).toBe('rtc-b');
    expect(call.joinArgs).toEqual([{ url: opts.url, token: 'room-token', startVideoOff: true, startAudioOff: true }]);
    expect(log.connection).toEqual(['connecting', 'connected']);
  });

  it('joins with the chosen microphone as its audio source', async () => {
    const { call, t } = setup();
    await t.connect({ ...opts, micEnabled: true, micDeviceId: 'mic-2' });
    expect(call.joinArgs).toEqual([
      { url: opts.url, token: 'room-token', startVideoOff: true, startAudioOff: false, audioSource: 'mic-2' },
    ]);
  });

  it('parses app-message data into events; junk becomes invalidMessage', async () => {
    const { call, t, log } = setup();
    await t.connect(opts);
    call.emit('app-message', { action: 'app-message', data: { type: 'agent_transcription', transcription: 'Hello!' }, fromId: 'bot' });
    call.emit('app-message', { action: 'app-message', data: '{"type":"bot_ready"}', fromId: 'bot' });
    call.emit('app-message', { action: 'app-message', data: { hello: 'world' }, fromId: 'bot' });
    expect(log.event).toEqual([{ type: 'agent_transcription', transcription: 'Hello!' }, { type: 'bot_ready' }]);
    // A message that is not an event is reported once the zod schemas (loaded for it) gave the exact error.
    await vi.waitFor(() => expect(log.invalidMessage).toHaveLength(1));
    expect(log.invalidMessage![0]!.error.code).toBe('invalid_event');
  });

  it('remote tracks start and stop; local and screen tracks are ignored', async () => {
    const { call, t, log } = setup();
    await t.connect(opts);
    const v = track('v1');
    const a = track('a1');
    call.emit('track-started', { participant: { local: false }, track: v, type: 'video' });
    call.emit('track-started', { participant: { local: false }, track: a, type: 'audio' });
    call.emit('track-started', { participant: { local: true }, track: track('a-local'), type: 'audio' });
    call.emit('track-started', { participant: { local: false }, track: track('v-screen'), type: 'screenVideo' });
    call.emit('track-stopped', { participant: { local: false }, track: v, type: 'video' });
    call.emit('track-stopped', { participant: null, track: a, type: 'audio' });
    expect(log.track).toEqual([
      { kind: 'video', track: v },
      { kind: 'audio', track: a },
      { kind: 'video', track: null },
    ]);
  });

  it("ignores another participant's app messages and tracks: no fake idle_timeout, no transcript line, no camera as the avatar", async () => {
    const { call, t, log } = setup();
    await t.connect(opts);
    const avatar = { local: false, session_id: 'avatar-sid', user_name: 'Avatar' };
    const intruder = { local: false, session_id: 'viewer-2', user_name: 'Avatar' };
    call.emit('app-message', { action: 'app-message', data: { type: 'bot_ready' }, fromId: avatar.session_id });
    call.emit('app-message', { action: 'app-message', data: { type: 'idle_timeout' }, fromId: intruder.session_id });
    call.emit('app-message', {
      action: 'app-message',
      data: { type: 'user_transcription', transcription: '<img src=x onerror=alert(1)>' },
      fromId: intruder.session_id,
    });
    call.emit('app-message', { action: 'app-message', data: { hello: 'world' }, fromId: intruder.session_id });
    const camera = track('v-camera');
    call.emit('track-started', { participant: intruder, track: camera, type: 'video' });
    // The avatar's own video still shows; the other's camera stopping does not blank it.
    const v = track('v-avatar');
    call.emit('track-started', { participant: avatar, track: v, type: 'video' });
    call.emit('track-stopped', { participant: intruder, track: camera, type: 'video' });
    call.emit('app-message', {
      action: 'app-message',
      data: { type: 'agent_transcription', transcription: 'Hi' },
      fromId: avatar.session_id,
    });
    expect(log.event).toEqual([{ type: 'bot_ready' }, { type: 'agent_transcription', transcription: 'Hi' }]);
    expect(log.invalidMessage).toBeUndefined();
    expect(log.track).toEqual([{ kind: 'video', track: v }]);
  });

  it('the first remote participant that starts a track is the avatar; later senders are ignored', async () => {
    const { call, t, log } = setup();
    await t.connect(opts);
    const a = track('a-avatar');
    call.emit('track-started', { participant: { local: false, session_id: 'avatar-sid' }, track: a, type: 'audio' });
    call.emit('track-started', { participant: { local: false, session_id: 'late' }, track: track('a-late'), type: 'audio' });
    call.emit('app-message', { action: 'app-message', data: { type: 'idle_timeout' }, fromId: 'late' });
    call.emit('track-stopped', { participant: { local: false, session_id: 'avatar-sid' }, track: a, type: 'audio' });
    expect(log.event).toBeUndefined();
    expect(log.track).toEqual([
      { kind: 'audio', track: a },
      { kind: 'audio', track: null },
    ]);
  });

  it('network-connection interrupted → reconnecting, connected → connected', async () => {
    const { call, t, log } = setup();
    await t.connect(opts);
    call.emit('network-connection', { type: 'signaling', event: 'interrupted' });
    call.emit('network-connection', { type: 'signaling', event: 'connected' });
    expect(log.connection).toEqual(['connecting', 'connected', 'reconnecting', 'connected']);
  });

  it('a fatal error or an unexpected left-meeting is disconnected with transport_failed', async () => {
    const { call, t, log } = setup();
    await t.connect(opts);
    call.emit('error', { action: 'error', errorMsg: 'Meeting has ended' });
    call.emit('left-meeting', {});
    expect(log.disconnected).toHaveLength(1);
    expect(log.disconnected![0]!.error).toMatchObject({ code: 'transport_failed', detail: expect.stringMatching(/Meeting has ended/) });
    expect(log.connection!.at(-1)).toBe('disconnected');
  });

  it('our own disconnect leaves, destroys and reports no error; idempotent', async () => {
    const { call, t, log } = setup();
    await t.connect(opts);
    await t.disconnect();
    await t.disconnect();
    expect([call.left, call.destroyed]).toEqual([1, 1]);
    expect(log.disconnected).toEqual([{ reason: 'client' }]);
  });

  it('a failed join rejects transport_failed and destroys the call object', async () => {
    const { call, t } = setup();
    call.failJoin = new Error('room not found');
    await expect(t.connect(opts)).rejects.toMatchObject({ code: 'transport_failed', detail: expect.stringMatching(/room not found/) });
    expect(call.destroyed).toBe(1);
  });

  it('sends app messages to everyone, switches the mic and devices; not connected → transport_failed', async () => {
    const { call, t, log } = setup();
    await expect(t.sendAppMessage({ event: 'force-end' })).rejects.toMatchObject({ code: 'transport_failed' });
    await t.connect({ ...opts, micEnabled: true });
    await t.sendAppMessage({ event: 'chat-msg', message: 'hi', name: 'Ann' });
    await t.setMicEnabled(false);
    await t.setDevice('audioinput', 'mic-1');
    await t.setDevice('videoinput', 'cam-1');
    await t.setDevice('audiooutput', 'spk-1');
    expect(call.appMessages).toEqual([[{ event: 'chat-msg', message: 'hi', name: 'Ann' }, '*']]);
    expect(call.localAudio).toEqual([false]);
    expect(log.mic).toEqual([{ enabled: true }, { enabled: false }]);
    expect(call.inputs).toEqual([{ audioDeviceId: 'mic-1' }, { videoDeviceId: 'cam-1' }]);
    expect(call.outputs).toEqual([{ outputDeviceId: 'spk-1' }]);
  });

  it("'' / 'default' is the system default (the listed default entry, else the first device); failures are device_failed", async () => {
    const { call, t } = setup();
    await t.connect(opts);
    const listed = [
      { kind: 'audioinput', deviceId: 'usb-mic' },
      { kind: 'audiooutput', deviceId: 'default' },
    ];
    vi.stubGlobal('navigator', { mediaDevices: { enumerateDevices: async () => listed } });
    try {
      await t.setDevice('audioinput', '');
      await t.setDevice('audiooutput', 'default');
      expect(call.inputs).toEqual([{ audioDeviceId: 'usb-mic' }]);
      expect(call.outputs).toEqual([{ outputDeviceId: 'default' }]);
      call.setInputDevicesAsync = () => Promise.reject(Object.assign(new Error('busy'), { name: 'NotReadableError' }));
      await expect(t.setDevice('audioinput', 'usb-mic')).rejects.toMatchObject({
        code: 'device_failed',
        detail: expect.stringMatching(/in use.*NotReadableError/),
      });
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('the avatar leaving the call mid-call is avatarLeft (the session then ends as with LiveKit); anyone else leaving is not', async () => {
    const { call, t, log } = setup();
    await t.connect(opts);
    const avatar = { local: false, session_id: 'avatar-sid' };
    call.emit('app-message', { action: 'app-message', data: { type: 'bot_ready' }, fromId: avatar.session_id });
    call.emit('participant-left', { action: 'participant-left', participant: { local: false, session_id: 'viewer-2' } });
    expect(log.avatarLeft).toBeUndefined();
    call.emit('participant-left', { action: 'participant-left', participant: avatar });
    expect(log.avatarLeft).toEqual([{ identity: 'avatar-sid' }]);
    expect(log.disconnected).toBeUndefined(); // we are still in the room: the session decides
  });

  it('an aborted signal cancels the join', async () => {
    const { t } = setup();
    const ac = new AbortController();
    ac.abort();
    await expect(t.connect({ ...opts, signal: ac.signal })).rejects.toMatchObject({ code: 'aborted' });
    vi.restoreAllMocks();
  });
});

describe('rtc-b speaking, microphone track and network stats (issue 27)', () => {
  it('audio levels: speaking above 0.02 at once, quiet after three quiet samples; the local audio track is the mic track', async () => {
    const { call, t, log } = setup();
    await t.connect(opts);
    expect(call.observers).toEqual(['remote 200', 'local 200']);
    const levels = (l: number) => call.emit('remote-participants-audio-level', { participantsAudioLevel: { bot: l, other: 0 } });
    [0.01, 0.3, 0.001, 0.001, 0.2, 0.001, 0.001, 0.001].forEach(levels);
    call.emit('local-audio-level', { audioLevel: 0.5 });
    expect(log.speaking).toEqual([
      { who: 'avatar', speaking: true },
      { who: 'avatar', speaking: false },
      { who: 'user', speaking: true },
    ]);
    const mic = track('a-local');
    call.emit('track-started', { participant: { local: true }, track: mic, type: 'audio' });
    call.emit('track-stopped', { participant: { local: true }, track: mic, type: 'audio' });
    expect(log.micTrack).toEqual([{ track: mic }, { track: null }]);
  });

  it('getStats maps daily-js network stats (seconds, fractions, bit/s) to ms, percent and kbit/s; no fps', async () => {
    const { call, t } = setup();
    expect(await t.getStats!()).toBeNull();
    await t.connect(opts);
    call.latest = {
      networkRoundTripTime: 0.08,
      recvBitsPerSecond: 640_000,
      videoRecvPacketLoss: 0.02,
      audioRecvPacketLoss: 0.01,
      videoRecvJitter: 0.015,
      audioRecvJitter: null,
    };
    expect(await t.getStats!()).toMatchObject({ rttMs: 80, bitrateKbps: 640, packetLossPct: 2, jitterMs: 15, fps: null });
    call.latest = {};
    expect(await t.getStats!()).toMatchObject({ rttMs: null, bitrateKbps: null, packetLossPct: null, jitterMs: null });
  });
});
