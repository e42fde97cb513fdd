import { describe, expect, it } from 'vitest';
import { requireApp, run, serve } from './helpers';
import { createRoom, endRooms, freePort, proxyEnv, useServedStack, withServer } from './play';

/**
 * Hono on Node (@hono/node-server) with the companion proxy on createAvatarHandler, from the installed tarball with
 * no optional package installed: it typechecks with `skipLibCheck: false`, and a room is created, read and ended
 * through it, the per-client limits seeing the TCP peer's address that Hono hands over.
 */
describe('Hono on Node', () => {
  const dir = requireApp('hono');
  const stack = useServedStack({ browser: false });

  it('typechecks with skipLibCheck: false and compiles (tsc)', async () => {
    const r = await run('node_modules/.bin/tsc', ['-p', '.'], { cwd: dir });
    expect(r.code, r.stdout + r.stderr).toBe(0);
  });

  it('creates a room, reads its session and ends it; each client address has its own limits', async () => {
    const port = await freePort();
    const start = () =>
      serve(process.execPath, ['dist/server.js'], {
        cwd: dir,
        env: { ...proxyEnv(stack.emulator.url), PORT: String(port) },
        ready: /listening on (http:\/\/\S+)/,
      });
    await withServer(start, async (server, step) => {
      const base = `${server.url}/api/avatar`;
      await step('a room through the proxy', 60_000, async () => {
        const created = await fetch(`${base}/rooms`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ agent_id: 'agent-demo' }),
        });
        const room = (await created.json()) as { session_id: string; client_token: string; room_url: string };
        expect(created.status, JSON.stringify(room)).toBe(201);
        expect(room).toMatchObject({ session_id: expect.any(String), client_token: expect.any(String), room_url: expect.any(String) });
        const auth = { authorization: `Bearer ${room.client_token}` };
        const status = await fetch(`${base}/sessions/${room.session_id}`, { headers: auth });
        expect(status.status).toBe(200);
        const ended = await fetch(`${base}/sessions/${room.session_id}/end`, { method: 'POST', headers: auth });
        expect(ended.status).toBeLessThan(300);
        const unknown = await fetch(`${base}/sessions/abc`);
        expect(unknown.status).toBe(401);
        expect(await unknown.json()).toEqual({ detail: expect.any(String) });
      });

      await step('two clients, one forging its address', 60_000, async () => {
        // The socket's address counts (3 sessions at once): a forged X-Forwarded-For / X-Real-IP chooses nothing.
        const first: number[] = [];
        for (let i = 1; i <= 4; i++) first.push((await createRoom(base, { from: '127.0.0.2', spoof: `203.0.113.${i}` })).status);
        expect(first).toEqual([201, 201, 201, 429]);
        expect((await createRoom(base, { from: '127.0.0.3', spoof: '127.0.0.2' })).status).toBe(201);
        await endRooms();
      });
      expect(server.output()).not.toMatch(/error/i);
    });
  });
});
