import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { createAvatarHandler, createAvatarProxy, issueClientToken, type AvatarProxyOptions } from '../../src/server/index';
import { ALICE, listen, SECRET } from './helpers';
import { quietLogger } from '../setup/quiet-logger';

/**
 * The service's answers are read while they stream and dropped past 1 MiB (issue 24 item 13: a 200 MB answer
 * raised RSS by 839 MB with Express and 208 MB with the Fetch handler). A stub service on loopback answers a
 * session's status with 200 MB of JSON; the browser gets a clear 502 and the proxy stops reading long before.
 */
const HUGE = 200 * 1024 * 1024;
let stub: Server;
let stubUrl: string;
/** Bytes the stub managed to write before the proxy went away, per answer. */
const written: number[] = [];
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  const chunk = Buffer.alloc(1024 * 1024, 'a');
  stub = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    let sent = 0;
    const done = () => written.push(sent);
    res.once('close', done);
    res.write('{"session_status":"ACTIVE","padding":"');
    const pump = () => {
      while (sent < HUGE) {
        sent += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      res.end('"}');
    };
    pump();
  });
  await new Promise<void>((r) => stub.listen(0, '127.0.0.1', r));
  stubUrl = `http://127.0.0.1:${(stub.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const c of closers) await c();
  stub.closeAllConnections();
  await new Promise((r) => stub.close(r));
});

type Extra = Partial<AvatarProxyOptions<never>>;
const options = (extra: Extra) => ({
  upstream: { baseUrl: stubUrl, apiKey: ALICE, retries: 0 },
  sessionSecret: SECRET,
  rateLimit: false as const,
  sessionLimits: false as const,
  logger: quietLogger(),
  ...extra,
});
const adapters: Record<string, (extra: Extra) => Promise<(path: string, init: RequestInit) => Promise<Response>>> = {
  async express(extra) {
    const app = express();
    app.use('/api/avatar', createAvatarProxy(options(extra) as AvatarProxyOptions<express.Request>));
    const l = await listen(app);
    closers.push(l.close);
    return (path, init) => fetch(`${l.url}/api/avatar${path}`, init);
  },
  async fetch(extra) {
    const handler = createAvatarHandler({ ...(options(extra) as AvatarProxyOptions<Request>), basePath: '/api/avatar' });
    return (path, init) => handler(new Request(`https://proxy.example/api/avatar${path}`, init), { remoteAddress: '198.51.100.1' });
  },
};

describe.each(Object.keys(adapters))('%s adapter: a 200 MB answer from the service', (name) => {
  for (const via of ['the keep-alive pool (undici)', 'upstream.fetch'] as const) {
    it(`is cut off while it streams: 502 {detail}, through ${via}`, async () => {
      const send = await adapters[name]!(
        via === 'upstream.fetch' ? { upstream: { baseUrl: stubUrl, apiKey: ALICE, retries: 0, fetch } } : {},
      );
      // The browser holds the proxy's handle; the service is asked about `sess-huge`, the id behind it.
      const { session_id: handle, client_token } = await issueClientToken({ sessionSecret: SECRET }, 'sess-huge');
      const res = await send(`/sessions/${handle}`, { headers: { authorization: `Bearer ${client_token}` } });
      expect(res.status).toBe(502);
      expect((await res.json()).detail).toMatch(/avatar service/);
      const sent = await new Promise<number>((resolve) => {
        const check = () => (written.length > 0 ? resolve(written.shift()!) : setTimeout(check, 10));
        check();
      });
      // The proxy stopped reading: the stub could not push the whole answer.
      expect(sent).toBeLessThan(HUGE / 4);
    });
  }
});
