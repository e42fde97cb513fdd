import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync, type ChildProcess } from 'node:child_process';
import { createClient } from 'redis';
import request from 'supertest';
import { createAvatarHandler, memoryStore, readUsage, redisStore } from '../../src/server/index';
import { createEmulator } from '../../src/emulator/index';
import { ALICE, SECRET, closedPort, proxyApp, proxyOptions, serviceId, startRedis, waitFor, type Emulator } from './helpers';
import { quietLogger } from '../setup/quiet-logger';

/**
 * The spend ledger in the proxy's store (a real redis-server), shared by proxy instances and kept across a restart;
 * the admin route that reads it; and the load balancers' probes on both adapters.
 */
const hasRedis = spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
if (!hasRedis && process.env.CI === 'true') throw new Error('redis-server is missing: CI installs it (apt-get install -y redis-server)');

let emulator: Emulator;
let server: ChildProcess;
let redis: ReturnType<typeof createClient>;

beforeAll(async () => {
  // 600 credits a minute: a session of a fraction of a second still costs credits.
  emulator = await createEmulator({ port: 0, media: false, queueMs: 30, creditsPerMinute: 600 });
  if (!hasRedis) return;
  const r = await startRedis();
  server = r.proc;
  redis = createClient({ url: r.url });
  await redis.connect();
});
afterAll(async () => {
  if (hasRedis) {
    await redis.quit();
    server.kill('SIGTERM');
  }
  await emulator.close();
});

let prefixes = 0;
const storeOn = (prefix: string, timeoutMs = 1000) => redisStore({ sendCommand: (args) => redis.sendCommand(args), prefix, timeoutMs });
const json = { agent_id: 'agent-demo', transport_type: 'rtc-a' };

describe.skipIf(!hasRedis)('spend ledger in Redis', () => {
  it('enters a session once when two instances learn of its end at the same time', async () => {
    const prefix = `ledger${++prefixes}:`;
    const [one, two] = [storeOn(prefix).spend!, storeOn(prefix).spend!];
    const now = Date.now();
    const entry = {
      sessionId: 's-1',
      agent: 'agent-demo',
      client: 'user-7',
      startedAt: now - 60_000,
      reason: 'user',
      credits: 2.5,
      seconds: 60,
      endedAt: now,
    };
    const results = await Promise.all([one.enter(entry), two.enter(entry), one.enter(entry)]);
    expect(results.filter(Boolean)).toHaveLength(1);
    const { days, recent } = await readUsage(storeOn(prefix), { days: 1 });
    expect(days[0]).toMatchObject({ sessions: 1, credits: 2.5, seconds: 60, reasons: { user: 1 } });
    expect(days[0]!.clients).toEqual({ 'user-7': { sessions: 1, credits: 2.5, seconds: 60 } });
    expect(recent).toHaveLength(1);
  });

  it('counts one spend across two instances and keeps it across a restart', async () => {
    const prefix = `ledger${++prefixes}:`;
    const a = proxyApp(proxyOptions(emulator.url, { store: storeOn(prefix), sessionLimits: {} }));
    const b = proxyApp(proxyOptions(emulator.url, { store: storeOn(prefix), sessionLimits: {} }));
    const created = await request(a).post('/api/avatar/sessions').send(json);
    expect(created.status).toBe(201);
    const { session_id: id, client_token: token } = created.body as { session_id: string; client_token: string };
    const path = `/api/avatar/sessions/${encodeURIComponent(id)}`;
    await waitFor(async () =>
      (await request(a).get(path).set('authorization', `Bearer ${token}`)).body.session_status === 'ACTIVE' ? true : undefined,
    );
    // Ended through instance b; instance a reads the final status (and its cost) too: both learn of the end.
    expect((await request(b).post(`${path}/end`).set('authorization', `Bearer ${token}`)).status).toBe(200);
    const cost = await waitFor(
      async () => (await request(a).get(path).set('authorization', `Bearer ${token}`)).body.cost as number | undefined,
    );
    expect(cost).toBeGreaterThan(0);
    const report = await waitFor(async () => {
      const r = await readUsage(storeOn(prefix));
      return r.days.at(-1)!.sessions > 0 ? r : undefined;
    });
    const today = report.days.at(-1)!;
    expect(today.sessions).toBe(1);
    expect(today.credits).toBeCloseTo(cost, 6);
    expect(today.agents).toEqual({ 'agent-demo': { sessions: 1, credits: cost, seconds: today.seconds } });
    expect(Object.values(today.clients)).toEqual([{ sessions: 1, credits: cost, seconds: today.seconds }]);
    expect(today.reasons).toEqual({ user: 1 });

    // A restarted proxy (a new process: nothing in memory) reads the same ledger, through the admin route too.
    const restarted = proxyApp(proxyOptions(emulator.url, { store: storeOn(prefix), admin: (req) => req.headers['x-admin'] === 'yes' }));
    expect((await request(restarted).get('/api/avatar/usage')).status).toBe(403);
    const usage = await request(restarted).get('/api/avatar/usage?days=3').set('x-admin', 'yes');
    expect(usage.status).toBe(200);
    expect(usage.body.days).toHaveLength(3);
    expect(usage.body.days[2]).toEqual(today);
    expect(usage.body.recent).toHaveLength(1);
    expect(usage.body.recent[0]).toMatchObject({ agent: 'agent-demo', reason: 'user', credits: cost });
    // The service's session id never reaches the admin's browser.
    expect(JSON.stringify(usage.body)).not.toContain(await serviceId(id));
    expect((await request(restarted).get('/api/avatar/usage?days=99').set('x-admin', 'yes')).status).toBe(400);
  });
});

