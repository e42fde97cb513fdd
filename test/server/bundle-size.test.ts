import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Issue 6 budgets, measured by size-limit on the built package (CI runs `npm run build` before `npm test`):
 * each import scenario bundled, minified and gzipped; and a page that uses only rtc-b never loads livekit-client.
 */
const built = existsSync('dist/react.js') && existsSync('dist/components.js');
if (!built && process.env.CI === 'true') throw new Error('dist/ is missing: CI must run `npm run build` before `npm test`');

describe.skipIf(!built)('bundle budgets (size-limit)', () => {
  it('core + hooks ≤ 15 KB gz and components ≤ 35 KB gz (React, transports, zod and zustand excluded)', () => {
    const out = execFileSync('npx', ['size-limit', '--json'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    const rows = JSON.parse(out.slice(out.indexOf('['))) as { name: string; size: number; passed?: boolean }[];
    console.log(rows.map((r) => `${r.name}: ${(r.size / 1000).toFixed(1)} KB gz`).join('\n'));
    expect(rows.length).toBeGreaterThanOrEqual(5);
    for (const r of rows) expect(r.passed ?? true, r.name).toBe(true);
  });

  it('only the rtc-a chunk imports livekit-client and only the rtc-b chunk imports daily-js', () => {
    const files = ['index.js', 'react.js', 'components.js', 'element.js', 'testing.js', ...readdirSync('dist/chunks').filter((f) => f.endsWith('.js')).map((f) => `chunks/${f}`)];
    for (const f of files) {
      const code = readFileSync(join('dist', f), 'utf8');
      const importsLivekit = /from ["']livekit-client["']|import\(["']livekit-client["']\)/.test(code);
      const importsDaily = /from ["']@daily-co\/daily-js["']|import\(["']@daily-co\/daily-js["']\)/.test(code);
      expect(importsLivekit, f).toBe(f.startsWith('chunks/rtc-a-'));
      expect(importsDaily, f).toBe(f.startsWith('chunks/rtc-b-'));
    }
    // The transport chunks are reached only through dynamic import().
    const loader = readdirSync('dist/chunks').filter((f) => f.endsWith('.js')).map((f) => readFileSync(join('dist/chunks', f), 'utf8')).join('\n');
    expect(loader).toMatch(/import\(["']\.\/rtc-a-[^"']+\.js["']\)/);
    expect(loader).toMatch(/import\(["']\.\/rtc-b-[^"']+\.js["']\)/);
  });
});
