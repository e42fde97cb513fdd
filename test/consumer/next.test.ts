import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireApp, run, serve } from './helpers';
import {
  createRoom,
  endRooms,
  freePort,
  openWidget,
  playAvatar,
  probe,
  proxyEnv,
  signIn,
  startReverseProxy,
  useServedStack,
  withServer,
} from './play';

/**
 * A Next.js App Router app (widget page, hooks-only page, route handler on createAvatarHandler) built from the
 * installed tarball with webpack and with Turbopack, once with ONLY livekit-client installed and once with ONLY
 * @daily-co/daily-js. Each build is served with `next start`; the LiveKit build plays the local avatar. The route
 * handler follows docs/proxy.md's recipes for a self-hosted `next start`: the signed-in user (a cookie here) is the
 * client's identity, and an anonymous visitor's address is read only behind a reverse proxy.
 */
const sizes: Record<string, number> = {};
const stack = useServedStack();
beforeAll(() => signIn(stack.context, 'alice'));
afterAll(() => {
  mkdirSync('test-results/consumer', { recursive: true });
  writeFileSync('test-results/consumer/next-first-load.json', `${JSON.stringify(sizes, null, 2)}\n`);
});

const build = (dir: string, bundler: string) =>
  run('node_modules/.bin/next', ['build', ...(bundler === 'webpack' ? ['--webpack'] : ['--turbopack'])], {
    cwd: dir,
    env: { NEXT_DIST_DIR: `.next-${bundler}` },
  });
const nextStart =
  (dir: string, bundler: string, port: number, env: Record<string, string> = {}) =>
  () =>
    serve('node_modules/.bin/next', ['start', '-p', String(port), '-H', '127.0.0.1'], {
      cwd: dir,
      env: { NEXT_DIST_DIR: `.next-${bundler}`, ...proxyEnv(stack.emulator.url), ...env },
      ready: /Ready in|started server/i,
    });

