import { describe, expect, it } from 'vitest';
import { AGENT_STACK, needsAgentApp, useAgentRoom } from './agent-process';
import { MEDIA_ENGINES } from './driver';
import { useEngineStack } from './harness';
import type { CaptionsProbe as Probe } from './pages/captions';
import type { ByteStreamRecord } from './pages/preconnect-probe';

/**
 * Issue 40.1, speak while the avatar is still coming, in Chromium and in Firefox: the drop-in widget attached to a
 * LiveKit Agents room (examples/livekit-agent/agent, the published avatar plugin) switches the microphone on with the
 * Start click and joins with livekit-client's pre-connect audio buffer: what the visitor says while joining is
 * recorded (each browser's fake microphone) and sent on the byte stream topic `lk.agent.pre-connect-audio-buffer`
 * once a participant of kind agent is active. The agent app reports what it received.
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

describe("the visitor's pre-connect audio (issue 40.1)", () => {
  needsAgentApp();
  describe.each(MEDIA_ENGINES)('in %s', (engine) => {
    const env = useEngineStack(engine, AGENT_STACK);
    const room = useAgentRoom(env);

    it('the widget joins with the pre-connect buffer; it goes to an agent participant, and reaches the agent when addressed to it', async (ctx) => {
      const { agent, ready, url } = await room.start(`${ROOM}-${engine}`);
      const page = await env.browser.newPage();
      await page.goto(url('preconnect.html'));
      const from = agent.reports.length;
      await page.byRole('button', 'Start call').click();

      // livekit-client recorded the microphone from the join and sends the recording once an agent participant is active.
      await page.waitForFunction(
        () =>
          (window as unknown as { __byteStreams: ByteStreamRecord[] }).__byteStreams.some(
            (s) => s.topic === 'lk.agent.pre-connect-audio-buffer',
          ),
        30_000,
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
        // It can be empty: the agent is in the room before the visitor (the attach flow), so livekit-client sends the
        // recording as soon as the join completes, at times before the recorder gave its first chunk (seen in Chromium).
        await ctx.annotate(`${engine}: the agent received ${String(buffer.bytes)} bytes of pre-connect audio`, 'notice');
      } else
        await ctx.annotate(
          `${engine}: livekit-client sent the pre-connect buffer to the avatar (${String(ready.avatar)}), not the agent: see docs/core.md`,
          'notice',
        );

      await page.waitForFunction(() => (window as unknown as { __captions: Probe }).__captions.phases.includes('active'), 60_000);
      // The live microphone follows: the agent hears the visitor.
      await agent.next((r) => r.event === 'user_audio' && r.from === 'user-1', { from, timeoutMs: 30_000 });
      expect(page.pageErrors).toEqual([]);
      await page.close();
    });
  });
});
