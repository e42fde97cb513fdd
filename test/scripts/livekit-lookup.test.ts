import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * Where `npm run dev` and `npm test` find the LiveKit server: LIVEKIT_BIN, then `livekit-server` on PATH (another
 * minor version with a warning), then the git-ignored cache, then `go install`; when none can work, the message names
 * every way to get it. Runs a copy of scripts/livekit.mjs in a temporary checkout, with stand-in binaries that print
 * a version.
 */
const ROOT = resolve(__dirname, '../..');
const tmp = mkdtempSync('/tmp/liveai-lk-lookup-');
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function fakeServer(dir: string, version: string, name = 'livekit-server') {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, name);
  writeFileSync(file, `#!/bin/sh\necho "livekit-server version ${version}"\n`);
  chmodSync(file, 0o755);
  return file;
}

function checkout(name: string) {
  const dir = join(tmp, name);
  mkdirSync(join(dir, 'scripts'), { recursive: true });
  copyFileSync(join(ROOT, 'scripts/livekit.mjs'), join(dir, 'scripts/livekit.mjs'));
  return dir;
}

/** `node scripts/livekit.mjs install` with only the given PATH entries (plus node's and the shell's). */
function install(dir: string, env: Record<string, string>, path: string[] = []) {
  const r = spawnSync(process.execPath, [join(dir, 'scripts/livekit.mjs'), 'install'], {
    encoding: 'utf8',
    env: { PATH: [...path, '/bin', '/usr/bin'].join(':'), GO: join(tmp, 'no-go'), ...env },
  });
  return { status: r.status, stdout: r.stdout.trim(), stderr: r.stderr };
}

describe('finding the LiveKit server', () => {
  it('LIVEKIT_BIN comes first', () => {
    const dir = checkout('a');
    const mine = fakeServer(join(tmp, 'mine'), '1.13.2');
    const onPath = join(tmp, 'path-a');
    fakeServer(onPath, '1.13.5');
    expect(install(dir, { LIVEKIT_BIN: mine }, [onPath])).toMatchObject({ status: 0, stdout: mine, stderr: '' });
  });

  it('then a livekit-server on PATH: the pinned minor version silently, another one with a warning', () => {
    const dir = checkout('b');
    const same = join(tmp, 'path-same');
    fakeServer(same, '1.13.9');
    expect(install(dir, {}, [same])).toMatchObject({ status: 0, stdout: join(same, 'livekit-server'), stderr: '' });
    const old = join(tmp, 'path-old');
    fakeServer(old, '1.9.0');
    const r = install(dir, {}, [old]);
    expect(r).toMatchObject({ status: 0, stdout: join(old, 'livekit-server') });
    expect(r.stderr).toContain('warning: using livekit-server v1.9.0 from PATH');
    expect(r.stderr).toContain('tested with v1.13.5');
  });

  it('then the cache, at the pinned version, as livekit-server (one that Go named `server` gets that name too)', () => {
    const dir = checkout('c');
    const bin = join(dir, '.cache/livekit/bin');
    fakeServer(bin, '1.13.5', 'server');
    expect(install(dir, {})).toMatchObject({ status: 0, stdout: join(bin, 'livekit-server') });
    expect(install(dir, {})).toMatchObject({ status: 0, stdout: join(bin, 'livekit-server') });
  });

  it('go install says what it builds and why, reports progress with an estimate, and names the binary livekit-server', () => {
    const dir = checkout('go');
    // A stand-in for Go: what `go install -v` prints on a clean machine (module downloads, then one line per package
    // compiled), then the binary Go names after its package.
    const go = join(tmp, 'fake-go');
    writeFileSync(
      go,
      [
        '#!/bin/sh',
        'i=0; while [ $i -lt 60 ]; do echo "go: downloading example.com/m$i v1.0.0" >&2; i=$((i+1)); done',
        'i=0; while [ $i -lt 790 ]; do echo "example.com/m$i/pkg" >&2; i=$((i+1)); done',
        `printf '#!/bin/sh\necho "livekit-server version 1.13.5"\n' > "$GOBIN/server"; chmod +x "$GOBIN/server"`,
      ].join('\n'),
    );
    chmodSync(go, 0o755);
    const r = install(dir, { GO: go });
    expect(r.status, r.stderr).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines.at(-1)).toBe(join(dir, '.cache/livekit/bin/livekit-server'));
    expect(r.stdout).toContain('LiveKit server v1.13.5 is not installed yet, so it is being built from source now.');
    expect(r.stdout).toContain('why: the local avatar service publishes its avatar into a real LiveKit room');
    expect(r.stdout).toContain('To skip it, set LIVEKIT_BIN');
    expect(r.stdout).toMatch(/: downloading Go modules \(25 so far\)/);
    const progress = lines.filter((l) => /compiled \d+ of ~790 packages/.test(l));
    expect(progress).toHaveLength(10);
    expect(progress[0]).toMatch(/compiled 79 of ~790 packages \(10%\), about .* left$/);
    expect(progress.at(-1)).toMatch(/compiled 790 of ~790 packages \(100%\)$/);
    expect(r.stdout).toMatch(/built \.cache\/livekit\/bin\/livekit-server in .* \(60 modules downloaded, 790 packages compiled\)/);
  });

  it("a failing go install ends with Go's own error and every other way to get the server", () => {
    const dir = checkout('go-fails');
    const go = join(tmp, 'failing-go');
    writeFileSync(go, '#!/bin/sh\necho "go: github.com/livekit/livekit-server@v1.13.5: no space left on device" >&2\nexit 1\n');
    chmodSync(go, 0o755);
    const r = install(dir, { GO: go });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('go install failed: go: github.com/livekit/livekit-server@v1.13.5: no space left on device');
    expect(r.stderr).toContain('brew install livekit');
  });

  it('then go install; without Go the message names Go, a release binary, Homebrew and Docker', () => {
    const dir = checkout('d');
    fakeServer(join(dir, '.cache/livekit/bin'), '1.12.0', 'server'); // an old cached one is not used
    const r = install(dir, {});
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(
      'LiveKit server v1.13.5 not found (no livekit-server on PATH, nothing in .cache/livekit, and no Go to install it)',
    );
    for (const way of [
      'Go >= 1.26',
      'releases/tag/v1.13.5',
      'brew install livekit',
      'docker create --name lk livekit/livekit-server:v1.13.5',
    ]) {
      expect(r.stderr).toContain(way);
    }
    expect(install(dir, { LIVEKIT_BIN: join(tmp, 'nothing-here') }).stderr).toContain('LIVEKIT_BIN=');
  });
});
