// Run by example-agent-loopback.test.ts inside a network namespace that has only loopback: starts `livekit-server
// --dev` on 127.0.0.1 (as the example's start.mjs does), then the example's agent for one room through the example's
// own launcher (examples/livekit-agent/web/agent-launch.mjs, which its POST /api/call uses), and prints what the
// example would answer the browser as one JSON line: {"joined": boolean, "detail"?: string}.
import { spawn } from 'node:child_process';
import { installLivekit } from '../../scripts/livekit.mjs';
import { startAgent } from '../../examples/livekit-agent/web/agent-launch.mjs';

const livekit = { url: 'ws://127.0.0.1:7880', apiKey: 'devkey', apiSecret: 'secret' };
const server = spawn(installLivekit({ quiet: true }), ['--dev', '--bind', '127.0.0.1'], {
  env: { ...process.env, LIVEKIT_KEYS: `${livekit.apiKey}: ${livekit.apiSecret}`, LIVEKIT_CONFIG: '' },
  stdio: 'ignore',
});
const exited = new Promise((resolve) => server.once('exit', resolve));
const deadline = Date.now() + 30_000;
while (
  !(await fetch('http://127.0.0.1:7880/').then(
    (r) => r.ok,
    () => false,
  ))
) {
  if (Date.now() > deadline || server.exitCode !== null) throw new Error('livekit-server did not answer within 30 s');
  await new Promise((r) => setTimeout(r, 100));
}
// The avatar service is never reached: the agent has to join its room first.
const { agent, started } = startAgent({ livekit, serviceUrl: 'http://127.0.0.1:9', apiKey: 'dev-key-alice', room: 'loopback-only' });
const { ready, detail } = await started;
if (ready) agent.stdin.write('{"cmd":"quit"}\n');
console.log(JSON.stringify({ joined: Boolean(ready), detail }));
server.kill('SIGKILL');
await exited;
process.exit(0);
