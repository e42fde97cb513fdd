import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import request from 'supertest';
import { createCluster } from 'redis';
import { redisStore } from '../../src/server/index';
import { closedPort, proxyApp, proxyOptions, serviceId, startEmulator, waitFor, type Emulator } from './helpers';

/**
 * `redisStore` on a real Redis Cluster (issue 35 item 7): three `redis-server --cluster-enabled yes` masters on
 * loopback, joined with `redis-cli --cluster create`, reached with node-redis `createCluster`. Every script's keys
 * share one hash slot, so every limit and the deadline sweep work there (a script whose keys lie in two slots
 * fails with CROSSSLOT).
 */
const hasRedis = spawnSync('redis-cli', ['--version'], { stdio: 'ignore' }).status === 0;
if (!hasRedis && (process.env.CI === 'true' || process.env.CI === '1'))
  throw new Error('redis-server is missing: CI installs it (apt-get install -y redis-server)');

let emulator: Emulator;
let dir: string;
const nodes: ChildProcess[] = [];
let cluster: ReturnType<typeof createCluster>;

async function startNode(port: number, busPort: number): Promise<ChildProcess> {
  const proc = spawn(
    'redis-server',
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--cluster-enabled',
      'yes',
      '--cluster-port',
      String(busPort),
      '--cluster-config-file',
      join(dir, `nodes-${port}.conf`),
      '--dir',
      dir,
      '--save',
      '',
      '--appendonly',
      'no',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  nodes.push(proc);
  await new Promise<void>((resolve, reject) => {
    let out = '';
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('Ready to accept connections')) resolve();
    });
    proc.once('exit', (code) => reject(new Error(`redis-server exited (${code}): ${out.slice(-500)}`)));
  });
  return proc;
}

// A fresh service per test: the owner's ceilings count the account's sessions at the service.
beforeEach(async () => {
  emulator = await startEmulator();
});
afterEach(async () => {
  await emulator.close();
});

beforeAll(async () => {
  if (!hasRedis) return;
  dir = mkdtempSync(join(tmpdir(), 'liveai-cluster-'));
  const ports: number[] = [];
  for (let i = 0; i < 3; i++) {
    const port = await closedPort();
    await startNode(port, await closedPort());
    ports.push(port);
  }
  const made = spawnSync(
    'redis-cli',
    ['--cluster', 'create', ...ports.map((p) => `127.0.0.1:${p}`), '--cluster-replicas', '0', '--cluster-yes'],
    { encoding: 'utf8' },
  );
  if (made.status !== 0) throw new Error(`redis-cli --cluster create failed: ${made.stdout} ${made.stderr}`);
  // Every node agrees that all slots are served.
  await waitFor(async () =>
    ports.every((p) =>
      spawnSync('redis-cli', ['-p', String(p), 'cluster', 'info'], { encoding: 'utf8' }).stdout.includes('cluster_state:ok'),
    )
      ? true
      : undefined,
  );
  cluster = createCluster({ rootNodes: ports.map((p) => ({ url: `redis://127.0.0.1:${p}` })) });
  cluster.on('error', () => {});
  await cluster.connect();
}, 60_000);
afterAll(async () => {
  if (!hasRedis) return;
  await cluster?.close();
  for (const n of nodes) n.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

let prefixes = 0;
function app(extra: Parameters<typeof proxyOptions>[1] = {}) {
  const lines: Record<string, unknown>[] = [];
  const a = proxyApp(
    proxyOptions(emulator.url, {
      trustProxy: ['loopback'],
      store: redisStore({ sendCommand: (args, key) => cluster.sendCommand(key, false, args), prefix: `cluster${++prefixes}:` }),
      logger: pino({ level: 'info' }, { write: (s: string) => void lines.push(JSON.parse(s) as Record<string, unknown>) }),
      ...extra,
    }),
  );
  return { a, lines };
}
const start = (a: ReturnType<typeof proxyApp>, ip: string, agent = 'agent-demo') =>
  request(a).post('/api/avatar/sessions').set('x-forwarded-for', ip).send({ agent_id: agent, transport_type: 'rtc-a' });
const end = (a: ReturnType<typeof proxyApp>, s: { session_id: string; client_token: string }) =>
  request(a).post(`/api/avatar/sessions/${s.session_id}/end`).set('authorization', `Bearer ${s.client_token}`);

describe.skipIf(!hasRedis)('redisStore on a Redis Cluster of three masters', () => {
  it("the client's running cap and create window, and the owner's ceiling", async () => {
    const { a } = app({ sessionLimits: { maxConcurrent: 2, createsPerWindow: 3 }, ownerLimits: { maxConcurrent: 3 } });
    const first = await start(a, '198.51.100.1');
    expect(first.status).toBe(201);
    const second = await start(a, '198.51.100.1');
    expect(second.status).toBe(201);
    expect((await start(a, '198.51.100.1')).status).toBe(429);
    expect((await start(a, '198.51.100.2')).status).toBe(201);
    expect((await start(a, '198.51.100.3')).status).toBe(503);
    expect((await end(a, first.body)).status).toBe(200);
    const third = await start(a, '198.51.100.1');
    expect(third.status).toBe(201);
    // Three creates from 198.51.100.1 in the window: the fourth is refused even with places free.
    expect((await end(a, second.body)).status).toBe(200);
    expect((await end(a, third.body)).status).toBe(200);
    const over = await start(a, '198.51.100.1');
    expect(over.status).toBe(429);
    expect(over.body.detail).toMatch(/Too many sessions started/);
  });

  it('a create the service refused (404) gives back its place in every window', async () => {
    const { a } = app({ sessionLimits: { createsPerWindow: 2 }, ownerLimits: { createsPerWindow: 2, maxConcurrent: 50 } });
    for (let i = 0; i < 3; i++) {
      const r = await start(a, '198.51.100.1', 'no-such-agent');
      expect(r.status, JSON.stringify(r.body)).toBe(404);
    }
    expect((await start(a, '198.51.100.1')).status).toBe(201);
  });

  it('the per-client request limit (rate-limit-redis)', async () => {
    const { a } = app({ rateLimit: { perIp: 2 } });
    const statuses = [];
    for (let i = 0; i < 3; i++)
      statuses.push((await request(a).post('/api/avatar/rooms').set('x-forwarded-for', '198.51.100.7').send({})).status);
    expect(statuses).toEqual([400, 400, 429]);
  });

  it('the deadline sweep ends a session at its maximum length', async () => {
    const { a, lines } = app({ sessionLimits: { maxDurationMs: 1000 } });
    const s = await start(a, '198.51.100.1');
    expect(s.status).toBe(201);
    await waitFor(async () => lines.find((l) => l.msg === 'avatar proxy ended a session' && l.reason === 'max_duration'));
    expect(emulator.state.session(await serviceId(s.body.session_id))?.session_status).toBe('COMPLETED');
    expect(JSON.stringify(lines)).not.toMatch(/CROSSSLOT/);
  });
});
