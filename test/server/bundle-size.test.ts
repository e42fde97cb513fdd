import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Issue 6 budgets, measured by size-limit on the built package (CI runs `npm run build` before `npm test`):
 * each import scenario bundled, minified and gzipped, with only React and the transport SDKs excluded — zod and
 * zustand are counted. "First load" is the entry plus its static imports; `import()` chunks (transport adapters when a
 * session starts, zod validation only for malformed data or control events) are reported in their own rows
 * (.size-limit.cjs).
 * And a page that uses only Daily never loads livekit-client.
 */
const built = existsSync('dist/react.js') && existsSync('dist/components.js');
if (!built && process.env.CI === 'true') throw new Error('dist/ is missing: CI must run `npm run build` before `npm test`');

describe.skipIf(!built)('bundle budgets (size-limit)', () => {
  it('first load with zod and zustand counted (only React and the transport SDKs excluded): core + hooks ≤ 15 kB gz, components ≤ 35 kB gz', () => {
    const out = execFileSync('npx', ['size-limit', '--json'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    const rows = JSON.parse(out.slice(out.indexOf('['))) as { name: string; size: number; sizeLimit?: number; passed?: boolean }[];
    const budget = (prefix: string) => rows.find((r) => r.name.startsWith(prefix));
    expect(budget('core + hooks, first load (')?.sizeLimit).toBe(15_000);
    expect(budget('components, first load (')?.sizeLimit).toBe(35_000);
    for (const r of rows) expect(r.passed ?? true, `${r.name}: ${r.size} bytes`).toBe(true);
  });

  it('a page that imports liveai-kit, liveai-kit/react or liveai-kit/components, and a call over either transport, loads no zod', () => {
    const staticImports = (file: string) =>
      [...readFileSync(file, 'utf8').matchAll(/(?:\bfrom\s*|\bimport\s*)["']([^"']+)["']/g)].map((m) => m[1]!);
    const seen = new Set<string>();
    const bare = new Set<string>();
    const walk = (file: string, into = seen, packages = bare) => {
      if (into.has(file)) return;
      into.add(file);
      for (const spec of staticImports(file)) {
        if (spec.startsWith('.')) walk(join(dirname(file), spec), into, packages);
        else packages.add(spec);
      }
    };
    const adapters = readdirSync('dist/chunks').filter((f) => /^(livekit|daily)-adapter-[A-Za-z0-9_-]{8}\.js$/.test(f));
    expect(adapters).toHaveLength(2);
    for (const entry of ['index.js', 'react.js', 'components.js', ...adapters.map((f) => `chunks/${f}`)]) walk(join('dist', entry));
    expect([...bare].filter((s) => s === 'zod' || s.startsWith('zod/'))).toEqual([]);
    expect(bare.has('zustand/vanilla')).toBe(true); // the store is part of the first load, and counted
    // …and the engine reaches the validation chunk only through import() (for control events and session lists).
    const engine = [...seen].map((f) => readFileSync(f, 'utf8')).join('\n');
    expect(engine).toMatch(/import\(["'](?:\.\.?\/)+schemas\.js["']\)/);
    // The schemas entry (a facade when another entry shares its module) loads the validator statically.
    const validation = new Set<string>();
    walk('dist/schemas.js', new Set(), validation);
    expect(validation.has('valibot')).toBe(true);
  });

  it('only the LiveKit adapter chunk imports livekit-client, only the Daily one daily-js, and only liveai-kit/livekit and liveai-kit/daily reach them', () => {
    const files = [
      'index.js',
      'react.js',
      'components.js',
      'element.js',
      'testing.js',
      'schemas.js',
      'livekit.js',
      'daily.js',
      ...readdirSync('dist/chunks')
        .filter((f) => f.endsWith('.js'))
        .map((f) => `chunks/${f}`),
    ];
    const importing = (re: RegExp) => files.filter((f) => existsSync(join('dist', f)) && re.test(readFileSync(join('dist', f), 'utf8')));
    const livekit = importing(/from ["']livekit-client["']|import\(["']livekit-client["']\)/);
    const daily = importing(/from ["']@daily-co\/daily-js["']|import\(["']@daily-co\/daily-js["']\)/);
    expect(livekit.length).toBeGreaterThan(0);
    expect(daily.length).toBeGreaterThan(0);
    for (const f of livekit) expect(f).toMatch(/^chunks\/livekit-adapter-/);
    for (const f of daily) expect(f).toMatch(/^chunks\/daily-adapter-/);
    // The adapter chunks are reached only through import() from their own transport entry.
    expect(importing(/["'](?:\.\/|\.\/chunks\/)livekit-adapter-[A-Za-z0-9_-]{8}\.js["']/)).toEqual(['livekit.js']);
    expect(importing(/["'](?:\.\/|\.\/chunks\/)daily-adapter-[A-Za-z0-9_-]{8}\.js["']/)).toEqual(['daily.js']);
    expect(readFileSync('dist/livekit.js', 'utf8')).toMatch(/import\(["']\.\/chunks\/livekit-adapter-[^"']+\.js["']\)/);
    expect(readFileSync('dist/daily.js', 'utf8')).toMatch(/import\(["']\.\/chunks\/daily-adapter-[^"']+\.js["']\)/);
  });
});
