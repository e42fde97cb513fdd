import http from 'node:http';
import type { Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import { createUpstreamFetch, openPool } from '../../src/server/service/upstream-fetch';
import { ALICE, closedPort, png, proxyApp, proxyOptions, setFaults, startEmulator, waitFor, type Emulator, serviceId } from './helpers';

// The proxy's default way to the service (no `upstream.fetch` given): undici request() over a keep-alive pool.
let emulator: Emulator;
const sockets: Socket[] = [];

beforeAll(async () => {
  emulator = await startEmulator(0);
  emulator.server.on('connection', (s: Socket) => sockets.push(s));
});
afterEach(async () => {
  await setFaults(emulator.url, { latencyMs: 0, failRate: 0, dropRate: 0 });
});
afterAll(async () => {
  await emulator.close();
});

const createRoom = async (app: ReturnType<typeof proxyApp>) => {
  const res = await request(app).post('/api/avatar/rooms').send({ agent_id: 'agent-demo' });
  expect(res.status).toBe(201);
  return res.body as { session_id: string; client_token: string };
};

describe('the default upstream client (keep-alive pool)', () => {
  it('a whole session goes through it: create, status, control, end, with the same answers as the service', async () => {
    const app = proxyApp(proxyOptions(emulator.url));
    const s = await createRoom(app);
    const auth = { authorization: `Bearer ${s.client_token}` };
    const active = await waitFor(async () => {
      const r = await request(app).get(`/api/avatar/sessions/${s.session_id}`).set(auth);
      return r.body.session_status === 'ACTIVE' ? r : undefined;
    });
    expect(active.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(active.headers['cache-control']).toBe('no-store');
    const direct = await fetch(`${emulator.url}/liveai/sessions/${await serviceId(s.session_id)}`, { headers: { 'x-api-key': ALICE } });
    expect(active.body).toEqual(await direct.json());
    const control = await request(app).post(`/api/avatar/sessions/${s.session_id}/control`).set(auth).send({ event: 'reset-idle-timeout' });
    expect(control.status).toBe(200);
    expect(control.body).toEqual({ success: true });
    const end = await request(app).post(`/api/avatar/sessions/${s.session_id}/end`).set(auth).send({});
    expect(end.status).toBe(200);
    const final = await waitFor(async () => {
      const r = await fetch(`${emulator.url}/liveai/sessions/${await serviceId(s.session_id)}`, { headers: { 'x-api-key': ALICE } });
      const b = (await r.json()) as { session_status: string };
      return b.session_status === 'COMPLETED' ? b : undefined;
    });
    expect(final.session_status).toBe('COMPLETED');
  });

  it('reuses its connections: 40 status polls open at most one new connection to the service', async () => {
    const app = proxyApp(proxyOptions(emulator.url));
    const s = await createRoom(app);
    const before = sockets.length;
    for (let i = 0; i < 40; i++) {
      const r = await request(app).get(`/api/avatar/sessions/${s.session_id}`).set('authorization', `Bearer ${s.client_token}`);
      expect(r.status).toBe(200);
    }
    expect(sockets.length - before).toBeLessThanOrEqual(1);
  });

  it('a service slower than upstream.timeoutMs → 504 {detail}', async () => {
    const app = proxyApp(proxyOptions(emulator.url, { upstream: { baseUrl: emulator.url, apiKey: ALICE, timeoutMs: 150 } }));
    await setFaults(emulator.url, { latencyMs: 1500 });
    const res = await request(app).post('/api/avatar/rooms').send({ agent_id: 'agent-demo' });
    expect(res.status).toBe(504);
    expect(res.body).toEqual({ detail: 'The avatar service did not answer in time; try again' });
  });

  it('a status poll slower than upstream.timeoutMs → 504 {detail}, and the next poll is answered again', async () => {
    const app = proxyApp(proxyOptions(emulator.url, { upstream: { baseUrl: emulator.url, apiKey: ALICE, timeoutMs: 300 } }));
    const s = await createRoom(app);
    const poll = () => request(app).get(`/api/avatar/sessions/${s.session_id}`).set('authorization', `Bearer ${s.client_token}`);
    await setFaults(emulator.url, { latencyMs: 1500 });
    const slow = await poll();
    expect(slow.status).toBe(504);
    expect(slow.body).toEqual({ detail: 'The avatar service did not answer in time; try again' });
    await setFaults(emulator.url, { latencyMs: 0 });
    expect((await poll()).status).toBe(200);
  });

  it('routes answer like Express routes: HEAD as GET, the route names in any letter case, a trailing slash', async () => {
    const app = proxyApp(proxyOptions(emulator.url));
    const s = await createRoom(app);
    const auth = { authorization: `Bearer ${s.client_token}` };
    const head = await request(app).head(`/api/avatar/sessions/${s.session_id}`).set(auth);
    expect(head.status).toBe(200);
    expect(head.headers['x-request-id']).toEqual(expect.any(String));
    expect((await request(app).get(`/api/avatar/Sessions/${s.session_id}/`).set(auth)).body).toHaveProperty('session_status');
    const other = await request(app).get(`/api/avatar/sessions/${s.session_id}/control`).set(auth);
    expect(other.status).toBe(404);
    expect(other.body).toEqual({ detail: 'Not found' });
  });

  it('mounted inside a host server that sets its own req.path (Storybook, Vite dev, polka): the routes still answer', async () => {
    const app = proxyApp(proxyOptions(emulator.url));
    // Such servers set `req.path` to the full path as an own property, hiding Express's getter.
    const host = http.createServer((req, res) => {
      (req as unknown as { path: string }).path = new URL(req.url ?? '/', 'http://host').pathname;
      app(req as never, res as never);
    });
    const created = await request(host).post('/api/avatar/rooms').send({ agent_id: 'agent-demo' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const status = await request(host)
      .get(`/api/avatar/sessions/${created.body.session_id}`)
      .set({ authorization: `Bearer ${created.body.client_token}` });
    expect(status.body).toHaveProperty('session_status');
  });

  it('an unreachable service → 502 {detail} without its address; a dropped connection → 502', async () => {
    const baseUrl = `http://127.0.0.1:${await closedPort()}`;
    const down = proxyApp(proxyOptions(baseUrl, { upstream: { baseUrl, apiKey: ALICE, retries: 0 }, admin: () => true }));
    const get = await request(down).get('/api/avatar/sessions');
    expect(get.status).toBe(502);
    expect(get.body).toEqual({ detail: 'The avatar service is unavailable; try again later' });
    expect(JSON.stringify(get.body)).not.toContain(new URL(baseUrl).port);
    const app = proxyApp(proxyOptions(emulator.url));
    await setFaults(emulator.url, { dropRate: 1 });
    expect((await request(app).post('/api/avatar/rooms').send({ agent_id: 'agent-demo' })).status).toBe(502);
  });

  it('a service error passes through as {detail} (402 no credits), never with the API key', async () => {
    const app = proxyApp(proxyOptions(emulator.url, { upstream: { baseUrl: emulator.url, apiKey: 'dev-key-broke' } }));
    const res = await request(app).post('/api/avatar/rooms').send({ agent_id: 'agent-broke' });
    expect(res.status).toBe(402);
    expect(Object.keys(res.body)).toEqual(['detail']);
    expect(JSON.stringify(res.body) + JSON.stringify(res.headers)).not.toContain('dev-key-broke');
  });

  it('multipart creation (an image upload) still reaches the service', async () => {
    const app = proxyApp(proxyOptions(emulator.url));
    const res = await request(app)
      .post('/api/avatar/sessions')
      .attach('image', await png(), { filename: 'face.png', contentType: 'image/png' })
      .field('payload', JSON.stringify({ transport_type: 'rtc-a' }));
    expect(res.status).toBe(201);
    expect(res.body.session_id).toEqual(expect.any(String));
  });
});

describe('createUpstreamFetch', () => {
  it('answers like fetch for what the service client reads: status, ok, headers, text, json', async () => {
    const f = createUpstreamFetch(openPool(emulator.url)!);
    const res = await f(`${emulator.url}/liveai/rooms?page=1&limit=1`, { method: 'GET', headers: { 'X-API-Key': ALICE } });
    expect(res.status).toBe(200);
    expect(res.ok).toBe(true);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect(await res.json()).toHaveProperty('rooms');
    const refused = await f(`${emulator.url}/liveai/rooms`, { headers: new Headers({ 'x-api-key': 'nope' }) });
    expect(refused.status).toBe(401);
    expect(refused.ok).toBe(false);
    expect(JSON.parse(await refused.text())).toHaveProperty('detail');
  });

  it('rejects when its signal aborts', async () => {
    const f = createUpstreamFetch(openPool(emulator.url)!);
    await setFaults(emulator.url, { latencyMs: 1000 });
    const c = new AbortController();
    const p = f(`${emulator.url}/liveai/rooms`, { headers: { 'x-api-key': ALICE }, signal: c.signal });
    c.abort();
    await expect(p).rejects.toBeTruthy();
  });
});
