import { mkdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AGENT_STACK, needsAgentApp, useAgentRoom } from './agent-process';
import { inboundStatsScript, useBrowserStack } from './harness';
import type { WidgetProbe as Probe } from './pages/widget-interrupt';

/**
 * Issue 38: the widget's "Stop talking". A LiveKit Agents app (examples/livekit-agent/agent, the published avatar
 * plugin) speaks a long reply through the local avatar service; the drop-in widget, attached to the agent's room,
 * shows "Stop talking" over the video only while the avatar speaks, and its click (`session.interrupt()`) makes the
 * agent interrupt: the avatar reports its playback finished `interrupted: true`, stops speaking, and the button goes.
 */

const SHOTS = 'test-results/widget-interrupt';
const ROOM = 'widget-interrupt-room';
const LONG =
  'This is a long answer that goes on and on, sentence after sentence, about the weather, the sea and the mountains, so that there is plenty of time to stop it while it plays, and it would still be talking for many seconds more.';

const env = useBrowserStack(AGENT_STACK);
const room = useAgentRoom(env);

describe('the widget\'s "Stop talking" stops the avatar mid-reply', () => {
  needsAgentApp();
  it('shows only while the avatar speaks, over the video; its click interrupts the reply', async (ctx) => {
    const { agent, url } = await room.start(ROOM);
    const page = await env.context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(String(e)));
    await page.goto(url('widget-interrupt.html'));
    await page.getByRole('button', { name: 'Start call' }).click();
    await page.waitForFunction(() => (window as unknown as { __widget: Probe }).__widget.phases.includes('active'), null, {
      timeout: 60_000,
    });
    await expect.poll(async () => (await page.evaluate(inboundStatsScript)).framesDecoded, { timeout: 30_000 }).toBeGreaterThan(0);
    const stop = page.getByRole('button', { name: 'Stop talking' });
    // Not speaking: no button.
    expect(await stop.count()).toBe(0);

    const long = agent.reports.length;
    agent.send({ cmd: 'say', text: LONG });
    await agent.next((r) => r.event === 'playback_started', { from: long });
    await stop.waitFor({ timeout: 15_000 });
    // Over the video, in the stage, at least 44 px tall on a touch screen (40 px here, the pointer's size).
    const where = await stop.evaluate((b) => ({
      inStage: !!b.closest('.liveai-stage'),
      height: b.getBoundingClientRect().height,
      speaking: document.querySelector('.liveai-stage')?.getAttribute('data-agent-state'),
    }));
    expect(where).toMatchObject({ inStage: true, speaking: 'speaking' });
    expect(where.height).toBeGreaterThanOrEqual(40);
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: `${SHOTS}/speaking.png`, fullPage: true });
    await stop.click();

    const asked = await agent.next((r) => r.event === 'interrupting', { from: long });
    expect(asked.from).toBe('user-1');
    const cut = await agent.next((r) => r.event === 'playback_finished', { from: long });
    expect(cut.interrupted).toBe(true);
    await agent.next((r) => r.event === 'said' && r.interrupted === true, { from: long });
    // The avatar stops speaking, and the button goes with it.
    await page.waitForFunction(
      () => (window as unknown as { __widget: Probe }).__widget.session?.store.getState().agentState.state !== 'speaking',
      null,
      {
        timeout: 15_000,
      },
    );
    await expect.poll(() => stop.count(), { timeout: 10_000 }).toBe(0);
    await page.screenshot({ path: `${SHOTS}/stopped.png`, fullPage: true });
    const p = await page.evaluate(() => (window as unknown as { __widget: Probe }).__widget);
    expect(p.agentStates).toContain('speaking');
    // The call never failed. (onError also hears errors the session recovered from: noted for the record.)
    if (p.errors.length) await ctx.annotate(`errors the widget reported and recovered from: ${JSON.stringify(p.errors)}`, 'notice');
    expect(p.phases).not.toContain('error');
    expect(pageErrors).toEqual([]);
    await page.getByRole('button', { name: 'End', exact: true }).click();
  });
});
