import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import react from '@vitejs/plugin-react';
import { createServer as createViteServer, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
// @ts-expect-error -- plain ESM script without types
import { startLivekit, LIVEKIT_KEYS } from '../../scripts/livekit.mjs';
import { createEmulator } from '../../src/emulator/index';
import { createAvatarProxy } from '../../src/server/index';
import { API_KEY, inboundStatsScript, launchBrowser, ROOT, SESSION_SECRET } from './harness';

/**
 * Issue 7, LiveKit restart: the LiveKit server is restarted in the middle of a call; the widget reconnects,
 * video frames and service events flow again. Uses its OWN LiveKit (port 7890, rtc 7891/7892) and emulator,
 * so the suite's shared server is not disturbed.
 */
type Lk = { url: string; process: import('node:child_process').ChildProcess; stop(): Promise<void> };
type Probe = { phases: string[]; sessionIds: string[]; events: string[]; errors: { code: string; detail: string }[] };
const probe = (page: Page) => page.evaluate(() => (window as unknown as { __rel: Probe }).__rel);
const LK = { port: 7890, rtcTcpPort: 7891, rtcUdpPort: 7892 };

let lk: Lk;
let emulator: Awaited<ReturnType<typeof createEmulator>>;
let vite: ViteDevServer;
let server: Server;
let baseUrl = '';
let browser: Browser;
let context: BrowserContext;

beforeAll(async () => {
  lk = (await startLivekit(LK)) as Lk;
  const livekit = { url: lk.url, ...(LIVEKIT_KEYS as { apiKey: string; apiSecret: string }) };
  emulator = await createEmulator({ port: 0, media: true, queueMs: 300, livekit });
  vite = await createViteServer({ root: ROOT, configFile: false, plugins: [react()], server: { middlewareMode: true, hmr: false }, appType: 'mpa', logLevel: 'error' });
  const app = express();
  app.use('/api/avatar', createAvatarProxy({ upstream: { baseUrl: emulator.url, apiKey: API_KEY }, sessionSecret: SESSION_SECRET, livekit }));
  app.use(vite.middlewares);
  server = await new Promise<Server>((r) => {
    const s = app.listen(0, '127.0.0.1', () => r(s));
  });
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  ({ browser, context } = await launchBrowser());
});
afterAll(async () => {
  await browser?.close();
  await new Promise((r) => (server ? server.close(() => r(undefined)) : r(undefined)));
  server?.closeAllConnections();
  await vite?.close();
  await emulator?.close();
  await lk?.stop();
});

/** True once the page decodes video again: at least 10 new frames within a 1 s window. */
async function videoFlowing(page: Page): Promise<boolean> {
  const a = (await page.evaluate(inboundStatsScript)).framesDecoded;
  await page.waitForTimeout(1000);
  const b = (await page.evaluate(inboundStatsScript)).framesDecoded;
  return b - a >= 10;
}

/** Sends a chat message from the widget and waits for the avatar's answer (an agent_transcription event). */
async function chatRoundTrip(page: Page, text: string, timeout = 30_000) {
  const before = (await probe(page)).events.filter((e) => e === 'agent_transcription').length;
  const chat = page.getByRole('textbox', { name: 'Message' });
  await chat.fill(text);
  await chat.press('Enter');
  await expect
    .poll(async () => (await probe(page)).events.filter((e) => e === 'agent_transcription').length, { timeout, interval: 200 })
    .toBeGreaterThan(before);
}

/** Opens the widget, starts a call and waits for video and a chat round trip. Returns the page and session id. */
async function liveCall(): Promise<{ page: Page; sessionId: string }> {
  const page = await context.newPage();
  await page.goto(`${baseUrl}/test/reliability/pages/widget.html`);
  await page.getByRole('button', { name: 'Start call' }).click();
  await page.waitForFunction(() => (window as unknown as { __rel: Probe }).__rel.phases.includes('active'), null, { timeout: 60_000 });
  await expect.poll(() => videoFlowing(page), { timeout: 60_000, interval: 100 }).toBe(true);
  await chatRoundTrip(page, 'Before the restart');
  const [sessionId] = (await probe(page)).sessionIds;
  return { page, sessionId: sessionId! };
}

/** Restarts our LiveKit server: `crash` = SIGKILL (no goodbye to clients), `graceful` = SIGINT (SERVER_SHUTDOWN). */
async function restartLivekit(mode: 'crash' | 'graceful') {
  if (mode === 'crash') {
    const dead = new Promise((r) => lk.process.once('exit', r));
    lk.process.kill('SIGKILL');
    await dead;
  } else await lk.stop();
  lk = (await startLivekit(LK)) as Lk;
}

const diagnostics = async (page: Page, sessionId: string) => {
  const p = await probe(page);
  const emu = emulator.state.session(sessionId);
  return JSON.stringify({ phases: p.phases, errors: p.errors, pageEvents: p.events.slice(-5), status: emu?.session_status, endReason: emu?.end_reason, serviceEvents: emulator.state.events(sessionId).slice(-3) });
};

describe('LiveKit restart mid-call (issue 7)', () => {
  it('crash and restart: the widget reconnects, video and events resume, the same session goes on', async () => {
    const { page, sessionId } = await liveCall();
    await restartLivekit('crash');
    try {
      await expect.poll(() => videoFlowing(page), { timeout: 60_000, interval: 250 }).toBe(true);
      // Known gap: the first data message right after the reconnection can be lost; the second must get through.
      await chatRoundTrip(page, 'After the restart', 10_000).catch(() => chatRoundTrip(page, 'After the restart, again', 20_000));
    } catch (e) {
      console.error('after restart:', await diagnostics(page, sessionId));
      throw e;
    }
    const p = await probe(page);
    expect(p.phases.at(-1)).toBe('active');
    expect(p.errors).toEqual([]);
    expect(p.sessionIds).toEqual([sessionId]); // the same paid session, not a new one
    expect(emulator.state.session(sessionId)?.session_status).toBe('ACTIVE');

    await page.getByRole('button', { name: /^End/ }).click();
    await expect.poll(() => emulator.state.session(sessionId)?.session_status, { timeout: 30_000 }).toBe('COMPLETED');
    await page.close();
  });

  it('graceful restart (SERVER_SHUTDOWN): the call resumes, or the user sees a typed error and the session ends unbilled', async () => {
    const { page, sessionId } = await liveCall();
    await restartLivekit('graceful');
    const outcome = await page.waitForFunction(
      () => ((window as unknown as { __rel: Probe }).__rel.phases.at(-1) === 'error' ? 'error' : false),
      null,
      { timeout: 20_000, polling: 200 },
    ).then(() => 'error' as const, () => 'still active' as const);
    console.info(`graceful LiveKit restart: ${outcome}; ${await diagnostics(page, sessionId)}`);
    if (outcome === 'error') {
      // Today's behaviour: neither the browser nor the avatar rejoin after SERVER_SHUTDOWN.
      // Whichever the widget noticed first: the lost room, or the service's FAILED status.
      await expect.poll(() => page.getByRole('alert').innerText()).toMatch(/^(Could not connect to the call|The avatar service had a problem)/);
      for (const e of (await probe(page)).errors) expect(['transport_failed', 'upstream_error']).toContain(e.code);
      await expect.poll(() => emulator.state.session(sessionId)?.session_status, { timeout: 30_000 }).toMatch(/^(FAILED|COMPLETED)$/);
      if (emulator.state.session(sessionId)?.session_status === 'FAILED') expect(emulator.state.session(sessionId)?.cost ?? 0).toBe(0);
    } else {
      await expect.poll(() => videoFlowing(page), { timeout: 60_000, interval: 250 }).toBe(true);
      await chatRoundTrip(page, 'After the graceful restart', 10_000).catch(() => chatRoundTrip(page, 'After the graceful restart, again', 20_000));
      await page.getByRole('button', { name: /^End/ }).click();
      await expect.poll(() => emulator.state.session(sessionId)?.session_status, { timeout: 30_000 }).toBe('COMPLETED');
    }
    await page.close();
  });
});