describe.each([
  { app: 'next-livekit', sdk: 'livekit-client' },
  { app: 'next-daily', sdk: '@daily-co/daily-js' },
])('Next.js with only $sdk installed', ({ app }) => {
  const dir = requireApp(app);

  // Next.js's own declarations do not pass `skipLibCheck: false` (they use URLPattern, which TypeScript's lib lacks),
  // so its build keeps skipLibCheck on; every file of the app that uses liveai-kit is checked with it off.
  it('the files that use liveai-kit typecheck with skipLibCheck: false (tsc)', async () => {
    const r = await run('node_modules/.bin/tsc', ['--noEmit', '-p', 'tsconfig.liveai.json'], { cwd: dir });
    expect(r.code, r.stdout + r.stderr).toBe(0);
  });

  describe.each(['webpack', 'turbopack'])('%s', (bundler) => {
    it('next build passes', async () => {
      const r = await build(dir, bundler);
      expect(r.code, r.stdout + r.stderr).toBe(0);
      expect(r.stdout + r.stderr).not.toMatch(/Module not found|Can't resolve/);
    });

    // One retry: a step of a third-party server that hangs on a loaded machine (seen once in CI) fails with its name
    // in the log, and a second `next start` on a fresh port decides.
    it('serves the widget page, the hooks page and the route handler', { retry: 1 }, async () => {
      const port = await freePort();
      const base = `http://127.0.0.1:${port}`;
      await withServer(nextStart(dir, bundler, port), async (_server, step) => {
        await step('the hooks page', 60_000, async () => {
          const hooks = await stack.context.newPage();
          await hooks.goto(`${base}/hooks`);
          await expect.poll(() => hooks.getByText('phase: idle').count(), { timeout: 30_000 }).toBe(1);
          await hooks.close();
        });

        await step('the route handler', 30_000, async () => {
          const api = await fetch(`${base}/api/avatar/sessions/abc`);
          expect(api.status).toBe(401);
          expect(await api.json()).toEqual({ detail: expect.any(String) });
        });

        const { page, firstLoadGzip, pageErrors } = await step('the widget page', 90_000, () => openWidget(stack.context, `${base}/`));
        sizes[`${app} ${bundler}`] = firstLoadGzip;
        if (app === 'next-livekit') {
          await step('a call with the local avatar', 240_000, () => playAvatar(page, `${app}-${bundler}`));
        } else {
          // The local service's rooms are LiveKit rooms: this page registered only Daily, so the widget reports
          // exactly what to install and import.
          await step('the missing-transport error', 90_000, async () => {
            await page.getByRole('button', { name: 'Start call' }).click();
            await page.waitForFunction(() => (window as unknown as { __liveai: { errors: unknown[] } }).__liveai.errors.length > 0, null, {
              timeout: 60_000,
            });
            const { errors } = await probe(page);
            expect(errors[0]).toMatchObject({ code: 'missing_peer' });
            expect(errors[0]!.detail).toMatch(/npm i livekit-client.*import 'liveai-kit\/livekit';/);
          });
        }
        expect(pageErrors).toEqual([]);
        await step('closing the page', 30_000, () => page.close());
      });
    });
  });
});

/**
 * Client identity of a self-hosted `next start` (the webpack build with livekit-client), which hands a route handler
 * no client address and passes a client's own `X-Forwarded-For` and `X-Real-IP` through unchanged. Every create
 * forges both; the limit that shows it is 3 sessions at once per client.
 */
describe('self-hosted next start: the client identity of the per-client limits', () => {
  const dir = requireApp('next-livekit');
  beforeAll(async () => {
    if (existsSync(join(dir, '.next-webpack/BUILD_ID'))) return;
    const r = await build(dir, 'webpack');
    expect(r.code, r.stdout + r.stderr).toBe(0);
  });

  it('facing clients directly, a forged X-Forwarded-For or X-Real-IP chooses no bucket', { retry: 1 }, async () => {
    const port = await freePort();
    await withServer(nextStart(dir, 'webpack', port), async (server, step) => {
      const api = `http://127.0.0.1:${port}/api/avatar`;
      await step('forged headers', 120_000, async () => {
        // Anonymous visitors: nothing identifies them, so their creates are refused (403, sign in; one warning line).
        const anonymous: number[] = [];
        for (let i = 1; i <= 6; i++) anonymous.push((await createRoom(api, { spoof: `203.0.113.${i}` })).status);
        expect(anonymous).toEqual([403, 403, 403, 403, 403, 403]);
        expect(server.output().match(/a visitor without a user/g), server.output()).toHaveLength(1);
        // A signed-in user forging six addresses is still one client.
        const alice: number[] = [];
        for (let i = 1; i <= 6; i++) alice.push((await createRoom(api, { user: 'alice', spoof: `203.0.113.${i}` })).status);
        expect(alice).toEqual([201, 201, 201, 429, 429, 429]);
        expect((await createRoom(api, { user: 'bob', spoof: '203.0.113.1' })).status).toBe(201);
        await endRooms();
        expect(server.output()).not.toMatch(/Internal error|cannot tell clients apart/);
      });
    });
  });

  it('behind one reverse proxy that appends the client address, trustProxy: 1 gives each client its own bucket', { retry: 1 }, async () => {
    const port = await freePort();
    await withServer(nextStart(dir, 'webpack', port, { TRUSTED_PROXIES: '1' }), async (server, step) => {
      const front = await startReverseProxy(`http://127.0.0.1:${port}`);
      try {
        const api = `${front.url}/api/avatar`;
        await step('two clients behind the proxy', 120_000, async () => {
          // Two machines (two loopback addresses); the first forges a fresh leftmost X-Forwarded-For every time.
          const first: number[] = [];
          for (let i = 1; i <= 6; i++) first.push((await createRoom(api, { from: '127.0.0.2', spoof: `203.0.113.${i}` })).status);
          expect(first).toEqual([201, 201, 201, 429, 429, 429]);
          // The second, forging the first one's address, is counted on its own.
          expect((await createRoom(api, { from: '127.0.0.3', spoof: '127.0.0.2' })).status).toBe(201);
          expect((await createRoom(api, { from: '127.0.0.3' })).status).toBe(201);
          await endRooms();
          expect(server.output()).not.toMatch(/cannot tell clients apart|Internal error/);
        });
      } finally {
        await front.close();
      }
    });
  });
});
