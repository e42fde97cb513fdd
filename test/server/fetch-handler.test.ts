import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ClientSessionSchema } from '../../src/core/schemas';
import { createAvatarHandler, type AvatarHandlerOptions } from '../../src/server/index';
import { controlBodies, ids, roomBodies, sessionBodies } from './arbitraries';
import { ALICE, countingFetch, LIVEKIT, png, SECRET, setFaults, startEmulator, type Emulator } from './helpers';
import { quietLogger } from '../setup/quiet-logger';

/**
 * The framework-free handler `(Request) => Promise<Response>`, called the way a Next.js route handler
 * (`app/api/avatar/[...path]/route.ts`) calls it, in front of the real local service.
 */
let emulator: Emulator;
let handler: (r: Request) => Promise<Response>;
const counter = countingFetch();
const ORIGIN = 'http://app.test';

function make(extra: Partial<AvatarHandlerOptions> = {}) {
  return createAvatarHandler({
    basePath: '/api/avatar',
    upstream: { baseUrl: emulator.url, apiKey: ALICE, fetch: counter.fetch },
    sessionSecret: SECRET,
    livekit: LIVEKIT,
    rateLimit: false,
    sessionLimits: false,
    admin: (req) => req.headers.get('x-admin') === 'yes',
    logger: quietLogger(),
    ...extra,
  });
}

beforeAll(async () => {
  emulator = await startEmulator();
  handler = make();
});
afterAll(async () => {
  await emulator.close();
});

