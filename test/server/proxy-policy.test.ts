import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import type { Request } from 'express';
import { MemoryStore } from 'express-rate-limit';
import { LiveAiError } from '../../src/core/errors';
import { createAvatarHandler, createAvatarProxy, type ProxyAction } from '../../src/server/index';
import { countingFetch, proxyApp, proxyOptions, startEmulator, type Emulator } from './helpers';

let emulator: Emulator;
const counter = countingFetch();

beforeAll(async () => {
  emulator = await startEmulator();
});
afterAll(async () => {
  await emulator.close();
});

const upstream = () => ({ baseUrl: emulator.url, apiKey: 'dev-key-alice', fetch: counter.fetch });

describe('agents allow-list', () => {
  it('an array admits only the listed agents and refuses custom images', async () => {
    const app = proxyApp(proxyOptions(emulator.url, { upstream: upstream(), agents: ['agent-demo'] }));
    const before = counter.calls;
    const other = await request(app).post('/api/avatar/rooms').send({ agent_id: 'agent-cartoon' });
    expect(other.status).toBe(403);
    expect(other.body.detail).toBe('This agent is not allowed here');
    const image = await request(app)
      .post('/api/avatar/sessions')
      .send({ agent_image_url: 'https://img.example.test/a.png', transport_type: 'rtc-a' });
    expect(image.status).toBe(403);
    expect(image.body.detail).toMatch(/Custom avatar images/);
    expect(counter.calls).toBe(before);
    expect((await request(app).post('/api/avatar/rooms').send({ agent_id: 'agent-demo' })).status).toBe(201);
    expect((await request(app).post('/api/avatar/sessions').send({ agent_id: 'agent-demo', transport_type: 'rtc-a' })).status).toBe(201);
  });

  it('a predicate gets the agent id (undefined for custom images) and the request', async () => {
    const seen: (string | undefined)[] = [];
    const app = proxyApp(
      proxyOptions(emulator.url, {
        agents: async (agentId, req: Request) => {
          seen.push(agentId);
          return agentId === 'agent-demo' || (agentId === undefined && req.get('x-plan') === 'pro');
        },
      }),
    );
    expect((await request(app).post('/api/avatar/rooms').send({ agent_id: 'agent-cartoon' })).status).toBe(403);
    const body = { agent_image_url: `${emulator.url}/liveai/assets/agent-demo.png`, transport_type: 'rtc-a' };
    expect((await request(app).post('/api/avatar/sessions').send(body)).status).toBe(403);
    expect((await request(app).post('/api/avatar/sessions').set('x-plan', 'pro').send(body)).status).toBe(201);
    expect(seen).toEqual(['agent-cartoon', undefined, undefined]);
  });
});

describe('authorize', () => {
  it('is asked for every action (async allowed); false → 403 without calling the service', async () => {
    const asked: ProxyAction[] = [];
    const app = proxyApp(
      proxyOptions(emulator.url, {
        upstream: upstream(),
        admin: () => true,
        authorize: async (req, action) => {
          asked.push(action);
          return req.get('x-user') === 'ok';
        },
      }),
    );
    const ok = { 'x-user': 'ok' };
    const s = (await request(app).post('/api/avatar/sessions').set(ok).send({ agent_id: 'agent-demo', transport_type: 'rtc-a' })).body;
    const auth = { authorization: `Bearer ${s.client_token}` };
    const before = counter.calls;
    const denied = [
      request(app).post('/api/avatar/rooms').send({ agent_id: 'agent-demo' }),
      request(app).post('/api/avatar/sessions').send({ agent_id: 'agent-demo', transport_type: 'rtc-a' }),
      request(app).get(`/api/avatar/sessions/${s.session_id}`).set(auth),
      request(app).post(`/api/avatar/sessions/${s.session_id}/control`).set(auth).send({ event: 'reset-idle-timeout' }),
      request(app).post(`/api/avatar/sessions/${s.session_id}/leave-meeting`).set(auth).send({ meeting_bot_id: 'x' }),
      request(app).post(`/api/avatar/sessions/${s.session_id}/end`).set(auth).send({}),
      request(app).get('/api/avatar/rooms'),
      request(app).get('/api/avatar/sessions'),
    ];
    for (const r of denied) {
      const res = await r;
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ detail: 'Not authorized' });
    }
    expect(counter.calls).toBe(before);
    expect(asked).toEqual([
      'createSession',
      'createRoom',
      'createSession',
      'getSession',
      'control',
      'leaveMeeting',
      'end',
      'listRooms',
      'listSessions',
    ]);
    expect(
      (
        await request(app)
          .get(`/api/avatar/sessions/${s.session_id}`)
          .set({ ...auth, ...ok })
      ).status,
    ).toBe(200);
  });

  it('a callback that throws gives a JSON 500, never an HTML page; a thrown LiveAiError keeps its status', async () => {
    const app = proxyApp(
      proxyOptions(emulator.url, {
        authorize: (req) => {
          if (req.get('x-mode') === 'typed') throw new LiveAiError('invalid_api_key', 'Log in first', { status: 401 });
          throw new Error('database down: password=hunter2');
        },
      }),
    );
    const res = await request(app).post('/api/avatar/rooms').send({ agent_id: 'agent-demo' });
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ detail: 'Internal error in the avatar proxy' });
    const typed = await request(app).post('/api/avatar/rooms').set('x-mode', 'typed').send({ agent_id: 'agent-demo' });
    expect(typed.status).toBe(401);
    expect(typed.body).toEqual({ detail: 'Log in first' });
  });
});

