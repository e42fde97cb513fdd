import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync, type ChildProcess } from 'node:child_process';
import { createClient } from 'redis';
import pino from 'pino';
import request from 'supertest';
import { redisStore } from '../../src/server/index';
import { ALICE, endRunning, proxyApp, proxyOptions, startEmulator, startRedis, waitFor, type Emulator } from './helpers';

/**
 * Several proxy instances, one limit: two proxies share a real `redis-server` (started here on a free loopback
 * port, no persistence) through `redisStore`, and enforce one cap on running sessions, one request budget,
 * one deadline sweep and one list of ended sessions.
 */
const hasRedis = spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
if (!hasRedis && (process.env.CI === 'true' || process.env.CI === '1'))
  throw new Error('redis-server is missing: CI installs it (apt-get install -y redis-server)');

let emulator: Emulator;
let server: ChildProcess;
let redis: ReturnType<typeof createClient>;

beforeAll(async () => {
  if (!hasRedis) return;
  emulator = await startEmulator();
  const r = await startRedis();
  server = r.proc;
  redis = createClient({ url: r.url });
  await redis.connect();
});
afterAll(async () => {
  if (!hasRedis) return;
  await redis.quit();
  server.kill('SIGTERM');
  await emulator.close();
});

let prefixes = 0;
/** Two proxy instances on one Redis (a fresh key prefix per test). */
function twoInstances(extra: Parameters<typeof proxyOptions>[1] = {}) {
  const prefix = `test${++prefixes}:`;
  const lines: Record<string, unknown>[] = [];
  const make = () =>
    proxyApp(
      proxyOptions(emulator.url, {
        store: redisStore({ sendCommand: (args) => redis.sendCommand(args), prefix }),
        logger: pino({ level: 'info' }, { write: (s: string) => void lines.push(JSON.parse(s) as Record<string, unknown>) }),
        ...extra,
      }),
    );
  return { a: make(), b: make(), lines };
}
const start = (app: ReturnType<typeof proxyApp>) =>
  request(app).post('/api/avatar/sessions').send({ agent_id: 'agent-demo', transport_type: 'rtc-a' });

describe.skipIf(!hasRedis)('redisStore: several proxy instances, one limit', () => {
  it('two instances, one cap on running sessions per client', async () => {
    const { a, b } = twoInstances({ sessionLimits: { maxConcurrent: 2 } });
    expect((await start(a)).status).toBe(201);
    const second = await start(b);
    expect(second.status).toBe(201);
    const third = await start(a);
    expect(third.status).toBe(429);
    expect((await start(b)).status).toBe(429);
    // Ending a session on one instance frees the slot for both.
    const s = second.body;
    expect(
      (await request(a).post(`/api/avatar/sessions/${s.session_id}/end`).set('authorization', `Bearer ${s.client_token}`)).status,
    ).toBe(200);
    expect((await start(b)).status).toBe(201);
  });

  it("two instances, one ceiling for the owner: the third client's create is 503 on either instance", async () => {
    await endRunning(emulator.url);
    const { a, b } = twoInstances({ trustProxy: ['loopback'], sessionLimits: {}, ownerLimits: { maxConcurrent: 2 } });
    const as = (app: typeof a, ip: string) => start(app).set('x-forwarded-for', ip);
    const first = await as(a, '198.51.100.1');
    expect(first.status).toBe(201);
    expect((await as(b, '2001:db8:7:7::1')).status).toBe(201);
    const third = await as(a, '198.51.100.3');
    expect(third.status).toBe(503);
    expect(third.headers['retry-after']).toMatch(/^\d+$/);
    expect((await as(b, '198.51.100.4')).status).toBe(503);
    const s = first.body;
    expect(
      (await request(b).post(`/api/avatar/sessions/${s.session_id}/end`).set('authorization', `Bearer ${s.client_token}`)).status,
    ).toBe(200);
    expect((await as(b, '198.51.100.4')).status).toBe(201);
  });

  it('two instances, one request budget per client (rate-limit-redis)', async () => {
    const { a, b } = twoInstances({ rateLimit: { perIp: 3 } });
    const statuses = [];
    for (const app of [a, b, a, b]) statuses.push((await request(app).post('/api/avatar/rooms').send({})).status);
    expect(statuses).toEqual([400, 400, 400, 429]);
  });

  it('a session ended on one instance only reads status on the other; the deadline sweep ends it once', async () => {
    const { a, b, lines } = twoInstances({ sessionLimits: { maxDurationMs: 1000 } });
    const s = (await start(a)).body;
    const auth = { authorization: `Bearer ${s.client_token}` };
    await waitFor(async () => lines.find((l) => l.msg === 'avatar proxy ended a session'));
    expect(lines.filter((l) => l.msg === 'avatar proxy ended a session')).toHaveLength(1);
    expect((await request(b).get(`/api/avatar/sessions/${s.session_id}`).set(auth)).body).toMatchObject({
      session_status: 'COMPLETED',
      end_reason: 'max_duration',
    });
    expect(
      (await request(b).post(`/api/avatar/sessions/${s.session_id}/control`).set(auth).send({ event: 'reset-idle-timeout' })).status,
    ).toBe(403);
    expect(JSON.stringify(lines)).not.toContain(ALICE);
  });
});
