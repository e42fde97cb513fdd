import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import express from 'express';
import pino from 'pino';
import { ipKeyGenerator } from 'express-rate-limit';
import { createAvatarHandler, createAvatarProxy, type AvatarProxyOptions } from '../../src/server/index';
import { addressKey, normalAddress } from '../../src/server/limits/client-ip';
import { ALICE, listen, proxyOptions, startEmulator, type Emulator } from './helpers';

/**
 * Issue 24 items 1, 2, 14 and issue 26 item 1, against both adapters with the documented defaults: one host
 * with a whole IPv6 /64, many clients against the owner's ceilings, client addresses that are not addresses,
 * and a platform that gives no client address at all.
 */
let emulator: Emulator;
const closers: (() => Promise<void>)[] = [];

// A fresh service per test: the owner's ceilings count every running session of the account at the service.
beforeEach(async () => {
  emulator = await startEmulator(5);
});
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
  await emulator.close();
});

type Extra = Partial<AvatarProxyOptions<never>> & {
  clientIp?: (r: Request) => string | null | undefined;
  clientKey?: (r: Request) => string | null;
};
interface Proxy {
  /** Sends a request as the client `ip` (the socket's peer for the Fetch handler, X-Forwarded-For behind loopback for Express). */
  send(path: string, init?: RequestInit, ip?: string): Promise<Response>;
}

function logLines() {
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level: 'warn' }, { write: (s: string) => void lines.push(JSON.parse(s) as Record<string, unknown>) });
  return { logger, lines };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- one options object for both adapters' request types
const options = (extra: Extra): any =>
  ({ ...proxyOptions(emulator.url), rateLimit: undefined, sessionLimits: undefined, ownerLimits: undefined, ...extra }) as never;

const adapters: Record<string, (extra?: Extra) => Promise<Proxy>> = {
  async express(extra = {}) {
    const app = express();
    app.use('/api/avatar', createAvatarProxy({ trustProxy: ['loopback'], ...options(extra) }));
    const l = await listen(app);
    closers.push(l.close);
    return {
      send: (path, init = {}, ip) =>
        fetch(`${l.url}/api/avatar${path}`, {
          ...init,
          headers: { ...(init.headers as object), ...(ip ? { 'x-forwarded-for': ip } : {}) },
        }),
    };
  },
  async fetch(extra = {}) {
    const handler = createAvatarHandler({ ...options(extra), basePath: '/api/avatar' });
    return {
      send: (path, init = {}, ip) => handler(new Request(`https://proxy.example/api/avatar${path}`, init), ip ? { remoteAddress: ip } : {}),
    };
  },
};

const create = (headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify({ agent_id: 'agent-demo', transport_type: 'rtc-a' }),
});
/** Address `n` of the host's /64 (2001:db8:1:2::/64). */
const inMy64 = (n: number) => `2001:db8:1:2:${(n * 7919).toString(16)}:${n.toString(16)}:a:${(n + 1).toString(16)}`;

async function statuses(p: Proxy, ips: string[], path = '/sessions', init: () => RequestInit = () => create()) {
  const out: number[] = [];
  const made: { session_id: string; client_token: string }[] = [];
  for (const ip of ips) {
    const r = await p.send(path, init(), ip);
    out.push(r.status);
    if (r.status === 201) made.push((await r.json()) as { session_id: string; client_token: string });
  }
  return { out, made };
}
async function endAll(p: Proxy, made: { session_id: string; client_token: string }[], ip?: string) {
  for (const s of made) {
    const r = await p.send(`/sessions/${s.session_id}/end`, { method: 'POST', headers: { authorization: `Bearer ${s.client_token}` } }, ip);
    expect(r.status).toBe(200);
  }
}

describe.each(Object.keys(adapters))('%s adapter: IPv6 clients are grouped by /64', (name) => {
  const make = adapters[name]!;
  it('a host sending each create from another address of its /64 gets the cap of 3, not 13', async () => {
    const p = await make();
    const { out, made } = await statuses(
      p,
      Array.from({ length: 6 }, (_, i) => inMy64(i + 1)),
    );
    expect(out).toEqual([201, 201, 201, 429, 429, 429]);
    // Another /64 is another client.
    const other = await statuses(p, ['2001:db8:1:3::1']);
    expect(other.out).toEqual([201]);
    await endAll(p, [...made, ...other.made], inMy64(99));
  });

  it('the per-client request limit groups the /64 too; IPv4-mapped IPv6 is the IPv4 address', async () => {
    const p = await make({ rateLimit: { perIp: 2 } });
    const rooms = () => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect((await statuses(p, [inMy64(1), inMy64(2), inMy64(3)], '/rooms', rooms)).out).toEqual([400, 400, 429]);
    expect((await statuses(p, ['198.51.100.7', '::ffff:198.51.100.7', '::ffff:c633:6407'], '/rooms', rooms)).out).toEqual([400, 400, 429]);
  });

  it('ipv6Subnet: 128 counts whole addresses (an operator who knows their clients)', async () => {
    const p = await make({ ipv6Subnet: 128, sessionLimits: { maxConcurrent: 1 } });
    const { out, made } = await statuses(p, [inMy64(1), inMy64(2)]);
    expect(out).toEqual([201, 201]);
    await endAll(p, made.slice(0, 1), inMy64(1));
    await endAll(p, made.slice(1), inMy64(2));
  });
});

