import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startDevOnHostSide, userEnv, type DevRun } from '../first-run/dev-process';

/**
 * The first run of a new user, on a fresh clone: `npm ci`, then `npm run dev` with an empty LiveKit cache and an
 * empty Go module cache, until it prints the playground URL. Then, from the HOST side of dev's namespace — a network
 * namespace this test makes, with only loopback, the host–namespace link dev creates, and a fake uplink carrying a
 * default route (a veth to nowhere, so nothing leaves) — the URL answers and a Chromium there sees the avatar's video.
 * Every ICE candidate LiveKit hands that browser must be reached without the default route: a candidate of a
 * namespace-only interface (10.203.0.x, or any address dev does not link to the host) would take it and fail this test.
 *
 * Offline by design (the test runs inside `npm test`'s namespace): npm installs from its cache (`--offline`), and Go
 * reads modules from the machine's warm module cache as a read-only proxy (GOPROXY=file://…), into a temporary
 * GOMODCACHE; Go's build cache is reused, so installing LiveKit links rather than compiles everything.
 */
const ROOT = resolve(__dirname, '../..');
const GATEWAY = '10.250.0.1';
const OUT = join(ROOT, 'test-results', 'first-run');

function goModCache(): string | null {
  try {
    const go = ['/usr/local/go/bin/go', 'go'].find((g) => g === 'go' || existsSync(g))!;
    const dir = execFileSync(go, ['env', 'GOMODCACHE'], { encoding: 'utf8' }).trim();
    return existsSync(join(dir, 'cache/download/github.com/livekit/livekit-server/@v/v1.13.5.zip')) ? dir : null;
  } catch {
    return null;
  }
}

