// One proxy instance of the soak, in its own process: `createAvatarProxy` (Express) or `createAvatarHandler`
// (Fetch, served by node:http), with `redisStore` on a real redis-server, in front of the local service. Started by
// scripts/soak/procs.ts; settings come as one JSON argument. It answers `stats` messages on its IPC channel with
// its CPU time, memory, open handles, requests served and Redis round trips.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import express from 'express';
import { createClient } from 'redis';
import { createAvatarHandler, createAvatarProxy, redisStore, type AvatarProxyOptions } from '../../src/server/index';

export interface ProxyChildConfig {
  kind: 'express' | 'fetch';
  port: number;
  redisUrl: string;
  serviceUrl: string;
  apiKey: string;
  sessionSecret: string;
  /** Options passed as they are (limits, token lifetime, idle timeout); `upstream` is merged with the service's. */
  options: Omit<Partial<AvatarProxyOptions<unknown>>, 'upstream'> & { upstream?: { timeoutMs?: number; retries?: number } };
}

const config = JSON.parse(process.argv[2] ?? '{}') as ProxyChildConfig;
const BASE = '/api/avatar';

const redis = createClient({
  url: config.redisUrl,
  // Reconnect quickly after Redis comes back; a command sent meanwhile waits in the queue until the store's own
  // time limit (`redisStore({timeoutMs})`) gives up on it.
  socket: { reconnectStrategy: (retries: number) => Math.min(50 * (retries + 1), 500), connectTimeout: 1000 },
});
let redisErrors = 0;
redis.on('error', () => void (redisErrors += 1));
await redis.connect();

/** Redis round trips by command name (what the proxy sends; Lua scripts count once). */
const redisCalls = new Map<string, number>();
const store = redisStore({
  // 2.5 s instead of the default 1 s: on a shared machine with a load average of 20 an event loop can stall for a
  // second, and a store failure there would be the machine's, not Redis's.
  timeoutMs: 2500,
  sendCommand: (args) => {
    const name = String(args[0]).toLowerCase();
    redisCalls.set(name, (redisCalls.get(name) ?? 0) + 1);
    return redis.sendCommand(args);
  },
});

const options = {
  sessionSecret: config.sessionSecret,
  livekit: { url: 'ws://127.0.0.1:7880', apiKey: 'devkey', apiSecret: 'secret' },
  // Every visitor comes through a load balancer on loopback that appends its address to X-Forwarded-For.
  trustProxy: ['loopback'],
  store,
  ...config.options,
  upstream: { baseUrl: config.serviceUrl, apiKey: config.apiKey, timeoutMs: 4000, ...config.options.upstream },
} as AvatarProxyOptions<unknown>;

let served = 0;
let handle: (req: IncomingMessage, res: ServerResponse) => void;
if (config.kind === 'express') {
  const app = express();
  app.use(BASE, createAvatarProxy(options));
  handle = app as unknown as typeof handle;
} else {
  const handler = createAvatarHandler({ ...(options as AvatarProxyOptions<Request>), basePath: BASE });
  handle = (req, res) => void serveFetch(handler, req, res);
}

/** node:http → Fetch `Request`, the handler's `Response` → node:http, as a Node host of a Fetch handler does. */
async function serveFetch(handler: ReturnType<typeof createAvatarHandler>, req: IncomingMessage, res: ServerResponse): Promise<void> {
  try {
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(', ') : v);
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
    const request = new Request(`http://${req.headers.host ?? '127.0.0.1'}${req.url ?? '/'}`, {
      method: req.method,
      headers,
      body: hasBody ? (Readable.toWeb(req) as ReadableStream) : undefined,
      duplex: 'half',
    } as RequestInit);
    const response = await handler(request, { remoteAddress: req.socket.remoteAddress });
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  } catch (e) {
    res.writeHead(500, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ detail: `soak host: ${String(e)}` }));
  }
}

const server = createServer((req, res) => {
  served += 1;
  handle(req, res);
});
server.keepAliveTimeout = 30_000;
// Longer than the balancer's idle time (4 s), so it never reuses a socket this server is closing: that race would
// fail a request (UND_ERR_SOCKET) for a reason no proxy has.
server.listen(config.port, '127.0.0.1', () => {
  process.stdout.write(`READY http://127.0.0.1:${config.port}${BASE}\n`);
});

process.on('message', (m: unknown) => {
  if (m === 'stats' || m === 'stats-gc') {
    // A full GC only for the idle baseline and the state after the run: during the load it would cost CPU per request.
    if (m === 'stats-gc') (globalThis as { gc?: () => void }).gc?.();
    const handles: Record<string, number> = {};
    for (const r of process.getActiveResourcesInfo()) handles[r] = (handles[r] ?? 0) + 1;
    process.send?.({
      cpu: process.cpuUsage(),
      mem: process.memoryUsage(),
      handles,
      served,
      redisCalls: Object.fromEntries(redisCalls),
      redisErrors,
      now: Date.now(),
    });
  }
});
process.on('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
  void redis.quit().finally(() => process.exit(0));
});
