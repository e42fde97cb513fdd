import { mkdirSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext } from 'playwright-core';
import { launchBrowser } from '../browser/harness';
import { requireApp, run, serve, within, type Served } from './helpers';
import { openWidget, playAvatar, proxyEnv, startEmulator } from './play';

/** A Vite + React app from the installed tarball, served by Express with createAvatarProxy; the widget plays. */
let emulator: Served;
let browser: Browser;
let context: BrowserContext;
beforeAll(async () => {
  emulator = await startEmulator();
  ({ browser, context } = await launchBrowser());
});
afterAll(async () => {
  await browser?.close();
  await emulator?.stop();
});

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
  it('served with the Express proxy, the widget plays the local avatar', { retry: 1 }, async () => {
    const server = await serve(process.execPath, ['server.mjs'], {
      cwd: dir,
      env: proxyEnv(emulator.url),
      ready: /listening on (http:\/\/\S+)/,
    });
    try {
      const { page, firstLoadGzip, pageErrors } = await within(
        'the widget page',
        90_000,
        () => openWidget(context, `${server.url}/`),
        server.output,
      );
      mkdirSync('test-results/consumer', { recursive: true });
      writeFileSync('test-results/consumer/vite-first-load.json', `${JSON.stringify({ vite: firstLoadGzip })}\n`);
      console.log(`Vite first load (gzip bytes of JS+CSS before the widget is ready): ${firstLoadGzip}`);
      await within('a call with the local avatar', 240_000, () => playAvatar(page, 'vite'), server.output);
      expect(pageErrors).toEqual([]);
    } finally {
      await server.stop();
    }
  });
});
