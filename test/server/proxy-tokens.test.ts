import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import { SignJWT } from 'jose';
import type { Express } from 'express';
import { countingFetch, proxyApp, proxyOptions, SECRET, startEmulator, type Emulator } from './helpers';

let emulator: Emulator;
let app: Express;
const counter = countingFetch();

beforeAll(async () => {
  emulator = await startEmulator();
  app = proxyApp(proxyOptions(emulator.url, { upstream: { baseUrl: emulator.url, apiKey: 'dev-key-alice', fetch: counter.fetch } }));
});
afterAll(async () => {
  await emulator.close();
});

const newSession = async () =>
  (await request(app).post('/api/avatar/sessions').send({ agent_id: 'agent-demo', transport_type: 'rtc-a' })).body as {
    session_id: string;
    client_token: string;
  };

/** The three session routes a token guards, as supertest calls. */
const routes = (id: string) => [
  (h: Record<string, string>) => request(app).get(`/api/avatar/sessions/${id}`).set(h),
  (h: Record<string, string>) => request(app).post(`/api/avatar/sessions/${id}/control`).set(h).send({ event: 'reset-idle-timeout' }),
  (h: Record<string, string>) => request(app).post(`/api/avatar/sessions/${id}/leave-meeting`).set(h).send({ meeting_bot_id: 'b' }),
  (h: Record<string, string>) => request(app).post(`/api/avatar/sessions/${id}/end`).set(h).send({}),
];

describe('client tokens', () => {
  it("isolates two browsers: A's token cannot read, control or end B's session", async () => {
    const a = await newSession();
    const b = await newSession();
    const before = counter.calls;
    for (const call of routes(b.session_id)) {
      const res = await call({ authorization: `Bearer ${a.client_token}` });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ detail: 'This client token belongs to another session' });
    }
    const viaBody = await request(app)
      .post(`/api/avatar/sessions/${b.session_id}/end`)
      .set('content-type', 'text/plain')
      .send(JSON.stringify({ client_token: a.client_token }));
    expect(viaBody.status).toBe(403);
    expect(counter.calls).toBe(before);
    // B is untouched and B's own token works.
    const own = await request(app)
      .get(`/api/avatar/sessions/${b.session_id}`)
      .set({ authorization: `Bearer ${b.client_token}` });
    expect(own.status).toBe(200);
    expect(own.body.session_status).not.toBe('COMPLETED');
  });

  it('401 when the token is missing, malformed, tampered, expired or signed with another key', async () => {
    const s = await newSession();
    const [head, payload, sig] = s.client_token.split('.');
    const flipped = `${head}.${payload}.${sig!.slice(0, -2)}${sig!.endsWith('AA') ? 'BB' : 'AA'}`;
    const otherPayload = Buffer.from(JSON.stringify({ sub: s.session_id, exp: 9_999_999_999 })).toString('base64url');
    const now = Math.floor(Date.now() / 1000);
    const sign = (key: string, exp: number) =>
      new SignJWT({})
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(s.session_id)
        .setIssuer('liveai-kit/server')
        .setAudience('liveai-kit/browser')
        .setIssuedAt(exp - 7200)
        .setExpirationTime(exp)
        .sign(new TextEncoder().encode(key));
    const cases: [Record<string, string>, RegExp][] = [
      [{}, /Missing client token/],
      [{ authorization: 'Basic dXNlcjpwYXNz' }, /Bearer/],
      [{ authorization: 'Bearer' }, /Bearer/],
      [{ authorization: 'Bearer not-a-jwt' }, /Invalid client token/],
      [{ authorization: `Bearer ${flipped}` }, /Invalid client token/],
      [{ authorization: `Bearer ${head}.${otherPayload}.${sig}` }, /Invalid client token/],
      [{ authorization: `Bearer ${await sign('another-secret-of-at-least-32-bytes!!', now + 600)}` }, /Invalid client token/],
      [{ authorization: `Bearer ${await sign(SECRET, now - 10)}` }, /expired/],
      [{ authorization: `Bearer ${'x'.repeat(5000)}` }, /Invalid client token/],
    ];
    const before = counter.calls;
    for (const [headers, detail] of cases) {
      for (const call of routes(s.session_id)) {
        const res = await call(headers);
        expect(res.status, JSON.stringify(headers).slice(0, 60)).toBe(401);
        expect(res.body.detail).toMatch(detail);
      }
    }
    expect(counter.calls).toBe(before);
  });

  it('a token signed with the same secret by another proxy instance works (shared secret, several instances)', async () => {
    const s = await newSession();
    const second = proxyApp(proxyOptions(emulator.url));
    const res = await request(second)
      .get(`/api/avatar/sessions/${s.session_id}`)
      .set({ authorization: `Bearer ${s.client_token}` });
    expect(res.status).toBe(200);
  });

  it('honours tokenTtlSeconds', async () => {
    const short = proxyApp(proxyOptions(emulator.url, { tokenTtlSeconds: 120 }));
    const res = await request(short).post('/api/avatar/rooms').send({ agent_id: 'agent-demo' });
    expect(res.status).toBe(201);
    expect(Math.abs(Date.parse(res.body.expires_at) - (Date.now() + 120_000))).toBeLessThan(5_000);
  });
});
