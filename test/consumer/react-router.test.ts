import { mkdirSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { inboundStatsScript } from '../browser/harness';
import { requireApp, run, serve } from './helpers';
import { createRoom, endRooms, freePort, openWidget, playAvatar, proxyEnv, signIn, useServedStack, withServer } from './play';

/**
 * A React Router framework-mode app from the installed tarball: the proxy as a resource route on createAvatarHandler
 * (docs/proxy.md's recipe: a login, and the signed-in user as the client's identity), the widget page, and the
 * custom hooks UI of docs/core.md. prepare.mjs copies both from the docs, so the docs' examples are what runs here.
 * Built and served by react-router-serve, and served by react-router dev.
 */
describe('React Router framework mode', () => {
  const dir = requireApp('react-router');
  const stack = useServedStack();
  beforeAll(() => signIn(stack.context, 'alice'));

  /**
   * What a client can and cannot do to the limits through the recipe, on a platform that gives a route no client
   * address: every create forges `X-Forwarded-For` and `X-Real-IP`, which must choose nothing.
   */
  async function checkIdentity(base: string, output: () => string) {
    const api = `${base}/api/avatar`;
    // Not signed in: refused (there is nothing else to count the visitor by), and no misconfiguration is reported.
    const anonymous = await createRoom(api, { spoof: '203.0.113.9' });
    expect(anonymous).toEqual({ status: 403, body: { detail: expect.stringMatching(/^Sign in/) } });
    expect(output()).not.toMatch(/cannot tell clients apart/);
    // Alice forges another address on every create: her limit (3 sessions at once) still counts her.
    const alice: number[] = [];
    for (let i = 1; i <= 4; i++) alice.push((await createRoom(api, { user: 'alice', spoof: `203.0.113.${i}` })).status);
    expect(alice).toEqual([201, 201, 201, 429]);
    // Bob, forging one of Alice's addresses, has limits of his own.
    expect((await createRoom(api, { user: 'bob', spoof: '203.0.113.1' })).status).toBe(201);
    await endRooms();

    // A handler given no way to tell clients apart: 503 {detail} on every create, never a 500, and one log line.
    const none: number[] = [];
    for (let i = 1; i <= 3; i++) {
      const r = await createRoom(`${base}/api/no-identity`, { spoof: `203.0.113.${i}` });
      none.push(r.status);
      expect(r.body).toEqual({ detail: expect.stringMatching(/cannot tell its visitors apart/) });
    }
    expect(none).toEqual([503, 503, 503]);
    expect(output().match(/cannot tell clients apart/g), output()).toHaveLength(1);
    expect(output()).toMatch(/set clientKey/);
    expect(output()).not.toMatch(/Internal error/);
  }

  it('typechecks with skipLibCheck: false (react-router typegen, tsc)', async () => {
    const gen = await run('node_modules/.bin/react-router', ['typegen'], { cwd: dir });
    expect(gen.code, gen.stdout + gen.stderr).toBe(0);
    const r = await run('node_modules/.bin/tsc', ['--noEmit', '-p', '.'], { cwd: dir });
    expect(r.code, r.stdout + r.stderr).toBe(0);
  });

  it('react-router build passes', async () => {
    const r = await run('node_modules/.bin/react-router', ['build'], { cwd: dir });
    expect(r.code, r.stdout + r.stderr).toBe(0);
  });

  it('react-router-serve: each user has own limits, the widget page and the docs hooks UI play', { retry: 1 }, async () => {
    const port = await freePort();
    const start = () =>
      serve('node_modules/.bin/react-router-serve', ['./build/server/index.js'], {
        cwd: dir,
        env: { ...proxyEnv(stack.emulator.url), PORT: String(port), HOST: '127.0.0.1', NODE_ENV: 'production' },
        ready: /react-router-serve\]? *(http:\/\/\S+)/,
      });
    await withServer(start, async (server, step) => {
      const base = `http://127.0.0.1:${port}`;
      await step('the resource route', 30_000, async () => {
        const api = await fetch(`${base}/api/avatar/sessions/abc`, { headers: { cookie: 'user=alice' } });
        expect(api.status).toBe(401);
        expect(await api.json()).toEqual({ detail: expect.any(String) });
      });
      await step('client identity', 60_000, () => checkIdentity(base, server.output));

      const { page, pageErrors } = await step('the widget page', 90_000, () => openWidget(stack.context, `${base}/`));
      // The server-rendered Start button shows before React has hydrated the page; the page marks hydration.
      await page.waitForFunction(() => (window as unknown as { __liveai?: unknown }).__liveai !== undefined, null, { timeout: 60_000 });
      await step('a call with the local avatar', 240_000, () => playAvatar(page, 'react-router-widget'));
      expect(pageErrors).toEqual([]);
      await page.close();

      await step('the hooks UI of docs/core.md', 240_000, async () => {
        const hooks = await stack.context.newPage();
        const errors: string[] = [];
        hooks.on('pageerror', (e) => errors.push(String(e)));
        await hooks.goto(`${base}/hooks`);
        await hooks.getByText('Phase: idle').waitFor({ timeout: 60_000 });
        await hooks.waitForFunction(() => (window as unknown as { __hydrated?: boolean }).__hydrated === true, null, { timeout: 60_000 });
        await hooks.getByRole('button', { name: 'Start', exact: true }).click();
        await hooks.getByText('Phase: active').waitFor({ timeout: 90_000 });
        // The docs' <video> shows the avatar: decoded 368×560 frames.
        await expect
          .poll(() => hooks.evaluate(inboundStatsScript).then((s) => s.framesDecoded), { timeout: 60_000, interval: 250 })
          .toBeGreaterThanOrEqual(25);
        await expect.poll(() => hooks.locator('video').evaluate((v: HTMLVideoElement) => v.videoWidth), { timeout: 30_000 }).toBe(368);
        await hooks.getByLabel('Message').fill('Hello there');
        await hooks.getByRole('button', { name: 'Send' }).click();
        const transcript = hooks.getByRole('list', { name: 'Transcript' });
        await transcript.getByText('You: Hello there').waitFor({ timeout: 30_000 });
        await transcript
          .getByText(/^Avatar: /)
          .first()
          .waitFor({ timeout: 30_000 });
        await expect.poll(() => hooks.getByLabel('Events').textContent()).toMatch(/user_transcription.*agent_transcription/);
        mkdirSync('test-results/consumer', { recursive: true });
        await hooks.screenshot({ path: 'test-results/consumer/react-router-hooks.png', fullPage: true });
        await hooks.getByRole('button', { name: 'End', exact: true }).click();
        await hooks.getByText('Phase: ended').waitFor({ timeout: 30_000 });
        expect(await hooks.getByRole('alert').count()).toBe(0);
        expect(errors).toEqual([]);
        await hooks.close();
      });
    });
  });

  // Issue 39.4: the Arabic hooks page of docs/core.md ("Translated hooks UI"), as the docs give it.
  it('react-router-serve: the Arabic hooks UI of docs/core.md plays, right to left', { retry: 1 }, async () => {
    const port = await freePort();
    const start = () =>
      serve('node_modules/.bin/react-router-serve', ['./build/server/index.js'], {
        cwd: dir,
        env: { ...proxyEnv(stack.emulator.url), PORT: String(port), HOST: '127.0.0.1', NODE_ENV: 'production' },
        ready: /react-router-serve\]? *(http:\/\/\S+)/,
      });
    await withServer(start, async (_server, step) => {
      const page = await stack.context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      await step('the page, before a call', 60_000, async () => {
        await page.goto(`http://127.0.0.1:${port}/hooks-ar`);
        await page.waitForFunction(() => (window as unknown as { __hydrated?: boolean }).__hydrated === true, null, { timeout: 60_000 });
        const root = page.locator('section[dir="rtl"][lang="ar"]');
        await root.waitFor();
        // The agent's picture before a call is the app's own; "Default" is the first microphone option, value ''.
        expect(await root.locator('img').getAttribute('src')).toMatch(/^data:image\/svg\+xml/);
        expect(
          await root
            .locator('select option')
            .first()
            .evaluate((o: HTMLOptionElement) => [o.value, o.textContent]),
        ).toEqual(['', 'الافتراضي']);
      });
      await step('a call in Arabic', 240_000, async () => {
        await page.getByRole('button', { name: 'ابدأ المكالمة' }).click();
        await page.getByRole('button', { name: 'إنهاء' }).waitFor({ timeout: 90_000 });
        await expect
          .poll(() => page.evaluate(inboundStatsScript).then((s) => s.framesDecoded), { timeout: 90_000, interval: 250 })
          .toBeGreaterThanOrEqual(25);
        await expect.poll(() => page.locator('video').evaluate((v: HTMLVideoElement) => v.videoWidth), { timeout: 30_000 }).toBe(368);
        // The quality sentence of describeConnection, in Arabic.
        await page.getByText(/^الاتصال /).waitFor({ timeout: 30_000 });
        mkdirSync('test-results/consumer', { recursive: true });
        await page.screenshot({ path: 'test-results/consumer/react-router-hooks-ar.png', fullPage: true });
        await page.getByRole('button', { name: 'إنهاء' }).click();
        // The cost sentence, with the credits phrase formatted for Arabic.
        await page.getByText(/^استهلكت هذه المكالمة /).waitFor({ timeout: 30_000 });
        expect(await page.getByRole('alert').count()).toBe(0);
        expect(errors).toEqual([]);
      });
      await page.close();
    });
  });

  it('react-router dev: each user has own limits; a handler with no identity says so once', { retry: 1 }, async () => {
    const port = await freePort();
    const start = () =>
      serve('node_modules/.bin/react-router', ['dev', '--host', '127.0.0.1', '--port', String(port), '--strictPort'], {
        cwd: dir,
        env: { ...proxyEnv(stack.emulator.url), NO_COLOR: '1' },
        ready: /Local:\s+(http:\/\/\S+)/,
      });
    await withServer(start, async (server, step) => {
      const base = `http://127.0.0.1:${port}`;
      // Vite compiles a route on its first request.
      await step('client identity', 180_000, () => checkIdentity(base, server.output));
    });
  });
});
