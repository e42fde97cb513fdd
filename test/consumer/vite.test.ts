import { mkdirSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { requireApp, run, serve } from './helpers';
import { createRoom, endRooms, openWidget, playAvatar, proxyEnv, useServedStack, withServer } from './play';

/** A Vite + React app from the installed tarball, served by Express with createAvatarProxy; the widget plays. */
const stack = useServedStack();

describe('Vite React app (installed tarball, only livekit-client)', () => {
  const dir = requireApp('vite');

  it('typechecks with skipLibCheck: false (tsc)', async () => {
    const r = await run('node_modules/.bin/tsc', ['-p', '.'], { cwd: dir });
    expect(r.code, r.stdout + r.stderr).toBe(0);
  });

  it('vite build passes', async () => {
    const r = await run('node_modules/.bin/vite', ['build'], { cwd: dir });
    expect(r.code, r.stdout + r.stderr).toBe(0);
  });

  // One retry, as for the Next.js apps: a hung step is named in the log, and a fresh server decides.
  it('served with the Express proxy, the widget plays the local avatar; each client address has its own limits', { retry: 1 }, async () => {
    const start = () =>
      serve(process.execPath, ['server.mjs'], { cwd: dir, env: proxyEnv(stack.emulator.url), ready: /listening on (http:\/\/\S+)/ });
    await withServer(start, async (server, step) => {
      const { page, firstLoadGzip, pageErrors } = await step('the widget page', 90_000, () => openWidget(stack.context, `${server.url}/`));
      mkdirSync('test-results/consumer', { recursive: true });
      writeFileSync('test-results/consumer/vite-first-load.json', `${JSON.stringify({ vite: firstLoadGzip })}\n`);
      await step('a call with the local avatar', 240_000, () => playAvatar(page, 'vite'));
      expect(pageErrors).toEqual([]);

      await step('two clients, one forging its address', 60_000, async () => {
        // Express hands the proxy the socket: a forged X-Forwarded-For / X-Real-IP chooses no bucket (3 at once).
        const api = `${server.url}/api/avatar`;
        const first: number[] = [];
        for (let i = 1; i <= 4; i++) first.push((await createRoom(api, { from: '127.0.0.2', spoof: `203.0.113.${i}` })).status);
        expect(first).toEqual([201, 201, 201, 429]);
        expect((await createRoom(api, { from: '127.0.0.3', spoof: '127.0.0.2' })).status).toBe(201);
        await endRooms();
      });
    });
  });
});
