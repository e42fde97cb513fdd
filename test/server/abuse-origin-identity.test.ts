import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import express from 'express';
import pino from 'pino';
import { createAvatarHandler, createAvatarProxy, type AvatarProxyOptions } from '../../src/server/index';
import { countingFetch, listen, png, proxyOptions, startEmulator, type Emulator } from './helpers';

/**
 * Attacks from the security review, each against both adapters with their defaults: another site starting
 * paid sessions, a spoofed or shared client address, and a stranger using up a session's budget so that its
 * owner cannot end it.
 */
let emulator: Emulator;
const counter = countingFetch();
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  emulator = await startEmulator();
});
afterAll(async () => {
  for (const c of closers) await c();
  await emulator.close();
});

type Send = (path: string, init?: RequestInit & { ip?: string }) => Promise<Response>;
interface Proxy {
  /** The proxy's own origin, as a page served next to it would send it. */
  origin: string;
  send: Send;
}

/** Defaults everywhere except what a test passes; the Express app has `trust proxy` set as many apps do. */
function base(extra: Partial<AvatarProxyOptions<never>>): AvatarProxyOptions<express.Request> & AvatarProxyOptions<globalThis.Request> {
  return {
    ...proxyOptions(emulator.url, { upstream: { baseUrl: emulator.url, apiKey: 'dev-key-alice', fetch: counter.fetch } }),
    rateLimit: undefined,
    sessionLimits: undefined,
    ownerLimits: undefined,
    ...extra,
  } as never;
}

const adapters: Record<string, (extra?: Partial<AvatarProxyOptions<never>>) => Promise<Proxy>> = {
  async express(extra = {}) {
    const app = express();
    app.set('trust proxy', 1);
    app.use('/api/avatar', createAvatarProxy(base(extra)));
    const l = await listen(app);
    closers.push(l.close);
    return { origin: l.url, send: (path, init) => fetch(`${l.url}/api/avatar${path}`, init) };
  },
  async fetch(extra = {}) {
    const handler = createAvatarHandler({ ...base(extra), basePath: '/api/avatar' } as never);
    const origin = 'https://proxy.example';
    return {
      origin,
      send: (path, init = {}) => handler(new Request(`${origin}/api/avatar${path}`, init), { remoteAddress: init.ip ?? '192.0.2.1' }),
    };
  },
};

const jsonPost = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});
const randomIp = () =>
  `${1 + Math.floor(Math.random() * 200)}.${Math.floor(Math.random() * 255)}.${Math.floor(Math.random() * 255)}.${1 + Math.floor(Math.random() * 250)}`;

