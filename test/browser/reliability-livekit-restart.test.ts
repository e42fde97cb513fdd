import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error -- plain ESM script without types
import { startLivekit, LIVEKIT_KEYS } from '../../scripts/livekit.mjs';
import { RoomServiceClient } from 'livekit-server-sdk';
import { createEmulator } from '../../src/emulator/index';
import { createSealer } from '../../src/server/session/handle';
import { launchEngine, MEDIA_ENGINES, type EngineBrowser, type TestPage as Page } from './driver';
import { API_KEY, inboundStatsScript, SESSION_SECRET, startPageServer } from './harness';
import type { WidgetProbe } from './pages/widget';

/**
 * Issue 7 (and issue 5's rtc-a reconnect), LiveKit restart: the LiveKit server is restarted in the middle of a call,
 * by a crash (SIGKILL: no goodbye, livekit-client heals it itself) or gracefully (SIGINT: LiveKit tells everyone
 * SERVER_SHUTDOWN and they must rejoin). Either way the widget reconnects on its own, video frames and service
 * events flow again, the same session goes on, no chat message is lost (not even one typed during the outage),
 * and End completes the session, in Chromium and in Firefox. Uses its OWN LiveKit (port 7890, rtc 7891/7892) and emulator, so the suite's
 * shared server is not disturbed.
 */
type Lk = { url: string; process: import('node:child_process').ChildProcess; stop(): Promise<void> };
type Probe = WidgetProbe;
const probe = (page: Page) => page.evaluate(() => (window as unknown as { __liveai: Probe }).__liveai);
const LK = { port: 7890, rtcTcpPort: 7891, rtcUdpPort: 7892 };

let lk: Lk;
let emulator: Awaited<ReturnType<typeof createEmulator>>;
let pages: Awaited<ReturnType<typeof startPageServer>> | undefined;
let baseUrl = '';
let browser: EngineBrowser;

const decoded = async (page: Page) => (await page.evaluate(inboundStatsScript)).framesDecoded;
const agentLines = async (page: Page) => (await probe(page)).events.filter((e) => e.type === 'agent_transcription').length;

/** True once the page decodes video again: at least 10 new frames within a 1 s window. */
async function videoFlowing(page: Page): Promise<boolean> {
  const a = await decoded(page);
  await new Promise((r) => setTimeout(r, 1000)); // the measuring window, not a wait for something
  return (await decoded(page)) - a >= 10;
}

/** Types `text` into the widget's chat and presses Enter (the widget clears the field once it is handed over). */
async function sendChat(page: Page, text: string) {
  const chat = page.byRole('textbox', 'Message');
  await chat.fill(text);
  await chat.press('Enter');
}

/** Sends a chat message from the widget and waits for the avatar's answer (an agent_transcription event). */
async function chatRoundTrip(page: Page, text: string, timeout = 30_000) {
  const before = await agentLines(page);
  await sendChat(page, text);
  await expect.poll(() => agentLines(page), { timeout, interval: 200 }).toBeGreaterThan(before);
}

/** Opens the widget, starts a call and waits for video and a chat round trip. Returns the page and session id. */
async function liveCall(): Promise<{ page: Page; sessionId: string; serviceId: string }> {
  const page = await browser.newPage();
  await page.goto(`${baseUrl}/test/browser/pages/widget.html`);
  await page.byRole('button', 'Start call').click();
  await page.waitForFunction(() => (window as unknown as { __liveai: Probe }).__liveai.phases.includes('active'), 60_000);
  await expect.poll(() => videoFlowing(page), { timeout: 60_000, interval: 100 }).toBe(true);
  await chatRoundTrip(page, 'Before the restart');
  const [sessionId] = (await probe(page)).sessionIds;
  // The page holds the proxy's handle; the emulator knows the session by the service's id behind it.
  const serviceId = (await createSealer(new TextEncoder().encode(SESSION_SECRET)).open(sessionId!)).sessionId;
  return { page, sessionId: sessionId!, serviceId };
}

/** Stops our LiveKit server: `crash` = SIGKILL (no goodbye to clients), `graceful` = SIGINT (SERVER_SHUTDOWN). */
async function stopLivekit(mode: 'crash' | 'graceful') {
  if (mode === 'crash') {
    const dead = new Promise((r) => lk.process.once('exit', r));
    lk.process.kill('SIGKILL');
    await dead;
  } else await lk.stop();
}

/** What the LiveKit server says each participant of each room publishes (kind and muted), for the failure dump. */
async function livekitView(): Promise<unknown> {
  const keys = LIVEKIT_KEYS as { apiKey: string; apiSecret: string };
  const svc = new RoomServiceClient(lk.url.replace(/^ws/, 'http'), keys.apiKey, keys.apiSecret);
  try {
    const rooms = await svc.listRooms();
    return await Promise.all(
      rooms.map(async (r) => ({
        room: r.name,
        participants: (await svc.listParticipants(r.name)).map((p) => ({
          identity: p.identity,
          tracks: p.tracks.map((t) => `${t.type === 1 ? 'video' : t.type === 0 ? 'audio' : t.type}${t.muted ? ' muted' : ''}`),
        })),
      })),
    );
  } catch (e) {
    return `unavailable: ${String(e)}`;
  }
}

