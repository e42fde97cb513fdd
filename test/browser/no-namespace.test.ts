import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startDevOnHostSide, userEnv } from '../first-run/dev-process';

/**
 * A machine where no network namespace can be made (a container without CAP_SYS_ADMIN), acted out with
 * LIVEAI_UNSHARE=false: `npm test` and `npm run dev` fall back to the host's loopback and say so in one line.
 * Each runs in a fresh namespace of its own, which plays the host (this suite's namespace already has a LiveKit on 7880).
 */
const ROOT = resolve(__dirname, '../..');
const onHost = (script: string) => ['-n', '--', 'bash', '-c', `ip link set lo up; ${script}`];

describe('no network namespace on this machine', () => {
  it('npm test says so in one line and runs the non-media tiers on loopback; with CI=true that fails the run', () => {
    const dir = mkdtempSync('/tmp/liveai-nons-');
    try {
      const env = userEnv(['CI'], { LIVEAI_UNSHARE: 'false', LIVEAI_TEST_RESULTS: join(dir, 'vitest.json') });
      const args = ['--project', 'unit', 'test/unit/core/pure.test.ts'];
      const r = spawnSync('unshare', onHost(`exec node scripts/test.mjs ${args.join(' ')}`), { cwd: ROOT, env, encoding: 'utf8' });
      const lines = `${r.stdout}${r.stderr}`.split('\n');
      expect(lines.filter((l) => l.startsWith('test: no network namespace here ('))).toHaveLength(1);
      expect(lines.join('\n')).toMatch(
        /running the tiers without media \(unit, server, soak, consumer\) on the host's loopback; the media tiers .* need one — run as root, or the container with --cap-add SYS_ADMIN/,
      );
      expect(lines.join('\n')).toMatch(/\d+ passed, 0 failed/);
      expect(r.status).toBe(0);

      const inCi = spawnSync('unshare', onHost(`exec node scripts/test.mjs ${args.join(' ')}`), {
        cwd: ROOT,
        env: { ...env, CI: 'true' },
        encoding: 'utf8',
      });
      expect(inCi.stderr).toContain('CI=true: the media tiers could not run without a network namespace.');
      expect(inCi.status).toBe(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 300_000);

  it('npm run dev says so in one line, says what media needs here, and its playground answers on loopback', async () => {
    const dev = await startDevOnHostSide('exec node scripts/dev.mjs', { cwd: ROOT, env: userEnv(['CI'], { LIVEAI_UNSHARE: 'false' }) });
    try {
      const { url } = dev;
      const line = dev
        .output()
        .split('\n')
        .filter((l) => l.startsWith('dev: no network namespace here ('));
      expect(line).toHaveLength(1);
      // This namespace has loopback only: the avatar (which needs a non-loopback address) cannot send media here.
      expect(line[0]).toMatch(
        /running on the host network, every service on 127\.0\.0\.1; media needs a network interface besides loopback, or a namespace \(docker run --cap-add SYS_ADMIN\)\.$/,
      );
      const fetchThere = `fetch(${JSON.stringify(url)}).then((r) => console.log(r.status))`;
      const status = spawnSync('nsenter', ['-t', String(dev.process.pid), '-n', process.execPath, '-e', fetchThere], { encoding: 'utf8' });
      expect(status.stdout.trim()).toBe('200');
    } finally {
      await dev.stop();
    }
  }, 300_000);
});
