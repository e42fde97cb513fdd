// One command: installs the two parts if needed (`npm ci` from their lockfiles, which it leaves as they are; the
// agent has its own @livekit/rtc-node version), makes sure a LiveKit server answers at LIVEKIT_URL (default
// ws://127.0.0.1:7880, keys devkey / secret) and starts the app's server (local avatar service + proxy + front end).
// When nothing answers there and a `livekit-server` binary is found (LIVEKIT_BIN, then PATH, then the one
// `npm run dev` built in this repository's .cache), it starts one in dev mode on 127.0.0.1 and stops it on exit.
import { spawn, spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
for (const dir of ['agent', 'web']) {
  if (existsSync(`${dir}/node_modules`)) continue;
  console.log(`installing ${dir}/ (npm ci) …`);
  const r = spawnSync(npm, ['ci', '--no-audit', '--no-fund'], { cwd: dir, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

const wsUrl = new URL(process.env.LIVEKIT_URL ?? 'ws://127.0.0.1:7880');
const httpUrl = wsUrl.href.replace(/^ws/, 'http');
const answers = () =>
  fetch(httpUrl, { signal: AbortSignal.timeout(1000) }).then(
    (r) => r.ok,
    () => false,
  );
const HOW_TO_GET =
  'Get livekit-server with `npm run livekit:install` in the repository (Go), a release binary ' +
  '(https://github.com/livekit/livekit/releases), Homebrew (brew install livekit) or Docker (docker run --rm ' +
  '--network host livekit/livekit-server --dev), then set LIVEKIT_BIN=/path/to/livekit-server or put it on PATH.';

// What `npm run dev` (scripts/livekit.mjs) installs in the repository's git-ignored cache; older checkouts: `server`.
const REPO_CACHE = fileURLToPath(new URL('../../.cache/livekit/bin/', import.meta.url));

/** LIVEKIT_BIN, then `livekit-server` on PATH, then the repository's cache. */
function findLivekit() {
  const executable = (p) => {
    try {
      accessSync(p, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  };
  if (process.env.LIVEKIT_BIN) return executable(process.env.LIVEKIT_BIN) ? process.env.LIVEKIT_BIN : null;
  const name = process.platform === 'win32' ? 'livekit-server.exe' : 'livekit-server';
  for (const dir of (process.env.PATH ?? '').split(delimiter)) if (dir && executable(join(dir, name))) return join(dir, name);
  return ['livekit-server', 'server'].map((n) => join(REPO_CACHE, n)).find(executable) ?? null;
}

/** Starts `livekit-server --dev` on 127.0.0.1 at the URL's port; resolves once it answers. */
async function startLivekit(bin) {
  const port = wsUrl.port || '7880';
  const apiKey = process.env.LIVEKIT_API_KEY ?? 'devkey';
  const apiSecret = process.env.LIVEKIT_API_SECRET ?? 'secret';
  console.log(`starting ${bin} --dev on ${wsUrl.href}`);
  const child = spawn(bin, ['--dev', '--bind', '127.0.0.1', '--config-body', `port: ${port}`], {
    // keys through the environment, not the command line (which other users can read)
    env: { ...process.env, LIVEKIT_KEYS: `${apiKey}: ${apiSecret}`, LIVEKIT_CONFIG: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const tail = [];
  const keep = (chunk) => tail.push(...String(chunk).split('\n').filter(Boolean)) > 20 && tail.splice(0, tail.length - 20);
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  for (let i = 0; i < 100; i++) {
    const code = await Promise.race([exited, new Promise((r) => setTimeout(r, 200, undefined))]);
    if (code !== undefined) {
      console.error(`livekit-server exited (${code}) before it answered:\n${tail.join('\n')}`);
      process.exit(1);
    }
    if (await answers()) return child;
  }
  child.kill();
  console.error(`livekit-server did not answer at ${httpUrl} within 20 s:\n${tail.join('\n')}`);
  process.exit(1);
}

let livekit = null;
if (!(await answers())) {
  const local = ['127.0.0.1', 'localhost'].includes(wsUrl.hostname);
  const bin = local ? findLivekit() : null;
  if (!local) {
    console.error(`No LiveKit server answers at ${httpUrl}. Start it, or unset LIVEKIT_URL to use a local one.`);
    process.exit(1);
  }
  if (!bin) {
    console.error(`No LiveKit server answers at ${httpUrl} and no livekit-server was found. ${HOW_TO_GET}`);
    process.exit(1);
  }
  livekit = await startLivekit(bin);
}

// node directly (not `npm start`), so a signal we pass on reaches the server and it can end its agents
const web = spawn(process.execPath, ['server.mjs'], { cwd: 'web', stdio: 'inherit' });
for (const sig of ['SIGINT', 'SIGTERM']) process.once(sig, () => web.kill(sig));
web.on('exit', async (code) => {
  if (livekit && livekit.exitCode === null) {
    // LiveKit drains its rooms on SIGTERM; give it 10 s, then stop it hard
    const gone = new Promise((resolve) => livekit.once('exit', resolve));
    livekit.kill('SIGTERM');
    const timer = setTimeout(() => livekit.kill('SIGKILL'), 10_000);
    await gone;
    clearTimeout(timer);
  }
  process.exit(code ?? 0);
});
