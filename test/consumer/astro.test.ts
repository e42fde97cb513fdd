import { mkdirSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { requireApp, run, serve } from './helpers';
import { createRoom, freePort, openWidget, playAvatar, proxyEnv, useServedStack, withServer } from './play';

/**
 * Issue 39.7: Astro with the Node adapter from the installed tarball. The proxy is docs/frameworks.md's endpoint on
 * createAvatarHandler, handed Astro's `clientAddress`; the page is a React island with the widget. Built with
 * `astro build`, served by the adapter's standalone server; the widget plays, and each client address has its own
 * limits whatever `X-Forwarded-For` it forges.
 */
const stack = useServedStack();

describe('Astro app (installed tarball, Node adapter, React island)', () => {
  const dir = requireApp('astro');

  it('astro build passes', async () => {
    const r = await run('node_modules/.bin/astro', ['build'], { cwd: dir, env: { ASTRO_TELEMETRY_DISABLED: '1' } });
    expect(r.code, r.stdout + r.stderr).toBe(0);
  });

  it('served by the Node adapter: the widget plays; clientAddress keeps each client apart', { retry: 1 }, async () => {
    const port = await freePort();
    const start = () =>
      serve(process.execPath, ['dist/server/entry.mjs'], {
        cwd: dir,
        env: { ...proxyEnv(stack.emulator.url), HOST: '127.0.0.1', PORT: String(port), ASTRO_TELEMETRY_DISABLED: '1' },
        ready: /listening on (http:\/\/\S+)/i,
      });
    await withServer(start, async (_server, step) => {
      const base = `http://127.0.0.1:${port}`;
      const { page, firstLoadGzip, pageErrors } = await step('the widget page', 90_000, () => openWidget(stack.context, `${base}/`));
      mkdirSync('test-results/consumer', { recursive: true });
      writeFileSync('test-results/consumer/astro-first-load.json', `${JSON.stringify({ astro: firstLoadGzip })}\n`);
      // The island hydrates after the server-rendered Start button shows; the probe marks it.
      await page.waitForFunction(() => (window as unknown as { __liveai?: unknown }).__liveai !== undefined, null, { timeout: 60_000 });
      await step('a call with the local avatar', 240_000, () => playAvatar(page, 'astro'));
      expect(pageErrors).toEqual([]);

      await step('two clients, one forging its address', 60_000, async () => {
        const api = `${base}/api/avatar`;
        const rooms = [];
        for (let i = 1; i <= 4; i++) rooms.push(await createRoom(api, { from: '127.0.0.2', spoof: `203.0.113.${i}` }));
        expect(rooms.map((r) => r.status)).toEqual([201, 201, 201, 429]);
        rooms.push(await createRoom(api, { from: '127.0.0.3', spoof: '127.0.0.2' }));
        expect(rooms[4]!.status).toBe(201);
        // Astro's checkOrigin refuses a POST without content type and without the page's Origin (as a cross-site
        // form): the page's own requests carry it; so does this end, as docs/frameworks.md says.
        for (const { body } of rooms.filter((r) => r.status === 201)) {
          const end = await fetch(`${api}/sessions/${String(body.session_id)}/end`, {
            method: 'POST',
            headers: { authorization: `Bearer ${String(body.client_token)}`, origin: base },
          });
          expect(end.status).toBeLessThan(300);
        }
      });
    });
  });
});
