import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import { createAvatarHandler, createAvatarProxy, type AvatarHandlerOptions, type AvatarProxyOptions } from '../../src/server/index';
import { ALICE, countingFetch, LIVEKIT, proxyApp, proxyOptions, SECRET, startEmulator, type Emulator } from './helpers';
import { quietLogger } from '../setup/quiet-logger';

/**
 * `GET /transport`: the proxy advertises the transport of its hosted rooms, so a page that registered both
 * transports can download the right SDK before the first create call answers.
 */
let emulator: Emulator;
const counter = countingFetch();

beforeAll(async () => {
  emulator = await startEmulator();
});
afterAll(async () => {
  await emulator.close();
});

const upstream = () => ({ baseUrl: emulator.url, apiKey: ALICE, fetch: counter.fetch });
/** Everything a create answer holds that must never show up in the hint. */
const SECRETS = [ALICE, SECRET, LIVEKIT.apiSecret, LIVEKIT.apiKey, 'session_id', 'token', 'room_url'];

describe('GET /transport (Express)', () => {
  it('is unknown (not cached) until the service creates a room, then the room’s transport (cacheable); no upstream call', async () => {
    const app = proxyApp(proxyOptions(emulator.url, { upstream: upstream() }));
    const before = counter.calls;
    const first = await request(app).get('/api/avatar/transport');
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ transport: null });
    expect(first.headers['cache-control']).toBe('no-store');
    expect(counter.calls).toBe(before); // answered from memory: costs the service nothing

    const room = await request(app).post('/api/avatar/rooms').send({ agent_id: 'agent-demo' });
    expect(room.status).toBe(201);
    const learned = await request(app).get('/api/avatar/transport');
    expect(room.body.room_url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+$/); // the local service's LiveKit server
    expect(learned.body).toEqual({ transport: 'rtc-a', server_url: room.body.room_url });
    expect(learned.headers['cache-control']).toMatch(/^public, max-age=\d+$/);
    for (const s of [...SECRETS, room.body.session_id, room.body.token, room.body.client_token]) expect(learned.text).not.toContain(s);
  });

  it('advertises the roomTransport option from the start; the service’s answer wins over a wrong option, with a warning', async () => {
    const warnings: unknown[] = [];
    const logger = {
      child: () => logger,
      warn: (o: unknown) => warnings.push(o),
      info() {},
      error() {},
    } as never;
    const app = proxyApp(proxyOptions(emulator.url, { upstream: upstream(), roomTransport: 'rtc-b', logger }));
    const before = await request(app).get('/api/avatar/transport');
    expect(before.body).toEqual({ transport: 'rtc-b' });
    expect(before.headers['cache-control']).toMatch(/max-age/);
    const room = await request(app).post('/api/avatar/rooms').send({ agent_id: 'agent-demo' });
    expect(room.body.transport).toBe('rtc-a'); // the local service hosts rooms on LiveKit
    expect((await request(app).get('/api/avatar/transport')).body).toEqual({ transport: 'rtc-a', server_url: room.body.room_url });
    expect(warnings).toContainEqual({ roomTransport: 'rtc-b', transport: 'rtc-a' });
  });

  it('answers any origin (it spends nothing and holds nothing); CORS headers only for allowed origins', async () => {
    const app = proxyApp(proxyOptions(emulator.url, { roomTransport: 'rtc-a', allowedOrigins: ['https://app.example'] }));
    const other = await request(app).get('/api/avatar/transport').set('origin', 'https://evil.example');
    expect(other.status).toBe(200);
    expect(other.headers['access-control-allow-origin']).toBeUndefined(); // the browser keeps it from that page
    const allowed = await request(app).get('/api/avatar/transport').set('origin', 'https://app.example');
    expect(allowed.headers['access-control-allow-origin']).toBe('https://app.example');
    expect(allowed.body).toEqual({ transport: 'rtc-a' });
    expect(allowed.headers.vary).toMatch(/Origin/);
  });

  it('refuses a bad roomTransport at creation', () => {
    expect(() => createAvatarProxy(proxyOptions(emulator.url, { roomTransport: 'webrtc' as never }))).toThrow(
      /roomTransport: must be rtc-a or rtc-b/,
    );
  });
});

