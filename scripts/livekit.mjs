#!/usr/bin/env node
// The pinned LiveKit server: find it, or install it with `go install` into a git-ignored cache, and start it with
// the project's config. It is looked up in this order:
//   1. LIVEKIT_BIN;
//   2. `livekit-server` on PATH (used with a warning unless it is v1.13.x);
//   3. the git-ignored cache .cache/livekit/bin/server (at the pinned version);
//   4. `go install github.com/livekit/livekit-server/cmd/server@v1.13.5` into that cache (needs Go >= 1.26).
// When none works, the error names every way to get it (Go, a release binary, Homebrew, Docker).
// Usage:
//   node scripts/livekit.mjs install        # idempotent; prints the binary's path
//   node scripts/livekit.mjs start          # foreground
import { spawn, execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const LIVEKIT_VERSION = 'v1.13.5';
const MINOR = LIVEKIT_VERSION.split('.').slice(0, 2).join('.'); // v1.13
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const LIVEKIT_DIR = join(root, '.cache', 'livekit');
const CACHE_BIN = join(LIVEKIT_DIR, 'bin', 'server');
export const LIVEKIT_KEYS = { apiKey: 'devkey', apiSecret: 'secret' };
export const LIVEKIT_PORT = 7880;
export const LIVEKIT_URL = `ws://127.0.0.1:${LIVEKIT_PORT}`;

/** `livekit-server version 1.13.5` → 'v1.13.5'; null when the binary does not run. */
export function versionOf(bin) {
  try {
    const out = execFileSync(bin, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 20_000 });
    const v = out.trim().split(/\s+/).pop() ?? '';
    return v.startsWith('v') ? v : `v${v}`;
  } catch {
    return null;
  }
}

function onPath(name) {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir && existsSync(join(dir, name))) return join(dir, name);
  }
  return null;
}

function findGo() {
  if (process.env.GO) return existsSync(process.env.GO) ? process.env.GO : null;
  const candidates = [onPath('go'), '/usr/local/go/bin/go', join(homedir(), 'go', 'bin', 'go'), '/opt/homebrew/bin/go'];
  for (const c of candidates) if (c && existsSync(c)) return c;
  return null;
}

/** What a person can do when no LiveKit server can be found or installed. */
export function howToGetLivekit(reason) {
  return [
    `LiveKit server ${LIVEKIT_VERSION} not found${reason ? ` (${reason})` : ''}. Any one of these works:`,
    `  - Go >= 1.26 on PATH: npm run dev installs it by itself (or: npm run livekit:install)`,
    `  - release binary: https://github.com/livekit/livekit/releases/tag/${LIVEKIT_VERSION} (or: curl -sSL https://get.livekit.io | bash),`,
    `    then put livekit-server on PATH or set LIVEKIT_BIN=/path/to/livekit-server`,
    `  - Homebrew (macOS, Linux): brew install livekit`,
    `  - Docker: docker create --name lk livekit/livekit-server:${LIVEKIT_VERSION} && docker cp lk:/livekit-server ./livekit-server`,
    `    && docker rm lk, then LIVEKIT_BIN=$PWD/livekit-server (Linux)`,
  ].join('\n');
}

let resolved = null;

/**
 * Finds the LiveKit server in the documented order, installing it with Go as the last resort. Returns its path and
 * sets LIVEKIT_BIN so child processes (the network namespace) use the same binary. Throws with `howToGetLivekit`.
 */
export function installLivekit({ quiet = false } = {}) {
  if (resolved) return resolved;
  const log = (m) => !quiet && console.log(m);
  const warn = (m) => console.warn(m);
  if (process.env.LIVEKIT_BIN) {
    const bin = process.env.LIVEKIT_BIN;
    const v = versionOf(bin);
    if (!v) throw new Error(howToGetLivekit(`LIVEKIT_BIN=${bin} does not run`));
    if (!v.startsWith(`${MINOR}.`)) warn(`warning: LIVEKIT_BIN is livekit-server ${v}; this project is tested with ${LIVEKIT_VERSION}`);
    return (resolved = bin);
  }
  const fromPath = onPath('livekit-server');
  const pathVersion = fromPath && versionOf(fromPath);
  if (fromPath && pathVersion) {
    if (!pathVersion.startsWith(`${MINOR}.`)) {
      warn(`warning: using livekit-server ${pathVersion} from PATH (${fromPath}); this project is tested with ${LIVEKIT_VERSION}.`);
      warn(`         Set LIVEKIT_BIN to another binary, or remove it from PATH to install the pinned one.`);
    }
    return (resolved = process.env.LIVEKIT_BIN = fromPath);
  }
  if (versionOf(CACHE_BIN) === LIVEKIT_VERSION) return (resolved = process.env.LIVEKIT_BIN = CACHE_BIN);
  const go = findGo();
  if (!go) throw new Error(howToGetLivekit('no livekit-server on PATH, nothing in .cache/livekit, and no Go to install it'));
  log(`installing livekit-server ${LIVEKIT_VERSION} with go install into .cache/livekit (first run only; takes a few minutes)…`);
  mkdirSync(join(LIVEKIT_DIR, 'bin'), { recursive: true });
  const r = spawnSync(go, ['install', `github.com/livekit/livekit-server/cmd/server@${LIVEKIT_VERSION}`], {
    stdio: quiet ? 'pipe' : 'inherit',
    encoding: 'utf8',
    // -trimpath keeps source paths out of the build cache's keys, so a second install from another module cache
    // (a fresh clone with its own GOMODCACHE) links from Go's warm build cache instead of compiling everything again.
    env: {
      ...process.env,
      GOBIN: join(LIVEKIT_DIR, 'bin'),
      GOFLAGS: [process.env.GOFLAGS, '-mod=mod', '-trimpath'].filter(Boolean).join(' '),
    },
    cwd: LIVEKIT_DIR,
  });
  if (r.status !== 0 || versionOf(CACHE_BIN) !== LIVEKIT_VERSION) {
    const tail = `${r.stderr ?? ''}`.trim().split('\n').slice(-3).join(' / ');
    throw new Error(howToGetLivekit(`go install failed${tail ? `: ${tail}` : r.error ? `: ${r.error.message}` : ''}`));
  }
  return (resolved = process.env.LIVEKIT_BIN = CACHE_BIN);
}

