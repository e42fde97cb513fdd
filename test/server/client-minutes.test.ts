import { describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import pino from 'pino';
import type { Request } from 'express';
import { redisStore, type AvatarProxyOptions, type ProxyStore } from '../../src/server/index';
import { ALICE, hasRedis, listen, proxyApp, proxyOptions, useEmulatorAndRedis } from './helpers';

/**
 * Issue 41 item 2: a per-client daily budget of session minutes (`sessionLimits.minutesPerDay`), charged like the
 * owner's (each session its maximum length in whole minutes, when it starts; given back when the service refuses the
 * create), refused with 429 `{detail}` and `Retry-After` until midnight UTC, and counted once across instances that
 * share one Redis.
 */

const A = '198.51.100.21';
const B = '198.51.100.22';
// A budget of 2 minutes; each session is charged its maximum length, 1 minute.
const LIMITS = { sessionLimits: { maxDurationMs: 60_000, minutesPerDay: 2 }, ownerLimits: false as const };

const env = useEmulatorAndRedis({ queueMs: 5, credits: 1000 });

/** A proxy on loopback; `lines` gets its structured log lines. */
async function start(extra: Partial<AvatarProxyOptions<Request>>, lines: Record<string, unknown>[] = []) {
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const l of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(l) as Record<string, unknown>);
      done();
    },
  });
  const p = await listen(proxyApp(proxyOptions(env.emulator.url, { trustProxy: ['loopback'], logger: pino(sink), ...extra })));
  env.closers.push(() => p.close());
  return {
    create: (ip: string) =>
      fetch(`${p.url}/api/avatar/sessions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
        body: JSON.stringify({ agent_id: 'agent-demo', transport_type: 'rtc-a' }),
      }),
    end: (s: { session_id: string; client_token: string }, ip: string) =>
      fetch(`${p.url}/api/avatar/sessions/${encodeURIComponent(s.session_id)}/end`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${s.client_token}`, 'x-forwarded-for': ip },
        body: '{}',
      }),
  };
}

/** 429, the budget's message, and `Retry-After` reaching (about) the next midnight UTC. */
async function overBudget(res: Response) {
  const before = Date.now();
  const body = (await res.json()) as { detail?: string };
  expect(res.status, body.detail).toBe(429);
  expect(body.detail).toMatch(/^This address has used today's avatar minutes; try again tomorrow \(UTC\)/);
  const midnight = Math.ceil((86_400_000 - (before % 86_400_000)) / 1000);
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(Math.min(midnight - 60, 1));
  expect(Number(res.headers.get('retry-after'))).toBeLessThanOrEqual(midnight + 1);
}

const stores: [string, () => ProxyStore | undefined][] = [['memory store', () => undefined]];
if (hasRedis) stores.push(['Redis store', () => redisStore({ sendCommand: (a) => env.rc!.sendCommand(a), prefix: 'minutes:' })]);

describe.each(stores)('%s', (_, storeOf) => {
  const withStore = () => ({ ...LIMITS, ...(storeOf() ? { store: storeOf() } : {}) });

  it("a client's sessions are charged when they start; over its budget it is refused 429 until midnight UTC", async () => {
    const lines: Record<string, unknown>[] = [];
    const p = await start(withStore(), lines);
    const made = [];
    for (let i = 0; i < 2; i++) {
      const res = await p.create(A);
      expect(res.status).toBe(201);
      made.push((await res.json()) as { session_id: string; client_token: string });
    }
    await overBudget(await p.create(A));
    // Ending the sessions early gives nothing back: each was charged its maximum length.
    for (const s of made) expect((await p.end(s, A)).status).toBe(200);
    await overBudget(await p.create(A));
    // Another client has its own budget.
    expect((await p.create(B)).status).toBe(201);
    // The log says which limit refused.
    expect(lines.filter((l) => l.event === 'create.refused').map((l) => [l.limit, l.status])).toEqual([
      ['client_minutes', 429],
      ['client_minutes', 429],
    ]);
  });

  it('a create the service refuses (402, no credits) gives its minutes back', async () => {
    const p = await start(withStore());
    env.emulator.state.setCredits(ALICE, 0);
    for (let i = 0; i < 3; i++) expect((await p.create(A)).status).toBe(402);
    env.emulator.state.setCredits(ALICE, 1000);
    expect((await p.create(A)).status).toBe(201);
    expect((await p.create(A)).status).toBe(201);
    await overBudget(await p.create(A));
  });
});

describe.skipIf(!hasRedis)('two proxy instances on one Redis', () => {
  it("share each client's budget: counted once", async () => {
    const store = () => redisStore({ sendCommand: (a) => env.rc!.sendCommand(a), prefix: 'minutes-two:' });
    const one = await start({ ...LIMITS, store: store() });
    const two = await start({ ...LIMITS, store: store() });
    expect((await one.create(A)).status).toBe(201);
    expect((await two.create(A)).status).toBe(201);
    await overBudget(await one.create(A));
    await overBudget(await two.create(A));
  });
});
