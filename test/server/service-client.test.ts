import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import express from 'express';
import { isLiveAiError, LiveAiError } from '../../src/core/index';
import { createServiceClient, type ServiceClient } from '../../src/server/index';
import { ALICE, closedPort, countingFetch, listen, png, setFaults, startEmulator, waitFor, type Emulator } from './helpers';

/** The core's typed REST client of the spec, against the real local service. */
let emulator: Emulator;
let client: ServiceClient;
const counter = countingFetch();

beforeAll(async () => {
  emulator = await startEmulator();
  client = createServiceClient({ baseUrl: emulator.url, apiKey: ALICE, fetch: counter.fetch, backoffMs: 10 });
});
afterAll(async () => {
  await emulator.close();
});

async function failure(p: Promise<unknown>): Promise<LiveAiError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(isLiveAiError(e), String(e)).toBe(true);
  return e as LiveAiError;
}

describe('createServiceClient', () => {
  it('covers every endpoint of the spec', async () => {
    const room = await client.createRoom({ agent_id: 'agent-demo' });
    expect(room.room_url).toMatch(/^wss?:/);
    const rooms = await client.listRooms({ limit: 5 });
    expect(rooms.rooms.some((r) => r.session_id === room.session_id)).toBe(true);
    const s = await client.createSession({
      agent_id: 'agent-demo',
      transport_type: 'websocket-rtc-b',
      rtc_b_properties: { rtc_b_url: 'https://r.test/x', rtc_b_token: 't' },
    });
    expect(s.websocket_address).toMatch(/^wss?:/);
    const form = new FormData();
    form.append('image', new Blob([new Uint8Array(await png())], { type: 'image/png' }), 'a.png');
    form.append(
      'payload',
      new Blob([JSON.stringify({ transport_type: 'rtc-a', properties: { rtc_a_url: 'ws://127.0.0.1:7880', rtc_a_token: 'avatar' } })], {
        type: 'application/json',
      }),
    );
    const uploaded = await client.createSession(form);
    expect(uploaded.control_url).toContain(uploaded.session_id);
    await waitFor(async () => ((await client.getSession(uploaded.session_id)).session_status === 'ACTIVE' ? true : undefined));
    expect(await client.control(uploaded.session_id, { event: 'update-idle-prompt', idle_prompt: 'still' })).toEqual({ success: true });
    await fetch(`${emulator.url}/__emulator/sessions/${uploaded.session_id}/meeting-bots`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ meeting_bot_id: 'm1' }),
    });
    expect(await client.leaveMeeting(uploaded.session_id, { meeting_bot_id: 'm1' })).toEqual({ status: 'left' });
    const list = await client.listSessions();
    expect(list.pagination.limit).toBe(25);
    expect(list.sessions.some((x) => x.session_id === s.session_id)).toBe(true);
  });

  it('maps the service 4xx to LiveAiError.fromResponse with its detail', async () => {
    const wrong = createServiceClient({ baseUrl: emulator.url, apiKey: 'nope' });
    expect(await failure(wrong.listSessions())).toMatchObject({ code: 'invalid_api_key', status: 401 });
    expect(await failure(client.createRoom({ agent_id: 'missing' }))).toMatchObject({ code: 'not_found', status: 404 });
    expect(await failure(client.getSession('no-such-session'))).toMatchObject({ code: 'not_found', status: 404 });
    const big = 'A'.repeat(1_228_800);
    const s = await client.createSession({
      agent_id: 'agent-demo',
      transport_type: 'rtc-b',
      properties: { rtc_b_url: 'https://r.test/x', rtc_b_token: 't' },
    });
    const tooLarge = await failure(client.control(s.session_id, { event: 'update-image', image_base64: big }));
    expect(tooLarge).toMatchObject({ code: 'payload_too_large', status: 413 });
    expect(tooLarge.detail).toMatch(/921600/);
  });

  it('refuses invalid input without a request', async () => {
    const before = counter.calls;
    expect(await failure(client.createRoom({ agent_id: '' }))).toMatchObject({ code: 'invalid_request', status: 400 });
    expect(await failure(client.createSession({ transport_type: 'rtc-a' } as never))).toMatchObject({ code: 'invalid_request' });
    expect(await failure(client.control('x', { event: 'jump' } as never))).toMatchObject({ code: 'invalid_request' });
    expect(await failure(client.getSession(''))).toMatchObject({ code: 'invalid_request' });
    expect(await failure(client.listRooms({ limit: 500 }))).toMatchObject({ code: 'invalid_request' });
    expect(counter.calls).toBe(before);
    expect(() => createServiceClient({ baseUrl: 'not a url', apiKey: 'k' })).toThrowError(/baseUrl/);
    expect(() => createServiceClient({ baseUrl: 'http://x.test', apiKey: '' })).toThrowError(/apiKey/);
  });

  it('time-out → timeout (504), not retried; abort → aborted', async () => {
    const c = countingFetch();
    const slow = createServiceClient({ baseUrl: emulator.url, apiKey: ALICE, timeoutMs: 100, fetch: c.fetch });
    await setFaults(emulator.url, { latencyMs: 800 });
    try {
      expect(await failure(slow.listRooms())).toMatchObject({ code: 'timeout', status: 504 });
      expect(c.calls).toBe(1);
      const ac = new AbortController();
      const p = client.getSession('whatever', { signal: ac.signal });
      ac.abort();
      expect(await failure(p)).toMatchObject({ code: 'aborted' });
    } finally {
      await setFaults(emulator.url, { latencyMs: 0 });
    }
  });

  it('network failure → upstream_error 502; GETs retried (2 by default), POSTs never', async () => {
    const c = countingFetch();
    const down = createServiceClient({ baseUrl: `http://127.0.0.1:${await closedPort()}`, apiKey: ALICE, fetch: c.fetch, backoffMs: 5 });
    expect(await failure(down.getSession('s'))).toMatchObject({ code: 'upstream_error', status: 502 });
    expect(c.calls).toBe(3);
    expect(await failure(down.createRoom({ agent_id: 'agent-demo' }))).toMatchObject({ code: 'upstream_error', status: 502 });
    expect(c.calls).toBe(4);
  });

  it('non-JSON and wrong-shaped bodies → upstream_error 502; a 503 then success is retried', async () => {
    let hits = 0;
    const app = express();
    app.get('/liveai/sessions/html', (_req, res) => void res.type('html').send('<h1>hi</h1>'));
    app.get('/liveai/sessions/shape', (_req, res) => void res.json({ session_status: 'DANCING' }));
    app.get(
      '/liveai/sessions/flaky',
      (_req, res) => void (hits++ === 0 ? res.status(503).send('busy') : res.json({ session_status: 'ACTIVE' })),
    );
    app.post('/liveai/rooms', (_req, res) => void res.status(500).type('html').send('<html>oops</html>'));
    const stub = await listen(app);
    try {
      const c = createServiceClient({ baseUrl: stub.url, apiKey: 'k', backoffMs: 5 });
      expect(await failure(c.getSession('html'))).toMatchObject({ code: 'upstream_error', status: 502 });
      const shape = await failure(c.getSession('shape'));
      expect(shape).toMatchObject({ code: 'upstream_error', status: 502 });
      expect(shape.detail).toMatch(/session_status/);
      expect(await c.getSession('flaky')).toEqual({ session_status: 'ACTIVE' });
      expect(hits).toBe(2);
      expect(await failure(c.createRoom({ agent_id: 'a' }))).toMatchObject({ code: 'upstream_error', status: 500 });
    } finally {
      await stub.close();
    }
  });
});
