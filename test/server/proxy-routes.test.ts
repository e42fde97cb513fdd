import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import request from 'supertest';
import { decodeJwt, jwtVerify } from 'jose';
import type { Express } from 'express';
import { ClientSessionSchema } from '../../src/core/schemas';
import { countingFetch, LIVEKIT, proxyApp, proxyOptions, startEmulator, waitFor, type Emulator, serviceId } from './helpers';
import { mintRoomTokens } from '../../src/server/session/livekit';

let emulator: Emulator;
let app: Express;
const counter = countingFetch();
const admin = { 'x-admin': 'yes' };

beforeAll(async () => {
  emulator = await startEmulator();
  app = proxyApp(
    proxyOptions(emulator.url, {
      upstream: { baseUrl: emulator.url, apiKey: 'dev-key-alice', fetch: counter.fetch },
      admin: (req) => req.get('x-admin') === 'yes',
    }),
  );
});
afterAll(async () => {
  await emulator.close();
});

/** Runs `fn` and returns how many calls the proxy made to the service meanwhile. */
async function upstreamCalls(fn: () => Promise<unknown>): Promise<number> {
  const before = counter.calls;
  await fn();
  return counter.calls - before;
}

const createRoom = () => request(app).post('/api/avatar/rooms').send({ agent_id: 'agent-demo' });
const createSession = (body: object = { agent_id: 'agent-demo', transport_type: 'rtc-a' }) =>
  request(app).post('/api/avatar/sessions').send(body);
const bearer = (t: string) => ({ authorization: `Bearer ${t}` });

