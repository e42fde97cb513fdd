// An impaired link for benches and tests inside the private network namespace (scripts/netns-run.sh): this
// kernel has no netem, so relay.py (Python standard library) forwards every packet between an inner namespace and
// this one through two TUN devices, each way delayed by `delayMs` ± `jitterMs` (uniform, order kept) and dropped
// with probability `loss`. Anything started in the inner namespace — a browser, a probe — reaches every address of
// this namespace (LiveKit on 10.203.0.1, a server on 0.0.0.0) only over that link; loopback (127.0.0.1) in the inner
// namespace is its own, so it must use `outer` or another address of this namespace.
//   const link = await startImpairedLink({ delayMs: 40, jitterMs: 10, loss: 0.02 });
//   spawn(...link.command('node', ['probe.mjs']));   // runs inside the inner namespace
//   await link.close();
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const RELAY = join(dirname(fileURLToPath(import.meta.url)), 'relay.py');

/** python3 on PATH, or an error that says how to get it. */
export function checkPython() {
  const r = spawnSync('python3', ['--version'], { stdio: 'ignore' });
  if (r.status !== 0) throw new Error('the impaired link needs python3 (standard library only). Run: sudo apt-get install -y python3');
}

/**
 * Starts the relay. Options (all optional): `delayMs` one-way delay (40), `jitterMs` (10), `loss` per packet and
 * direction (0.02), `seed` (1), `name` TUN prefix (imp0; one link per name), `innerIp` (10.205.0.2), `outerIp`
 * (10.205.0.1). Resolves with `{ pid, inner, outer, command(file, args), chromium(path), stats(), close() }`:
 * `command` gives [file, args] for spawn that run inside the inner namespace; `chromium` writes a launcher script
 * for a browser (playwright's executablePath) and returns its path; `stats` resolves with the relay's counters
 * `{ up, down }` (each `{ packets, dropped, bytes }`; up = inner → outer). Rejects outside the private namespace.
 */
export async function startImpairedLink(o = {}) {
  if (process.env.LIVEAI_IN_NETNS !== '1')
    throw new Error('startImpairedLink: run inside the private network namespace (scripts/netns-run.sh)');
  checkPython();
  const args = [
    RELAY,
    ['--delay-ms', o.delayMs ?? 40],
    ['--jitter-ms', o.jitterMs ?? 10],
    ['--loss', o.loss ?? 0.02],
    ['--seed', o.seed ?? 1],
    ['--name', o.name ?? 'imp0'],
    ['--inner-ip', o.innerIp ?? '10.205.0.2'],
    ['--outer-ip', o.outerIp ?? '10.205.0.1'],
  ]
    .flat()
    .map(String);
  const child = spawn('python3', args, { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout });
  const waiting = [];
  lines.on('line', (l) => waiting.shift()?.(JSON.parse(l)));
  const exited = new Promise((r) => child.once('exit', (code) => r(code)));
  const ready = await Promise.race([
    new Promise((r) => waiting.push(r)),
    exited.then((code) => Promise.reject(new Error(`relay.py exited with ${code} before the link was up`))),
  ]);
  const dir = mkdtempSync(join(tmpdir(), 'liveai-impair-'));
  const command = (file, fileArgs = []) => ['nsenter', ['-t', String(ready.pid), '-n', '--', file, ...fileArgs]];
  return {
    pid: ready.pid,
    inner: ready.inner,
    outer: ready.outer,
    command,
    chromium(path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium') {
      const file = join(dir, 'chromium');
      writeFileSync(file, `#!/bin/sh\nexec nsenter -t ${ready.pid} -n -- ${JSON.stringify(path)} "$@"\n`);
      chmodSync(file, 0o755);
      return file;
    },
    stats() {
      const p = new Promise((r) => waiting.push(r));
      child.stdin.write('stats\n');
      return p;
    },
    async close() {
      child.stdin.end();
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
