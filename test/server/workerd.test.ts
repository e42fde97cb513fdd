import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Miniflare, type WorkerOptions } from 'miniflare';
import { createServiceClient } from '../../src/server/service/client';
import { bundle, type WorkerFetcher } from './runtimes/bundle';
import { ALICE, serviceId, setFaults, startEmulator, waitFor, type Emulator } from './helpers';

/**
 * The Fetch handler bundled as a Cloudflare Worker (esbuild) and run in workerd (miniflare, the runtime
 * `wrangler dev` uses) against the local service, as the docs' Cloudflare recipe deploys it: `handler(request, ctx)`,
 * a Cron Trigger calling `handler.sweep()`, and the Durable Object store. No `nodejs_compat` flag.
 */
let emulator: Emulator;
let script: string;
const service = () => createServiceClient({ baseUrl: emulator.url, apiKey: ALICE });
const DATE = '2025-09-01';

beforeAll(async () => {
  emulator = await startEmulator(5);
  script = await bundle('test/server/runtimes/proxy-worker.ts');
});
afterAll(async () => {
  await emulator.close();
});

/** Proxy Workers named `names`, each its own instance (own memory), all bound to one ProxyStoreObject when `shared`. */
async function workers(names: string[], options: Record<string, unknown>, shared = false) {
  const proxy = (name: string): WorkerOptions => ({
    name,
    modules: true,
    script,
    compatibilityDate: DATE,
    compatibilityFlags: ['enable_request_signal'], // as the docs' wrangler.jsonc
    bindings: { SERVICE_URL: emulator.url, OPTIONS: JSON.stringify(options) },
    ...(shared ? { durableObjects: { LIVEAI_STORE: { className: 'ProxyStoreObject', scriptName: 'store' } } } : {}),
  });
  const store: WorkerOptions = {
    name: 'store',
    modules: true,
    script,
    compatibilityDate: DATE,
    bindings: { SERVICE_URL: emulator.url },
    durableObjects: { LIVEAI_STORE: 'ProxyStoreObject' },
  };
  const mf = new Miniflare({ workers: [...names.map(proxy), ...(shared ? [store] : [])] });
  await mf.ready;
  const send = async (worker: string, path: string, init: RequestInit & { ip?: string; proxy?: string } = {}) => {
    const { ip = '198.51.100.7', proxy: key, ...rest } = init;
    const headers = new Headers(rest.headers);
    headers.set('cf-connecting-ip', ip);
    if (key) headers.set('x-test-proxy', key);
    const fetcher = (await mf.getWorker(worker)) as unknown as WorkerFetcher;
    return fetcher.fetch(`https://proxy.example/api${path}`, { ...rest, headers });
  };
  return {
    mf,
    send,
    scheduled: async (worker: string) => ((await mf.getWorker(worker)) as unknown as WorkerFetcher).scheduled({ cron: '* * * * *' }),
  };
}

const create = (extra: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...extra },
  body: JSON.stringify({ agent_id: 'agent-demo', transport_type: 'rtc-a' }),
});
const bearer = (token: string, body?: unknown): RequestInit => ({
  method: body === undefined ? 'GET' : 'POST',
  headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
  ...(body === undefined ? {} : { body: JSON.stringify(body) }),
});
type Created = { session_id: string; client_token: string; session_expires_at?: string };

describe('the proxy on Cloudflare Workers (workerd)', () => {
  it('imports and runs create → status → control → end', async () => {
    const { mf, send } = await workers(['proxy'], {});
    try {
      const res = await send('proxy', '/sessions', create());
      expect(res.status).toBe(201);
      const s = (await res.json()) as Created;
      expect(s.session_expires_at).toBeDefined();
      const status = await send('proxy', `/sessions/${s.session_id}`, bearer(s.client_token));
      expect(status.status).toBe(200);
      expect(((await status.json()) as { session_status: string }).session_status).toMatch(/ACTIVE|QUEUED|STARTING/);
      const control = await send('proxy', `/sessions/${s.session_id}/control`, bearer(s.client_token, { event: 'reset-idle-timeout' }));
      expect(control.status).toBe(200);
      const end = await send('proxy', `/sessions/${s.session_id}/end`, bearer(s.client_token, {}));
      expect(end.status).toBe(200);
      expect((await service().getSession(await serviceId(s.session_id))).session_status).toBe('COMPLETED');
    } finally {
      await mf.dispose();
    }
  });

  it('ends a session past its maximum length from the Cron Trigger (scheduled → handler.sweep())', async () => {
    const { mf, send, scheduled } = await workers(['proxy'], { sessionLimits: { maxDurationMs: 1000 } }, true);
    try {
      const res = await send('proxy', '/sessions', create());
      expect(res.status).toBe(201);
      const s = (await res.json()) as Created;
      const expires = Date.parse(s.session_expires_at!);
      await waitFor(async () => (Date.now() > expires ? true : undefined));
      await scheduled('proxy');
      expect((await service().getSession(await serviceId(s.session_id))).session_status).toBe('COMPLETED');
      const status = await send('proxy', `/sessions/${s.session_id}`, bearer(s.client_token));
      expect(await status.json()).toMatchObject({ end_reason: 'max_duration' });
      // Its token no longer controls it.
      const control = await send('proxy', `/sessions/${s.session_id}/control`, bearer(s.client_token, { event: 'reset-idle-timeout' }));
      expect(control.status).toBe(403);
    } finally {
      await mf.dispose();
    }
  });

  it('ends a session whose create was answered after the time limit, through ctx.waitUntil', async () => {
    const { mf, send } = await workers(['proxy'], { timeoutMs: 300 });
    const before = new Set((await service().listSessions({ limit: 100 })).sessions.map((s) => s.session_id));
    try {
      await setFaults(emulator.url, { latencyMs: 1200 });
      const res = await send('proxy', '/sessions', create());
      // The browser has its answer (504) and the Worker has returned; only waitUntil keeps the end running.
      expect(res.status).toBe(504);
      const late = await waitFor(async () => {
        const { sessions } = await service().listSessions({ limit: 100 });
        return sessions.find((s) => !before.has(s.session_id));
      });
      const ended = await waitFor(async () => {
        const s = await service().getSession(late.session_id);
        return s.session_status === 'COMPLETED' ? s : undefined;
      }, 20_000);
      expect(ended.session_status).toBe('COMPLETED');
    } finally {
      await setFaults(emulator.url, { latencyMs: 0 });
      await mf.dispose();
    }
  });

  it('the Durable Object store enforces one cap across two Worker instances', async () => {
    const limits = { sessionLimits: { maxConcurrent: 1 }, ownerLimits: { maxConcurrent: 2 } };
    const { mf, send } = await workers(['a', 'b'], limits, true);
    try {
      expect((await send('a', '/sessions', create())).status).toBe(201);
      // The same client on the other instance: its one running session is counted there too.
      const second = await send('b', '/sessions', create());
      expect(second.status).toBe(429);
      // Another client fills the owner's ceiling of 2 through instance b; a third client is refused on a.
      expect((await send('b', '/sessions', { ...create(), ip: '198.51.100.8' } as never)).status).toBe(201);
      const third = await send('a', '/sessions', { ...create(), ip: '198.51.100.9' } as never);
      expect(third.status).toBe(503);
    } finally {
      await mf.dispose();
    }
  });
});
