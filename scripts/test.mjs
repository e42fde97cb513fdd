#!/usr/bin/env node
// `npm test`: every tier (architecture §7) — unit, server (proxy + emulator + property tests), browser
// (real LiveKit + real Chromium + emulator) — inside a private network namespace (architecture §6).
// With CI=true a missing prerequisite is a failure, never a skip.
// Extra arguments go to vitest, e.g. `npm test -- --project unit`.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { installLivekit } from './livekit.mjs';

const ci = process.env.CI === 'true' || process.env.CI === '1';
const problems = [];
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(chromium)) problems.push(`Chromium not found at ${chromium} (Debian: apt-get install -y chromium)`);
if (spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status !== 0) problems.push('redis-server not found (Debian: apt-get install -y redis-server)');
try {
  installLivekit();
} catch (e) {
  problems.push(`LiveKit server ${'v1.13.5'} could not be installed: ${e.message}`);
}
const nsOk = spawnSync('scripts/netns-run.sh', ['true'], { stdio: 'ignore' }).status === 0;
if (!nsOk) problems.push('cannot create a private network namespace (needs unshare and ip from iproute2, as root or with user namespaces)');

let args = process.argv.slice(2);
if (problems.length) {
  for (const p of problems) console.error(`prerequisite missing: ${p}`);
  if (ci) {
    console.error('CI=true: a missing prerequisite fails the run.');
    process.exit(1);
  }
  if (!nsOk) {
    console.error('SKIPPING the browser tier (not CI). Install the prerequisites to run everything.');
    args = ['--project', 'unit', '--project', 'server', ...args];
  }
}

// Consumer tier (i11): pack the packages and install the consumer apps from the registry here, OUTSIDE the
// namespace (it has no network); the tests then build and run them inside it.
const projects = args.flatMap((a, i) => (args[i - 1] === '--project' ? [a] : a.startsWith('--project=') ? [a.slice(10)] : []));
if (projects.length === 0 || projects.includes('consumer')) {
  const prep = spawnSync(process.execPath, ['test/consumer/prepare.mjs'], { stdio: 'inherit' });
  if (prep.status !== 0) {
    console.error('the consumer tier could not be prepared (test/consumer/prepare.mjs failed)');
    process.exit(1);
  }
}

mkdirSync('test-results', { recursive: true });
const vitest = ['npx', 'vitest', 'run', '--reporter=default', '--reporter=json', '--outputFile.json=test-results/vitest.json', ...args];
const cmd = nsOk ? ['scripts/netns-run.sh', ...vitest] : vitest;
const run = spawnSync(cmd[0], cmd.slice(1), { stdio: 'inherit', env: { ...process.env, CHROMIUM_PATH: chromium } });

// One plain closing line that any CI reader understands.
try {
  const r = JSON.parse(readFileSync('test-results/vitest.json', 'utf8'));
  const skipped = (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
  console.log(`\n${r.numPassedTests} passed, ${r.numFailedTests} failed, ${skipped} skipped`);
  if (r.numTotalTests === 0) process.exit(1);
} catch {
  console.log('\n0 passed, 1 failed');
  process.exit(1);
}
process.exit(run.status ?? 1);
