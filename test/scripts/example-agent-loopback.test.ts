import { spawn } from 'node:child_process';
import { beforeEach, describe, expect, it } from 'vitest';
import { needsAgentApp } from '../browser/agent-process';

/**
 * examples/livekit-agent on a machine whose only interface is loopback (a server or a container with
 * `--network none`): LiveKit answers, but WebRTC never uses loopback, so the agent cannot join its room. The example
 * must say that, not blame the LiveKit server. The machine is a network namespace made here with only `lo` up,
 * inside the test tier's own namespace; nothing else's network is touched.
 */
describe('examples/livekit-agent with only loopback', () => {
  needsAgentApp();
  beforeEach((ctx) =>
    ctx.skip(process.env.LIVEAI_IN_NETNS !== '1', 'needs the private network namespace: run it with node scripts/test.mjs'),
  );
  it('answers that WebRTC had no usable address', { timeout: 150_000 }, async () => {
    const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
      const child = spawn(
        'unshare',
        [
          '-n',
          '--',
          'bash',
          '-c',
          'ip link set lo up && exec "$@"',
          'loopback-only',
          process.execPath,
          'test/scripts/agent-on-loopback.mjs',
        ],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let out = '';
      let err = '';
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (err += d));
      child.on('error', reject);
      child.on('close', (c) => resolve({ code: c, stdout: out, stderr: err }));
    });
    expect(code, stderr).toBe(0);
    const answer = JSON.parse(stdout.trim().split('\n').at(-1)!) as { joined: boolean; detail?: string };
    expect(answer.joined).toBe(false);
    expect(answer.detail).toMatch(/^the agent could not join its room: WebRTC had no usable address \(this machine has only loopback/);
  });
});
