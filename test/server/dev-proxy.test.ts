import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type ViteDevServer } from 'vite';
import { listen, proxyApp, proxyOptions, startEmulator, type Emulator } from './helpers';

/**
 * The README's dev-proxy recipe, with Vite's own dev server in front of an Express app on createAvatarProxy: the page
 * (Origin http://localhost:<vite port>) creates a room through `server.proxy`. Without `changeOrigin` Host stays the
 * page's and the create passes; with it, Host becomes the target's, and the refusal says what to change.
 */
describe("a dev server's proxy in front of the avatar proxy (Vite server.proxy)", () => {
  let emulator: Emulator;
  let api: Awaited<ReturnType<typeof listen>>;
  const vites: ViteDevServer[] = [];
  beforeAll(async () => {
    emulator = await startEmulator(0);
    api = await listen(proxyApp(proxyOptions(emulator.url)));
  });
  afterAll(async () => {
    for (const v of vites) await v.close();
    await api?.close();
    await emulator?.close();
  });

  async function viaVite(changeOrigin: boolean) {
    const vite = await createServer({
      configFile: false,
      logLevel: 'silent',
      server: { host: '127.0.0.1', port: 0, proxy: { '/api/avatar': { target: api.url, changeOrigin } } },
    });
    vites.push(vite);
    await vite.listen();
    const { port } = vite.httpServer!.address() as AddressInfo;
    return fetch(`http://127.0.0.1:${port}/api/avatar/rooms`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: `http://127.0.0.1:${port}` },
      body: JSON.stringify({ agent_id: 'agent-demo' }),
    });
  }

  it('without changeOrigin (the recipe) the page creates its room', async () => {
    const res = await viaVite(false);
    expect(res.status).toBe(201);
  });

  it('with changeOrigin the create is refused with 403, and the detail names the cause', async () => {
    const res = await viaVite(true);
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ detail: expect.stringMatching(/allowedOrigins.*keep the Host header: no changeOrigin/) });
  });
});