describe('POST /rooms', () => {
  it('creates a hosted room and returns the browser handle without secrets', async () => {
    const res = await createRoom();
    expect(res.status).toBe(201);
    expect(res.headers['x-request-id']).toBeTruthy();
    expect(res.headers['cache-control']).toBe('no-store');
    const s = v.parse(ClientSessionSchema, res.body);
    expect(s.transport).toBe('rtc-a'); // the emulator's rooms are LiveKit (ws://) rooms
    expect(s.room_url).toMatch(/^wss?:\/\//);
    expect(s.token && s.image_url).toBeTruthy();
    expect(Object.keys(res.body).sort()).toEqual([
      'client_token',
      'expires_at',
      'image_url',
      'room_url',
      'session_id',
      'token',
      'transport',
    ]);
    const claims = decodeJwt(s.client_token);
    expect(claims.sub).toBe(s.session_id);
    expect(Math.abs(Date.parse(s.expires_at!) - (Date.now() + 900_000))).toBeLessThan(60_000);
  });

  it('rejects bad bodies before calling the service', async () => {
    for (const send of [{}, { agent_id: '' }, { agent_id: 42 }, [1, 2]]) {
      let res!: request.Response;
      expect(await upstreamCalls(async () => (res = await request(app).post('/api/avatar/rooms').send(send)))).toBe(0);
      expect(res.status).toBe(400);
      expect(res.body.detail).toMatch(/agent_id|JSON object/);
    }
    const notJson = await request(app).post('/api/avatar/rooms').set('content-type', 'application/json').send('{"agent_id":');
    expect(notJson.status).toBe(400);
    expect(notJson.body).toEqual({ detail: 'The body is not valid JSON' });
    const text = await request(app).post('/api/avatar/rooms').set('content-type', 'text/plain').send('agent-demo');
    expect(text.status).toBe(400);
  });

  it('passes the service 4xx status through with a text of its own', async () => {
    const res = await request(app).post('/api/avatar/rooms').send({ agent_id: 'no-such-agent' });
    expect(res.status).toBe(404);
    expect(res.body.detail).toMatch(/not found/i);
  });

  it('passes 402 through for an account without credits', async () => {
    const broke = proxyApp(proxyOptions(emulator.url, { upstream: { baseUrl: emulator.url, apiKey: 'dev-key-broke' } }));
    const res = await request(broke).post('/api/avatar/rooms').send({ agent_id: 'agent-broke' });
    expect(res.status).toBe(402);
    expect(res.body.detail).toMatch(/insufficient funds/);
  });
});

describe('POST /sessions (JSON)', () => {
  it('rtc-a: mints an avatar token for the service and a viewer token for the browser', async () => {
    const res = await createSession();
    expect(res.status).toBe(201);
    const s = v.parse(ClientSessionSchema, res.body);
    expect(s.transport).toBe('rtc-a');
    expect(s.room_url).toBe(LIVEKIT.url);
    expect(JSON.stringify(res.body)).not.toContain('control_url');
    const { payload } = await jwtVerify(s.token!, new TextEncoder().encode(LIVEKIT.apiSecret));
    const video = payload.video as Record<string, unknown>;
    expect(payload.sub).toMatch(/^viewer-/);
    expect(video.room).toMatch(/^liveai-[0-9a-f-]{36}$/);
    // The avatar's identity: the browser listens to that participant only.
    expect(s.avatar_identity).toMatch(/^liveai-avatar-[0-9a-f]{8}$/);
    expect(video).toMatchObject({ roomJoin: true, canSubscribe: true, canPublish: true, canPublishData: true });
    // No maximum length here (sessionLimits: false): the viewer can rejoin for 24 h.
    expect(Math.abs(payload.exp! - Date.now() / 1000 - 24 * 3600)).toBeLessThan(30);
    const view = await (await fetch(`${emulator.url}/__emulator/sessions/${await serviceId(s.session_id)}`)).json();
    expect(view.transport_type).toBe('rtc-a');
  });

  it('rtc-a: avatar_identity is the identity of the avatar token the service gets', async () => {
    const tokens = await mintRoomTokens(LIVEKIT, 600);
    const { payload } = await jwtVerify(tokens.avatarToken, new TextEncoder().encode(LIVEKIT.apiSecret));
    expect(payload.sub).toBe(tokens.avatarIdentity);
    expect((payload as { attributes?: Record<string, string> }).attributes).toEqual({ 'lk.publish_on_behalf': tokens.agentIdentity });
  });

  it('rtc-a: the viewer token outlives the longest session by 10 min, so a long call can still rejoin the room', async () => {
    const limited = proxyApp(proxyOptions(emulator.url, { sessionLimits: { maxDurationMs: 2 * 3600_000 } }));
    const res = await request(limited).post('/api/avatar/sessions').send({ agent_id: 'agent-demo', transport_type: 'rtc-a' });
    expect(res.status).toBe(201);
    const { payload } = await jwtVerify(res.body.token, new TextEncoder().encode(LIVEKIT.apiSecret));
    expect(Math.abs(payload.exp! - Date.now() / 1000 - (2 * 3600 + 600))).toBeLessThan(30);
    await request(limited).post(`/api/avatar/sessions/${res.body.session_id}/end`).set(bearer(res.body.client_token));
  });

  it('websocket-rtc-a: returns the websocket address and the viewer room', async () => {
    const res = await createSession({ agent_id: 'agent-demo', transport_type: 'websocket-rtc-a' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ transport: 'websocket-rtc-a', room_url: LIVEKIT.url });
    expect(res.body.websocket_address).toMatch(/^wss?:\/\//);
    expect(res.body.token).toBeTruthy();
  });

  it('rtc-b: the room of the caller (a room the dailyRooms option allows), no LiveKit needed', async () => {
    const rooms = proxyApp(proxyOptions(emulator.url, { livekit: undefined, dailyRooms: ['rooms.example.test'] }));
    const create = (body: object) => request(rooms).post('/api/avatar/sessions').send(body);
    const props = { rtc_b_url: 'https://rooms.example.test/r1', rtc_b_token: 'caller-room-token' };
    const res = await create({ agent_id: 'agent-demo', transport_type: 'rtc-b', properties: props });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ transport: 'rtc-b', room_url: props.rtc_b_url, token: props.rtc_b_token });
    const ws = await create({ agent_id: 'agent-demo', transport_type: 'websocket-rtc-b', rtc_b_properties: props });
    expect(ws.status).toBe(201);
    expect(ws.body.websocket_address).toMatch(/^wss?:\/\//);
  });

  it('400 for rtc-a when no LiveKit server is configured, without calling the service', async () => {
    const noLk = proxyApp(
      proxyOptions(emulator.url, {
        livekit: undefined,
        upstream: { baseUrl: emulator.url, apiKey: 'dev-key-alice', fetch: counter.fetch },
      }),
    );
    let res!: request.Response;
    expect(
      await upstreamCalls(
        async () => (res = await request(noLk).post('/api/avatar/sessions').send({ agent_id: 'agent-demo', transport_type: 'rtc-a' })),
      ),
    ).toBe(0);
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(/LiveKit/);
  });

  it('rejects invalid bodies (cross-field rules) before calling the service', async () => {
    const bad = [
      { agent_id: 'agent-demo' },
      { transport_type: 'rtc-a' },
      { agent_id: 'agent-demo', agent_image_url: 'https://x.test/a.png', transport_type: 'rtc-a' },
      { agent_id: 'agent-demo', transport_type: 'rtc-b' },
      { agent_id: 'agent-demo', transport_type: 'rtc-a', model: 'cartoon', aspect_ratio: '16x9' },
      { agent_id: 'agent-demo', transport_type: 'carrier-pigeon' },
    ];
    for (const body of bad) {
      let res!: request.Response;
      expect(await upstreamCalls(async () => (res = await createSession(body)))).toBe(0);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(typeof res.body.detail).toBe('string');
    }
  });

  it('an agent of another account looks like an unknown agent (404), so agent ids cannot be probed', async () => {
    const res = await createSession({ agent_id: 'agent-bob', transport_type: 'rtc-a' });
    const unknown = await createSession({ agent_id: 'no-such-agent', transport_type: 'rtc-a' });
    expect([res.status, unknown.status]).toEqual([404, 404]);
    expect(res.body).toEqual(unknown.body);
  });
});

describe('session routes', () => {
  it('GET, control, leave-meeting and end for the holder of the client token', async () => {
    const { body: s } = await createSession();
    const h = bearer(s.client_token);
    const status = await waitFor(async () => {
      const r = await request(app).get(`/api/avatar/sessions/${s.session_id}`).set(h);
      expect(r.status).toBe(200);
      return r.body.session_status === 'ACTIVE' ? r.body : undefined;
    });
    expect(status).toEqual({ session_status: 'ACTIVE' });

    const ctl = await request(app)
      .post(`/api/avatar/sessions/${s.session_id}/control`)
      .set(h)
      .send({ event: 'update-agent-prompt', agent_prompt: 'cheerful' });
    expect(ctl.status).toBe(200);
    expect(ctl.body).toEqual({ success: true });

    await fetch(`${emulator.url}/__emulator/sessions/${await serviceId(s.session_id)}/meeting-bots`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ meeting_bot_id: 'bot-1' }),
    });
    const extra = await fetch(`${emulator.url}/__emulator/sessions/${await serviceId(s.session_id)}/meeting-bots`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ meeting_bot_id: 'bot-2' }),
    });
    expect(extra.status).toBe(201);
    const leave = await request(app).post(`/api/avatar/sessions/${s.session_id}/leave-meeting`).set(h).send({ meeting_bot_id: 'bot-1' });
    expect(leave.status).toBe(200);
    expect(leave.body).toEqual({ status: 'left' });
    const unknownBot = await request(app)
      .post(`/api/avatar/sessions/${s.session_id}/leave-meeting`)
      .set(h)
      .send({ meeting_bot_id: 'bot-x' });
    expect(unknownBot.status).toBe(409);

    const end = await request(app).post(`/api/avatar/sessions/${s.session_id}/end`).set(h).send({});
    expect(end.status).toBe(200);
    const after = await waitFor(async () => {
      const r = await request(app).get(`/api/avatar/sessions/${s.session_id}`).set(h);
      return r.body.session_status === 'COMPLETED' ? r.body : undefined;
    });
    expect(typeof after.cost).toBe('number');
  });

  it('control: invalid events are 400, too large inline images 413, none reach the service', async () => {
    const { body: s } = await createSession();
    const h = bearer(s.client_token);
    const url = `/api/avatar/sessions/${s.session_id}/control`;
    const cases: [object, number, RegExp][] = [
      [{}, 400, /event must be one of/],
      [{ event: 'dance' }, 400, /event must be one of/],
      [{ event: 'valueOf' }, 400, /event must be one of/],
      [{ event: 'constructor' }, 400, /event must be one of/],
      [{ event: 'update-image' }, 400, /exactly one of image_url or image_base64/],
      [{ event: 'update-image', image_url: 'https://x.test/a.png', image_base64: 'AAAA' }, 400, /exactly one/],
      [{ event: 'update-image', image_base64: 'not base64!' }, 400, /base64/],
      [{ event: 'update-agent-prompt', agent_prompt: '  ' }, 400, /agent_prompt/],
      [{ event: 'update-image', image_base64: 'A'.repeat(1_228_800) }, 413, /921600 bytes/],
    ];
    for (const [body, status, detail] of cases) {
      let res!: request.Response;
      expect(await upstreamCalls(async () => (res = await request(app).post(url).set(h).send(body)))).toBe(0);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(status);
      expect(res.body.detail).toMatch(detail);
    }
    const justUnder = 'A'.repeat(1_228_796); // 921597 bytes decoded
    const ok = await request(app).post(url).set(h).send({ event: 'update-image', image_base64: justUnder });
    expect(ok.status).toBe(200);
  });

  it('leave-meeting without meeting_bot_id is 400 without calling the service', async () => {
    const { body: s } = await createSession();
    let res!: request.Response;
    const n = await upstreamCalls(
      async () =>
        (res = await request(app).post(`/api/avatar/sessions/${s.session_id}/leave-meeting`).set(bearer(s.client_token)).send({})),
    );
    expect(n).toBe(0);
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(/meeting_bot_id/);
  });

  it('end accepts the token in the body, as JSON or text/plain (navigator.sendBeacon)', async () => {
    const a = (await createSession()).body;
    const asText = await request(app)
      .post(`/api/avatar/sessions/${a.session_id}/end`)
      .set('content-type', 'text/plain;charset=UTF-8')
      .send(JSON.stringify({ client_token: a.client_token }));
    expect(asText.status).toBe(200);
    const b = (await createSession()).body;
    const asJson = await request(app).post(`/api/avatar/sessions/${b.session_id}/end`).send({ client_token: b.client_token });
    expect(asJson.status).toBe(200);
    for (const id of [await serviceId(a.session_id), await serviceId(b.session_id)]) {
      const view = await waitFor(async () => {
        const v = await (await fetch(`${emulator.url}/__emulator/sessions/${id}`)).json();
        return v.session_status === 'COMPLETED' ? v : undefined;
      });
      expect(view.end_reason).toBeTruthy();
    }
    const none = await request(app).post(`/api/avatar/sessions/${a.session_id}/end`).set('content-type', 'text/plain').send('');
    expect(none.status).toBe(401);
    const garbage = await request(app).post(`/api/avatar/sessions/${a.session_id}/end`).set('content-type', 'text/plain').send('{not json');
    expect(garbage.status).toBe(400);
  });
});