/** Runs a command, resolving with its exit code and output once it exits. */
function run(cmd: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv }) {
  return new Promise<{ code: number | null; output: string }>((r) => {
    const c = spawn(cmd, args, { ...opts, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    c.stdout.on('data', (b: Buffer) => (output += b.toString()));
    c.stderr.on('data', (b: Buffer) => (output += b.toString()));
    c.on('exit', (code) => r({ code, output }));
  });
}

describe('first run on a fresh clone', () => {
  it('npm ci && npm run dev: the printed URL opens on the host side, whose browser sees the avatar over the host link', async () => {
    mkdirSync(OUT, { recursive: true });
    const tmp = mkdtempSync('/tmp/liveai-first-run-');
    const repo = join(tmp, 'repo');
    let dev: DevRun | undefined;
    try {
      execFileSync('git', ['clone', '-q', ROOT, repo]);
      expect(existsSync(join(repo, '.cache'))).toBe(false); // empty LiveKit cache
      // A new user's environment: none of this suite's namespace settings, no LiveKit on PATH or in LIVEKIT_BIN.
      const env = userEnv(['LIVEKIT_BIN', 'NODE_ENV']);
      env.PATH = (env.PATH ?? '')
        .split(delimiter)
        .filter((d) => !existsSync(join(d, 'livekit-server')))
        .join(delimiter);
      const mods = goModCache();
      if (mods) {
        Object.assign(env, {
          GOMODCACHE: join(tmp, 'gomod'),
          GOPROXY: `file://${mods}/cache/download`,
          GOSUMDB: 'off',
          GOFLAGS: '-mod=mod',
          GOTOOLCHAIN: 'local',
        });
      } else {
        // No Go module cache to install from offline: the rest of the first run is still checked, with the suite's LiveKit.
        if (process.env.CI === 'true')
          throw new Error('CI=true: the first-run test needs Go and a module cache holding livekit-server v1.13.5 (.ci/run installs it)');
        console.warn('first run: no warm Go module cache; using LIVEKIT_BIN instead of go install');
        env.LIVEKIT_BIN = process.env.LIVEKIT_BIN;
      }

      let t = Date.now();
      const ci = await run('npm', ['ci', '--offline', '--no-audit', '--no-fund'], { cwd: repo, env });
      const notCached = /ENOTCACHED[^\n]*/.exec(ci.output)?.[0];
      // This test runs without network: `npm ci` must find every package in npm's cache (.ci/run's `npm ci` fills it).
      if (notCached) throw new Error(`npm's cache lacks a package (run \`npm ci\` once with network, as .ci/run does): ${notCached}`);
      expect(ci.code, ci.output.slice(-3000)).toBe(0);
      const npmCiS = (Date.now() - t) / 1000;

      // The host side: its own namespace with loopback, an uplink and a default route through it. The uplink is a
      // veth whose other end has no address: what takes the default route goes nowhere.
      t = Date.now();
      const uplink = `ip link add uplink0 type veth peer name uplink1; ip addr add 10.250.0.2/24 dev uplink0;
        ip link set uplink0 up; ip link set uplink1 up; ip route add default via ${GATEWAY}`;
      dev = await startDevOnHostSide(`${uplink}; exec npm run dev`, { cwd: repo, env });
      const { url } = dev;
      const devS = (Date.now() - t) / 1000;
      expect(url).toBe('http://127.0.0.1:6006/?path=/story/live-playground--widget');
      if (mods) {
        // It says what it builds and why, and names the binary as every hint does.
        expect(dev.output()).toContain('LiveKit server v1.13.5 is not installed yet, so it is being built from source now.');
        expect(dev.output()).toMatch(/built \.cache\/livekit\/bin\/livekit-server in /);
        expect(existsSync(join(repo, '.cache/livekit/bin/livekit-server'))).toBe(true);
      }

      const png = join(OUT, 'host-browser.png');
      const look = spawnSync(
        'nsenter',
        ['-t', String(dev.process.pid), '-n', process.execPath, join(ROOT, 'test/first-run/host-browser.mjs'), url, png],
        {
          encoding: 'utf8',
          env: { ...env, CHROMIUM_PATH: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' },
          timeout: 240_000,
        },
      );
      const res = JSON.parse(look.stdout.trim().split('\n').pop() ?? '{}') as {
        status: number;
        framesDecoded: number;
        frameWidth: number;
        error: string | null;
        image: number;
        faults: number;
        favicon: number;
        failedAnswers: string[];
        defaultRoute: string;
        namespaceOnlyRoute: string;
        candidates: Array<{ address: string; route: string; lines: string[] }>;
      };
      writeFileSync(join(OUT, 'result.json'), JSON.stringify({ npmCiS, devS, url, ...res }, null, 2));

      expect(res.error, look.stderr).toBeNull();
      expect(res.status).toBe(200);
      // The local service's port is forwarded too: the session image and fault injection work from this side.
      expect(res.image).toBe(200);
      expect(res.faults).toBe(200);
      expect(res.favicon).toBe(200);
      expect(res.failedAnswers).toEqual([]);
      // Issue 39.9: "ready" comes once the playground renders (dev loads it once itself), so the user's first open
      // waits on no dependency optimization: Vite's optimizer ran before the line, and never after it.
      const [beforeReady, afterReady] = dev.output().split('playground ready');
      expect(beforeReady).toMatch(/\[dev\] the playground renders/);
      expect(afterReady).not.toMatch(/optimizer|dependencies optimized|optimized dependencies/i);
      expect(dev.output()).not.toMatch(/"level":20/);
      expect(res.defaultRoute).toContain(`via ${GATEWAY}`);
      // The check below would catch a namespace-only address: the host side reaches 10.203.0.1 via its gateway.
      expect(res.namespaceOnlyRoute).toContain(`via ${GATEWAY}`);
      expect(res.framesDecoded).toBeGreaterThan(0);
      expect(res.frameWidth).toBe(368);
      expect(res.candidates.length).toBeGreaterThan(0);
      for (const c of res.candidates) {
        // Reached directly over a link of the host side, never through its default gateway.
        expect(c.route, `${c.address}: ${c.lines.join(' | ')}`).not.toMatch(/unreachable| via /);
        expect(c.route).toMatch(/ dev lvh\d+ /);
      }
    } finally {
      await dev?.stop();
      // Go writes its module cache read-only.
      spawnSync('chmod', ['-R', 'u+w', tmp]);
      rmSync(tmp, { recursive: true, force: true });
      expect(readdirSync('/tmp').filter((d) => d === tmp.slice(5))).toEqual([]);
    }
  }, 1_500_000);
});
