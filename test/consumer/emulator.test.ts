import { describe, expect, it } from 'vitest';
import { requireApp, run, serve } from './helpers';
import { livekitArgs } from './play';

/** `npx liveai-emulator` from its installed tarball, nothing else installed by hand. */
describe('npx liveai-emulator (installed tarball)', () => {
  const dir = requireApp('emulator');
  const npx = (args: string[]) =>
    serve('npx', ['--no', '--', 'liveai-emulator', '--port', '0', ...args], { cwd: dir, ready: /listening on (http:\/\/\S+)/ });

  it('answers the service interface; with no LiveKit server it says how to start one and runs with media off', async () => {
    const emu = await npx(['--livekit-url', 'ws://127.0.0.1:9']);
    try {
      expect(emu.output()).toMatch(/no LiveKit server answers at ws:\/\/127\.0\.0\.1:9/);
      expect(emu.output()).toMatch(/livekit-server --dev/);
      expect(emu.output()).toMatch(/^media off$/m);
      const post = await fetch(`${emu.url}/liveai/rooms`, {
        method: 'POST',
        headers: { 'x-api-key': 'dev-key-alice', 'content-type': 'application/json' },
        body: JSON.stringify({ agent_id: 'agent-demo' }),
      });
      expect(post.status).toBe(201);
      const room = (await post.json()) as { session_id: string; room_url: string; token: string };
      expect(room).toMatchObject({ session_id: expect.any(String), room_url: expect.any(String), token: expect.any(String) });
      const get = await fetch(`${emu.url}/liveai/sessions/${room.session_id}`, { headers: { 'x-api-key': 'dev-key-alice' } });
      expect(get.status).toBe(200);
      const bad = await fetch(`${emu.url}/liveai/rooms`, {
        method: 'POST',
        headers: { 'x-api-key': 'nope', 'content-type': 'application/json' },
        body: '{}',
      });
      expect(bad.status).toBe(401);
      expect(await bad.json()).toEqual({ detail: expect.any(String) });
      const openapi = (await (await fetch(`${emu.url}/openapi.json`)).json()) as { openapi: string };
      expect(openapi.openapi).toMatch(/^3\.1/);
    } finally {
      await emu.stop();
    }
  });

  it('an explicit --media on without a LiveKit server exits 1 with the same help', async () => {
    const r = await run('npx', ['--no', '--', 'liveai-emulator', '--port', '0', '--media', 'on', '--livekit-url', 'ws://127.0.0.1:9'], {
      cwd: dir,
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/cannot start with --media on: no LiveKit server answers/);
  });

  it('with the LiveKit server reachable, media is on', async () => {
    const emu = await npx(livekitArgs());
    try {
      expect(emu.output()).toMatch(/^media on$/m);
    } finally {
      await emu.stop();
    }
  });
});

/** Issue 39.2: `liveai-kit/emulator` without its packages, then with the `liveai-emulator` package next to it. */
describe('liveai-kit/emulator from the installed tarball', () => {
  const importEmulator = `
    const { createEmulator } = await import('liveai-kit/emulator');
    const emu = await createEmulator({ port: 0, media: false });
    console.log('emulator at ' + emu.url);
    await emu.close();
  `;

  it('without its packages, importing it names every missing one and the install command', async () => {
    const r = await run(process.execPath, ['--input-type=module', '-e', importEmulator], { cwd: requireApp('server-bare') });
    expect(r.code).not.toBe(0);
    expect(r.stderr).not.toMatch(/ERR_MODULE_NOT_FOUND/);
    expect(r.stderr).toMatch(/missing_peer: liveai-kit\/emulator needs packages that are not installed: express \(the HTTP server\)/);
    expect(r.stderr).toContain('npm install -D express multer ws sharp livekit-server-sdk @livekit/rtc-node');
  });

  it('with liveai-emulator installed too: npx liveai-emulator runs, and liveai-kit/emulator imports', async () => {
    const dir = requireApp('emulator-kit');
    const emu = await serve('npx', ['--no', '--', 'liveai-emulator', '--port', '0', '--media', 'off'], {
      cwd: dir,
      ready: /listening on (http:\/\/\S+)/,
    });
    try {
      const rooms = await fetch(`${emu.url}/liveai/rooms`, {
        method: 'POST',
        headers: { 'x-api-key': 'dev-key-alice', 'content-type': 'application/json' },
        body: JSON.stringify({ agent_id: 'agent-demo' }),
      });
      expect(rooms.status).toBe(201);
    } finally {
      await emu.stop();
    }
    const r = await run(process.execPath, ['--input-type=module', '-e', importEmulator], { cwd: dir });
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^emulator at http:\/\/127\.0\.0\.1:\d+$/m);
    expect(r.code).toBe(0);
  });
});
