import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeTransport, createFakeProxy } from '../../../src/testing';
import { fakeVideoTrack, harness, until, type Harness, useFakeClock } from './helpers';

let h: Harness | undefined;
afterEach(() => void vi.useRealTimers());
beforeEach(() => void useFakeClock());
afterEach(() => {
  if (h) expect(h.violations).toEqual([]); // each write kept what its phase promises
  h?.session.dispose({ end: false });
});

describe('session flows: exact phase sequences', () => {
  it('room flow: idle → creating → queued → active → ending → ended, with cost', async () => {
    h = harness();
    const started = h.session.start();
    await until(() => h!.session.store.getState().phase === 'queued', 'queued');
    const s1 = h.session.store.getState();
    expect(s1.sessionId).toBe('sess_1');
    expect(s1.queuedAt).not.toBeNull();
    expect(s1.transport).toBe('rtc-b');
    expect(h.loader.kinds).toEqual(['rtc-b']);
    await until(() => h!.transport.connection === 'connected', 'joined while queued');
    h.proxy.setStatus('sess_1', 'ACTIVE');
    await started;
    expect(h.session.store.getState().activeAt).not.toBeNull();
    await h.session.end();
    const s = h.session.store.getState();
    expect(h.phases).toEqual(['idle', 'creating', 'queued', 'active', 'ending', 'ended']);
    expect(s.endReason).toBe('user');
    expect(s.cost).toBe(1.25);
    expect(s.sessionStatus).toBe('COMPLETED');
    expect(h.transport.sentMessages).toEqual([{ event: 'force-end' }]);
    expect(h.proxy.callsTo('POST /rooms')[0]!.body).toEqual({ agent_id: 'agent-1' });
    expect(h.proxy.callsTo('POST /sessions/:id/end')[0]!.headers.authorization).toBe('Bearer ct_1');
    expect(h.transport.connection).toBe('disconnected');
  });

  it('session flow (rtc-a, warm container): creating → connecting → active, joining the LiveKit URL', async () => {
    const transport = new FakeTransport({ autoConnect: false });
    h = harness({
      fake: transport,
      flow: { kind: 'session', request: { agent_id: 'agent-1', transport_type: 'rtc-a' } },
    });
    h.proxy.hold('GET /sessions/:id');
    const release = h.proxy.hold('GET /sessions/:id');
    const started = h.session.start();
    await until(() => h!.proxy.sessions.size === 1, 'created');
    h.proxy.setStatus('sess_1', 'ACTIVE');
    release();
    await until(() => h!.session.store.getState().phase === 'connecting', 'connecting');
    transport.completeConnect();
    await started;
    expect(h.phases).toEqual(['idle', 'creating', 'connecting', 'active']);
    expect(h.loader.kinds).toEqual(['rtc-a']);
    expect(transport.connectCalls[0]).toMatchObject({ url: 'ws://livekit.fake.test', token: 'viewer-token-sess_1', eventTopic: 'liveai' });
    expect(h.session.store.getState().transport).toBe('rtc-a');
  });

  it('session flow with an image: multipart with image + payload parts', async () => {
    h = harness({
      flow: { kind: 'session', request: { transport_type: 'rtc-a' }, image: new Blob([new Uint8Array([1, 2, 3])], { type: 'image/jpeg' }) },
    });
    void h.session.start().catch(() => {});
    await until(() => h!.proxy.sessions.size === 1 || h!.errors.length, 'created');
    expect(h.errors).toEqual([]);
    const call = h.proxy.callsTo('POST /sessions')[0]!;
    expect(call.body).toBeInstanceOf(FormData);
    const form = call.body as FormData;
    expect(form.get('image')).toBeInstanceOf(Blob);
    expect(h.proxy.last()!.image).toBeDefined();
  });

  it('attach flow: no create call; polls, joins and ends the given session', async () => {
    h = harness();
    const client = h.proxy.seedSession({ status: 'ACTIVE' });
    h.session.dispose({ end: false });
    h = harness({ proxy: h.proxy, flow: { kind: 'attach', session: client } });
    await h.session.start();
    expect(h.phases).toEqual(['idle', 'creating', 'active']);
    expect(h.proxy.callsTo('POST /rooms')).toHaveLength(0);
    expect(h.session.getClientSession()?.session_id).toBe(client.session_id);
    await h.session.end();
    expect(h.session.store.getState().phase).toBe('ended');
  });

  it('attach flow with a malformed session: start() rejects with invalid_request naming the field, in English', async () => {
    h = harness({ flow: { kind: 'attach', session: { client_token: 'ct' } as never } });
    const err = await h.session.start().then(
      () => null,
      (e: unknown) => e as { code: string; detail: string },
    );
    expect(err?.code).toBe('invalid_request');
    expect(err?.detail).toMatch(/^session_id: Invalid key: Expected "session_id" but received undefined/);
    expect(h.proxy.calls).toHaveLength(0);
  });

  it('a transport option wins over the URL scheme', async () => {
    h = harness({ transport: 'rtc-a' });
    void h.session.start().catch(() => {});
    await until(() => h!.loader.kinds.length === 1, 'loader called');
    expect(h.loader.kinds).toEqual(['rtc-a']);
  });
});

describe('first status poll: after the room join, so its answer does not compete with it', () => {
  const videoTrack = fakeVideoTrack();

  it("no status call while the room is joining; the avatar's video track makes it live, its first packets make the call active; the first poll one interval after the join", async () => {
    const fake = new FakeTransport({ autoConnect: false });
    h = harness({ fake, proxy: createFakeProxy({ initialStatus: 'ACTIVE' }), pollIntervalMs: 40 });
    const started = h.session.start();
    await until(() => fake.connectCalls.length === 1, 'joining the room');
    const early = fakeVideoTrack({ muted: true });
    fake.emitTrack('video', early);
    // The status stays the service's own (no answer yet); the avatar being live is a fact of its own.
    expect(h.session.store.getState()).toMatchObject({ sessionStatus: null, live: true, phase: 'connecting' });
    expect(h.session.store.getState().media.videoTrack).toBe(early);
    early.unmute();
    // The video arrives before the room reports itself connected: that is enough to show the call.
    expect(h.session.store.getState()).toMatchObject({ phase: 'active', media: { connection: 'connecting' } });
    expect(h.proxy.callsTo('GET /sessions/:id')).toEqual([]);
    fake.completeConnect();
    await started;
    expect(h.phases).toEqual(['idle', 'creating', 'connecting', 'active']);
    // The video is already here: its first frame is being decoded, and the poll would only confirm it. It waits.
    expect(h.proxy.callsTo('GET /sessions/:id')).toEqual([]);
    await until(() => h!.proxy.callsTo('GET /sessions/:id').length > 0, 'the first status poll');
    expect(h.session.store.getState().phase).toBe('active');
  });

  it("a queued session shows queued once the join settled, and the avatar's video later makes it active without a poll", async () => {
    h = harness({ proxy: createFakeProxy({ initialStatus: 'QUEUED' }), pollIntervalMs: 60_000, maxPollIntervalMs: 60_000 });
    const started = h.session.start();
    await until(() => h!.session.store.getState().phase === 'queued', 'queued');
    expect(h.transport.connection).toBe('connected');
    const polls = h.proxy.callsTo('GET /sessions/:id').length;
    h.transport.emitTrack('video', videoTrack);
    await started;
    expect(h.proxy.callsTo('GET /sessions/:id')).toHaveLength(polls);
    expect(h.phases).toEqual(['idle', 'creating', 'queued', 'active']);
  });
});
