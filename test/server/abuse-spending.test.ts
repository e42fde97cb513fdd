import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import request from 'supertest';
import pino from 'pino';
import { SignJWT } from 'jose';
import { createServiceClient } from '../../src/server/service/client';
import { createAvatarHandler, createAvatarProxy, type AvatarProxyOptions } from '../../src/server/index';
import { createProxyClient } from '../../src/core/proxy-client';
import type { Request } from 'express';
import { ALICE, listen, proxyApp, proxyOptions, SECRET, setFaults, startEmulator, waitFor, type Emulator, serviceId } from './helpers';

/**
 * Attacks on the account's credits through the proxy's defaults: too many sessions per client, a session kept
 * alive forever, sessions the service started that no browser ever learned about, tokens that never expire or
 * outlive their session, and service texts (balance, other accounts' agents) shown to anonymous users.
 */
let emulator: Emulator;
let service: ReturnType<typeof createServiceClient>;

beforeAll(async () => {
  emulator = await startEmulator();
  service = createServiceClient({ baseUrl: emulator.url, apiKey: ALICE });
});
afterAll(async () => {
  await emulator.close();
});

function capturingLogger() {
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level: 'info' }, { write: (s: string) => void lines.push(JSON.parse(s) as Record<string, unknown>) });
  const wait = (msg: string) => waitFor(async () => lines.find((l) => l.msg === msg));
  return { logger, lines, wait };
}

const withDefaults = (extra: Partial<AvatarProxyOptions<Request>> = {}) =>
  proxyOptions(emulator.url, { sessionLimits: undefined, ownerLimits: undefined, ...extra });
const start = (app: ReturnType<typeof proxyApp>) =>
  request(app).post('/api/avatar/sessions').send({ agent_id: 'agent-demo', transport_type: 'rtc-a' });

/**
 * A fetch for the proxy's upstream that holds the service's answer to a create call until `release()`;
 * `upstreamReached` resolves once the service has created the session.
 */
function gatedCreate() {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  let reached!: () => void;
  const upstreamReached = new Promise<void>((r) => (reached = r));
  const gated: typeof fetch = async (input, init) => {
    const res = await fetch(input, init);
    if (init?.method === 'POST' && String(input).endsWith('/liveai/sessions')) {
      reached();
      await gate;
    }
    return res;
  };
  return { gated, upstreamReached, release };
}

describe('spending limits (on by default)', () => {
  it('one client cannot hold more than 3 sessions at once (the review got 130); ending one frees a slot', async () => {
    const app = proxyApp(withDefaults());
    const made = [];
    for (let i = 0; i < 3; i++) made.push(await start(app));
    expect(made.map((r) => r.status)).toEqual([201, 201, 201]);
    const fourth = await start(app);
    expect(fourth.status).toBe(429);
    expect(fourth.body.detail).toMatch(/At most 3 sessions/);
    expect(fourth.headers['retry-after']).toMatch(/^\d+$/);
    const s = made[0]!.body;
    expect(Date.parse(s.session_expires_at) - Date.now()).toBeGreaterThan(29 * 60_000);
    expect(
      (await request(app).post(`/api/avatar/sessions/${s.session_id}/end`).set('authorization', `Bearer ${s.client_token}`)).status,
    ).toBe(200);
    expect((await start(app)).status).toBe(201);
  });

  it('a session that ended on its own frees its slot too', async () => {
    const app = proxyApp(withDefaults({ sessionLimits: { maxConcurrent: 1 } }));
    const s = (await start(app)).body;
    await service.control(await serviceId(s.session_id), { event: 'terminate' });
    expect((await start(app)).status).toBe(201);
  });

  it('a create budget per client per window', async () => {
    const app = proxyApp(withDefaults({ sessionLimits: { createsPerWindow: 2, maxConcurrent: 10 } }));
    for (let i = 0; i < 2; i++) {
      const s = (await start(app)).body;
      await request(app).post(`/api/avatar/sessions/${s.session_id}/end`).set('authorization', `Bearer ${s.client_token}`);
    }
    const third = await start(app);
    expect(third.status).toBe(429);
    expect(third.body.detail).toMatch(/Too many sessions started/);
  });

  it('reset-idle-timeout cannot keep a session forever: the proxy ends it at its maximum length and says why', async () => {
    const { logger, wait } = capturingLogger();
    const app = proxyApp(withDefaults({ sessionLimits: { maxDurationMs: 3000 }, logger }));
    const res = await start(app);
    expect(res.status).toBe(201);
    const s = res.body;
    const auth = { authorization: `Bearer ${s.client_token}` };
    expect(
      (await request(app).post(`/api/avatar/sessions/${s.session_id}/control`).set(auth).send({ event: 'reset-idle-timeout' })).status,
    ).toBe(200);
    const line = await wait('avatar proxy ended a session');
    expect(line).toMatchObject({ sessionId: await serviceId(s.session_id), reason: 'max_duration' });
    const status = await request(app).get(`/api/avatar/sessions/${s.session_id}`).set(auth);
    expect(status.body).toMatchObject({ session_status: 'COMPLETED', end_reason: 'max_duration' });
    const more = await request(app).post(`/api/avatar/sessions/${s.session_id}/control`).set(auth).send({ event: 'reset-idle-timeout' });
    expect(more.status).toBe(403);
  });
});

