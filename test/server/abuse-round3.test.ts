import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAvatarHandler, type AvatarProxyOptions } from '../../src/server/index';
import { countingFetch, listen, proxyApp, proxyOptions, startEmulator, type Emulator } from './helpers';

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