describe('admin routes', () => {
  it('403 unless admin(req) is true, without calling the service', async () => {
    for (const path of ['/api/avatar/rooms', '/api/avatar/sessions']) {
      let res!: request.Response;
      expect(await upstreamCalls(async () => (res = await request(app).get(path)))).toBe(0);
      expect(res.status).toBe(403);
      expect(res.body.detail).toMatch(/administrators/);
    }
  });

  it('lists rooms and sessions for an admin, with pagination', async () => {
    await createRoom();
    const rooms = await request(app).get('/api/avatar/rooms?page=1&limit=2').set(admin);
    expect(rooms.status).toBe(200);
    expect(rooms.body.pagination).toMatchObject({ page: 1, limit: 2 });
    expect(rooms.body.rooms.length).toBeGreaterThan(0);
    const sessions = await request(app).get('/api/avatar/sessions').set(admin);
    expect(sessions.status).toBe(200);
    expect(sessions.body.pagination.limit).toBe(25);
    expect(sessions.body.sessions[0]).toHaveProperty('session_status');
  });

  it('bad pagination is 400 without calling the service', async () => {
    for (const q of ['limit=0', 'limit=101', 'page=0', 'page=abc', 'page=1&page=2', 'page=42&limit=100']) {
      let res!: request.Response;
      expect(await upstreamCalls(async () => (res = await request(app).get(`/api/avatar/sessions?${q}`).set(admin)))).toBe(0);
      expect(res.status, q).toBe(400);
      expect(typeof res.body.detail).toBe('string');
    }
  });
});