describe('options', () => {
  const base = () => proxyOptions('http://127.0.0.1:1');
  it.each([
    ['sessionSecret', { sessionSecret: 'too-short' }, /sessionSecret: must be at least 32 bytes/],
    ['sessionSecret bytes', { sessionSecret: new Uint8Array(16) }, /sessionSecret: must be at least 32 bytes/],
    ['upstream.baseUrl', { upstream: { baseUrl: 'ftp://x', apiKey: 'k' } }, /upstream\.baseUrl/],
    ['upstream.apiKey', { upstream: { baseUrl: 'http://x.test', apiKey: '' } }, /upstream\.apiKey/],
    ['upstream', { upstream: undefined }, /upstream/],
    ['livekit.url', { livekit: { url: 'http://lk', apiKey: 'k', apiSecret: 's' } }, /livekit\.url/],
    ['agents', { agents: 'agent-demo' }, /agents/],
    ['authorize', { authorize: true }, /authorize/],
    ['tokenTtlSeconds', { tokenTtlSeconds: 5 }, /tokenTtlSeconds/],
    ['rateLimit.perIp', { rateLimit: { perIp: -1 } }, /rateLimit/],
    ['logger', { logger: {} }, /logger/],
  ])('%s is checked once, at creation, with a clear error', (_name, patch, message) => {
    const make = () => createAvatarProxy({ ...base(), ...patch } as never);
    expect(make).toThrowError(LiveAiError);
    expect(make).toThrowError(message);
    expect(() => createAvatarHandler({ ...base(), ...patch } as never)).toThrowError(message);
  });

  it('never echoes a secret in the error', () => {
    try {
      createAvatarProxy({ ...base(), sessionSecret: 'short-secret-XYZ' });
    } catch (e) {
      expect((e as LiveAiError).code).toBe('invalid_request');
      expect(String(e)).not.toContain('short-secret-XYZ');
    }
  });
});

describe('rate limits', () => {
  it('per IP on create routes: 429 {detail} after perIp requests', async () => {
    const app = proxyApp(proxyOptions(emulator.url, { rateLimit: { perIp: 3, windowMs: 60_000 } }));
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await request(app).post('/api/avatar/rooms').send({ agent_id: '' })).status);
    expect(statuses).toEqual([400, 400, 400, 429, 429]);
    const res = await request(app).post('/api/avatar/rooms').send({ agent_id: 'agent-demo' });
    expect(res.status).toBe(429);
    expect(res.body.detail).toMatch(/Too many requests; try again in \d+ s/);
    expect(res.headers['retry-after']).toMatch(/^\d+$/);
    expect(res.headers.ratelimit).toBeTruthy();
    expect(res.headers['x-request-id']).toBeTruthy();
  });

  it('per session on session routes, independent between sessions', async () => {
    const app = proxyApp(proxyOptions(emulator.url, { rateLimit: { perSession: 2, perIp: 100 } }));
    const a = (await request(app).post('/api/avatar/sessions').send({ agent_id: 'agent-demo', transport_type: 'rtc-a' })).body;
    const b = (await request(app).post('/api/avatar/sessions').send({ agent_id: 'agent-demo', transport_type: 'rtc-a' })).body;
    const get = (s: { session_id: string; client_token: string }) =>
      request(app).get(`/api/avatar/sessions/${s.session_id}`).set('authorization', `Bearer ${s.client_token}`);
    expect([(await get(a)).status, (await get(a)).status, (await get(a)).status]).toEqual([200, 200, 429]);
    expect((await get(b)).status).toBe(200);
  });

  it('a store given once is shared by several proxy instances', async () => {
    const store = new MemoryStore();
    const one = proxyApp(proxyOptions(emulator.url, { rateLimit: { perIp: 2, store: () => store } }));
    const two = proxyApp(
      proxyOptions(emulator.url, { rateLimit: { perIp: 2, store: (kind) => (kind === 'ip' ? store : new MemoryStore()) } }),
    );
    const hit = async (app: typeof one) => (await request(app).post('/api/avatar/rooms').send({})).status;
    expect([await hit(one), await hit(two), await hit(one), await hit(two)]).toEqual([400, 400, 429, 429]);
  });
});
