#!/usr/bin/env node
// The pinned LiveKit server (architecture §6): install it with `go install` into a git-ignored cache, and
// start it with the project's config. Usage:
//   node scripts/livekit.mjs install        # idempotent
//   node scripts/livekit.mjs start          # foreground, inside the network namespace
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const LIVEKIT_VERSION = 'v1.13.5';
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const LIVEKIT_DIR = join(root, '.cache', 'livekit');
export const LIVEKIT_BIN = process.env.LIVEKIT_BIN ?? join(LIVEKIT_DIR, 'bin', 'server');
export const LIVEKIT_KEYS = { apiKey: 'devkey', apiSecret: 'secret' };
export const LIVEKIT_PORT = 7880;
export const LIVEKIT_URL = `ws://127.0.0.1:${LIVEKIT_PORT}`;

function installedVersion() {
  if (!existsSync(LIVEKIT_BIN)) return null;
  try {
    return execFileSync(LIVEKIT_BIN, ['--version'], { encoding: 'utf8' }).trim().split(' ').pop();
  } catch {
    return null;
  }
}

/** Installs livekit-server at the pinned version unless it is already there. Throws with the go output on failure. */
export function installLivekit({ quiet = false } = {}) {
  const have = installedVersion();
  if (have && `v${have}` === LIVEKIT_VERSION) return LIVEKIT_BIN;
  const go = process.env.GO ?? (existsSync('/usr/local/go/bin/go') ? '/usr/local/go/bin/go' : 'go');
  if (!quiet) console.log(`installing livekit-server ${LIVEKIT_VERSION} with go install (first run takes a few minutes)…`);
  mkdirSync(join(LIVEKIT_DIR, 'bin'), { recursive: true });
  execFileSync(go, ['install', `github.com/livekit/livekit-server/cmd/server@${LIVEKIT_VERSION}`], {
    stdio: quiet ? 'pipe' : 'inherit',
    env: { ...process.env, GOBIN: join(LIVEKIT_DIR, 'bin'), GOFLAGS: '-mod=mod' },
    cwd: LIVEKIT_DIR,
  });
  return LIVEKIT_BIN;
}

/**
 * Writes the config of architecture §6. With `nodeIp` null (a laptop, no namespace) LiveKit picks the host's
 * own interface addresses instead of the veth one.
 */
export function writeConfig({ nodeIp = '10.203.0.1', port = LIVEKIT_PORT, rtcTcpPort = 7881, rtcUdpPort = 7882 } = {}) {
  const rtc = nodeIp
    ? `rtc:\n  node_ip: ${nodeIp}\n  ips:\n    includes: [${nodeIp}/32]\n  use_external_ip: false\n  enable_loopback_candidate: true\n  tcp_port: ${rtcTcpPort}\n  udp_port: ${rtcUdpPort}\n`
    : `rtc:\n  use_external_ip: false\n  enable_loopback_candidate: true\n  tcp_port: ${rtcTcpPort}\n  udp_port: ${rtcUdpPort}\n`;
  const yaml = `port: ${port}\nbind_addresses: [127.0.0.1]\n${rtc}turn:\n  enabled: false\nkeys:\n  ${LIVEKIT_KEYS.apiKey}: ${LIVEKIT_KEYS.apiSecret}\nlogging:\n  level: warn\n`;
  // A second server on another port (reliability tests) gets its own config file.
  const suffix = port === LIVEKIT_PORT ? '' : `-${port}`;
  const file = join(LIVEKIT_DIR, `${nodeIp ? 'livekit' : 'livekit-host'}${suffix}.yaml`);
  mkdirSync(LIVEKIT_DIR, { recursive: true });
  writeFileSync(file, yaml);
  return file;
}

/** Starts livekit-server and resolves once it answers HTTP on its port. Returns `{process, url, stop()}`. */
export async function startLivekit({ nodeIp = process.env.LIVEAI_IN_NETNS === '1' ? '10.203.0.1' : null, port = LIVEKIT_PORT, stdio = 'ignore', rtcTcpPort = 7881, rtcUdpPort = 7882 } = {}) {
  const config = writeConfig({ nodeIp, port, rtcTcpPort, rtcUdpPort });
  const child = spawn(LIVEKIT_BIN, ['--config', config], { stdio });
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

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const cmd = process.argv[2];
  if (cmd === 'install') {
    console.log(installLivekit());
  } else if (cmd === 'start') {
    installLivekit();
    const lk = await startLivekit({ stdio: 'inherit' });
    console.log(`livekit-server ${LIVEKIT_VERSION} listening on ${lk.url}`);
    process.on('SIGINT', () => lk.stop().then(() => process.exit(0)));
    process.on('SIGTERM', () => lk.stop().then(() => process.exit(0)));
  } else {
    console.error('usage: node scripts/livekit.mjs install|start');
    process.exit(2);
  }
}
