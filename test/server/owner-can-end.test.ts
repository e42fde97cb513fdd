import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync, type ChildProcess } from 'node:child_process';
import fc from 'fast-check';
import { createClient } from 'redis';
import { Miniflare } from 'miniflare';
import { createAvatarHandler, redisStore, type ProxyStore } from '../../src/server/index';
import { createServiceClient } from '../../src/server/service/client';
import { ALICE, endRunning, LIVEKIT, SECRET, serviceId, startEmulator, startRedis, type Emulator } from './helpers';
import { bundle, type WorkerFetcher } from './runtimes/bundle';
import { quietLogger } from '../setup/quiet-logger';
import { writeResult } from '../setup/results';

/**
 * Property: whatever valid and hostile clients do around a session (token-less floods, another session's
 * token, forged tokens, cross-origin creates, spoofed X-Forwarded-For, the owner spending their own budget),
 * the owner can always end their own session, by header or by beacon, and the service then reports it ended.
 */
let emulator: Emulator;
let service: ReturnType<typeof createServiceClient>;

beforeAll(async () => {
  emulator = await startEmulator(5);
  service = createServiceClient({ baseUrl: emulator.url, apiKey: ALICE });
});
afterAll(async () => {
  await emulator.close();
});

const OWNER_IP = '198.51.100.10';
const HOSTILE_IPS = [OWNER_IP, '203.0.113.66', '203.0.113.67'];
type Route = 'get' | 'control' | 'leave' | 'end' | 'token';
type Act =
  | { kind: 'noToken' | 'otherToken' | 'forged' | 'ownerUse'; route: Route; ip: string; junk: string }
  | { kind: 'create'; ip: string; origin: string | null; xff: string | null }
  | { kind: 'redis'; signal: 'SIGSTOP' | 'SIGCONT' };

const route = fc.constantFrom<Route>('get', 'control', 'leave', 'end', 'token');
const act: fc.Arbitrary<Act> = fc.oneof(
  fc.record({
    kind: fc.constantFrom('noToken', 'otherToken', 'forged', 'ownerUse') as fc.Arbitrary<'noToken'>,
    route,
    ip: fc.constantFrom(...HOSTILE_IPS),
    junk: fc.string({ maxLength: 40 }),
  }),
  fc.record({
    kind: fc.constant('create' as const),
    ip: fc.constantFrom(...HOSTILE_IPS),
    origin: fc.constantFrom(null, 'https://evil.example', 'null'),
    xff: fc.option(fc.ipV4(), { nil: null }),
  }),
);

/** Redis paused (SIGSTOP) or resumed between the requests. */
const redisFault: fc.Arbitrary<Act> = fc.record({ kind: fc.constant('redis' as const), signal: fc.constantFrom('SIGSTOP', 'SIGCONT') });

/** The limits of the proxy under test. */
// The owner's create window is not what this property is about, and it counts the creates the service lists for
// the last hour (the whole file's runs share one service): it is set out of the way.
const LIMITS = {
  rateLimit: { perIp: 5, perSession: 3 },
  sessionLimits: { maxConcurrent: 2, createsPerWindow: 4 },
  ownerLimits: { maxConcurrent: 10, createsPerWindow: 100_000, createWindowMs: 3_600_000 },
};

/** One request from the client at `ip` to a fresh proxy's `/api${path}`. */
type Send = (path: string, init: RequestInit, ip: string) => Promise<Response>;

/**
 * Runs the property; with `redis`, the proxy keeps its counters in a real redis-server that the acts pause and
 * resume, and the service's answers while Redis is paused may also be 503. `proxy` makes a fresh proxy per run
 * (default: the Fetch handler in this process).
 */
