import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireApp, run, serve, type Served } from './helpers';
import { freePort, proxyEnv, startEmulator } from './play';

/**
 * Hono on Node (@hono/node-server) with the companion proxy on createAvatarHandler, from the installed tarball with
 * no optional package installed: it typechecks with `skipLibCheck: false`, and a room is created, read and ended
 * through it, the per-client limits seeing the TCP peer's address that Hono hands over.
 */
describe('Hono on Node', () => {
  const dir = requireApp('hono');
  let emulator: Served;
  beforeAll(async () => {
    emulator = await startEmulator();
  });
  afterAll(async () => {
    await emulator?.stop();
  });

  it('typechecks with skipLibCheck: false and compiles (tsc)', async () => {
    const r = await run('node_modules/.bin/tsc', ['-p', '.'], { cwd: dir });
    expect(r.code, r.stdout + r.stderr).toBe(0);
  });

  it('creates a room, reads its session and ends it through the proxy', async () => {
    const port = await freePort();
    const server = await serve(process.execPath, ['dist/server.js'], {
      cwd: dir,
      env: { ...proxyEnv(emulator.url), PORT: String(port) },
      ready: /listening on (http:\/\/\S+)/,
    });
    try {
      const base = `${server.url}/api/avatar`;
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
      expect(server.output()).not.toMatch(/error/i);
    } finally {
      await server.stop();
    }
  });
});
