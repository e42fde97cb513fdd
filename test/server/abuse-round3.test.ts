import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAvatarHandler, type AvatarProxyOptions } from '../../src/server/index';
import express, { type Request as ExpressRequest } from 'express';
import { createAvatarProxy, issueClientToken } from '../../src/server/index';
import { clientAddress, normalAddress } from '../../src/server/limits/client-ip';
import { SECRET, countingFetch, listen, proxyApp, proxyOptions, startEmulator, type Emulator } from './helpers';
import { BIG, postUnfinishedBody, pulledBody } from './big-body';

/**
 * Issue 36 (round 3 of the spending-safety review), items 3, 6 and 8, on both adapters (the Express router and
 * the Fetch handler) in front of the real local service: each test is an attack from the issue, with the answer it
 * must get now.
 */
let emulator: Emulator;
const counter = countingFetch();
const closers: Array<() => Promise<void>> = [];

beforeAll(async () => {
  emulator = await startEmulator();
});
afterAll(async () => {
  for (const close of closers) await close();
  await emulator.close();
});

type Reply = { status: number; body: Record<string, unknown> };
interface Proxy {
  /** One request; `ip` is the client's address (the Express app trusts one proxy hop and gets it in X-Forwarded-For). */
  call(method: 'GET' | 'POST', path: string, body?: unknown, headers?: Record<string, string>, ip?: string): Promise<Reply>;
}