/**
 * Writes the server's config. `nodeIp` is the only address LiveKit advertises as an ICE candidate (the veth inside
 * the namespace, or the namespace end of a host link); with `nodeIp` null (no namespace) LiveKit picks the host's own
 * interface addresses. `bind` are the signalling addresses; `loopbackCandidate` adds 127.0.0.1 to the candidates.
 */
export function writeConfig({
  nodeIp = '10.203.0.1',
  port = LIVEKIT_PORT,
  rtcTcpPort = 7881,
  rtcUdpPort = 7882,
  bind = ['127.0.0.1'],
  loopbackCandidate = true,
} = {}) {
  const ips = nodeIp ? `  node_ip: ${nodeIp}\n  ips:\n    includes: [${nodeIp}/32]\n` : '';
  const rtc = `rtc:\n${ips}  use_external_ip: false\n  enable_loopback_candidate: ${loopbackCandidate}\n  tcp_port: ${rtcTcpPort}\n  udp_port: ${rtcUdpPort}\n`;
  const yaml = `port: ${port}\nbind_addresses: [${bind.join(', ')}]\n${rtc}turn:\n  enabled: false\nkeys:\n  ${LIVEKIT_KEYS.apiKey}: ${LIVEKIT_KEYS.apiSecret}\nlogging:\n  level: warn\n`;
  // A second server on another port (reliability tests) or another node IP (dev) gets its own config file.
  const suffix = `${port === LIVEKIT_PORT ? '' : `-${port}`}${nodeIp && nodeIp !== '10.203.0.1' ? `-${nodeIp}` : ''}`;
  const file = join(LIVEKIT_DIR, `${nodeIp ? 'livekit' : 'livekit-host'}${suffix}.yaml`);
  mkdirSync(LIVEKIT_DIR, { recursive: true });
  writeFileSync(file, yaml);
  return file;
}

/** Starts livekit-server and resolves once it answers HTTP on its port. Returns `{process, url, stop()}`. */
export async function startLivekit({
  nodeIp = process.env.LIVEAI_IN_NETNS === '1' ? '10.203.0.1' : null,
  port = LIVEKIT_PORT,
  stdio = 'ignore',
  rtcTcpPort = 7881,
  rtcUdpPort = 7882,
  bind,
  loopbackCandidate,
} = {}) {
  const config = writeConfig({ nodeIp, port, rtcTcpPort, rtcUdpPort, bind, loopbackCandidate });
  const child = spawn(installLivekit({ quiet: true }), ['--config', config], { stdio });
  let exited = null;
  child.on('exit', (code) => (exited = code));
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (exited !== null) throw new Error(`livekit-server exited with code ${exited}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/`);
      if (res.ok) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) {
      child.kill();
      throw new Error('livekit-server did not answer within 30 s');
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    process: child,
    url: `ws://127.0.0.1:${port}`,
    stop: () =>
      new Promise((r) => {
        if (exited !== null) return r();
        child.once('exit', () => r());
        // A second signal makes livekit-server skip its graceful drain; SIGKILL is the last resort.
        child.kill('SIGINT');
        setTimeout(() => exited === null && child.kill('SIGINT'), 500).unref();
        setTimeout(() => exited === null && child.kill('SIGKILL'), 3000).unref();
      }),
  };
}

/**
 * The LiveKit server a test needs: null when one already answers on LIVEKIT_URL (the test namespace's global setup
 * started it), else one installed and started here; the caller stops what it got (`await lk?.stop()`).
 */
export async function ensureLivekit() {
  const up = await fetch(LIVEKIT_URL.replace('ws', 'http')).then(
    (r) => r.ok,
    () => false,
  );
  if (up) return null;
  installLivekit({ quiet: true });
  return startLivekit();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const cmd = process.argv[2];
  try {
    if (cmd === 'install') {
      console.log(installLivekit());
    } else if (cmd === 'start') {
      const lk = await startLivekit({ stdio: 'inherit' });
      console.log(`livekit-server listening on ${lk.url}`);
      process.on('SIGINT', () => lk.stop().then(() => process.exit(0)));
      process.on('SIGTERM', () => lk.stop().then(() => process.exit(0)));
    } else {
      console.error('usage: node scripts/livekit.mjs install|start');
      process.exit(2);
    }
  } catch (e) {
    console.error(e.message);
    process.exit(1);
  }
}
