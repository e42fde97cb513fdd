// Network namespace helpers shared by `npm run dev` and `npm test`: can this machine make one, a host–namespace
// link that never collides with another run's, a TCP forwarder, and the clean-up of a namespace's processes.
import { spawnSync } from 'node:child_process';
import { readdirSync, readlinkSync } from 'node:fs';
import net from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const NETNS_RUN = join(dirname(fileURLToPath(import.meta.url)), 'netns-run.sh');
export const isRoot = () => process.getuid?.() === 0;

/**
 * Tries `unshare -n true` (`-rn` when not root) and `ip`. Returns `{ ok: true }` or `{ ok: false, reason }`.
 * LIVEAI_UNSHARE names another unshare binary (tests set it to `false` to act as a container without CAP_SYS_ADMIN).
 */
export function probeNamespace() {
  if (process.platform !== 'linux') return { ok: false, reason: `network namespaces are Linux only (this is ${process.platform})` };
  const unshare = process.env.LIVEAI_UNSHARE ?? 'unshare';
  const r = spawnSync(unshare, isRoot() ? ['-n', 'true'] : ['-r', '-n', 'true'], { encoding: 'utf8' });
  if (r.error) return { ok: false, reason: `${unshare} not found (util-linux)` };
  if (r.status !== 0) {
    const why = (r.stderr ?? '').trim().split('\n').pop() || `${unshare} -n failed`;
    return { ok: false, reason: `${why}; a container needs CAP_SYS_ADMIN (docker run --cap-add SYS_ADMIN)` };
  }
  if (spawnSync('ip', ['-V']).status !== 0) return { ok: false, reason: '`ip` not found (apt-get install -y iproute2)' };
  return { ok: true };
}

const toInt = (ip) => ip.split('.').reduce((a, o) => a * 256 + Number(o), 0);
const toIp = (n) => [24, 16, 8, 0].map((s) => Math.floor(n / 2 ** s) % 256).join('.');

/** Every IPv4 prefix routed on this side except the default route, as [start, end] integer ranges. */
function routedRanges() {
  const out = spawnSync('ip', ['-4', '-o', 'route', 'show', 'table', 'all'], { encoding: 'utf8' }).stdout ?? '';
  const ranges = [];
  for (const line of out.split('\n')) {
    const m = /^(?:\S+\s+)?(\d+\.\d+\.\d+\.\d+)(?:\/(\d+))?\s/.exec(line.replace(/^(local|broadcast|unicast)\s+/, ''));
    if (!m) continue;
    const bits = Number(m[2] ?? 32);
    const size = 2 ** (32 - bits);
    const start = Math.floor(toInt(m[1]) / size) * size;
    ranges.push([start, start + size - 1]);
  }
  return ranges;
}

/**
 * Host–namespace links live in 10.204.0.0/16 (the test namespaces' 10.203.0.0/24 never leaves its namespace), one
 * /30 per run: index i → interfaces lvh<i> (host end, .1) and lvn<i> (namespace end, .2). Starts from the process id
 * and skips every /30 that a route on this side already covers, so concurrent runs and the host's own networks
 * never collide; a race on the same index fails on the interface name and the caller tries the next one.
 */
export function* hostLinkCandidates(seed = process.pid) {
  const taken = routedRanges();
  const base = toInt('10.204.0.0');
  for (let k = 0; k < 64; k++) {
    const i = (seed + k * 97) % 16384;
    const start = base + i * 4;
    if (taken.some(([a, b]) => a <= start + 3 && start <= b)) continue;
    yield { index: i, hostIf: `lvh${i}`, nsIf: `lvn${i}`, hostIp: toIp(start + 1), nsIp: toIp(start + 2) };
  }
}

/** Listens on listenHost:port and pipes every TCP connection to target():port (HTTP and WebSocket alike). */
export function forwardTcp({ listenHost = '127.0.0.1', port, target, targetPort = port }) {
  const server = net.createServer((client) => {
    const upstream = net.connect(targetPort, typeof target === 'function' ? target() : target);
    client.pipe(upstream);
    upstream.pipe(client);
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  return new Promise((resolve, reject) => {
    server.once('error', (e) =>
      reject(new Error(e.code === 'EADDRINUSE' ? `${listenHost}:${port} is already in use (another npm run dev?)` : e.message)),
    );
    server.listen(port, listenHost, () => resolve(server));
  });
}

/** The network namespace inode of a process, e.g. 'net:[4026532281]'; null when it is gone. */
export function netnsOf(pid) {
  try {
    return readlinkSync(`/proc/${pid}/ns/net`);
  } catch {
    return null;
  }
}

/** SIGKILLs every process still inside the network namespace `ns` (from `netnsOf`), so the namespace goes away. */
export function killNamespace(ns) {
  if (!ns || ns === netnsOf(process.pid)) return;
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d) || netnsOf(d) !== ns) continue;
    try {
      process.kill(Number(d), 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
}