describe('client keys', () => {
  it('IPv6 keys are written as express-rate-limit ipKeyGenerator writes them', () => {
    for (const ip of ['2001:db8:1:2:3:4:5:6', '2001:db8::1', 'fe80::1', '::1']) expect(addressKey(ip, 64)).toBe(ipKeyGenerator(ip, 64));
    expect(addressKey('198.51.100.7')).toBe('198.51.100.7');
    expect(normalAddress('::ffff:198.51.100.7')).toBe('198.51.100.7');
    expect(normalAddress('198.51.100.7:4321')).toBe('198.51.100.7');
    expect(normalAddress('[2001:db8::1]:443')).toBe('2001:db8::1');
    for (const junk of ['1.2.3', 'not-an-ip', 'example.com:80', '1.2.3.4:99999', '1.2.3.4, 5.6.7.8', ''])
      expect(normalAddress(junk)).toBeUndefined();
  });
});

describe.each(Object.keys(adapters))("%s adapter: the owner's ceilings", (name) => {
  const make = adapters[name]!;
  it('at most 10 sessions at once across all clients by default: the 11th client gets 503 busy with Retry-After', async () => {
    const p = await make();
    const { out, made } = await statuses(
      p,
      Array.from({ length: 12 }, (_, i) => `198.51.100.${10 + i}`),
    );
    expect(out).toEqual([...Array(10).fill(201), 503, 503]);
    const busy = await p.send('/sessions', create(), '198.51.100.99');
    expect(busy.status).toBe(503);
    expect(busy.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await busy.json()).detail).toMatch(/running as many avatar sessions as it allows/);
    // Ending one frees a place for anyone.
    await endAll(p, made.slice(0, 1), '198.51.100.10');
    expect((await p.send('/sessions', create(), '198.51.100.99')).status).toBe(201);
  });

  it('the ceilings hold with per-client limits off (sessionLimits: false)', async () => {
    const p = await make({ sessionLimits: false, ownerLimits: { maxConcurrent: 2 } });
    const { out, made } = await statuses(p, ['198.51.100.1', '198.51.100.1', '198.51.100.1']);
    expect(out).toEqual([201, 201, 503]);
    await endAll(p, made.slice(0, 1), '198.51.100.1');
    const again = await statuses(p, ['198.51.100.1']);
    expect(again.out).toEqual([201]);
    await endAll(p, [...made.slice(1), ...again.made], '198.51.100.1');
  });

  it('creates per window and minutes per day across all clients', async () => {
    const p = await make({ ownerLimits: { createsPerWindow: 3 } });
    const { out, made } = await statuses(p, ['198.51.100.1', '198.51.100.2', '198.51.100.3', '198.51.100.4']);
    expect(out).toEqual([201, 201, 201, 503]);
    await endAll(p, made, '198.51.100.1');
    // Ending sessions does not give back creates of the window.
    expect((await p.send('/sessions', create(), '198.51.100.5')).status).toBe(503);

    const q = await make({ ownerLimits: { minutesPerDay: 5 }, sessionLimits: { maxDurationMs: 2 * 60_000 } });
    const day = await statuses(q, ['198.51.100.1', '198.51.100.2', '198.51.100.3']);
    expect(day.out).toEqual([201, 201, 503]);
    const last = await q.send('/sessions', create(), '198.51.100.4');
    expect((await last.json()).detail).toMatch(/today's avatar minutes/);
    await endAll(q, day.made, '198.51.100.1');
  });
});