describe('everything else', () => {
  it('unknown routes and methods are 404 {detail}, not HTML', async () => {
    for (const [method, path] of [
      ['get', '/api/avatar/nope'],
      ['delete', '/api/avatar/sessions/abc'],
      ['get', '/api/avatar/sessions/abc/control'],
      ['post', '/api/avatar/sessions/abc/valueOf'],
      ['put', '/api/avatar/rooms'],
    ] as const) {
      const res = await request(app)[method](path);
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toMatch(/json/);
      expect(res.body).toEqual({ detail: 'Not found' });
      expect(res.headers['x-request-id']).toBeTruthy();
    }
  });

  it('echoes a sane x-request-id and replaces an odd one', async () => {
    const sane = await request(app).get('/api/avatar/nope').set('x-request-id', 'req-123.abc:9');
    expect(sane.headers['x-request-id']).toBe('req-123.abc:9');
    const odd = await request(app).get('/api/avatar/nope').set('x-request-id', 'a b<script>');
    expect(odd.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('session ids in the path', () => {
  it('a malformed id is 400, a well-formed id that is not this token’s session is 403, neither reaches the service', async () => {
    const mine = (await createRoom()).body;
    for (const id of ['a'.repeat(300), '%E0%A4%A', '%00']) {
      let res!: request.Response;
      expect(
        await upstreamCalls(async () => (res = await request(app).get(`/api/avatar/sessions/${id}`).set(bearer(mine.client_token)))),
      ).toBe(0);
      expect(res.status, id).toBe(400);
      expect(res.body.detail).toBeTruthy();
    }
    let other!: request.Response;
    expect(
      await upstreamCalls(async () => (other = await request(app).get('/api/avatar/sessions/not-an-id').set(bearer(mine.client_token)))),
    ).toBe(0);
    expect(other.status).toBe(403);
    expect(other.body.detail).toBeTruthy();
  });
});
