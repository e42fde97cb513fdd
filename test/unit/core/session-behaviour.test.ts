import { EventEmitter } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LiveAiError, type AvatarSessionOptions } from '../../../src/core';
import { blobToText } from '../../../src/core/image/blob';
import { createDailyTransport } from '../../../src/core/transports/daily/adapter';
import { FakeTransport, createFakeProxy } from '../../../src/testing';
import { fakeVideoTrack, harness, settle, until, type Harness, useFakeClock } from './helpers';

let h: Harness | undefined;
afterEach(() => void vi.useRealTimers());
beforeEach(() => void useFakeClock());
afterEach(() => {
  // Each write kept what its phase promises (the variants of SessionState).
  if (h) expect(h.violations).toEqual([]);
  h?.session.dispose({ end: false });
  h = undefined;
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

async function activeHarness(opts: Parameters<typeof harness>[0] = {}) {
  h = harness({ proxy: createFakeProxy({ initialStatus: 'ACTIVE' }), ...opts });
  await h.session.start();
  return h;
}

describe('start guards and failures', () => {
  it('a double start returns the same promise and creates one paid session', async () => {
    h = harness({ proxy: createFakeProxy({ initialStatus: 'ACTIVE' }) });
    const a = h.session.start();
    const b = h.session.start();
    expect(b).toBe(a);
    await Promise.all([a, b]);
    await h.session.start();
    expect(h.proxy.callsTo('POST /rooms')).toHaveLength(1);
  });

  it('a proxy error on create (402) ends in phase error with the typed error, reported once', async () => {
    h = harness();
    h.proxy.failNext('POST /rooms', 402, 'Insufficient funds');
    await expect(h.session.start()).rejects.toMatchObject({ code: 'insufficient_funds', detail: 'Insufficient funds', status: 402 });
    expect(h.phases).toEqual(['idle', 'creating', 'error']);
    expect(h.session.store.getState().error?.code).toBe('insufficient_funds');
    expect(h.errors).toEqual([{ code: 'insufficient_funds', detail: 'Insufficient funds' }]);
  });

  it('a failed join ends the created session so nobody pays for it', async () => {
    const fake = new FakeTransport({ autoConnect: false });
    h = harness({ fake });
    const started = settle(h.session.start());
    await until(() => fake.connectCalls.length === 1, 'join started');
    fake.failConnect('ICE failed');
    expect(await started).toMatchObject({ code: 'transport_failed' });
    expect(h.session.store.getState().phase).toBe('error');
    await until(() => h!.proxy.callsTo('POST /sessions/:id/end').length === 1, 'end sent');
  });

  it('a missing transport SDK is a missing_peer error with an install hint', async () => {
    h = harness({
      loadTransport: async () => Promise.reject(new LiveAiError('missing_peer', 'install @daily-co/daily-js: npm i @daily-co/daily-js')),
    });
    await expect(h.session.start()).rejects.toMatchObject({ code: 'missing_peer' });
    expect(h.session.store.getState().error?.detail).toMatch(/npm i @daily-co\/daily-js/);
  });

  it('a browser without WebRTC gets transport_failed before any session is created (nothing to pay for)', async () => {
    expect(typeof (globalThis as { RTCPeerConnection?: unknown }).RTCPeerConnection).toBe('undefined'); // Node
    for (const flow of [
      { kind: 'room', agentId: 'agent-1' },
      { kind: 'session', request: { transport_type: 'rtc-b', avatar_id: 'a' } },
    ] as const) {
      h = harness({ loadTransport: undefined, flow: flow as AvatarSessionOptions['flow'] }); // the page's own transports
      const error = await settle(h.session.start());
      expect(error).toBeInstanceOf(LiveAiError);
      expect(error).toMatchObject({ code: 'transport_failed', retryable: false });
      expect((error as LiveAiError).detail).toMatch(/^This browser cannot make video calls \(it has no WebRTC\)/);
      expect(h.phases).toEqual(['idle', 'creating', 'error']);
      expect(h.errors).toHaveLength(1);
      expect(h.proxy.calls).toEqual([]); // no create, no end: the proxy never heard of it
      h.session.dispose({ end: false });
    }
  });

  it('with WebRTC the same start creates the session', async () => {
    vi.stubGlobal('RTCPeerConnection', function RTCPeerConnection() {});
    h = harness({ loadTransport: undefined, proxy: createFakeProxy({ initialStatus: 'ACTIVE' }) });
    await settle(h.session.start()); // no transport is registered here: the join fails, after the create
    expect(h.proxy.callsTo('POST /rooms')).toHaveLength(1);
  });

  it('FAILED from the service → phase error (endReason failed); TIMED_OUT → timeout', async () => {
    await activeHarness();
    h!.proxy.setStatus('sess_1', 'FAILED');
    await until(() => h!.session.store.getState().phase === 'error', 'error');
    expect(h!.session.store.getState().endReason).toBe('failed');
    h!.session.dispose({ end: false });
    await activeHarness();
    h!.proxy.setStatus('sess_1', 'TIMED_OUT');
    await until(() => h!.session.store.getState().phase === 'error', 'error');
    expect(h!.session.store.getState().error?.code).toBe('timeout');
  });

  it('a queued session the service fails (room already joined) goes to error without ever showing active', async () => {
    h = harness({ proxy: createFakeProxy({ initialStatus: 'QUEUED' }) });
    const started = settle(h.session.start());
    await until(() => h!.session.store.getState().phase === 'queued' && h!.transport.connection === 'connected', 'queued in the room');
    h.proxy.setStatus('sess_1', 'FAILED');
    expect(await started).toMatchObject({ code: 'upstream_error' });
    expect(h.phases).not.toContain('active');
    expect(h.phases.at(-1)).toBe('error');
    expect(h.session.store.getState().activeAt).toBeNull();
  });

  it('COMPLETED by the service → ended (completed) with cost, polling stops, room left', async () => {
    await activeHarness();
    h!.proxy.setStatus('sess_1', 'COMPLETED', 3.5);
    await until(() => h!.session.store.getState().phase === 'ended', 'ended');
    const s = h!.session.store.getState();
    expect([s.endReason, s.cost]).toEqual(['completed', 3.5]);
    expect(h!.transport.connection).toBe('disconnected');
    const polls = h!.proxy.callsTo('GET /sessions/:id').length;
    // Polling stopped: another full session on the same proxy polls, this one does not.
    const other = harness({ proxy: h!.proxy });
    void other.session.start().catch(() => {});
    await until(() => other.proxy.callsTo('GET /sessions/:id').filter((c) => c.path.endsWith('sess_2')).length >= 3, 'other polls');
    expect(h!.proxy.callsTo('GET /sessions/:id').filter((c) => c.path.endsWith('sess_1'))).toHaveLength(polls);
    other.session.dispose({ end: false });
  });

  it('a dropped room (transport_failed) is an error and the session is ended', async () => {
    await activeHarness();
    h!.transport.dropConnection();
    await until(() => h!.session.store.getState().phase === 'error', 'error');
    expect(h!.session.store.getState().error?.code).toBe('transport_failed');
    await until(() => h!.proxy.callsTo('POST /sessions/:id/end').length === 1, 'end sent');
  });

  it('can start again after it ended (a new paid session, fresh state)', async () => {
    await activeHarness();
    await h!.session.end();
    await h!.session.start();
    const s = h!.session.store.getState();
    expect([s.phase, s.sessionId, s.cost, s.endReason]).toEqual(['active', 'sess_2', null, null]);
  });
});

describe('abort, unload, idle', () => {
  it('dispose() during create aborts the request; nothing is created or left running', async () => {
    h = harness();
    const release = h.proxy.hold('POST /rooms');
    const started = settle(h.session.start());
    await until(() => h!.proxy.callsTo('POST /rooms').length === 1, 'create sent');
    h.session.dispose();
    expect(await started).toMatchObject({ code: 'aborted' });
    release();
    await until(() => h!.session.store.getState().phase === 'ended', 'ended');
    expect(h.proxy.sessions.size).toBe(0);
    expect(h.session.store.getState().endReason).toBe('unmount');
  });

  it('dispose() while joining ends the session that was already created', async () => {
    const fake = new FakeTransport({ autoConnect: false });
    h = harness({ fake });
    const started = settle(h.session.start());
    await until(() => fake.connectCalls.length === 1, 'joining');
    h.session.dispose();
    expect(await started).toMatchObject({ code: 'aborted' });
    await until(() => h!.proxy.callsTo('POST /sessions/:id/end').length === 1, 'end sent');
    expect(h.proxy.sessions.get('sess_1')!.ended).toBe(true);
  });

  it('dispose({ end: false }) while live leaves the room at once; the session goes on at the service', async () => {
    await activeHarness();
    const polls = () => h!.proxy.callsTo('GET /sessions/:id').length;
    h!.session.dispose({ end: false });
    const s = h!.session.store.getState();
    expect(s.phase).toBe('ended'); // not left "live" with nobody in the room
    expect(s.endReason).toBe('unmount');
    expect(s.media.connection).toBe('disconnected');
    await until(() => h!.transport.connection === 'disconnected', 'room left');
    expect(h!.transport.disconnectCalls).toBe(1); // left once, by the teardown
    const before = polls();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(polls()).toBe(before); // the poller stopped
    expect(h!.proxy.callsTo('POST /sessions/:id/end')).toEqual([]);
    expect(h!.proxy.sessions.get('sess_1')!.ended).toBe(false);
  });

  it('dispose() while ending (End clicked, then unmounted): no request and no store write after it, even when /end fails', async () => {
    await activeHarness({ endTimeoutMs: 15_000 });
    const release = h!.proxy.hold('POST /sessions/:id/end');
    h!.proxy.failNext('POST /sessions/:id/end', 500, 'the service is down');
    const ending = h!.session.end();
    await until(() => h!.proxy.callsTo('POST /sessions/:id/end').length === 1, 'end sent');
    expect(h!.session.store.getState().phase).toBe('ending');
    h!.session.dispose();
    const disposedAs = h!.session.store.getState();
    const requests = h!.proxy.calls.length;
    const writes: string[] = [];
    h!.session.store.subscribe((next) => writes.push(next.phase));
    release(); // the /end that was in flight fails now
    await ending;
    await vi.advanceTimersByTimeAsync(20_000);
    expect(h!.proxy.calls.slice(requests).map((c) => `${c.method} ${c.route}`)).toEqual([]);
    expect(writes).toEqual([]);
    // Over for this object at once: nobody waits for its final status.
    expect([disposedAs.phase, disposedAs.endReason]).toEqual(['ended', 'user']);
  });

  it('dispose() while live ends the session at once: the end goes out, then nothing polls or writes', async () => {
    await activeHarness();
    h!.session.dispose();
    const s = h!.session.store.getState();
    const writes: string[] = [];
    h!.session.store.subscribe((next) => writes.push(next.phase));
    await vi.advanceTimersByTimeAsync(20_000);
    expect(h!.proxy.callsTo('POST /sessions/:id/end')).toHaveLength(1);
    expect(h!.proxy.sessions.get('sess_1')!.ended).toBe(true);
    const after = h!.proxy.calls.slice(h!.proxy.calls.findIndex((c) => c.route === '/sessions/:id/end') + 1);
    expect(after.map((c) => `${c.method} ${c.route}`)).toEqual([]);
    expect(writes).toEqual([]);
    expect(h!.transport.connection).toBe('disconnected');
    expect([s.phase, s.endReason]).toEqual(['ended', 'unmount']);
  });

  it('the avatar left mid-call while the service still runs it: ended with endReason remote, and /end stops the billing', async () => {
    await activeHarness();
    h!.transport.emitRoom('avatarLeft', { identity: 'liveai-avatar-1' });
    await until(() => h!.session.store.getState().phase === 'ended', 'ended');
    expect(h!.session.store.getState().endReason).toBe('remote');
    expect(h!.proxy.callsTo('POST /sessions/:id/end')).toHaveLength(1);
    expect(h!.proxy.sessions.get('sess_1')!.ended).toBe(true);
  });

  it('rtc-b: the avatar leaving the Daily call ends the session with endReason remote too, and /end stops the billing', async () => {
    const call = Object.assign(new EventEmitter(), {
      join: async () => ({}),
      leave: async () => {},
      destroy: async () => {},
      sendAppMessage: () => undefined,
      setLocalAudio: () => undefined,
      setInputDevicesAsync: async () => ({}),
      setOutputDeviceAsync: async () => ({}),
    });
    h = harness({ loadTransport: async () => () => createDailyTransport({ createCallObject: () => call }) });
    void settle(h.session.start());
    await until(() => h!.session.store.getState().phase === 'queued', 'queued');
    h.proxy.setStatus('sess_1', 'ACTIVE');
    call.emit('app-message', { data: { type: 'bot_ready' }, fromId: 'avatar-sid' });
    await until(() => h!.session.store.getState().phase === 'active', 'active');
    call.emit('participant-left', { participant: { local: false, session_id: 'avatar-sid' } });
    await until(() => h!.session.store.getState().phase === 'ended', 'ended');
    expect(h.session.store.getState().endReason).toBe('remote');
    expect(h.proxy.callsTo('POST /sessions/:id/end')).toHaveLength(1);
  });

  it('the avatar left because the service ended the session: the service’s word wins (completed, no /end)', async () => {
    await activeHarness();
    h!.proxy.setStatus('sess_1', 'COMPLETED', 2);
    h!.transport.emitRoom('avatarLeft', { identity: 'liveai-avatar-1' });
    await until(() => h!.session.store.getState().phase === 'ended', 'ended');
    expect([h!.session.store.getState().endReason, h!.session.store.getState().cost]).toEqual(['completed', 2]);
    expect(h!.proxy.callsTo('POST /sessions/:id/end')).toEqual([]);
  });

  it('end() during start cancels it: start rejects aborted, phase ended', async () => {
    h = harness();
    const started = settle(h.session.start());
    await until(() => h!.session.store.getState().phase === 'queued', 'queued');
    await h.session.end();
    expect(await started).toMatchObject({ code: 'aborted' });
    expect(h.phases).toEqual(['idle', 'creating', 'queued', 'ending', 'ended']);
    expect(h.proxy.sessions.get('sess_1')!.status).toBe('COMPLETED');
  });

  it('pagehide sends the end beacon with the client token as text/plain', async () => {
    const beacon = vi.fn((_url: string, _body?: BodyInit | null) => true);
    Object.defineProperty(navigator, 'sendBeacon', { value: beacon, configurable: true });
    await activeHarness({ endOnUnload: true });
    window.dispatchEvent(new Event('pagehide'));
    expect(beacon).toHaveBeenCalledTimes(1);
    const [url, body] = beacon.mock.calls[0]!;
    expect(url).toBe('http://proxy.test/api/avatar/sessions/sess_1/end');
    expect((body as Blob).type).toBe('text/plain');
    expect(JSON.parse(await blobToText(body as Blob))).toEqual({ client_token: 'ct_1' });
    expect(h!.session.store.getState()).toMatchObject({ phase: 'ended', endReason: 'unload' });
    window.dispatchEvent(new Event('pagehide'));
    expect(beacon).toHaveBeenCalledTimes(1);
    Reflect.deleteProperty(navigator, 'sendBeacon');
  });

  it('idle_timeout ends the session (endReason idle_timeout) without another terminate', async () => {
    await activeHarness();
    h!.proxy.setStatus('sess_1', 'COMPLETED', 0.75);
    h!.transport.emitEvent({ type: 'idle_timeout' });
    await until(() => h!.session.store.getState().phase === 'ended', 'ended');
    expect(h!.session.store.getState()).toMatchObject({ endReason: 'idle_timeout', cost: 0.75 });
    expect(h!.proxy.callsTo('POST /sessions/:id/end')).toHaveLength(0);
  });

  it('keep-alive sends reset-idle-timeout on user activity while active', async () => {
    await activeHarness({ keepAliveMs: 20 });
    const resets = () => h!.proxy.sessions.get('sess_1')!.controls.filter((c) => c.event === 'reset-idle-timeout').length;
    expect(resets()).toBe(0);
    await until(() => {
      window.dispatchEvent(new Event('pointermove'));
      return resets() >= 1;
    }, 'a keep-alive');
    await h!.session.end();
    const after = resets();
    window.dispatchEvent(new Event('keydown'));
    expect(resets()).toBe(after);
  });
});

describe('events and state', () => {
  it('leaving the room clears the connection and the tracks; the phase stays with the machine (ending, then ended)', async () => {
    h = harness();
    const started = h.session.start();
    await until(() => h!.proxy.sessions.size === 1, 'created');
    h.proxy.setStatus('sess_1', 'ACTIVE');
    await started;
    h.transport.emitTrack('video', fakeVideoTrack());
    expect(h.session.store.getState().media).toMatchObject({ connection: 'connected', videoTrack: expect.anything() });
    const seen: Array<{ phase: string; connection: string; video: boolean }> = [];
    h.session.store.subscribe((st) => seen.push({ phase: st.phase, connection: st.media.connection, video: !!st.media.videoTrack }));
    await h.session.end();
    const left = seen.findIndex((x) => x.connection === 'disconnected' && !x.video);
    expect(left).toBeGreaterThanOrEqual(0);
    // A connection change is written with the phase derived again: leaving never shows a running phase once ending.
    expect(seen.slice(seen.findIndex((x) => x.phase === 'ending')).every((x) => x.phase === 'ending' || x.phase === 'ended')).toBe(true);
    expect(seen[left]!.phase).toBe('ending');
    expect(h.session.store.getState()).toMatchObject({ phase: 'ended', media: { connection: 'disconnected', videoTrack: null } });
  });

  it('malformed transport messages change nothing and are reported as invalid_event, never thrown', async () => {
    await activeHarness();
    const before = h!.session.store.getState();
    expect(() => {
      h!.transport.emitRaw('not json');
      h!.transport.emitRaw({ type: 'bogus' });
      h!.transport.emitRaw({ type: 'user_transcription' });
      h!.transport.emitRaw(new Uint8Array([0xff, 0xfe]));
    }).not.toThrow();
    expect(h!.session.store.getState()).toBe(before);
    expect(h!.errors.map((e) => e.code)).toEqual(['invalid_event', 'invalid_event', 'invalid_event', 'invalid_event']);
  });

  it('transcript merges user and agent lines in arrival order, bounded (10 000 events → last 200)', async () => {
    await activeHarness();
    for (let i = 1; i <= 10_000; i++) {
      h!.transport.emitEvent(
        i % 2 ? { type: 'user_transcription', transcription: `u${i}` } : { type: 'agent_transcription', transcription: `a${i}` },
      );
    }
    const t = h!.session.store.getState().transcript;
    expect(t).toHaveLength(200);
    expect(t[0]).toMatchObject({ id: 9801, role: 'user', text: 'u9801' });
    expect(t.at(-1)).toMatchObject({ id: 10_000, role: 'agent', text: 'a10000' });
  });

  it('the room’s own transcription (lk.transcription) joins the lines the service events added before it came', async () => {
    await activeHarness();
    const room = (h!.transport as unknown as { bus: { emit(name: 'transcription', v: unknown): void } }).bus;
    h!.transport.emitEvent({ type: 'agent_transcription', transcription: 'Hello there, how can I help?' });
    h!.transport.emitEvent({ type: 'user_transcription', transcription: 'Hi' });
    // The same utterance from the room, still growing: it joins the service's line and does not shorten it.
    room.emit('transcription', { role: 'agent', text: 'Hello there', segmentId: 's1', final: false });
    room.emit('transcription', { role: 'user', text: 'What is new', segmentId: 's2', final: false });
    const t = await until(() => (h!.session.store.getState().transcript.length === 3 ? h!.session.store.getState().transcript : null));
    expect(t.map((l) => [l.role, l.text])).toEqual([
      ['agent', 'Hello there, how can I help?'],
      ['user', 'Hi'],
      ['user', 'What is new'],
    ]);
    expect(new Set(t.map((l) => l.id)).size).toBe(3);
  });

  it('maxTranscriptLines bounds the transcript', async () => {
    await activeHarness({ maxTranscriptLines: 3 });
    for (const w of ['a', 'b', 'c', 'd']) h!.transport.emitEvent({ type: 'user_transcription', transcription: w });
    expect(h!.session.store.getState().transcript.map((l) => l.text)).toEqual(['b', 'c', 'd']);
  });

  it('typed bus: on(type) and on("*") receive events after the state changed; handler errors are contained', async () => {
    await activeHarness();
    const got: string[] = [];
    h!.session.on('bot_ready', () => got.push(`ready:${h!.session.store.getState().lastEvent?.type}`));
    h!.session.on('*', (e) => got.push(`*:${e.type}`));
    const off = h!.session.on('bot_ready', () => {
      throw new Error('boom');
    });
    h!.transport.emitEvent({ type: 'bot_ready' });
    off();
    h!.transport.emitEvent({ type: 'video_generation_error' });
    expect(got).toEqual(['ready:bot_ready', '*:bot_ready', '*:video_generation_error']);
    expect(h!.errors.map((e) => e.code)).toEqual(['handler_error', 'upstream_error']);
  });

  it('image change: sending → requested → created → complete, and error with its detail', async () => {
    await activeHarness();
    const states: string[] = [];
    h!.session.store.subscribe((s, p) => s.image !== p.image && states.push(s.image.status));
    await h!.session.updateImage({ url: 'https://img.example/a.png' });
    h!.transport.emitEvent({ type: 'image_change_requested' });
    h!.transport.emitEvent({ type: 'image_created' });
    h!.transport.emitEvent({ type: 'image_change_complete' });
    expect(states).toEqual(['sending', 'requested', 'created', 'complete']);
    await h!.session.updateImage({ base64: 'aGVsbG8=' });
    h!.transport.emitEvent({ type: 'image_change_error', error: { message: 'could not download the image' } });
    expect(h!.session.store.getState().image).toEqual({ status: 'error', error: 'could not download the image' });
    expect(h!.proxy.sessions.get('sess_1')!.controls).toEqual([
      { event: 'update-image', image_url: 'https://img.example/a.png' },
      { event: 'update-image', image_base64: 'aGVsbG8=' },
    ]);
  });

  it('reconnecting keeps the phase active and re-attaches the audio track when connected again', async () => {
    const play = vi.fn(() => Promise.resolve());
    vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(play);
    vi.stubGlobal(
      'MediaStream',
      class {
        constructor(readonly tracks: unknown[]) {}
      },
    );
    await activeHarness();
    const track = { kind: 'audio', id: 'a1' } as unknown as MediaStreamTrack;
    const primed = play.mock.calls.length;
    h!.transport.emitTrack('audio', track);
    expect(play).toHaveBeenCalledTimes(primed + 1);
    h!.transport.setConnection('reconnecting');
    expect(h!.session.store.getState()).toMatchObject({ phase: 'active', media: { connection: 'reconnecting' } });
    h!.transport.setConnection('connected');
    expect(play).toHaveBeenCalledTimes(primed + 2);
    expect(h!.session.store.getState().media.audioTrack).toBe(track);
  });

  it('start() primes the audio element synchronously (inside the click), before any track arrives', async () => {
    const play = vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(() => Promise.resolve());
    vi.stubGlobal(
      'MediaStream',
      class {
        constructor(readonly tracks: unknown[]) {}
      },
    );
    h = harness({ proxy: createFakeProxy({ initialStatus: 'ACTIVE' }) });
    const started = h.session.start();
    expect(play).toHaveBeenCalledTimes(1);
    await started;
  });

  it('autoplay blocked → media.audioBlocked; unblockAudio() from a gesture plays and clears it', async () => {
    const blocked = Object.assign(new Error('play() failed'), { name: 'NotAllowedError' });
    const play = vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(() => Promise.reject(blocked));
    vi.stubGlobal(
      'MediaStream',
      class {
        constructor(readonly tracks: unknown[]) {}
      },
    );
    await activeHarness();
    h!.transport.emitTrack('audio', { kind: 'audio' } as unknown as MediaStreamTrack);
    await until(() => h!.session.store.getState().media.audioBlocked, 'blocked');
    await expect(h!.session.unblockAudio()).rejects.toMatchObject({ code: 'autoplay_blocked' });
    play.mockImplementation(() => Promise.resolve());
    await h!.session.unblockAudio();
    expect(h!.session.store.getState().media.audioBlocked).toBe(false);
  });

  it('mic and devices: before joining they are remembered and applied on join', async () => {
    h = harness({ proxy: createFakeProxy({ initialStatus: 'ACTIVE' }) });
    await h.session.setMicEnabled(true);
    await h.session.setDevice('audioinput', 'mic-2');
    await h.session.start();
    // The chosen microphone is the one published at the join: no default first, no switch after.
    expect(h.transport.connectCalls[0]).toMatchObject({ micEnabled: true, micDeviceId: 'mic-2' });
    expect(h.transport.devices).toEqual([]);
    expect(h.session.store.getState().media.micEnabled).toBe(true);
    await h.session.setMicEnabled(false);
    expect([h.transport.micEnabled, h.session.store.getState().media.micEnabled]).toEqual([false, false]);
  });

  it('a microphone chosen while it is off is handed to the room after the join, for when it is turned on', async () => {
    h = harness({ proxy: createFakeProxy({ initialStatus: 'ACTIVE' }) });
    await h.session.setDevice('audioinput', 'mic-2');
    await h.session.start();
    expect(h.transport.connectCalls[0]).toMatchObject({ micEnabled: false, micDeviceId: 'mic-2' });
    expect(h.transport.devices).toEqual([{ kind: 'audioinput', deviceId: 'mic-2' }]);
  });
});

describe("setDevice: '' is the system default, failures are device_failed (issue 39.3)", () => {
  it("'' (DeviceSelect's Default) or 'default' before the join: the room is joined with no exact microphone", async () => {
    h = harness({ proxy: createFakeProxy({ initialStatus: 'ACTIVE' }) });
    await h.session.setMicEnabled(true);
    await h.session.setDevice('audioinput', 'mic-2');
    await h.session.setDevice('audioinput', '');
    await h.session.start();
    expect(h.transport.connectCalls[0]).toMatchObject({ micEnabled: true, micDeviceId: undefined });
    expect(h.transport.devices).toEqual([]);
  });

  it("while connected, '' and 'default' reach the transport as the default ('')", async () => {
    h = harness({ proxy: createFakeProxy({ initialStatus: 'ACTIVE' }) });
    await h.session.start();
    await h.session.setDevice('audioinput', 'default');
    await h.session.setDevice('videoinput', '');
    expect(h.transport.devices).toEqual([
      { kind: 'audioinput', deviceId: '' },
      { kind: 'videoinput', deviceId: '' },
    ]);
  });

  it("the browser's own error (OverconstrainedError) becomes a LiveAiError with code device_failed", async () => {
    h = harness({ proxy: createFakeProxy({ initialStatus: 'ACTIVE' }) });
    await h.session.start();
    const overconstrained = Object.assign(new Error('Constraints could be not satisfied.'), { name: 'OverconstrainedError' });
    h.transport.setDevice = () => Promise.reject(overconstrained);
    const failed = await h.session.setDevice('audioinput', 'mic-9').catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(LiveAiError);
    expect(failed).toMatchObject({ code: 'device_failed', cause: overconstrained });
    expect((failed as LiveAiError).detail).toMatch(/^could not use "mic-9" microphone: no such device .*\(OverconstrainedError\)/);
  });
});

describe('control validation happens before the network', () => {
  const big = 'A'.repeat(Math.ceil((921_600 * 4) / 3) + 4);

  it('413: an inline image at or above 921600 bytes never leaves the browser', async () => {
    await activeHarness();
    const n = h!.proxy.calls.length;
    await expect(h!.session.control({ event: 'update-image', image_base64: big })).rejects.toMatchObject({ code: 'payload_too_large' });
    await expect(h!.session.updateImage({ base64: big })).rejects.toMatchObject({
      code: 'payload_too_large',
      detail: expect.stringMatching(/921600/),
    });
    expect(h!.session.store.getState().image.status).toBe('error');
    expect(h!.proxy.calls.filter((c) => c.route.endsWith('/control')).length).toBe(0);
    expect(h!.proxy.calls.length - n).toBeLessThanOrEqual(h!.proxy.callsTo('GET /sessions/:id').length);
  });

  it('400: exactly one image source, non-empty prompts and actions, known events, a meeting id', async () => {
    await activeHarness();
    const bad = [
      h!.session.updateImage({ url: 'https://a.example/x.png', base64: 'aGk=' } as never),
      h!.session.updateImage({} as never),
      h!.session.updateAgentPrompt('   '),
      h!.session.updateIdlePrompt(''),
      h!.session.action(''),
      h!.session.control({ event: 'explode' } as never),
      h!.session.control({ event: 'update-image' } as never),
      h!.session.leaveMeeting(''),
      h!.session.sendChat(''),
    ];
    for (const p of bad) await expect(p).rejects.toMatchObject({ code: 'invalid_request' });
    expect(h!.proxy.calls.filter((c) => c.method === 'POST' && c.route !== '/rooms')).toHaveLength(0);
    expect(h!.transport.sentMessages).toEqual([]);
  });

  it('valid controls reach the proxy with the Bearer client token', async () => {
    await activeHarness();
    await h!.session.updateAgentPrompt('cheerful and calm');
    await h!.session.action('wave');
    await h!.session.resetIdleTimeout();
    await expect(h!.session.leaveMeeting('bot-1')).resolves.toEqual({ status: 'left' });
    expect(h!.proxy.sessions.get('sess_1')!.controls.map((c) => c.event)).toEqual(['update-agent-prompt', 'action', 'reset-idle-timeout']);
    expect(h!.proxy.callsTo('POST /sessions/:id/control').every((c) => c.headers.authorization === 'Bearer ct_1')).toBe(true);
  });

  it('controls before start are a clear invalid_request', async () => {
    h = harness();
    await expect(h.session.action('wave')).rejects.toMatchObject({ code: 'invalid_request', detail: expect.stringMatching(/start\(\)/) });
    await expect(h.session.sendChat('hi')).rejects.toMatchObject({ code: 'transport_failed' });
  });
});
