import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { createServer as createViteServer } from 'vite';
import react from '@vitejs/plugin-react';
import { createAvatarProxy, type AvatarProxyOptions } from '../../src/server/index';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Another livekit-client than the installed one, for the run against the lowest supported version: the folder of
 * that package (scripts/test.mjs `--livekit-client lowest` installs it and sets this).
 */
const livekitClient = process.env.LIVEAI_LIVEKIT_CLIENT;

/**
 * The real proxy under /api/avatar (with `proxy` as its options) and a Vite dev server for the test pages, on one
 * 127.0.0.1 port: what every browser test and bench page talks to.
 */
export async function startPageServer(proxy: AvatarProxyOptions<express.Request>): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const vite = await createViteServer({
    root: ROOT,
    configFile: false,
    plugins: [react()],
    server: { middlewareMode: true, hmr: false },
    appType: 'mpa',
    logLevel: 'error',
    optimizeDeps: { noDiscovery: false },
    ...(livekitClient ? { resolve: { alias: [{ find: /^livekit-client$/, replacement: livekitClient }] } } : {}),
  });
  const app = express();
  app.use('/api/avatar', createAvatarProxy(proxy));
  app.use(vite.middlewares);
  const server = await new Promise<import('node:http').Server>((r) => {
    const s = app.listen(0, '127.0.0.1', () => r(s));
  });
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      await new Promise((r) => server.close(() => r(undefined)));
      server.closeAllConnections?.();
      await vite.close();
    },
  };
}
