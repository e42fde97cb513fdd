// One command: installs the two parts if needed (the agent has its own @livekit/rtc-node version), then starts the
// app's server (local avatar service + proxy + front end). A LiveKit server must answer at LIVEKIT_URL
// (default ws://127.0.0.1:7880, keys devkey / secret): `livekit-server --dev`.
import { spawnSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
for (const dir of ['agent', 'web']) {
  if (existsSync(`${dir}/node_modules`)) continue;
  console.log(`installing ${dir}/ …`);
  const r = spawnSync(npm, ['install', '--no-audit', '--no-fund'], { cwd: dir, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
const url = (process.env.LIVEKIT_URL ?? 'ws://127.0.0.1:7880').replace(/^ws/, 'http');
const up = await fetch(url).then((r) => r.ok, () => false);
if (!up) {
  console.error(`No LiveKit server answers at ${url}. Start one first: livekit-server --dev (https://docs.livekit.io/home/self-hosting/local/)`);
  process.exit(1);
}
const web = spawn(npm, ['start'], { cwd: 'web', stdio: 'inherit' });
for (const sig of ['SIGINT', 'SIGTERM']) process.once(sig, () => web.kill(sig));
web.on('exit', (code) => process.exit(code ?? 0));
