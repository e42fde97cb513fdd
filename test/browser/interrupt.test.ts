import { mkdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AGENT_STACK, needsAgentApp, useAgentRoom, waitForSilence, openAgentAttach } from './agent-process';
import { inboundStatsScript, useBrowserStack } from './harness';
import type { AgentProbe as Probe } from './pages/agent-attach';

/**
 * Issue 40.5, an interrupt that actually stops the avatar: a LiveKit Agents app (examples/livekit-agent/agent, the
 * published avatar plugin) speaks a long reply through the local avatar service; the visitor's page (hooks, attached
 * to the agent's room) shows "Stop talking" while the avatar speaks, and its click (`session.interrupt()`, the RPC
 * `liveai.interrupt` to the agent) cuts the reply: the agent interrupts, the avatar reports its playback finished
 * `interrupted: true` (after the plugin's `lk.clear_buffer`) and its audio in the page goes silent.
 */

const SHOTS = 'test-results/interrupt';
const ROOM = 'interrupt-room';
const LONG =
  'This is a long answer that goes on and on, sentence after sentence, about the weather, the sea and the mountains, so that there is plenty of time to stop it while it plays, and it would still be talking for many seconds more.';

const env = useBrowserStack(AGENT_STACK);
const room = useAgentRoom(env);

describe('"Stop talking" stops the avatar mid-reply (issue 40.5)', () => {
  needsAgentApp();
  it('the visitor clicks "Stop talking" during a long reply: the agent interrupts, the avatar falls silent', async () => {
    const { agent, url } = await room.start(ROOM);
    const { page, pageErrors } = await openAgentAttach(env.context, url('agent-attach.html'));
    await expect.poll(async () => (await page.evaluate(inboundStatsScript)).framesDecoded, { timeout: 30_000 }).toBeGreaterThan(0);
    const stop = page.getByRole('button', { name: 'Stop talking' });
    // Not speaking: no button.
    expect(await stop.count()).toBe(0);

    const long = agent.reports.length;
    agent.send({ cmd: 'say', text: LONG });
    const started = await agent.next((r) => r.event === 'playback_started', { from: long });
    await page.waitForFunction(
      (from) => (window as unknown as { __agent: Probe }).__agent.audio.some((a) => a.t > from && a.level > 0.05),
      started.t,
      { timeout: 15_000 },
    );
    await stop.waitFor({ timeout: 10_000 });
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: `${SHOTS}/speaking.png`, fullPage: true });
    await stop.click();

    const asked = await agent.next((r) => r.event === 'interrupting', { from: long });
    expect(asked.from).toBe('user-1');
    const cut = await agent.next((r) => r.event === 'playback_finished', { from: long });
    expect(cut.interrupted).toBe(true);
    await agent.next((r) => r.event === 'said' && r.interrupted === true, { from: long });
    // Silence in the page: 10 polls in a row (0.5 s) with no audio level, although the reply had seconds left.
    await waitForSilence(page, cut.t);
    // The button goes once the avatar stopped speaking.
    await expect.poll(() => stop.count(), { timeout: 10_000 }).toBe(0);
    await page.screenshot({ path: `${SHOTS}/stopped.png`, fullPage: true });
    const p = await page.evaluate(() => (window as unknown as { __agent: Probe }).__agent);
    expect(p.errors).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
