import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import request from 'supertest';
import { sniffImageType } from '../../src/server/session/images';
import { badQueries, brokenJson, controlBodies, headers, ids, isValidSession, leaveBodies, roomBodies, sessionBodies } from './arbitraries';
import { countingFetch, listen, proxyApp, proxyOptions, startEmulator, type Emulator } from './helpers';

/**
 * Property tests (fast-check) on every route of the proxy: thousands of malformed bodies, headers and ids.
 * Each must be answered with a 4xx JSON `{detail}` and an `x-request-id`, must not call the service, and must
 * not crash the proxy (the last check is a normal request that still works).
 */
const RUNS = Number(process.env.PROXY_PROPERTY_RUNS ?? 1000);
let emulator: Emulator;
let proxy: Awaited<ReturnType<typeof listen>>;
const counter = countingFetch();
const counts: Record<string, number> = {};
let session: { session_id: string; client_token: string };

beforeAll(async () => {
  emulator = await startEmulator();
  const app = proxyApp(
    proxyOptions(emulator.url, {
      upstream: { baseUrl: emulator.url, apiKey: 'dev-key-alice', fetch: counter.fetch },
      admin: (req) => req.get('x-admin') === 'yes',
    }),
  );
  proxy = await listen(app);
  session = (await request(proxy.server).post('/api/avatar/sessions').send({ agent_id: 'agent-demo', transport_type: 'rtc-a' })).body;
});
afterAll(async () => {
  await proxy.close();
  await emulator.close();
});