describe('GET /transport (Fetch handler)', () => {
  const make = (extra = {}) =>
    createAvatarHandler({
      basePath: '/api/avatar',
      upstream: upstream(),
      sessionSecret: SECRET,
      livekit: LIVEKIT,
      sessionLimits: false,
      rateLimit: { perIp: 1 },
      logger: quietLogger(),
      ...extra,
    });
  const get = (h: ReturnType<typeof make>, headers: Record<string, string> = {}) =>
    h(new Request('http://app.test/api/avatar/transport', { headers }), { remoteAddress: '127.0.0.9' });

  it('answers the same, learns from created rooms, and never counts against the per-client request limit', async () => {
    const h = make();
    const first = await get(h);
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ transport: null });
    expect(first.headers.get('cache-control')).toBe('no-store');
    const created = await h(
      new Request('http://app.test/api/avatar/rooms', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ agent_id: 'agent-demo' }),
      }),
      { remoteAddress: '127.0.0.9' },
    );
    expect(created.status).toBe(201);
    const room = (await created.json()) as { transport: string; token: string; session_id: string };
    const later = await get(h); // the one request allowed per window went to POST /rooms
    expect(later.status).toBe(200);
    const text = await later.text();
    expect(JSON.parse(text)).toEqual({ transport: room.transport, server_url: (room as { room_url?: string }).room_url });
    expect(later.headers.get('cache-control')).toMatch(/^public, max-age=\d+$/);
    for (const s of [...SECRETS, room.token, room.session_id]) expect(text).not.toContain(s);
  });

  it('advertises roomTransport and adds CORS headers only for allowed origins', async () => {
    const h = make({ roomTransport: 'rtc-b', allowedOrigins: ['https://app.example'] });
    const allowed = await get(h, { origin: 'https://app.example' });
    expect(await allowed.json()).toEqual({ transport: 'rtc-b' });
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://app.example');
    const other = await get(h, { origin: 'https://evil.example' });
    expect(other.status).toBe(200);
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    expect((await h(new Request('http://app.test/api/avatar/transport', { method: 'POST' }))).status).toBe(404);
    const slash = await h(new Request('http://app.test/api/avatar/transport/'), { remoteAddress: '127.0.0.9' });
    expect(await slash.json()).toEqual({ transport: 'rtc-b' }); // a trailing slash, as on the other routes
  });
});

/**
 * `server_url` in the hint: the LiveKit server of the hosted rooms, so a page can warm its connection before the
 * click. Only its scheme, host, port and path, never for a Daily room (its URL names the room), and a path only once
 * two rooms agree on it. The service's room URLs are rewritten on their way to the proxy to try each case.
 */