describe.each(Object.keys(adapters))('%s adapter, defaults', (name) => {
  const make = adapters[name]!;

  it('refuses a simple cross-origin POST (multipart, text/plain) from another site with 403 {detail}, before any service call', async () => {
    const p = await make();
    const form = new FormData();
    form.append('image', new Blob([new Uint8Array(await png())], { type: 'image/png' }), 'a.png');
    form.append('payload', JSON.stringify({ transport_type: 'rtc-a' }));
    const before = counter.calls;
    const multipart = await p.send('/sessions', { method: 'POST', headers: { origin: 'https://evil.example' }, body: form });
    expect(multipart.status).toBe(403);
    expect((await multipart.json()).detail).toMatch(/origin/);
    const text = await p.send('/rooms', {
      method: 'POST',
      headers: { origin: 'https://evil.example', 'content-type': 'text/plain' },
      body: '{"agent_id":"agent-demo"}',
    });
    expect(text.status).toBe(403);
    const opaque = await p.send('/rooms', jsonPost({ agent_id: 'agent-demo' }, { origin: 'null' }));
    expect(opaque.status).toBe(403);
    const fetchSite = await p.send('/rooms', jsonPost({ agent_id: 'agent-demo' }, { 'sec-fetch-site': 'cross-site' }));
    expect(fetchSite.status).toBe(403);
    expect(counter.calls).toBe(before);
    const own = await p.send('/rooms', jsonPost({ agent_id: 'agent-demo' }, { origin: p.origin, 'sec-fetch-site': 'same-origin' }));
    expect(own.status).toBe(201);
    const server = await p.send('/rooms', jsonPost({ agent_id: 'agent-demo' }));
    expect(server.status).toBe(201);
    for (const r of [own, server]) {
      const s = await r.json();
      await p.send(`/sessions/${s.session_id}/end`, { method: 'POST', headers: { authorization: `Bearer ${s.client_token}` } });
    }
  });

  it('allowedOrigins admits a front end on another origin, with CORS headers and preflight answers', async () => {
    const p = await make({ allowedOrigins: ['https://app.example'] });
    const pre = await p.send('/sessions', {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(pre.headers.get('access-control-allow-headers')).toMatch(/authorization/);
    const res = await p.send('/rooms', jsonPost({ agent_id: 'agent-demo' }, { origin: 'https://app.example' }));
    expect(res.status).toBe(201);
    expect(res.headers.get('access-control-allow-origin')).toBe('https://app.example');
    const s = await res.json();
    await p.send(`/sessions/${s.session_id}/end`, {
      method: 'POST',
      headers: { authorization: `Bearer ${s.client_token}`, origin: 'https://app.example' },
    });
    const other = await p.send('/rooms', jsonPost({ agent_id: 'agent-demo' }, { origin: 'https://evil.example' }));
    expect(other.status).toBe(403);
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    expect((await p.send('/rooms', { method: 'OPTIONS', headers: { origin: 'https://evil.example' } })).status).toBe(403);
  });

  it('ignores X-Forwarded-For and X-Real-IP by default: random values do not buy a fresh budget', async () => {
    const p = await make();
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) {
      const ip = randomIp();
      statuses.push((await p.send('/rooms', { ...jsonPost({}, { 'x-forwarded-for': ip, 'x-real-ip': ip }), ip: '192.0.2.50' })).status);
    }
    expect(statuses.filter((s) => s === 429).length).toBe(10);
    expect(statuses.slice(0, 20).every((s) => s === 400)).toBe(true);
  });

  it('one session budget per valid token: 150 token-less requests use none of it, and /end is never rate limited', async () => {
    // (The per-client limit of invalid-token requests, tested on its own, is raised out of the way.)
    const p = await make({ rateLimit: { perSession: 5, perIp: 100, invalidTokens: 1000 } });
    const s = await (await p.send('/sessions', jsonPost({ agent_id: 'agent-demo', transport_type: 'rtc-a' }))).json();
    for (let i = 0; i < 150; i++) {
      const path = i % 2 ? `/sessions/${s.session_id}` : `/sessions/${s.session_id}/end`;
      const r = await p.send(path, i % 2 ? {} : { method: 'POST' });
      expect(r.status).toBe(401);
    }
    const auth = { authorization: `Bearer ${s.client_token}` };
    expect((await p.send(`/sessions/${s.session_id}`, { headers: auth })).status).toBe(200);
    // The owner uses up the budget themselves; /end, by header or by beacon, still works.
    for (let i = 0; i < 4; i++) await p.send(`/sessions/${s.session_id}`, { headers: auth });
    expect((await p.send(`/sessions/${s.session_id}`, { headers: auth })).status).toBe(429);
    const beacon = await p.send(`/sessions/${s.session_id}/end`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain;charset=UTF-8' },
      body: JSON.stringify({ client_token: s.client_token }),
    });
    expect(beacon.status).toBe(200);
    expect((await p.send(`/sessions/${s.session_id}/end`, { method: 'POST', headers: auth })).status).toBe(200);
  });
});

describe.each(Object.keys(adapters))('%s adapter: body rules as documented', (name) => {
  it('415 for a charset other than UTF-8 or a Content-Encoding; 400 for a second image part; nothing reaches the service', async () => {
    const p = await adapters[name]!();
    const before = counter.calls;
    const body = JSON.stringify({ agent_id: 'agent-demo' });
    for (const headers of [
      { 'content-type': 'application/json; charset=latin1' },
      { 'content-type': 'application/json; charset=bogus-42' },
      { 'content-type': 'application/json', 'content-encoding': 'gzip' },
    ] as Record<string, string>[]) {
      const res = await p.send('/rooms', { method: 'POST', headers, body });
      expect(res.status).toBe(415);
      expect(typeof (await res.json()).detail).toBe('string');
    }
    const form = new FormData();
    const image = new Blob([new Uint8Array(await png())], { type: 'image/png' });
    form.append('image', image, 'a.png');
    form.append('image', image, 'b.png');
    form.append('payload', JSON.stringify({ transport_type: 'rtc-a' }));
    const two = await p.send('/sessions', { method: 'POST', body: form });
    expect(two.status).toBe(400);
    expect((await two.json()).detail).toMatch(/Unexpected multipart part/);
    expect(counter.calls).toBe(before);
  });
});

