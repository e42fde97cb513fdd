#!/usr/bin/env node
// The pinned LiveKit server: find it, or install it with `go install` into a git-ignored cache, and start it with
// the project's config. It is looked up in this order:
//   1. LIVEKIT_BIN;
//   2. `livekit-server` on PATH (used with a warning unless it is v1.13.x);
//   3. the git-ignored cache .cache/livekit/bin/livekit-server (at the pinned version);
//   4. `go install github.com/livekit/livekit-server/cmd/server@v1.13.5` into that cache (needs Go >= 1.26); Go
//      names the binary after its package (`server`), so it is renamed `livekit-server`, the name every hint uses.
//      It takes minutes on a clean machine, so it says what it builds and why, and reports progress with an estimate.
// When none works, the error names every way to get it (Go, a release binary, Homebrew, Docker).
// Usage:
//   node scripts/livekit.mjs install        # idempotent; prints the binary's path
//   node scripts/livekit.mjs start          # foreground
import { spawn, execFileSync, spawnSync } from 'node:child_process';
import { existsSync, linkSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const LIVEKIT_VERSION = 'v1.13.5';
const MINOR = LIVEKIT_VERSION.split('.').slice(0, 2).join('.'); // v1.13
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const LIVEKIT_DIR = join(root, '.cache', 'livekit');
const CACHE_BIN = join(LIVEKIT_DIR, 'bin', 'livekit-server');
// What `go install` writes (and what older checkouts sharing this cache look for).
const GO_BIN = join(LIVEKIT_DIR, 'bin', 'server');
const GO_PACKAGE = `github.com/livekit/livekit-server/cmd/server@${LIVEKIT_VERSION}`;
// `go list -deps ./cmd/server | wc -l` in livekit-server v1.13.5 (567 of its own and its modules', 223 of Go's):
// every one is compiled on a machine with an empty Go build cache. The estimate of progress is against this.
const GO_PACKAGES = 790;
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
  if (versionOf(GO_BIN) === LIVEKIT_VERSION) {
    // Installed by an older checkout under Go's name: the same file under the name the hints use.
    linkSync(GO_BIN, CACHE_BIN);
    return (resolved = process.env.LIVEKIT_BIN = CACHE_BIN);
  }
  const go = findGo();
  if (!go) throw new Error(howToGetLivekit('no livekit-server on PATH, nothing in .cache/livekit, and no Go to install it'));
  // In a child process, so this function stays synchronous for its callers while the child reports progress (on
  // stderr when quiet: a test run that installs it must not look hung either).
  const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), 'go-install', go], {
    stdio: ['ignore', quiet ? 2 : 'inherit', 'pipe'],
    encoding: 'utf8',
  });
  if (r.stderr && !quiet) process.stderr.write(r.stderr);
  if (r.status !== 0 || versionOf(CACHE_BIN) !== LIVEKIT_VERSION) {
    const tail = `${r.stderr ?? ''}`
      .trim()
      .split('\n')
      .filter((l) => !l.startsWith('[livekit] '))
      .slice(-3)
      .join(' / ');
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

const minSec = (ms) => {
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
};

/**
 * `go install -v` of the pinned server into the cache, saying what it builds and why, then a progress line at every
 * tenth of the packages compiled (with the time left at the rate so far), every 25 modules downloaded, and at least
 * every 15 s, so a first run never looks hung. Go's own output is kept for the error when it fails.
 */
async function goInstall(go) {
  const out = (m) => process.stdout.write(`[livekit] ${m}\n`);
  out(`LiveKit server ${LIVEKIT_VERSION} is not installed yet, so it is being built from source now.`);
  out(`  why: the local avatar service publishes its avatar into a real LiveKit room, and that room needs this server;`);
  out(`  what: go install ${GO_PACKAGE} (${go}): downloads its Go modules, then compiles ~${GO_PACKAGES} packages`);
  out(`  into .cache/livekit/bin/livekit-server. First run only: about 10-15 min on 2 cores with empty Go caches, far`);
  out(`  less with warm ones; later runs start at once. To skip it, set LIVEKIT_BIN to a livekit-server ${LIVEKIT_VERSION}`);
  out(`  binary (https://github.com/livekit/livekit/releases/tag/${LIVEKIT_VERSION}, or brew install livekit).`);
  mkdirSync(join(LIVEKIT_DIR, 'bin'), { recursive: true });
  const started = Date.now();
  let modules = 0;
  let packages = 0;
  let compileStart = 0;
  let lastReport = started;
  const tail = [];
  const report = () => {
    lastReport = Date.now();
    const elapsed = minSec(lastReport - started);
    if (!packages) return out(`${elapsed}: downloading Go modules (${modules} so far)`);
    const done = Math.min(packages, GO_PACKAGES);
    const rate = (lastReport - compileStart) / packages;
    const left = packages >= 20 && done < GO_PACKAGES ? `, about ${minSec(rate * (GO_PACKAGES - done))} left` : '';
    out(`${elapsed}: compiled ${packages} of ~${GO_PACKAGES} packages (${Math.round((100 * done) / GO_PACKAGES)}%)${left}`);
  };
  const heartbeat = setInterval(() => Date.now() - lastReport >= 15_000 && report(), 1000);
  const child = spawn(go, ['install', '-v', GO_PACKAGE], {
    stdio: ['ignore', 'inherit', 'pipe'],
    // -trimpath keeps source paths out of the build cache's keys, so a second install from another module cache
    // (a fresh clone with its own GOMODCACHE) links from Go's warm build cache instead of compiling everything again.
    env: {
      ...process.env,
      GOBIN: join(LIVEKIT_DIR, 'bin'),
      GOFLAGS: [process.env.GOFLAGS, '-mod=mod', '-trimpath'].filter(Boolean).join(' '),
    },
    cwd: LIVEKIT_DIR,
  });
  let buffered = '';
  child.stderr.on('data', (chunk) => {
    buffered += chunk;
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const line of lines) {
      tail.push(line);
      if (tail.length > 20) tail.shift();
      if (line.startsWith('go: downloading ')) {
        if (++modules % 25 === 0) report();
      } else if (/^[\w.-]+(\/[\w.~+-]+)*$/.test(line)) {
        // `-v` prints each package's import path as it is compiled.
        if (!packages++) compileStart = Date.now();
        if (packages % Math.ceil(GO_PACKAGES / 10) === 0) report();
      }
    }
  });
  const code = await new Promise((r) => child.on('close', (c) => r(c ?? 1)));
  clearInterval(heartbeat);
  if (code !== 0) {
    process.stderr.write(`${[...tail, buffered].filter(Boolean).join('\n')}\n`);
    return 1;
  }
  renameSync(GO_BIN, CACHE_BIN);
  out(
    `built .cache/livekit/bin/livekit-server in ${minSec(Date.now() - started)} (${modules} modules downloaded, ${packages} packages compiled)`,
  );
  return 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const cmd = process.argv[2];
  try {
    if (cmd === 'go-install') {
      process.exitCode = await goInstall(process.argv[3]);
    } else if (cmd === 'install') {
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
