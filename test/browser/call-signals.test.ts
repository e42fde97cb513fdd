import { mkdirSync } from 'node:fs';
import { afterAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { AgentProcess, needsAgentApp, viewerAttach } from './agent-process';
import { inboundStatsScript, useBrowserStack } from './harness';
import type { SignalsProbe } from './pages/call-signals';

/**
 * Issue 27 on real media: the agent state (derived in a hosted room of the local service; published by a LiveKit
 * Agents agent in its room), the avatar's and the microphone's audio levels, and the call stats, as the hooks report
 * them in Chromium on a real LiveKit server; AvatarVideo shows the avatar's video.
 */
const SHOTS = process.env.LIVEAI_SHOTS ?? 'test-results/call-signals';
const probe = (page: Page) => page.evaluate(() => (window as unknown as { __signals: SignalsProbe }).__signals);
/** The state names in order, each change once. */
const sequence = (p: SignalsProbe, source: string) =>
  p.states
    .filter((s) => s.source === source)
    .map((s) => s.state)
    .filter((s, i, a) => s !== a[i - 1]);

async function waitForVideo(page: Page) {
  await page.waitForFunction(() => (window as unknown as { __signals: SignalsProbe }).__signals.phases.includes('active'), null, {
    timeout: 60_000,
  });
  await expect.poll(async () => (await page.evaluate(inboundStatsScript)).framesDecoded, { timeout: 30_000 }).toBeGreaterThan(25);
  await expect.poll(() => page.evaluate(() => document.querySelector('video')!.videoWidth), { timeout: 10_000 }).toBe(368);
}

const env = useBrowserStack({ queueMs: 200, providerLabels: 'rtc-a=livekit,rtc-b=daily' });

describe('agent state, audio levels and call stats on a real LiveKit call (issue 27)', () => {
  it('derived in a hosted room: a question goes thinking → speaking → listening; levels and stats are live', async () => {
    const page = await env.context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(String(e)));
    await page.goto(`${env.stack.baseUrl}/test/browser/pages/call-signals.html#${encodeURIComponent('{"room":"agent-demo"}')}`);
    await page.getByRole('button', { name: 'Call' }).click();
    await waitForVideo(page);

    await page.getByRole('button', { name: 'Ask' }).click();
    await expect
      .poll(async () => sequence(await probe(page), 'derived').join(' '), { timeout: 30_000 })
      .toMatch(/thinking speaking( listening)?$/);
    await expect
      .poll(async () => sequence(await probe(page), 'derived').join(' '), { timeout: 30_000 })
      .toMatch(/thinking speaking listening$/);
    // The styled stage shows the same state on its live picture (a ring), and screen readers hear "Listening" once it
    // holds (the short pauses between the avatar's sentences are not announced): when the answer is over.
    const stage = page.getByRole('region', { name: 'Stage' });
    await expect.poll(() => stage.getAttribute('data-agent-state'), { timeout: 5_000 }).toMatch(/^(listening|speaking)$/);
    await expect.poll(() => stage.getByRole('status').last().textContent(), { timeout: 30_000 }).toBe('Listening');
    expect(await stage.getAttribute('data-agent-state')).toBe('listening');
    let p = await probe(page);
    const spoke = p.states.find((s) => s.state === 'speaking')!;
    const quiet = p.states.findLast((s) => s.state === 'listening')!;
    // The avatar's level, measured on its own audio track, rises while it speaks.
    const loudest = Math.max(0, ...p.avatar.filter((a) => a.t >= spoke.since && a.t <= quiet.since).map((a) => a.level));
    expect(loudest, JSON.stringify(p.states)).toBeGreaterThan(0.2);

    // The microphone's level, measured on the published track (Chromium's fake device beeps).
    await page.getByRole('button', { name: 'Mic on' }).click();
    await expect.poll(async () => Math.max(0, ...(await probe(page)).mic.map((m) => m.level)), { timeout: 20_000 }).toBeGreaterThan(0.1);

    // Call stats once a second: rtt from the candidate pair, fps and bitrate of the received media, no loss here.
    await expect.poll(async () => (await probe(page)).stats.length, { timeout: 10_000 }).toBeGreaterThan(3);
    p = await probe(page);
    const last = p.stats.at(-1)!;
    expect(last.rttMs, JSON.stringify(last)).not.toBeNull();
    expect(last.rttMs!).toBeGreaterThanOrEqual(0);
    // Media flows (its rates belong to the bench, not to a test on a loaded machine).
    expect(last.fps!).toBeGreaterThan(0);
    expect(last.bitrateKbps!).toBeGreaterThan(0);
    expect(last.packetLossPct).toBeLessThan(1);
    await page.getByRole('img', { name: /^Connection excellent/ }).waitFor({ timeout: 5_000 });
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: `${SHOTS}/hosted-room.png`, fullPage: true });

    await page.getByRole('button', { name: 'Hang up' }).click();
    await page.waitForFunction(() => (window as unknown as { __signals: SignalsProbe }).__signals.phases.includes('ended'));
    p = await probe(page);
    expect(p.states.at(-1)).toMatchObject({ state: 'idle' });
    expect(p.errors).toEqual([]);
    expect(pageErrors).toEqual([]);
    await page.close();
  });

  describe('with the example LiveKit Agents app and the published avatar plugin', () => {
    needsAgentApp();
    const running: { agent: AgentProcess | null } = { agent: null };
    afterAll(async () => {
      await running.agent?.stop();
    });

    it('takes the agent’s own lk.agent.state: speaking → listening around a turn', async () => {
      const ROOM = 'call-signals-agent-room';
      const livekit = { url: inject('livekitUrl'), apiKey: inject('livekitApiKey'), apiSecret: inject('livekitApiSecret') };
      const { agent, sessionId } = await AgentProcess.startReady(running, livekit, env.stack.emulatorUrl, ROOM);
      const attach = await viewerAttach(livekit, ROOM, sessionId);
      const page = await env.context.newPage();
      const pageErrors: string[] = [];
      page.on('pageerror', (e) => pageErrors.push(String(e)));
      await page.goto(`${env.stack.baseUrl}/test/browser/pages/call-signals.html#${encodeURIComponent(JSON.stringify({ attach }))}`);
      await page.getByRole('button', { name: 'Call' }).click();
      await waitForVideo(page);
      // The agent sets its attribute on changes after its room I/O started: a turn shows them.

      const turn = agent.reports.length;
      agent.send({ cmd: 'say', text: 'Hello there! I am the avatar of this agent, and I am telling you what I do.' });
      await agent.next((r) => r.event === 'said', { from: turn, timeoutMs: 30_000 });
      await expect.poll(async () => sequence(await probe(page), 'agent').join(' '), { timeout: 20_000 }).toMatch(/speaking listening$/);
      const p = await probe(page);
      const spoke = p.states.find((s) => s.state === 'speaking' && s.source === 'agent')!;
      expect(Math.max(0, ...p.avatar.filter((a) => a.t >= spoke.since).map((a) => a.level))).toBeGreaterThan(0.2);
      mkdirSync(SHOTS, { recursive: true });
      await page.screenshot({ path: `${SHOTS}/agent-room.png`, fullPage: true });
      expect(p.errors).toEqual([]);
      expect(pageErrors).toEqual([]);
      await page.close();
    });
  });
});