describe('no orphaned sessions', () => {
  it('a reply after the time limit (504): the proxy ends the session the service made', async () => {
    const { logger, wait } = capturingLogger();
    const app = proxyApp(withDefaults({ logger, upstream: { baseUrl: emulator.url, apiKey: ALICE, timeoutMs: 150 } }));
    await setFaults(emulator.url, { latencyMs: 400 });
    try {
      const res = await start(app);
      expect(res.status).toBe(504);
      const line = await wait('avatar proxy ended a session');
      expect(line).toMatchObject({ reason: 'orphaned' });
      await setFaults(emulator.url, { latencyMs: 0 });
      expect((await service.getSession(String(line.sessionId))).session_status).toBe('COMPLETED');
    } finally {
      await setFaults(emulator.url, { latencyMs: 0 });
    }
  });

  it('a 201 whose body cannot be read (502): the id is recovered from the text and the session ended', async () => {
    const { logger, lines, wait } = capturingLogger();
    const truncating: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      if (init?.method !== 'POST' || !String(input).endsWith('/liveai/sessions')) return res;
      const text = await res.text();
      return new Response(text.slice(0, text.indexOf('"session_id"') + 40), { status: res.status, headers: res.headers });
    };
    const app = proxyApp(withDefaults({ logger, upstream: { baseUrl: emulator.url, apiKey: ALICE, fetch: truncating } }));
    const res = await start(app);
    expect(res.status).toBe(502);
    const line = await wait('avatar proxy ended a session');
    expect((await service.getSession(String(line.sessionId))).session_status).toBe('COMPLETED');
    expect(JSON.stringify(lines)).not.toContain(ALICE);
  });

  it('the browser went away while the service created it: ended (Fetch handler, request signal)', async () => {
    const { logger, wait } = capturingLogger();
    const { gated, upstreamReached, release } = gatedCreate();
    const handler = createAvatarHandler({
      ...withDefaults({ logger, upstream: { baseUrl: emulator.url, apiKey: ALICE, fetch: gated } }),
      basePath: '/api/avatar',
    } as never);
    const abort = new AbortController();
    const req = new Request('http://proxy.test/api/avatar/sessions', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ agent_id: 'agent-demo', transport_type: 'rtc-a' }),
      signal: abort.signal,
    });
    const answer = handler(req, { remoteAddress: '192.0.2.9' });
    await upstreamReached;
    abort.abort();
    release();
    await answer;
    const line = await wait('avatar proxy ended a session');
    expect((await service.getSession(String(line.sessionId))).session_status).toBe('COMPLETED');
  });

  it('the browser went away while the service created it: ended (Express, closed connection)', async () => {
    const { logger, wait } = capturingLogger();
    const { gated, upstreamReached, release } = gatedCreate();
    const l = await listen(proxyApp(withDefaults({ logger, upstream: { baseUrl: emulator.url, apiKey: ALICE, fetch: gated } })));
    const closed = new Promise<void>((r) => l.server.once('connection', (socket) => socket.once('close', () => r())));
    const abort = new AbortController();
    const browser = fetch(`${l.url}/api/avatar/sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ agent_id: 'agent-demo', transport_type: 'rtc-a' }),
      signal: abort.signal,
    }).catch(() => undefined);
    await upstreamReached;
    abort.abort();
    await closed;
    release();
    await browser;
    const line = await wait('avatar proxy ended a session');
    expect((await service.getSession(String(line.sessionId))).session_status).toBe('COMPLETED');
    await l.close();
  });
});

describe('client tokens', () => {
  const app = () => proxyApp(proxyOptions(emulator.url));

  it('a token without exp is refused, even when signed with the right secret', async () => {
    const a = app();
    const s = (await start(a)).body;
    const noExp = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(s.session_id)
      .setIssuer('liveai-kit/server')
      .setAudience('liveai-kit/browser')
      .setIssuedAt()
      .sign(new TextEncoder().encode(SECRET));
    expect((await request(a).get(`/api/avatar/sessions/${s.session_id}`).set('authorization', `Bearer ${noExp}`)).status).toBe(401);
  });

  it('a secret of 32 × "x" (or any repeated pattern) is refused at creation', () => {
    for (const sessionSecret of ['x'.repeat(32), 'ab'.repeat(40), '0123'.repeat(16)]) {
      expect(() => createAvatarProxy({ ...proxyOptions(emulator.url), sessionSecret })).toThrowError(/sessionSecret: is not random enough/);
    }
  });

  it('short-lived tokens are renewed while the session lives; after /end only status reads are accepted', async () => {
    const a = app();
    const s = (await start(a)).body;
    expect(Date.parse(s.expires_at) - Date.now()).toBeLessThanOrEqual(900_000);
    const renewed = await request(a).post(`/api/avatar/sessions/${s.session_id}/token`).set('authorization', `Bearer ${s.client_token}`);
    expect(renewed.status).toBe(200);
    expect(Object.keys(renewed.body).sort()).toEqual(['client_token', 'expires_at']);
    const auth = { authorization: `Bearer ${renewed.body.client_token}` };
    expect((await request(a).post(`/api/avatar/sessions/${s.session_id}/end`).set(auth)).status).toBe(200);
    expect((await request(a).get(`/api/avatar/sessions/${s.session_id}`).set(auth)).status).toBe(200);
    for (const [path, body] of [
      ['control', { event: 'reset-idle-timeout' }],
      ['leave-meeting', { meeting_bot_id: 'm' }],
      ['token', {}],
    ] as const) {
      const res = await request(a).post(`/api/avatar/sessions/${s.session_id}/${path}`).set(auth).send(body);
      expect(res.status).toBe(403);
      expect(res.body.detail).toMatch(/ended/);
    }
    expect(
      (await request(a).post(`/api/avatar/sessions/${s.session_id}/end`).set('authorization', `Bearer ${s.client_token}`)).status,
    ).toBe(200);
  });
});

describe('token renewal by the browser client', () => {
  it('the proxy client renews a short-lived token past half its life, so the session outlives the first token', async () => {
    const l = await listen(proxyApp(proxyOptions(emulator.url, { tokenTtlSeconds: 60 })));
    const paths: string[] = [];
    const client = createProxyClient({
      proxyUrl: `${l.url}/api/avatar`,
      fetch: (input, init) => {
        paths.push(`${init?.method ?? 'GET'} ${new URL(String(input)).pathname}`);
        return fetch(input, init);
      },
    });
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const s = await client.createSession({ agent_id: 'agent-demo', transport_type: 'rtc-a' });
      await client.getSession(s.session_id, s.client_token);
      expect(paths.some((p) => p.endsWith('/token'))).toBe(false);
      vi.setSystemTime(Date.now() + 40_000);
      await client.getSession(s.session_id, s.client_token);
      expect(paths.filter((p) => p.endsWith('/token'))).toHaveLength(1);
      vi.setSystemTime(Date.now() + 50_000); // the first token has expired by now
      expect((await client.getSession(s.session_id, s.client_token)).session_status).toMatch(/QUEUED|ACTIVE/);
      await client.end(s.session_id, s.client_token);
      expect((await service.getSession(await serviceId(s.session_id))).session_status).toBe('COMPLETED');
    } finally {
      vi.useRealTimers();
      await l.close();
    }
  });
});

describe('client-safe service errors', () => {
  it('402 tells no balance; the service text goes to the log only', async () => {
    const { logger, lines } = capturingLogger();
    const broke = proxyApp(proxyOptions(emulator.url, { logger, upstream: { baseUrl: emulator.url, apiKey: 'dev-key-broke' } }));
    const res = await request(broke).post('/api/avatar/rooms').send({ agent_id: 'agent-broke' });
    expect(res.status).toBe(402);
    expect(res.body.detail).not.toMatch(/\d/);
    expect(res.body.detail).toMatch(/insufficient funds/);
    const line = lines.find((l) => l.msg === 'avatar service failed');
    expect(line).toMatchObject({ status: 402, upstreamStatus: 402 });
    expect(String(line?.upstreamDetail)).toMatch(/credits/);
  });
});