const adapters: Record<string, (extra: Partial<AvatarProxyOptions<never>>) => Promise<Proxy>> = {
  express: async (extra) => {
    const options = proxyOptions(emulator.url, { upstream: { fetch: counter.fetch } as never, trustProxy: 1, ...extra } as never);
    const server = await listen(proxyApp(options));
    closers.push(server.close);
    return {
      async call(method, path, body, headers = {}, ip = '198.51.100.7') {
        const res = await fetch(`${server.url}/api/avatar${path}`, {
          method,
          headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), 'x-forwarded-for': ip, ...headers },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        return { status: res.status, body: (await res.json()) as Record<string, unknown> };
      },
    };
  },
  fetch: async (extra) => {
    const options = proxyOptions(emulator.url, { upstream: { fetch: counter.fetch } as never, ...extra } as never);
    const handler = createAvatarHandler({ ...(options as AvatarProxyOptions<never>), basePath: '/api/avatar' } as never);
    return {
      async call(method, path, body, headers = {}, ip = '198.51.100.7') {
        const req = new Request(`http://127.0.0.1/api/avatar${path}`, {
          method,
          headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        const res = await handler(req, { remoteAddress: ip });
        return { status: res.status, body: (await res.json()) as Record<string, unknown> };
      },
    };
  },
};

describe.each(Object.keys(adapters))('%s adapter', (name) => {
  const make = adapters[name]!;

  describe('item 8: one address is one client, however it is written', () => {
    const RTC_A = { agent_id: 'agent-demo', transport_type: 'rtc-a' };
    const statuses = async (proxy: Proxy, spellings: string[]) => {
      const out: number[] = [];
      for (const xff of spellings) out.push((await proxy.call('POST', '/sessions', RTC_A, { 'x-forwarded-for': xff }, '127.0.0.1')).status);
      return out;
    };

    it('with ipv6Subnet: 128, six spellings of one IPv6 address share its cap of 3', async () => {
      // Attack (before): case, zero padding, a zone id, brackets with a port: 6 × 201 against a cap of 3.
      const proxy = await make({ ipv6Subnet: 128, trustProxy: ['loopback'], sessionLimits: { maxConcurrent: 3 } });
      const out = await statuses(proxy, [
        '2001:db8::7',
        '2001:DB8::7',
        '2001:0db8:0000:0000:0000:0000:0000:0007',
        '2001:db8::7%eth0',
        '[2001:db8::7]:443',
        '2001:db8:0:0::7',
      ]);
      expect(out).toEqual([201, 201, 201, 429, 429, 429]);
    });

    it('IPv4, IPv4-mapped IPv6 and ip:port entries of a trusted proxy count as the one address', async () => {
      // Attack (before): "198.51.100.30:80" from a trusted proxy answered 400, though the docs say it counts.
      const proxy = await make({ trustProxy: ['loopback'], sessionLimits: { maxConcurrent: 3 } });
      const out = await statuses(proxy, [
        '198.51.100.30:80',
        '::ffff:198.51.100.30',
        '::FFFF:c633:641e',
        '198.51.100.30',
        '[::ffff:198.51.100.30]:443',
      ]);
      expect(out).toEqual([201, 201, 201, 429, 429]);
    });
  });

  it('item 6: /end without an Authorization header reads at most 16 KB of body for its token', async () => {
    // Before: /end read JSON bodies up to 2 MB to find a token of ~200 characters.
    const proxy = await make({});
    const r = await proxy.call('POST', '/sessions/some-handle/end', { client_token: 'x'.repeat(20_000) });
    expect(r).toEqual({ status: 413, body: { detail: 'The body is too large' } });
  });

  describe('item 3: the room URL forwarded is the one checked', () => {
    it('a URL another parser reads differently (backslash + userinfo, dot segments) is refused 400, the service not called', async () => {
      // Attack (before): https://acme.daily.co\@evil.test/r1 passed dailyRooms: ['acme.daily.co'] and was forwarded
      // raw (201); https://rooms.daily.co/other-room/../live-show passed a rule for the live-show room.
      const proxy = await make({ dailyRooms: ['acme.daily.co', 'https://rooms.daily.co/live-show'] });
      const create = (url: string) =>
        proxy.call('POST', '/sessions', {
          agent_id: 'agent-demo',
          transport_type: 'rtc-b',
          properties: { rtc_b_url: url, rtc_b_token: 't' },
        });
      const calls = counter.calls;
      for (const url of ['https://acme.daily.co\\@evil.test/r1', 'https://rooms.daily.co/other-room/../live-show']) {
        const r = await create(url);
        expect(r.status, url).toBe(400);
        expect(r.body.detail).toMatch(/^rtc_b_url must be a room URL in normal form/);
      }
      expect(counter.calls).toBe(calls);
      const ok = await create('https://rooms.daily.co/live-show');
      expect(ok.status).toBe(201);
      expect(ok.body.room_url).toBe('https://rooms.daily.co/live-show');
    });
  });
});

describe('item 6: a session route checks its token before reading its body', () => {
  const rateLimit = { perIp: 1000, invalidTokens: 3 };

  it('express: an unfinished 1.9 MB body with a bad token gets 401 before it ends, its bytes unread; then 429', async () => {
    // Attack (before): 300 such bodies from one address buffered +539 MiB: the body was read before the token.
    const app = express();
    const readAtAnswer: number[] = [];
    app.use((req: ExpressRequest, res, next) => {
      res.once('finish', () => readAtAnswer.push(req.socket.bytesRead));
      next();
    });
    app.use('/api/avatar', createAvatarProxy(proxyOptions(emulator.url, { rateLimit, trustProxy: 1 })));
    const server = await listen(app);
    closers.push(server.close);
    const { session_id } = await issueClientToken({ sessionSecret: SECRET }, 'svc-session-1');
    const send = (token: string) =>
      postUnfinishedBody(`${server.url}/api/avatar/sessions/${encodeURIComponent(session_id)}/control`, {
        authorization: `Bearer ${token}`,
        'x-forwarded-for': '203.0.113.9',
      });
    for (let i = 0; i < 3; i++) {
      const r = await send('not-a-token');
      expect(r.status).toBe(401);
      expect(r.detail).toBe('Invalid client token');
    }
    // Each answer came while less than half of the body had been read.
    expect(readAtAnswer).toHaveLength(3);
    for (const n of readAtAnswer) expect(n).toBeLessThan(BIG / 2);
    // Past rateLimit.invalidTokens refusals, the client waits.
    const limited = await send('still-not-a-token');
    expect(limited.status).toBe(429);
    expect(limited.detail).toMatch(/invalid client token; try again in \d+ s/);
  }, 20_000);

  it('fetch: a 1.9 MB body with a bad token gets 401 with none of it read; then 429', async () => {
    const handler = createAvatarHandler({
      ...(proxyOptions(emulator.url, { rateLimit }) as AvatarProxyOptions<never>),
      basePath: '/api/avatar',
    } as never);
    const { session_id } = await issueClientToken({ sessionSecret: SECRET }, 'svc-session-1');
    const send = async (token: string) => {
      const { body, pulled } = pulledBody();
      const req = new Request(`http://127.0.0.1/api/avatar/sessions/${encodeURIComponent(session_id)}/control`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body,
        duplex: 'half',
      } as RequestInit);
      const res = await handler(req, { remoteAddress: '203.0.113.9' });
      return { status: res.status, detail: ((await res.json()) as { detail: string }).detail, pulled: pulled() };
    };
    for (let i = 0; i < 3; i++) expect(await send('not-a-token')).toEqual({ status: 401, detail: 'Invalid client token', pulled: 0 });
    const limited = await send('still-not-a-token');
    expect(limited.status).toBe(429);
    expect(limited.pulled).toBe(0);
  });
});

describe('item 8: the X-Forwarded-For walk (proxy-addr over normalised entries)', () => {
  it('skips trusted proxies from the right, reads ip:port and other spellings, refuses bad trustProxy entries', () => {
    const walk = clientAddress(['private', '203.0.113.0/24']);
    expect(walk('10.0.0.2', '198.51.100.1, 203.0.113.9:8080, 10.1.2.3')).toBe('198.51.100.1');
    expect(walk('::ffff:10.0.0.2', '2001:DB8::1%eth0')).toBe('2001:db8::1');
    // An untrusted peer is the client, whatever it forwards.
    expect(walk('198.51.100.50', '1.2.3.4')).toBe('198.51.100.50');
    expect(() => walk('10.0.0.2', 'not-an-ip')).toThrow(/not an IP address/);
    expect(clientAddress(2)('10.0.0.2', '198.51.100.1, 198.51.100.2:443, 10.0.0.9')).toBe('198.51.100.2');
    expect(() => clientAddress(['10.0.0.0/8', 'nearby'])).toThrow(/trustProxy: "nearby" is not an address/);
    expect(normalAddress('[2001:0DB8::0001]:443')).toBe('2001:db8::1');
    expect(normalAddress('1.2.3.4:65536')).toBeUndefined();
  });
});