async function ownerCanEnd(
  acts: fc.Arbitrary<Act[]>,
  numRuns: number,
  redis?: { store: () => ProxyStore; proc: ChildProcess },
  proxy?: (run: number) => Send,
) {
  let runs = 0;
  await fc.assert(
    fc.asyncProperty(acts, fc.boolean(), async (acts, byBeacon) => {
      redis?.proc.kill('SIGCONT');
      runs += 1;
      // The owner's ceiling counts every running session of the account: each run starts from none.
      await endRunning(emulator.url);
      const handler = proxy
        ? undefined
        : createAvatarHandler({
            ...(redis ? { store: redis.store() } : {}),
            basePath: '/api',
            logger: quietLogger(),
            upstream: { baseUrl: emulator.url, apiKey: ALICE },
            sessionSecret: SECRET,
            livekit: LIVEKIT,
            ...LIMITS,
          });
      const send: Send =
        proxy?.(runs) ?? ((path, init, ip) => handler!(new Request(`https://proxy.example/api${path}`, init), { remoteAddress: ip }));
      const json = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
      const created = await send('/sessions', json({ agent_id: 'agent-demo', transport_type: 'rtc-a' }), OWNER_IP);
      expect(created.status, await created.clone().text()).toBe(201);
      const owner = (await created.json()) as { session_id: string; client_token: string };
      const others: string[] = [];
      const id = owner.session_id;
      for (const a of acts) {
        if (a.kind === 'redis') {
          redis?.proc.kill(a.signal);
          continue;
        }
        if (a.kind === 'create') {
          const headers: Record<string, string> = {};
          if (a.origin) headers.origin = a.origin;
          if (a.xff) headers['x-forwarded-for'] = a.xff;
          const res = await send('/sessions', json({ agent_id: 'agent-demo', transport_type: 'rtc-a' }, headers), a.ip);
          if (res.status === 201) others.push(((await res.json()) as { client_token: string }).client_token);
          else expect(redis ? [403, 429, 503] : [403, 429]).toContain(res.status);
          continue;
        }
        const token =
          a.kind === 'ownerUse'
            ? owner.client_token
            : a.kind === 'otherToken'
              ? others[0]
              : a.kind === 'forged'
                ? `${owner.client_token.slice(0, -4)}AAAA`
                : undefined;
        const auth: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
        const path = { get: '', control: '/control', leave: '/leave-meeting', end: '/end', token: '/token' }[a.route];
        if (a.kind === 'ownerUse' && a.route === 'end') continue; // the owner ends only at the end
        const body = a.route === 'control' ? { event: 'reset-idle-timeout' } : a.route === 'leave' ? { meeting_bot_id: a.junk || 'm' } : {};
        const res = await send(
          `/sessions/${encodeURIComponent(id)}${path}`,
          a.route === 'get' ? { headers: auth } : json(body, auth),
          a.ip,
        );
        if (!(redis && res.status === 503)) expect(res.status).toBeLessThan(500);
      }
      const end = byBeacon
        ? await send(
            `/sessions/${id}/end`,
            {
              method: 'POST',
              headers: { 'content-type': 'text/plain;charset=UTF-8' },
              body: JSON.stringify({ client_token: owner.client_token }),
            },
            OWNER_IP,
          )
        : await send(`/sessions/${id}/end`, json({}, { authorization: `Bearer ${owner.client_token}` }), OWNER_IP);
      expect(end.status).toBe(200);
      expect((await service.getSession(await serviceId(id))).session_status).toBe('COMPLETED');
    }),
    { numRuns },
  );
  redis?.proc.kill('SIGCONT');
  return runs;
}

describe('the owner can always end their own session (property)', () => {
  it('holds for any mix of valid and hostile clients', async () => {
    expect(await ownerCanEnd(fc.array(act, { minLength: 1, maxLength: 40 }), 40)).toBeGreaterThan(0);
  });

  it('holds on Cloudflare Workers (the Fetch handler bundled as a Worker, in workerd)', async () => {
    // The worker of test/server/runtimes: the same secret, LiveKit credentials and limits; the client address is
    // the platform's CF-Connecting-IP; `x-test-proxy` gives each run a fresh proxy inside the one Worker.
    const mf = new Miniflare({
      modules: true,
      script: await bundle('test/server/runtimes/proxy-worker.ts'),
      compatibilityDate: '2025-09-01',
      bindings: { SERVICE_URL: emulator.url, OPTIONS: JSON.stringify(LIMITS) },
    });
    try {
      const worker = (await mf.getWorker()) as unknown as WorkerFetcher;
      const runs = await ownerCanEnd(fc.array(act, { minLength: 1, maxLength: 40 }), 15, undefined, (run) => (path, init, ip) => {
        const headers = new Headers(init.headers);
        headers.set('cf-connecting-ip', ip);
        headers.set('x-test-proxy', `run-${run}`);
        return worker.fetch(`https://proxy.example/api${path}`, { ...init, headers });
      });
      writeResult('server/owner-can-end-workerd.json', { runs, requestsPerRunAtMost: 40 });
    } finally {
      await mf.dispose();
    }
  });

  const hasRedis = spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
  it.skipIf(!hasRedis)('holds with the counters in Redis while Redis is paused and resumed between requests', async () => {
    const server = await startRedis();
    const client = createClient({ url: server.url });
    client.on('error', () => {});
    await client.connect();
    let prefix = 0;
    try {
      const store = () => redisStore({ sendCommand: (args) => client.sendCommand(args), prefix: `owner${++prefix}:`, timeoutMs: 200 });
      const runs = await ownerCanEnd(fc.array(fc.oneof(act, redisFault), { minLength: 1, maxLength: 15 }), 12, {
        store,
        proc: server.proc,
      });
      expect(runs).toBeGreaterThan(0);
    } finally {
      server.proc.kill('SIGCONT');
      await client.quit().catch(() => {});
      server.proc.kill('SIGKILL');
    }
  });
});
