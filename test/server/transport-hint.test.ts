import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import { createAvatarHandler, createAvatarProxy } from '../../src/server/index';
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
    expect(learned.body).toEqual({ transport: room.body.transport });
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
    expect((await request(app).get('/api/avatar/transport')).body).toEqual({ transport: 'rtc-a' });
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
    expect(JSON.parse(text)).toEqual({ transport: room.transport });
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