describe.each(Object.keys(adapters))('%s adapter: client address edge cases', (name) => {
  const make = adapters[name]!;
  it('an ip:port X-Forwarded-For entry is that address: one bucket per client, never a shared one or a 500', async () => {
    const p = await make({ trustProxy: ['loopback', '192.0.2.0/24'], rateLimit: { perIp: 2 } });
    const as = async (xff: string) =>
      (
        await p.send(
          '/rooms',
          { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': xff }, body: '{}' },
          name === 'fetch' ? '192.0.2.1' : undefined,
        )
      ).status;
    expect([await as('203.0.113.5:1234'), await as('203.0.113.5:999'), await as('203.0.113.5')]).toEqual([400, 400, 429]);
    expect([await as('[2001:db8:9::1]:443'), await as('203.0.113.6:1234')]).toEqual([400, 400]);
    // A trusted proxy that writes junk: 400 {detail}, not a 500.
    const junk = await p.send(
      '/rooms',
      { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': 'unknown' }, body: '{}' },
      name === 'fetch' ? '192.0.2.1' : undefined,
    );
    expect(junk.status).toBe(400);
    expect((await junk.json()).detail).toMatch(/X-Forwarded-For/);
  });
});

describe("the Fetch handler's client identity", () => {
  const handlerWith = (extra: Extra) => createAvatarHandler({ ...options(extra), basePath: '/api/avatar' });
  const rooms = (headers: Record<string, string> = {}) =>
    new Request('https://proxy.example/api/avatar/rooms', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: '{}',
    });

  it('a clientIp result that is not an address is refused (reported once), never a bucket of its own', async () => {
    const { logger, lines } = logLines();
    let n = 0;
    const h = handlerWith({ logger, rateLimit: { perIp: 2 }, clientIp: () => `not-an-ip-${++n}` });
    const got = [];
    for (let i = 0; i < 6; i++) got.push((await h(rooms())).status);
    expect(got).toEqual([503, 503, 503, 503, 503, 503]);
    expect(lines.filter((l) => String(l.msg).includes('clientIp returned something that is not one IP address'))).toHaveLength(1);
    // With the platform's address to fall back on, that address is the bucket.
    const withPeer = [];
    for (let i = 0; i < 3; i++) withPeer.push((await h(rooms(), { remoteAddress: '198.51.100.3' })).status);
    expect(withPeer).toEqual([400, 400, 429]);
  });

  it('no client address (React Router, next start): 503 {detail} per request, one error line naming what to set; never a 500', async () => {
    const { logger, lines } = logLines();
    const h = handlerWith({ logger, clientIp: (r) => r.headers.get('x-real-ip') });
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await h(rooms()));
    expect(answers.map((a) => a.status)).toEqual([503, 503, 503]);
    expect((await answers[0]!.json()).detail).toMatch(/cannot tell its visitors apart/);
    const errors = lines.filter((l) => l.level === 50);
    expect(errors).toHaveLength(1);
    expect(String(errors[0]!.msg)).toMatch(/clientKey/);
  });

  it("clientKey (the app's own user) gives each user their own limits where the platform gives no address", async () => {
    const h = handlerWith({ clientKey: (r: Request) => r.headers.get('x-user'), sessionLimits: { maxConcurrent: 1 } });
    const as = (user: string) => h(new Request('https://proxy.example/api/avatar/sessions', { ...create({ 'x-user': user }) }));
    const a = await as('alice');
    expect(a.status).toBe(201);
    expect((await as('alice')).status).toBe(429);
    const b = await as('bob');
    expect(b.status).toBe(201);
    for (const r of [a, b]) {
      const s = (await r.json()) as { session_id: string; client_token: string };
      const end = await h(
        new Request(`https://proxy.example/api/avatar/sessions/${s.session_id}/end`, {
          method: 'POST',
          headers: { authorization: `Bearer ${s.client_token}` },
        }),
      );
      expect(end.status).toBe(200);
    }
    // A visitor without an account: no key, no address → refused, not pooled with the users. It is a visitor to
    // refuse (403, sign in), not a misconfiguration: no error line tells the owner to set the clientKey they set.
    const anonymous = await h(rooms());
    expect(anonymous.status).toBe(403);
    expect((await anonymous.json()).detail).toMatch(/^Sign in/);
  });

  it('without a logger, warnings and errors go to stderr as redacted JSON lines', async () => {
    const written: string[] = [];
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    try {
      // No logger at all: the test helpers' default quiet logger is taken away.
      const h = handlerWith({ logger: undefined });
      await h(rooms());
      await h(rooms());
    } finally {
      spy.mockRestore();
    }
    const mine = written.filter((w) => w.includes('liveai-proxy'));
    expect(mine).toHaveLength(1);
    expect(JSON.parse(mine[0]!)).toMatchObject({ level: 'error', component: 'liveai-proxy' });
    expect(mine[0]).toMatch(/cannot tell clients apart/);
    expect(mine.join('')).not.toContain(ALICE);
  });
});