describe('behind an undeclared reverse proxy', () => {
  it('warns once in the log that every client shares the proxy address (trustProxy not set)', async () => {
    const lines: Record<string, unknown>[] = [];
    const logger = pino({ level: 'warn' }, { write: (s: string) => void lines.push(JSON.parse(s) as Record<string, unknown>) });
    const p = await adapters.express!({ logger });
    for (let i = 0; i < 3; i++) await p.send('/rooms', jsonPost({}, { 'x-forwarded-for': randomIp() }));
    expect(lines.filter((l) => String(l.msg).includes('trustProxy is not set'))).toHaveLength(1);
  });
});

describe('client address of the Fetch handler', () => {
  const handlerWith = (extra: Record<string, unknown>) =>
    createAvatarHandler({ ...base({ sessionLimits: false }), basePath: '/api/avatar', ...extra } as never);
  const create = (headers: Record<string, string> = {}) => new Request('https://proxy.example/api/avatar/rooms', jsonPost({}, headers));

  it('has no shared "unknown" bucket: without a platform address or clientIp it refuses to guess (503 + log), never locks everyone out', async () => {
    const h = handlerWith({});
    const res = await h(create({ 'x-forwarded-for': '203.0.113.1' }));
    expect(res.status).toBe(503);
    expect((await res.json()).detail).toMatch(/cannot tell its visitors apart/);
    // Each platform address has its own budget.
    const a = [];
    for (let i = 0; i < 21; i++) a.push((await h(create(), { remoteAddress: '198.51.100.1' })).status);
    expect(a.at(-1)).toBe(429);
    expect((await h(create(), { remoteAddress: '198.51.100.2' })).status).toBe(400);
    expect((await h(create(), { remoteAddr: { hostname: '198.51.100.3' } })).status).toBe(400);
  });

  it('clientIp decides when given; trustProxy: 1 reads the entry the platform proxy appended, not the spoofed ones', async () => {
    const byHeader = handlerWith({ clientIp: (r: Request) => r.headers.get('x-platform-ip'), rateLimit: { perIp: 1 } });
    expect((await byHeader(create({ 'x-platform-ip': '203.0.113.5' }))).status).toBe(400);
    expect((await byHeader(create({ 'x-platform-ip': '203.0.113.5' }))).status).toBe(429);
    expect((await byHeader(create({ 'x-platform-ip': '203.0.113.6' }))).status).toBe(400);
    const behind = handlerWith({ trustProxy: 1, rateLimit: { perIp: 1 } });
    expect((await behind(create({ 'x-forwarded-for': '6.6.6.1, 203.0.113.7' }))).status).toBe(400);
    expect((await behind(create({ 'x-forwarded-for': '6.6.6.2, 203.0.113.7' }))).status).toBe(429);
  });

  it('a trustProxy list skips only the listed proxies (safe when the app is reachable directly)', async () => {
    const h = handlerWith({ trustProxy: ['loopback', '10.0.0.0/8'], rateLimit: { perIp: 1 } });
    expect((await h(create({ 'x-forwarded-for': '203.0.113.9' }), { remoteAddress: '10.1.2.3' })).status).toBe(400);
    expect((await h(create({ 'x-forwarded-for': '203.0.113.9' }), { remoteAddress: '127.0.0.1' })).status).toBe(429);
    // Straight from the internet: the peer is not a listed proxy, so its X-Forwarded-For is ignored.
    expect((await h(create({ 'x-forwarded-for': '203.0.113.10' }), { remoteAddress: '198.51.100.77' })).status).toBe(400);
    expect((await h(create({ 'x-forwarded-for': '203.0.113.11' }), { remoteAddress: '198.51.100.77' })).status).toBe(429);
  });
});
