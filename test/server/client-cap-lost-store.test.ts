import { describe, expect, it } from 'vitest';
import { redisStore, type AvatarProxyOptions, type ProxyStore } from '../../src/server/index';
import type { Request } from 'express';
import { createServiceClient } from '../../src/server/service/client';
import { ALICE, hasRedis, listen, proxyApp, proxyOptions, serviceId, useEmulatorAndRedis, waitFor } from './helpers';

/**
 * A client's running-session cap after the proxy's store lost what runs (found by the short soak: a client ran 4
 * sessions against a limit of 3 after Redis restarted empty). The store's count of the account's running sessions
 * at the service finds them without knowing their browser, so they counted only under the owner's ceiling, and the
 * client could start more. The client each session was counted under travels sealed in its handle: the browser's
 * next call (a status poll) counts the session under that client again, so the client's 4th create is refused.
 */

const A = '198.51.100.7';
const PER_CLIENT = /^At most 3 sessions may run at once from this address/;

// The owner's ceiling counts every running session of the account: each test starts from none, on an empty Redis.
const env = useEmulatorAndRedis({ queueMs: 5 });

const options = (store: ProxyStore | undefined, owner: AvatarProxyOptions<Request>['ownerLimits']) =>
  proxyOptions(env.emulator.url, {
    trustProxy: ['loopback'],
    sessionLimits: { maxConcurrent: 3 },
    ownerLimits: owner,
    ...(store ? { store } : {}),
  });

async function start(o: AvatarProxyOptions<Request>) {
  const p = await listen(proxyApp(o));
  env.closers.push(() => p.close());
  return {
    close: () => p.close(),
    create: (ip: string) =>
      fetch(`${p.url}/api/avatar/sessions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
        body: JSON.stringify({ agent_id: 'agent-demo', transport_type: 'rtc-a' }),
      }),
    poll: (s: Created, ip: string) =>
      fetch(`${p.url}/api/avatar/sessions/${encodeURIComponent(s.session_id)}`, {
        headers: { authorization: `Bearer ${s.client_token}`, 'x-forwarded-for': ip },
      }),
  };
}
type Proxy = Awaited<ReturnType<typeof start>>;

interface Created {
  session_id: string;
  client_token: string;
}

async function createOk(p: Proxy, ip: string): Promise<Created> {
  const res = await p.create(ip);
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as Created;
}

async function refusedPerClient(res: Response) {
  const body = (await res.json()) as { detail?: string };
  expect(res.status, body.detail).toBe(429);
  expect(body.detail).toMatch(PER_CLIENT);
  expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
}

const redisOf = () => redisStore({ sendCommand: (args) => env.rc!.sendCommand(args), prefix: 'lost-store:' });

describe.skipIf(!hasRedis)('Redis store emptied (FLUSHALL) while a client runs its maximum', () => {
  it('the browser polls its sessions: the client is refused a 4th with 429', async () => {
    const p = await start(options(redisOf(), { maxConcurrent: 20 }));
    const mine = [await createOk(p, A), await createOk(p, A), await createOk(p, A)];
    await refusedPerClient(await p.create(A));
    await env.rc!.sendCommand(['FLUSHALL']);
    for (const s of mine) expect((await p.poll(s, A)).status).toBe(200);
    await refusedPerClient(await p.create(A));
    // Another client still starts one: the lost store refuses nobody else.
    await createOk(p, '198.51.100.8');
  });

  it('sessions a count at the service found again move to their client, one place each under the owner', async () => {
    // Owner: 5 at once. After the wipe, another client's create counts the 3 at the service (found: browser unknown).
    const p = await start(options(redisOf(), { maxConcurrent: 5 }));
    const mine = [await createOk(p, A), await createOk(p, A), await createOk(p, A)];
    await env.rc!.sendCommand(['FLUSHALL']);
    await createOk(p, '198.51.100.8');
    // The browser polls from another address now (a phone that changed network): its sessions are still A's.
    for (const s of mine) expect((await p.poll(s, '203.0.113.9')).status).toBe(200);
    await refusedPerClient(await p.create(A));
    // 3 + 1 run: one more fits under the owner's 5, then the site is full (each session counted once, not twice).
    await createOk(p, '198.51.100.9');
    const full = await p.create('198.51.100.10');
    expect(full.status).toBe(503);
    expect(((await full.json()) as { detail: string }).detail).toMatch(/running as many avatar sessions as it allows/);
  });
});

describe('memory store, proxy restarted (a new instance, the same sessionSecret)', () => {
  it.each([
    ['without owner ceilings', false],
    ['with an owner ceiling', { maxConcurrent: 20 }],
  ] as const)('%s: the browser polls its sessions on the new instance: the 4th create is refused 429', async (_, owner) => {
    const first = await start(options(undefined, owner));
    const mine = [await createOk(first, A), await createOk(first, A), await createOk(first, A)];
    await first.close();
    const second = await start(options(undefined, owner));
    for (const s of mine) expect((await second.poll(s, A)).status).toBe(200);
    await refusedPerClient(await second.create(A));
  });
});

describe('a create the service answers after the time limit (504)', () => {
  it("keeps its client's place until the session the service made late is ended", async () => {
    // The service's create answers are held until the test lets them through: the proxy answers 504 at its time
    // limit, and the service makes the session afterwards (as a slow service does).
    let hold: Promise<void> | undefined;
    const gated: typeof fetch = async (input, init) => {
      const create = (init?.method ?? 'GET') === 'POST' && new URL(String(input)).pathname.endsWith('/sessions');
      if (create && hold) await hold;
      return fetch(input, init);
    };
    let letThrough!: () => void;
    hold = new Promise((r) => (letThrough = r));
    const p = await start(
      proxyOptions(env.emulator.url, {
        trustProxy: ['loopback'],
        sessionLimits: { maxConcurrent: 1 },
        ownerLimits: false,
        upstream: { baseUrl: env.emulator.url, apiKey: ALICE, timeoutMs: 500, fetch: gated },
      }),
    );
    const late = await p.create(A);
    expect(late.status).toBe(504);
    // The session the service may still make holds the client's one place: no second one meanwhile.
    const second = await p.create(A);
    const body = (await second.json()) as { detail?: string };
    expect(second.status, body.detail).toBe(429);
    expect(body.detail).toMatch(/^At most 1 sessions may run at once from this address/);
    // The late session is made and ended at once; then the place is free again.
    hold = undefined;
    letThrough();
    const next = await waitFor(async () => {
      const res = await p.create(A);
      return res.status === 201 ? ((await res.json()) as Created) : undefined;
    });
    const { sessions } = await createServiceClient({ baseUrl: env.emulator.url, apiKey: ALICE }).listSessions({ page: 1, limit: 100 });
    const running = sessions.filter((s) => /QUEUED|ACTIVE/.test(s.session_status)).map((s) => s.session_id);
    expect(running).toEqual([await serviceId(next.session_id)]);
  });
});
