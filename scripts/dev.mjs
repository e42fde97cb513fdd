#!/usr/bin/env node
// `npm run dev`: the playground on the local avatar service, no account needed.
//   1. makes sure the pinned LiveKit server is installed, and starts it;
//   2. starts the local avatar service (`liveai-emulator --media on`) against it;
//   3. starts Storybook with the companion proxy mounted at /api/avatar; the "Live" story plays the widget.
// On Linux as root (CI machines, sandboxes) everything runs inside a private network namespace (architecture §6);
// set LIVEAI_NETNS=0 to run on the host network instead (an ordinary laptop does this by default).
// Inside the namespace, `node scripts/look.mjs [url] [out.png]` opens the page in headless Chromium and screenshots it.
import { spawn, spawnSync } from 'node:child_process';
import { writeFileSync, mkdirSync, rmSync } from 'node:fs';
import { installLivekit, startLivekit, LIVEKIT_KEYS } from './livekit.mjs';

const wantNetns =
  process.env.LIVEAI_NETNS === '1' ||
  (process.env.LIVEAI_NETNS !== '0' && process.platform === 'linux' && process.getuid?.() === 0);
if (wantNetns && process.env.LIVEAI_IN_NETNS !== '1') {
  const r = spawnSync('scripts/netns-run.sh', [process.execPath, ...process.argv.slice(1)], { stdio: 'inherit' });
  process.exit(r.status ?? 1);
}

const EMULATOR_PORT = Number(process.env.LIVEAI_EMULATOR_PORT ?? 4010);
const STORYBOOK_PORT = Number(process.env.LIVEAI_STORYBOOK_PORT ?? 6006);
const children = [];
let stopping = false;
async function stopAll(code = 0) {
  if (stopping) return;
  stopping = true;
  for (const c of children.reverse()) await c.stop().catch(() => {});
  rmSync('.cache/dev.pid', { force: true });
  process.exit(code);
}
process.on('SIGINT', () => stopAll(0));
process.on('SIGTERM', () => stopAll(0));

/** Spawns a child and resolves when a line of its output matches `ready`. */
function startChild(name, cmd, args, ready, env = {}) {
  return new Promise((resolve, reject) => {
    // Each child leads its own process group, so stopping it also stops what `npx` started under it.
    const child = spawn(cmd, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const signalGroup = (sig) => {
      try {
        process.kill(-child.pid, sig);
      } catch {
        /* already gone */
      }
    };
    const stop = () =>
      new Promise((r) => {
        if (child.exitCode !== null || child.signalCode !== null) return r();
        child.once('exit', () => r());
        signalGroup('SIGINT');
        setTimeout(() => signalGroup('SIGKILL'), 3000).unref();
      });
    let done = false;
    const onData = (buf) => {
      const text = buf.toString();
      for (const line of text.split('\n')) if (line.trim()) console.log(`[${name}] ${line}`);
      if (!done && ready.test(text)) {
        done = true;
        resolve({ stop });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => {
      if (!done) reject(new Error(`${name} exited with code ${code} before it was ready`));
      else if (!stopping) {
        console.error(`[${name}] exited with code ${code}`);
        stopAll(1);
      }
    });
  });
}

try {
  installLivekit();
  const lk = await startLivekit();
  children.push(lk);
  console.log(`[livekit] listening on ${lk.url}${process.env.LIVEAI_IN_NETNS === '1' ? ' (private network namespace)' : ''}`);

  const emulator = await startChild(
    'emulator',
    'npx',
    ['tsx', 'src/emulator/bin.ts', '--media', 'on', '--port', String(EMULATOR_PORT), '--livekit-url', lk.url,
      '--livekit-api-key', LIVEKIT_KEYS.apiKey, '--livekit-api-secret', LIVEKIT_KEYS.apiSecret],
    /listening on http/,
    { NODE_ENV: 'production' }, // @livekit/rtc-node prints debug lines otherwise
  );
  children.push(emulator);

  const storybook = await startChild(
    'storybook',
    'npx',
    ['storybook', 'dev', '-p', String(STORYBOOK_PORT), '--host', '127.0.0.1', '--no-open', '--ci'],
    /Storybook.*started|Local:\s+http/i,
    { LIVEAI_UPSTREAM_URL: `http://127.0.0.1:${EMULATOR_PORT}`, LIVEKIT_URL: lk.url },
  );
  children.push(storybook);

  mkdirSync('.cache', { recursive: true });
  writeFileSync('.cache/dev.pid', String(process.pid));
  const url = `http://127.0.0.1:${STORYBOOK_PORT}/?path=/story/live-playground--widget`;
  console.log(`\n  liveai-kit playground ready: ${url}\n`);
  if (process.env.LIVEAI_IN_NETNS === '1') {
    console.log('  (inside a private network namespace: look at it with');
    console.log(`   nsenter -t $(cat .cache/dev.pid) -n node scripts/look.mjs)\n`);
  }
} catch (e) {
  console.error(`dev: ${e.message}`);
  await stopAll(1);
}
