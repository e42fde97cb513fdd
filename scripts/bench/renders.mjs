// Row 4 of `npm run bench`: runs scripts/bench/renders.bench.tsx `runs` times through vitest (jsdom) and returns
// the results: [{ events, lines, ms, counts: { AvatarStage, TranscriptPanel, WholeStore } }] (counts = commits).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function measureRenders(root, { runs = 5 } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'liveai-renders-'));
  try {
    const out = join(dir, 'renders.json');
    const r = spawnSync('npx', ['vitest', 'run', '--config', 'scripts/bench/renders.config.mjs', '--reporter=dot'], {
      cwd: root,
      env: { ...process.env, LIVEAI_BENCH_OUT: out, LIVEAI_BENCH_RUNS: String(runs) },
      encoding: 'utf8',
    });
    if (r.status !== 0) throw new Error(`renders bench failed:\n${r.stdout}\n${r.stderr}`);
    return JSON.parse(readFileSync(out, 'utf8'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