const json = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  new Request(`${ORIGIN}/api/avatar${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
const get = (path: string, headers: Record<string, string> = {}) => new Request(`${ORIGIN}/api/avatar${path}`, { headers });
async function call(h: typeof handler, req: Request) {
  const res = await h(req);
  return { status: res.status, headers: res.headers, body: await res.json() };
}

describe('createAvatarHandler (Fetch API)', () => {
  it('runs the whole flow: room, rtc-a session, get, control, end by beacon', async () => {
    const room = await call(handler, json('/rooms', { agent_id: 'agent-demo' }));
    expect(room.status).toBe(201);
    v.parse(ClientSessionSchema, room.body);
    const s = await call(handler, json('/sessions', { agent_id: 'agent-demo', transport_type: 'rtc-a' }));
    expect(s.status).toBe(201);
    expect(s.body).toMatchObject({ transport: 'rtc-a', room_url: LIVEKIT.url });
    expect(s.headers.get('cache-control')).toBe('no-store');
    const auth = { authorization: `Bearer ${s.body.client_token}` };
    const got = await call(handler, get(`/sessions/${s.body.session_id}`, auth));
    expect(got.status).toBe(200);
    expect(got.body.session_status).toMatch(/QUEUED|ACTIVE/);
    expect((await call(handler, json(`/sessions/${s.body.session_id}/control`, { event: 'reset-idle-timeout' }, auth))).status).toBe(200);
    const beacon = new Request(`${ORIGIN}/api/avatar/sessions/${s.body.session_id}/end`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain;charset=UTF-8' },
      body: JSON.stringify({ client_token: s.body.client_token }),
    });
    expect((await call(handler, beacon)).status).toBe(200);
    expect((await call(handler, get('/sessions', { 'x-admin': 'yes' }))).status).toBe(200);
    expect((await call(handler, get('/sessions'))).status).toBe(403);
  });

  it('isolates sessions and checks tokens like the Express router', async () => {
    const a = (await call(handler, json('/sessions', { agent_id: 'agent-demo', transport_type: 'rtc-a' }))).body;
    const b = (await call(handler, json('/sessions', { agent_id: 'agent-demo', transport_type: 'rtc-a' }))).body;
    const before = counter.calls;
    const other = await call(handler, get(`/sessions/${b.session_id}`, { authorization: `Bearer ${a.client_token}` }));
    expect(other).toMatchObject({ status: 403, body: { detail: 'This client token belongs to another session' } });
    expect((await call(handler, get(`/sessions/${b.session_id}`))).status).toBe(401);
    expect((await call(handler, json(`/sessions/${b.session_id}/end`, { client_token: a.client_token }))).status).toBe(403);
    expect(counter.calls).toBe(before);
  });

  it('multipart: a browser FormData with a PNG and a JSON Blob payload; 413 over 4 MB; 415 for other types', async () => {
    const form = (image: Blob) => {
      const f = new FormData();
      f.append('image', image, 'me.png');
      f.append('payload', new Blob([JSON.stringify({ transport_type: 'rtc-a' })], { type: 'application/json' }));
      return new Request(`${ORIGIN}/api/avatar/sessions`, { method: 'POST', body: f });
    };
    const ok = await call(handler, form(new Blob([new Uint8Array(await png())], { type: 'image/png' })));
    expect(ok.status).toBe(201);
    const before = counter.calls;
    const big = await call(handler, form(new Blob([new Uint8Array(await png()), new Uint8Array(4 * 1024 * 1024)], { type: 'image/png' })));
    expect(big.status).toBe(413);
    const gif = await call(handler, form(new Blob([new Uint8Array([0x47, 0x49, 0x46, 0x38])], { type: 'image/gif' })));
    expect(gif.status).toBe(415);
    expect(counter.calls).toBe(before);
  });

  it('404 outside the base path or for unknown routes; request ids; rate limits; upstream time-out', async () => {
    for (const r of [
      get('/nope'),
      new Request(`${ORIGIN}/other/rooms`, { method: 'POST' }),
      get('/sessions/x/valueOf'),
      new Request(`${ORIGIN}/api/avatar/rooms`, { method: 'DELETE' }),
    ]) {
      const res = await call(handler, r);
      expect(res).toMatchObject({ status: 404, body: { detail: 'Not found' } });
      expect(res.headers.get('x-request-id')).toBeTruthy();
    }
    expect((await handler(get('/nope', { 'x-request-id': 'abc-1' }))).headers.get('x-request-id')).toBe('abc-1');
    const limited = make({ rateLimit: { perIp: 2 }, trustProxy: 1 });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await limited(json('/rooms', {}, { 'x-forwarded-for': '203.0.113.9' }))).status);
    expect(statuses).toEqual([400, 400, 429]);
    expect((await limited(json('/rooms', {}, { 'x-forwarded-for': '203.0.113.10' }))).status).toBe(400);
    const slow = make({ upstream: { baseUrl: emulator.url, apiKey: ALICE, timeoutMs: 100 } });
    await setFaults(emulator.url, { latencyMs: 1000 });
    try {
      expect(await call(slow, json('/rooms', { agent_id: 'agent-demo' }))).toMatchObject({
        status: 504,
        body: { detail: expect.any(String) },
      });
    } finally {
      await setFaults(emulator.url, { latencyMs: 0 });
    }
  });

  it('malformed input (property test): 4xx {detail}, no service call', async () => {
    const before = counter.calls;
    let n = 0;
    const check = async (req: Request) => {
      n += 1;
      const res = await handler(req);
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(typeof (await res.json()).detail).toBe('string');
    };
    const s = (await call(handler, json('/sessions', { agent_id: 'agent-demo', transport_type: 'rtc-a' }))).body;
    const after = counter.calls;
    await fc.assert(
      fc.asyncProperty(roomBodies, (b) => check(json('/rooms', b))),
      { numRuns: 500 },
    );
    await fc.assert(
      fc.asyncProperty(sessionBodies, (b) => check(json('/sessions', b))),
      { numRuns: 500 },
    );
    await fc.assert(
      fc.asyncProperty(controlBodies, (b) =>
        check(json(`/sessions/${s.session_id}/control`, b, { authorization: `Bearer ${s.client_token}` })),
      ),
      { numRuns: 500 },
    );
    await fc.assert(
      fc.asyncProperty(ids, fc.string(), (id, t) =>
        check(get(`/sessions/${id}`, { authorization: `Bearer ${t.replace(/[^\x21-\x7e]/g, '')}` })),
      ),
      { numRuns: 500 },
    );
    expect(counter.calls - after).toBe(0);
    expect(before).toBeLessThan(after);
    expect(n).toBeGreaterThan(500);
  });
});