describe.each(['Express', 'Fetch handler'] as const)('GET /transport server_url (%s)', (kind) => {
  /** A proxy whose service answers `POST /rooms` with the next of `roomUrls` as `room_url`. */
  const make = (roomUrls: string[], extra: Partial<AvatarProxyOptions<never>> = {}) => {
    const rewrite: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      if (init?.method !== 'POST' || !new URL(String(input)).pathname.endsWith('/liveai/rooms') || !res.ok) return res;
      const body = (await res.json()) as Record<string, unknown>;
      return Response.json({ ...body, room_url: roomUrls.shift() ?? body.room_url }, { status: res.status });
    };
    const options = proxyOptions(emulator.url, { upstream: { baseUrl: emulator.url, apiKey: ALICE, fetch: rewrite }, ...extra } as never);
    if (kind === 'Express') {
      const app = proxyApp(options);
      return {
        hint: async () => (await request(app).get('/api/avatar/transport')).text,
        room: async () => (await request(app).post('/api/avatar/rooms').send({ agent_id: 'agent-demo' })).status,
      };
    }
    const h = createAvatarHandler({ ...(options as never as AvatarHandlerOptions), basePath: '/api/avatar' });
    const at = { remoteAddress: '127.0.0.9' };
    return {
      hint: async () => (await h(new Request('http://app.test/api/avatar/transport'), at)).text(),
      room: async () =>
        (
          await h(
            new Request('http://app.test/api/avatar/rooms', {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ agent_id: 'agent-demo' }),
            }),
            at,
          )
        ).status,
    };
  };
  const json = async (p: { hint(): Promise<string> }) => JSON.parse(await p.hint()) as unknown;

  it('carries the server of a LiveKit room without its user name, query or fragment', async () => {
    const p = make(['wss://viewer:pw@LK.Example.test:7443/?room=secret-room&access_token=tok-123#frag']);
    expect(await p.room()).toBe(201);
    const text = await p.hint();
    expect(JSON.parse(text)).toEqual({ transport: 'rtc-a', server_url: 'wss://lk.example.test:7443' });
    for (const s of ['viewer', 'pw', 'secret-room', 'tok-123', 'frag', '?']) expect(text).not.toContain(s);
  });

  it('never for a Daily (rtc-b) room, and drops a LiveKit server once the rooms move to Daily', async () => {
    const p = make(['ws://lk.example.test', 'https://acme.daily.co/room-7f3a']);
    expect(await p.room()).toBe(201);
    expect(await json(p)).toEqual({ transport: 'rtc-a', server_url: 'ws://lk.example.test' });
    expect(await p.room()).toBe(201);
    const text = await p.hint();
    expect(JSON.parse(text)).toEqual({ transport: 'rtc-b' });
    expect(text).not.toContain('daily');
  });

  it('a path (which could name the room) only once two rooms agree on it', async () => {
    const p = make([
      'wss://lk.example.test/room-a',
      'wss://lk.example.test/room-b',
      'wss://lk.example.test/livekit',
      'wss://lk.example.test/livekit/',
    ]);
    for (let i = 0; i < 2; i++) {
      expect(await p.room()).toBe(201);
      expect(await json(p)).toEqual({ transport: 'rtc-a' });
    }
    expect(await p.room()).toBe(201);
    expect(await json(p)).toEqual({ transport: 'rtc-a' });
    expect(await p.room()).toBe(201);
    expect(await json(p)).toEqual({ transport: 'rtc-a', server_url: 'wss://lk.example.test/livekit' });
  });

  it('advertises the roomServerUrl option from the start (implying rtc-a); the service’s rooms win', async () => {
    const p = make(['wss://other.example.test'], { roomServerUrl: 'wss://lk.example.test' });
    expect(await json(p)).toEqual({ transport: 'rtc-a', server_url: 'wss://lk.example.test' });
    expect(await p.room()).toBe(201);
    expect(await json(p)).toEqual({ transport: 'rtc-a', server_url: 'wss://other.example.test' });
  });

  it('refuses a roomServerUrl that is not a bare LiveKit server URL, or with roomTransport rtc-b', () => {
    const create = (extra: object) => () =>
      kind === 'Express'
        ? createAvatarProxy(proxyOptions(emulator.url, extra))
        : createAvatarHandler({ ...(proxyOptions(emulator.url, extra) as never as AvatarHandlerOptions) });
    for (const bad of ['https://lk.example.test', 'wss://lk.example.test/?room=r1', 'wss://u:p@lk.example.test', 'not a url'])
      expect(create({ roomServerUrl: bad }), bad).toThrow(/roomServerUrl: must be a ws:\/\/ or wss:\/\/ URL/);
    expect(create({ roomServerUrl: 'wss://lk.example.test', roomTransport: 'rtc-b' })).toThrow(/roomServerUrl: .*roomTransport is rtc-b/);
  });
});
