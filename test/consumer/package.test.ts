import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONSUMER_DIR, requireApp, run } from './helpers';

/**
 * The packed tarballs as a registry would serve them: publint finds nothing, and attw finds no type problem for
 * node16 (ESM) and bundler resolution. Under node16 from CommonJS only `CJSResolvesToESM` is accepted (Node ≥ 20.19
 * can require() ESM); the stylesheet entry has no types by nature.
 */
const packs = join(CONSUMER_DIR, 'packs');
const tarball = (name: string) => join(packs, readdirSync(packs).find((f) => f.startsWith(`${name}-`))!);

describe.each(['liveai-kit', 'liveai-emulator'])('%s tarball', (name) => {
  const tools = requireApp('tools');
  const bin = (b: string) => join(tools, 'node_modules/.bin', b);

  it('publint: all good', async () => {
    const dir = join(CONSUMER_DIR, 'extracted', name);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    expect((await run('tar', ['-xzf', tarball(name), '-C', dir], { cwd: dir })).code).toBe(0);
    const r = await run(bin('publint'), ['--strict', '--pack', 'false', join(dir, 'package')], { cwd: dir });
    console.log(`publint ${name}:\n${r.stdout}${r.stderr}`);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/All good/);
  });

  it('attw: clean for node16 ESM and bundler; node16 CJS only CJSResolvesToESM', async () => {
    const r = await run(bin('attw'), [tarball(name), '--profile', 'node16', '--ignore-rules', 'cjs-resolves-to-esm', '--exclude-entrypoints', './styles.css', '--format', 'table-flipped'], { cwd: tools });
    console.log(`attw ${name}:\n${r.stdout}${r.stderr}`);
    expect(r.code).toBe(0);
  });
});