const diagnostics = async (page: Page, serviceId: string) => {
  const p = await probe(page);
  const emu = emulator.state.session(serviceId);
  return JSON.stringify({
    livekit: await livekitView(),
    inbound: await page.evaluate(inboundStatsScript),
    phases: p.phases,
    connections: p.connections,
    errors: p.errors,
    heard: p.heard,
    pageEvents: p.events.slice(-5).map((e) => e.type),
    status: emu?.session_status,
    endReason: emu?.end_reason,
    serviceEvents: emulator.state.events(serviceId).slice(-4),
    // The page's last log lines (livekit-client's), without React's development timing lines (one word or a track name).
    console: page.consoleMessages.filter((m) => !/^([A-Z][A-Za-z]+|\w+ Track|Event: \w+|Waiting.*|Remaining Effects)$/.test(m)).slice(-80),
  });
};

/** Connection states seen since index `from` of the probe. */
const connectionsSince = async (page: Page, from: number) => (await probe(page)).connections.slice(from);

describe.each(MEDIA_ENGINES)('LiveKit restart mid-call in %s (issues 5, 7, 25)', (engine) => {
  beforeAll(async () => {
    lk = (await startLivekit(LK)) as Lk;
    const livekit = { url: lk.url, ...(LIVEKIT_KEYS as { apiKey: string; apiSecret: string }) };
    emulator = await createEmulator({ port: 0, media: true, queueMs: 300, livekit });
    pages = await startPageServer({ upstream: { baseUrl: emulator.url, apiKey: API_KEY }, sessionSecret: SESSION_SECRET, livekit });
    baseUrl = pages.baseUrl;
    browser = await launchEngine(engine);
  });
  afterAll(async () => {
    await browser?.close();
    await pages?.close();
    await emulator?.close();
    await lk?.stop();
  });

  for (const mode of ['crash', 'graceful'] as const) {
    it(`${mode} restart: the widget reconnects, video and events resume, the same session goes on, no chat is lost`, async () => {
      const { page, sessionId, serviceId } = await liveCall();
      const seen = (await probe(page)).connections.length;
      const heardBefore = (await probe(page)).heard.length;
      const repliesBefore = await agentLines(page);
      await stopLivekit(mode);
      const sent: string[] = [];
      try {
        // The widget notices the drop; a message typed now waits for the avatar instead of being lost.
        await expect.poll(() => connectionsSince(page, seen), { timeout: 30_000, interval: 100 }).toContain('reconnecting');
        sent.push(`During the ${mode} outage`);
        await sendChat(page, sent.at(-1)!);
        lk = (await startLivekit(LK)) as Lk;
        // Reconnected: the store is back to `connected` after `reconnecting`; send at once.
        await expect
          .poll(async () => (await connectionsSince(page, seen)).join(' '), { timeout: 70_000, interval: 50 })
          .toMatch(/reconnecting( \w+)* connected$/); // not "disconnected"
        sent.push(`Right after the ${mode} reconnect`);
        await sendChat(page, sent.at(-1)!);
        // Video resumes: decoded frames grow again (on a new peer connection after a graceful restart).
        await expect.poll(() => videoFlowing(page), { timeout: 60_000, interval: 250 }).toBe(true);
        for (const text of [`After the ${mode} restart`, `After the ${mode} restart, again`]) {
          sent.push(text);
          await sendChat(page, text);
        }
        // Every message sent after the drop reached the avatar once, in order, and got its answer (events resume).
        await expect.poll(async () => (await probe(page)).heard.slice(heardBefore), { timeout: 30_000, interval: 200 }).toEqual(sent);
        await expect.poll(() => agentLines(page), { timeout: 30_000, interval: 200 }).toBe(repliesBefore + sent.length);
      } catch (e) {
        console.error(`after the ${mode} restart:`, await diagnostics(page, serviceId));
        throw e;
      }
      const p = await probe(page);
      expect(p.phases.at(-1)).toBe('active');
      expect(p.errors).toEqual([]);
      expect(p.sessionIds).toEqual([sessionId]); // the same paid session, not a new one
      expect(emulator.state.session(serviceId)?.session_status).toBe('ACTIVE');
      expect(
        emulator.state
          .events(serviceId)
          .filter((e) => e.event.type === 'user_transcription')
          .map((e) => e.event.transcription),
      ).toEqual(['Before the restart', ...sent]);

      await page.byRole('button', /^End/).click();
      await expect.poll(() => emulator.state.session(serviceId)?.session_status, { timeout: 30_000 }).toBe('COMPLETED');
      await expect.poll(async () => (await probe(page)).phases.at(-1), { timeout: 30_000 }).toBe('ended');
      expect((await probe(page)).errors).toEqual([]);
      await page.close();
    });
  }
});
