import { createServer } from 'node:net';
import { mkdirSync } from 'node:fs';
import { expect, inject } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { inboundStatsScript } from '../browser/harness';
import { recordFirstLoad, requireApp, serve, type Served } from './helpers';

export type Probe = { phases: string[]; errors: { code: string; detail: string }[]; lines: string[] };
const probe = (page: Page) => page.evaluate(() => (window as unknown as { __liveai: Probe }).__liveai);

/** The installed `liveai-emulator` with media on, joining the suite's LiveKit server. */
export function startEmulator(): Promise<Served> {
  return serve('npx', ['--no', '--', 'liveai-emulator', '--port', '0', '--queue-ms', '300', ...livekitArgs()], {
    cwd: requireApp('emulator'),
    ready: /listening on (http:\/\/\S+)/,
  });
}

/** Environment of the consumer apps' proxies (route handler or Express) towards the emulator and LiveKit. */
export const proxyEnv = (emulatorUrl: string): Record<string, string> => ({
  LIVEAI_UPSTREAM_URL: emulatorUrl,
  LIVEAI_API_KEY: 'dev-key-alice',
  LIVEAI_SESSION_SECRET: 'consumer-tier-session-secret-0123456789abcdef',
  LIVEKIT_URL: inject('livekitUrl'),
  LIVEKIT_API_KEY: inject('livekitApiKey'),
  LIVEKIT_API_SECRET: inject('livekitApiSecret'),
});

export const freePort = (): Promise<number> =>
  new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

/** Opens `url`, and returns the gzip size of the JS and CSS it loaded before the widget's Start button showed. */
export async function openWidget(
  context: BrowserContext,
  url: string,
): Promise<{ page: Page; firstLoadGzip: number; pageErrors: string[] }> {
  const page = await context.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  const rec = recordFirstLoad(page, new URL(url).origin);
  await page.goto(url);
  await page.getByRole('button', { name: 'Start call' }).waitFor({ timeout: 60_000 });
  const first = await rec.mark();
  return { page, firstLoadGzip: first.gzipBytes, pageErrors };
}

/** Starts a call in the widget and waits for a live talking avatar: ≥ 25 decoded 368×560 frames and audio. */
export async function playAvatar(page: Page, screenshot: string): Promise<void> {
  await page.getByRole('button', { name: 'Start call' }).click();
  await page.waitForFunction(
    () => ['active', 'error'].some((p) => (window as unknown as { __liveai: Probe }).__liveai.phases.includes(p)),
    null,
    { timeout: 90_000 },
  );
  expect((await probe(page)).errors).toEqual([]);
  await expect
    .poll(
      async () => {
        const st = await page.evaluate(inboundStatsScript);
        return st.framesDecoded >= 25 && st.totalSamplesReceived > 0;
      },
      { timeout: 60_000, interval: 250 },
    )
    .toBe(true);
  const stats = await page.evaluate(inboundStatsScript);
  expect([stats.frameWidth, stats.frameHeight]).toEqual([368, 560]);
  expect((await probe(page)).errors).toEqual([]);
  mkdirSync('test-results/consumer', { recursive: true });
  await page.screenshot({ path: `test-results/consumer/${screenshot}.png`, fullPage: true });
  await page.getByRole('button', { name: /^End/ }).click();
  await page.waitForFunction(() => (window as unknown as { __liveai: Probe }).__liveai.phases.includes('ended'), null, { timeout: 30_000 });
}

export { probe };

/** The `liveai-emulator` flags that join the suite's LiveKit server. */
export function livekitArgs(): string[] {
  return [
    '--livekit-url',
    inject('livekitUrl'),
    '--livekit-api-key',
    inject('livekitApiKey'),
    '--livekit-api-secret',
    inject('livekitApiSecret'),
  ];
}
