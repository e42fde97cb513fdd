// Hono on Node with the companion proxy on createAvatarHandler. Only hono, @hono/node-server and liveai-kit are
// installed: no express, pino or express-rate-limit (the Fetch handler needs none of them, types included).
import { serve } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import { Hono } from 'hono';
import { createAvatarHandler } from 'liveai-kit/server';

const avatar = createAvatarHandler({
  basePath: '/api/avatar',
  upstream: { baseUrl: process.env.LIVEAI_UPSTREAM_URL ?? 'http://127.0.0.1:4010', apiKey: process.env.LIVEAI_API_KEY ?? '' },
  sessionSecret: process.env.LIVEAI_SESSION_SECRET ?? '',
});

const app = new Hono();
// The client address for the per-client limits: the TCP peer, from Node's socket.
app.all('/api/avatar/*', (c) => avatar(c.req.raw, { remoteAddress: getConnInfo(c).remote.address }));
app.get('/', (c) => c.text('ok'));

serve({ fetch: app.fetch, port: Number(process.env.PORT ?? 3000), hostname: '127.0.0.1' }, (info) => {
  console.log(`listening on http://127.0.0.1:${info.port}`);
});
