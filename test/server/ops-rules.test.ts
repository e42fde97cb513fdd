import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The shipped Prometheus rules are valid, and their fixtures (spend, refusals, service errors, store down) pass. */
const dir = fileURLToPath(new URL('../../ops/prometheus/', import.meta.url));
const hasPromtool = spawnSync('promtool', ['--version'], { stdio: 'ignore' }).status === 0;
if (!hasPromtool && process.env.CI === 'true') throw new Error('promtool is missing (apt-get install prometheus)');

describe.skipIf(!hasPromtool)('ops/prometheus/rules.yml', () => {
  it('passes promtool check rules', () => {
    const r = spawnSync('promtool', ['check', 'rules', 'rules.yml'], { cwd: dir, encoding: 'utf8' });
    expect(r.stdout + r.stderr).toContain('SUCCESS');
    expect(r.status).toBe(0);
  });
  it('passes promtool test rules with its fixtures', () => {
    const r = spawnSync('promtool', ['test', 'rules', 'rules.test.yml'], { cwd: dir, encoding: 'utf8' });
    expect(r.stdout + r.stderr).toContain('SUCCESS');
    expect(r.status).toBe(0);
  });
});