describe('spend ledger in memory', () => {
  it("enters a session the proxy ended at its maximum length, with the service's cost", async () => {
    const store = memoryStore();
    const app = proxyApp(proxyOptions(emulator.url, { store, sessionLimits: { maxDurationMs: 1000 } }));
    const created = await request(app)
      .post('/api/avatar/sessions')
      .send({ ...json, agent_id: 'agent-cartoon' });
    expect(created.status).toBe(201);
    const report = await waitFor(async () => {
      const r = await readUsage(store, { days: 1 });
      return r.days[0]!.sessions > 0 ? r : undefined;
    });
    expect(report.days[0]!.reasons).toEqual({ max_duration: 1 });
    expect(Object.keys(report.days[0]!.agents)).toEqual(['agent-cartoon']);
    expect(report.recent[0]).toMatchObject({ agent: 'agent-cartoon', reason: 'max_duration' });
    expect(report.recent[0]!.credits).toBeGreaterThan(0);
    expect(report.days[0]!.credits).toBe(report.recent[0]!.credits);
  });
});

describe('health and readiness', () => {
  it('answers /health and /ready on the Express router without a secret', async () => {
    const app = proxyApp(proxyOptions(emulator.url));
    const health = await request(app).get('/api/avatar/health');
    expect(health.status).toBe(200);
    expect(health.body).toEqual({ status: 'ok' });
    const ready = await request(app).get('/api/avatar/ready');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ready', service: 'ok', store: 'ok' });
    expect(JSON.stringify(ready.body)).not.toContain(ALICE);
  });

  it('is not ready while the service cannot be reached, or refuses the key', async () => {
    const down = proxyApp(proxyOptions(`http://127.0.0.1:${await closedPort()}`));
    const r = await request(down).get('/api/avatar/ready');
    expect(r.status).toBe(503);
    expect(r.body).toEqual({ status: 'not_ready', service: 'unavailable', store: 'ok' });
    expect((await request(down).get('/api/avatar/health')).status).toBe(200);
    const wrongKey = proxyApp(proxyOptions(emulator.url, { upstream: { baseUrl: emulator.url, apiKey: 'not-a-key' } }));
    const w = await request(wrongKey).get('/api/avatar/ready');
    expect(w.status).toBe(503);
    expect(w.body.service).toBe('refused');
    expect(JSON.stringify(w.body)).not.toContain('not-a-key');
  });

  it.skipIf(!hasRedis)('is not ready while the store is unreachable (Fetch handler)', async () => {
    const handler = createAvatarHandler({
      upstream: { baseUrl: emulator.url, apiKey: ALICE },
      sessionSecret: SECRET,
      rateLimit: false,
      store: storeOn(`ready${++prefixes}:`, 200),
      basePath: '/api/avatar',
      logger: quietLogger(),
    });
    const get = (path: string) => handler(new Request(`http://127.0.0.1/api/avatar${path}`));
    expect((await get('/ready')).status).toBe(200);
    server.kill('SIGSTOP');
    try {
      // A cached answer is at most a second old: wait for the first that sees the paused Redis.
      const body = await waitFor(async () => {
        const res = await get('/ready');
        return res.status === 503 ? ((await res.json()) as Record<string, string>) : undefined;
      });
      expect(body).toEqual({ status: 'not_ready', service: 'ok', store: 'timeout' });
      expect((await get('/health')).status).toBe(200);
    } finally {
      server.kill('SIGCONT');
    }
    await waitFor(async () => ((await get('/ready')).status === 200 ? true : undefined));
  });
});
