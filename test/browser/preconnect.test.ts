import { afterAll, describe, expect, inject, it } from 'vitest';
import { AgentProcess, needsAgentApp, viewerAttach } from './agent-process';
import { useBrowserStack } from './harness';
import type { CaptionsProbe as Probe } from './pages/captions';
import type { ByteStreamRecord } from './pages/preconnect-probe';

/**
 * Issue 40.1, speak while the avatar is still coming: the drop-in widget attached to a LiveKit Agents room
 * (examples/livekit-agent/agent, the published avatar plugin) switches the microphone on with the Start click and
 * joins with livekit-client's pre-connect audio buffer: what the visitor says while joining is recorded and sent on
 * the byte stream topic `lk.agent.pre-connect-audio-buffer` once a participant of kind agent is active. The agent app
 * reports what it received.
 *
 * Known limit (blocked upstream, see docs/core.md "Speak while the avatar is still coming"): livekit-client 2.23 sends
 * the buffer to the participant of kind agent that became active last, and the avatar plugins give the avatar worker
 * kind agent too. In this room (agent and avatar both present when the visitor joins, in the order the server lists
 * them) it goes to the agent or to the avatar, 3 of 11 runs here reached the agent. The test asserts what holds either way: the
 * buffer is recorded and sent to one of the room's agent participants, it reaches the agent whenever livekit-client
 * addressed it, and the live microphone follows. The agent must be in the room before the page (the attach flow needs
 * the session its avatar plugin created), so "before the agent joined" is the time of the visitor's own join.
 */

const ROOM = 'preconnect-room';
const TOPIC = 'lk.agent.pre-connect-audio-buffer';
const env = useBrowserStack({ queueMs: 200, providerLabels: 'rtc-a=livekit,rtc-b=daily' });

describe("the visitor's pre-connect audio (issue 40.1)", () => {
  needsAgentApp();
  const running: { agent: AgentProcess | null } = { agent: null };
  afterAll(async () => {
    await running.agent?.stop();
  });

  it('the widget joins with the pre-connect buffer; it goes to an agent participant, and reaches the agent when addressed to it', async (ctx) => {
    const livekit = { url: inject('livekitUrl'), apiKey: inject('livekitApiKey'), apiSecret: inject('livekitApiSecret') };
    const { agent, sessionId } = await AgentProcess.startReady(running, livekit, env.stack.emulatorUrl, ROOM);
    const ready = agent.reports.find((r) => r.event === 'ready')!;
    const attach = await viewerAttach(livekit, ROOM, sessionId);
    const page = await env.context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(String(e)));
    await page.goto(`${env.stack.baseUrl}/test/browser/pages/preconnect.html#${encodeURIComponent(JSON.stringify(attach))}`);
    const from = agent.reports.length;
    await page.getByRole('button', { name: 'Start call' }).click();

    // livekit-client recorded the microphone from the join and sends the recording once an agent participant is active.
    await page.waitForFunction(
      (topic) => (window as unknown as { __byteStreams: ByteStreamRecord[] }).__byteStreams.some((s) => s.topic === topic),
      TOPIC,
      {
        timeout: 30_000,
      },
    );
    const sent = (await page.evaluate(() => (window as unknown as { __byteStreams: ByteStreamRecord[] }).__byteStreams)).filter(
      (s) => s.topic === TOPIC,
    );
    expect(sent).toHaveLength(1);
    expect(sent[0]!.mimeType).toMatch(/^audio\/webm|^video\/mp4/);
    expect(sent[0]!.to).toHaveLength(1);
    expect(['agent', ready.avatar]).toContain(sent[0]!.to[0]);
    if (sent[0]!.to[0] === 'agent') {
      const buffer = await agent.next((r) => r.event === 'preconnect_buffer', { from, timeoutMs: 30_000 });
      expect(buffer.from).toBe('user-1');
      expect(Number(buffer.bytes)).toBeGreaterThan(0);
    } else
      await ctx.annotate(
        `livekit-client sent the pre-connect buffer to the avatar (${String(ready.avatar)}), not the agent: see docs/core.md`,
        'notice',
      );

    await page.waitForFunction(() => (window as unknown as { __captions: Probe }).__captions.phases.includes('active'), null, {
      timeout: 60_000,
    });
    // The live microphone follows: the agent hears the visitor.
    await agent.next((r) => r.event === 'user_audio' && r.from === 'user-1', { from, timeoutMs: 30_000 });
    expect(pageErrors).toEqual([]);
    await page.close();
  });
});
