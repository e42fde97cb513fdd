import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createClient } from 'redis';
import { ALICE, closedPort, LIVEKIT, SECRET, serviceId, startEmulator, startRedis, type Emulator } from './helpers';

/**
 * The guards hold through a restart and a lost store (issue 35 item 3): a proxy process killed with SIGKILL and
 * started again with the default memory store; Redis emptied with FLUSHALL; Redis restarted without persistence.
 * Each on both adapters (Express `createAvatarProxy`, Fetch `createAvatarHandler`), the proxy in a process of its
 * own in front of the real local service. Past a session's deadline no renewal and no control succeeds, and the
 * owner's ceiling never admits more sessions than it allows.
 */
const hasRedis = spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
if (!hasRedis && (process.env.CI === 'true' || process.env.CI === '1'))
  throw new Error('redis-server is missing: CI installs it (apt-get install -y redis-server)');

const FIXTURE = fileURLToPath(new URL('./fixtures/proxy-process.ts', import.meta.url));
const MAX_MS = 3000;

let emulator: Emulator;
let redis: { proc: ChildProcess; url: string; port: number } | undefined;
const children: ChildProcess[] = [];

beforeAll(async () => {
  if (hasRedis) redis = await startRedis();
});
afterAll(() => {
  redis?.proc.kill('SIGKILL');
});
beforeEach(async () => {
  // A fresh service per test: the owner's ceiling counts every running session of the account.
  emulator = await startEmulator(5);
  if (redis) await redisCommand(['FLUSHALL']);
});
afterEach(async () => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
  await emulator.close();
});

async function redisCommand(args: string[]) {
  const c = createClient({ url: redis!.url });
  await c.connect();
  try {
    return await c.sendCommand(args);
  } finally {
    await c.quit();
  }
}

/** Starts the proxy process on `port` and resolves once it listens. */
function startProxy(adapter: string, port: number, withRedis: boolean): Promise<ChildProcess> {
  const config = {
    adapter,
    port,
    emulatorUrl: emulator.url,
    apiKey: ALICE,
    secret: SECRET,
    ...(withRedis ? { redisUrl: redis!.url } : {}),
    options: { livekit: LIVEKIT, sessionLimits: { maxDurationMs: MAX_MS }, ownerLimits: { maxConcurrent: 2 } },
  };
  const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE], {
    env: { ...process.env, PROXY_PROCESS: JSON.stringify(config) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('listening on')) resolve(child);
    });
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    child.once('exit', (code) => reject(new Error(`proxy process exited (${code}): ${out.slice(-800)}`)));
  });
}

/** Waits for the wall clock to pass `t` (the session's deadline is what is under test). */
async function until(t: number) {
  while (Date.now() <= t) await new Promise((r) => setTimeout(r, Math.min(50, t - Date.now() + 1)));
}

interface Created {
  session_id: string;
  client_token: string;
  session_expires_at: string;
}

const FAULTS = {
  'the proxy process killed (SIGKILL) and restarted, memory store': { redis: false },
  'Redis emptied (FLUSHALL)': { redis: true },
  'Redis restarted without persistence': { redis: true },
} as const;
type Fault = keyof typeof FAULTS;

describe
  .skipIf(!hasRedis)
  .each((['express', 'fetch'] as const).flatMap((adapter) => (Object.keys(FAULTS) as Fault[]).map((fault) => ({ adapter, fault }))))(
  '$adapter adapter, $fault',
  ({ adapter, fault }) => {
    it('no renewal or control succeeds past the deadline, and the ceiling never admits more than it allows', async () => {
      const port = await closedPort();
      const withRedis = FAULTS[fault].redis;
      let proxy = await startProxy(adapter, port, withRedis);
      const base = `http://127.0.0.1:${port}/api/avatar`;
      const create = (ip: string) =>
        fetch(`${base}/sessions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
          body: JSON.stringify({ agent_id: 'agent-demo', transport_type: 'rtc-a' }),
        });
      const call = (s: Created, path: string, body?: unknown) =>
        fetch(`${base}/sessions/${s.session_id}${path}`, {
          method: body === undefined && path === '' ? 'GET' : 'POST',
          headers: { authorization: `Bearer ${s.client_token}`, 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.1' },
          ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        });

      const first = await create('198.51.100.1');
      expect(first.status).toBe(201);
      const s1 = (await first.json()) as Created;
      expect((await create('198.51.100.2')).status).toBe(201);
      expect((await create('198.51.100.3')).status).toBe(503);
      const deadline = Date.parse(s1.session_expires_at);
      // No client token outlives the deadline.
      const renewed = await call(s1, '/token', {});
      expect(renewed.status).toBe(200);
      expect(Date.parse(((await renewed.json()) as { expires_at: string }).expires_at)).toBeLessThanOrEqual(deadline);

      if (fault === 'the proxy process killed (SIGKILL) and restarted, memory store') {
        proxy.kill('SIGKILL');
        await new Promise((r) => proxy.once('exit', r));
        proxy = await startProxy(adapter, port, false);
      } else if (fault === 'Redis emptied (FLUSHALL)') {
        await redisCommand(['FLUSHALL']);
      } else {
        redis!.proc.kill('SIGKILL');
        await new Promise((r) => redis!.proc.once('exit', r));
        redis = await startRedis(redis!.port);
      }

      // The ceiling: still two sessions run, so a third is refused (counted at the service, not from the lost store).
      let third: Response;
      for (;;) {
        third = await create('198.51.100.3');
        const detail = ((await third.clone().json()) as { detail?: string }).detail ?? '';
        // While the proxy's Redis client reconnects, the store is unavailable (503 too): ask again.
        if (!/cannot reach its store/.test(detail)) break;
      }
      expect(third.status).toBe(503);
      expect(((await third.json()) as { detail: string }).detail).toMatch(/running as many avatar sessions as it allows/);
      expect(third.headers.get('retry-after')).toMatch(/^\d+$/);

      // The deadline: whatever the store remembers, renewal and control are refused past it, and the session ends.
      await until(deadline);
      const renewal = await call(s1, '/token', {});
      expect(renewal.status).toBe(403);
      expect(((await renewal.json()) as { detail: string }).detail).toMatch(/maximum length/);
      const control = await call(s1, '/control', { event: 'reset-idle-timeout' });
      expect(control.status).toBe(403);
      expect(emulator.state.session(await serviceId(s1.session_id))?.session_status).not.toMatch(/QUEUED|ACTIVE/);
      const status = await call(s1, '');
      expect(status.status).toBe(200);
      expect(await status.json()).toMatchObject({ session_status: 'COMPLETED', end_reason: 'max_duration' });
    });
  },
);
