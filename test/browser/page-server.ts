import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { createServer as createViteServer } from 'vite';
import react from '@vitejs/plugin-react';
import { createAvatarProxy, type AvatarProxyOptions } from '../../src/server/index';
import { quietLogger } from '../setup/quiet-logger';

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
  app.use('/api/avatar', createAvatarProxy({ logger: quietLogger(), ...proxy }));
  // Server rendering: the widget of pages/ssr-widget.tsx rendered to HTML here, hydrated by its client script.
  app.get('/ssr/widget', async (req, res, next) => {
    try {
      const { renderToString } = await import('react-dom/server');
      const { createElement } = await import('react');
      const { App } = (await vite.ssrLoadModule('/test/browser/pages/ssr-widget.tsx')) as typeof import('./pages/ssr-widget');
      const theme = req.query.theme === 'dark' ? 'dark' : 'light';
      const body = renderToString(createElement(App, { theme }));
      const html = await vite.transformIndexHtml(
        req.originalUrl,
        `<!doctype html><html lang="en"><head><meta charset="utf-8" /><meta name="viewport" content="width=device-width, initial-scale=1" />` +
          `<title>liveai-kit widget, server-rendered</title></head><body style="margin: 0; padding: 16px; font-family: system-ui, sans-serif">` +
          `<main id="root">${body}</main><script type="module" src="/test/browser/pages/ssr-widget.client.tsx"></script></body></html>`,
      );
      res.type('html').send(html);
    } catch (e) {
      next(e);
    }
  });
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