/** Sends one malformed request and checks the answer; counts it for `route`. */
async function refused(route: string, send: () => request.Test): Promise<void> {
  const before = counter.calls;
  const res = await send();
  counts[route] = (counts[route] ?? 0) + 1;
  expect(res.status, `${route} → ${res.status} ${res.text.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
  expect(res.status, `${route} → ${res.status} ${res.text.slice(0, 200)}`).toBeLessThan(500);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(typeof res.body.detail).toBe('string');
  expect(res.body.detail.length).toBeGreaterThan(0);
  expect(res.headers['x-request-id']).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
  expect(counter.calls, `${route} called the service`).toBe(before);
}

const post = (path: string) => request(proxy.server).post(`/api/avatar${path}`);
const get = (path: string) => request(proxy.server).get(`/api/avatar${path}`);
const withBody = (t: request.Test, body: unknown) =>
  body === undefined ? t : t.set('content-type', 'application/json').send(JSON.stringify(body));
const auth = () => ({ authorization: `Bearer ${session.client_token}` });
const opts = { numRuns: RUNS };

describe('malformed input never reaches the service', () => {
  it('POST /rooms', async () => {
    await fc.assert(
      fc.asyncProperty(roomBodies, headers, (b, h) => refused('POST /rooms', () => withBody(post('/rooms').set(h), b))),
      opts,
    );
    await fc.assert(
      fc.asyncProperty(brokenJson, (t) => refused('POST /rooms', () => post('/rooms').set('content-type', 'application/json').send(t))),
      { numRuns: RUNS / 4 },
    );
  });

  it('POST /sessions (JSON)', async () => {
    await fc.assert(
      fc.asyncProperty(sessionBodies, headers, (b, h) => refused('POST /sessions', () => withBody(post('/sessions').set(h), b))),
      opts,
    );
  });

  it('POST /sessions (multipart)', async () => {
    const part = fc.record({
      image: fc.uint8Array({ maxLength: 2048 }),
      type: fc.constantFrom('image/png', 'image/jpeg', 'image/webp', 'image/gif', 'application/octet-stream', 'text/plain'),
      payload: fc.oneof(
        fc.string(),
        sessionBodies.map((b) => JSON.stringify(b ?? null)),
      ),
      payloadAsFile: fc.boolean(),
    });
    const valid = (p: { image: Uint8Array; payload: string }) => {
      if (!sniffImageType(p.image)) return false;
      try {
        return isValidSession(JSON.parse(p.payload));
      } catch {
        return false;
      }
    };
    await fc.assert(
      fc.asyncProperty(
        part.filter((p) => !valid(p)),
        (p) =>
          refused('POST /sessions (multipart)', () => {
            const t = post('/sessions').attach('image', Buffer.from(p.image), { filename: 'a.bin', contentType: p.type });
            return p.payloadAsFile
              ? t.attach('payload', Buffer.from(p.payload), { filename: 'blob', contentType: 'application/json' })
              : t.field('payload', p.payload);
          }),
      ),
      { numRuns: RUNS / 2 },
    );
    const garbage = fc.record({ boundary: fc.stringMatching(/^[A-Za-z0-9]{1,20}$/), body: fc.string({ maxLength: 300 }) });
    await fc.assert(
      fc.asyncProperty(garbage, (g) =>
        refused('POST /sessions (multipart)', () =>
          post('/sessions').set('content-type', `multipart/form-data; boundary=${g.boundary}`).send(g.body),
        ),
      ),
      { numRuns: RUNS / 2 },
    );
  });

  it('GET /sessions/:id', async () => {
    await fc.assert(
      fc.asyncProperty(ids, headers, (id, h) => refused('GET /sessions/:id', () => get(`/sessions/${id}`).set(h))),
      opts,
    );
    // A valid token for another session id: 403.
    await fc.assert(
      fc.asyncProperty(
        ids.filter((id) => id !== session.session_id),
        (id) => refused('GET /sessions/:id', () => get(`/sessions/${id}`).set(auth())),
      ),
      { numRuns: RUNS / 4 },
    );
  });

  it('POST /sessions/:id/control', async () => {
    await fc.assert(
      fc.asyncProperty(controlBodies, (b) =>
        refused('POST /sessions/:id/control', () => withBody(post(`/sessions/${session.session_id}/control`).set(auth()), b)),
      ),
      opts,
    );
    await fc.assert(
      fc.asyncProperty(ids, headers, (id, h) =>
        refused('POST /sessions/:id/control', () => post(`/sessions/${id}/control`).set(h).send({ event: 'reset-idle-timeout' })),
      ),
      { numRuns: RUNS / 2 },
    );
  });

  it('POST /sessions/:id/leave-meeting', async () => {
    await fc.assert(
      fc.asyncProperty(leaveBodies, (b) =>
        refused('POST /sessions/:id/leave-meeting', () => withBody(post(`/sessions/${session.session_id}/leave-meeting`).set(auth()), b)),
      ),
      opts,
    );
    await fc.assert(
      fc.asyncProperty(ids, headers, (id, h) =>
        refused('POST /sessions/:id/leave-meeting', () => post(`/sessions/${id}/leave-meeting`).set(h).send({ meeting_bot_id: 'bot' })),
      ),
      { numRuns: RUNS / 2 },
    );
  });

  it('POST /sessions/:id/end', async () => {
    const body = fc.oneof(
      fc.string().map((s) => ({ type: 'text/plain', body: s })),
      fc.string().map((s) => ({ type: 'text/plain', body: JSON.stringify({ client_token: s }) })),
      fc.jsonValue().map((v) => ({ type: 'application/json', body: JSON.stringify(v) })),
      brokenJson.map((s) => ({ type: 'application/json', body: s })),
    );
    await fc.assert(
      fc.asyncProperty(ids, body, headers, (id, b, h) =>
        refused('POST /sessions/:id/end', () => post(`/sessions/${id}/end`).set(h).set('content-type', b.type).send(b.body)),
      ),
      opts,
    );
  });

  it('GET /rooms and GET /sessions (admin)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('/rooms', '/sessions'), badQueries, (path, q) =>
        refused(`GET ${path} (admin)`, () => get(`${path}?${q}`).set('x-admin', 'yes')),
      ),
      opts,
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('/rooms', '/sessions'), headers, (path, h) =>
        refused(`GET ${path} (admin)`, () => get(path).set(h)),
      ),
      { numRuns: RUNS / 4 },
    );
  });

  it('the proxy still works afterwards', async () => {
    const res = await get(`/sessions/${session.session_id}`).set(auth());
    expect(res.status).toBe(200);
  });
});
