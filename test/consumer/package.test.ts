import { mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeResult } from '../setup/results';
import { CONSUMER_DIR, requireApp, run } from './helpers';

/**
 * The packed tarballs as a registry would serve them: publint finds nothing, and attw finds no type problem for
 * node16 (ESM) and bundler resolution. Under node16 from CommonJS only `CJSResolvesToESM` is accepted (Node ≥ 20.19
 * can require() ESM); the stylesheet entries have no types by nature.
 */
const packs = join(CONSUMER_DIR, 'packs');
const tarball = (name: string) =>
  join(
    packs,
    readdirSync(packs).find((f) => f.startsWith(`${name}-`))!,
  );

describe.each(['liveai-kit', 'liveai-emulator'])('%s tarball', (name) => {
  const tools = requireApp('tools');
  const bin = (b: string) => join(tools, 'node_modules/.bin', b);

  it('publint: all good', async () => {
    const dir = join(CONSUMER_DIR, 'extracted', name);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    expect((await run('tar', ['-xzf', tarball(name), '-C', dir], { cwd: dir })).code).toBe(0);
    const r = await run(bin('publint'), ['--strict', '--pack', 'false', join(dir, 'package')], { cwd: dir });
    // publint's report: test-results/consumer/publint-<name>.txt, and in the failure's message.
    writeResult(`consumer/publint-${name}.txt`, `${r.stdout}${r.stderr}`);
    expect(r.code, `${r.stdout}${r.stderr}`).toBe(0);
    expect(r.stdout).toMatch(/All good/);
  });

  it('attw: clean for node16 ESM and bundler; node16 CJS only CJSResolvesToESM', async () => {
    const r = await run(
      bin('attw'),
      [
        tarball(name),
        '--profile',
        'node16',
        '--ignore-rules',
        'cjs-resolves-to-esm',
        '--exclude-entrypoints',
        './styles.css',
        './styles/base.css',
        './styles/widget.css',
        './styles/images.css',
        './styles/meters.css',
        './styles/devices.css',
        './styles/admin.css',
        '--format',
        'table-flipped',
      ],
      { cwd: tools },
    );
    // attw's table: test-results/consumer/attw-<name>.txt, and in the failure's message.
    writeResult(`consumer/attw-${name}.txt`, `${r.stdout}${r.stderr}`);
    expect(r.code, `${r.stdout}${r.stderr}`).toBe(0);
  });
});

describe('what the liveai-kit tarball ships', () => {
  const dir = join(CONSUMER_DIR, 'extracted', 'liveai-kit-content');
  const files: string[] = [];
  const walk = (d: string, rel = ''): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name), `${rel}${e.name}/`);
      else files.push(`${rel}${e.name}`);
    }
  };
  const read = (f: string) => readFileSync(join(dir, 'package', f), 'utf8');

  it('LICENSE, README, the docs its links point to, third-party notices of the standalone bundle; no source maps', async () => {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    expect((await run('tar', ['-xzf', tarball('liveai-kit'), '-C', dir], { cwd: dir })).code).toBe(0);
    walk(join(dir, 'package'));
    expect(files).toContain('LICENSE');
    expect(read('LICENSE')).toMatch(/^MIT License/);
    expect(files.filter((f) => f.endsWith('.map'))).toEqual([]);
    // Every relative link of the README resolves to a file in the package.
    const links = [...read('README.md').matchAll(/\]\(([^)#\s]+)\)/g)].map((m) => m[1]!).filter((l) => !/^[a-z]+:/.test(l));
    expect(links.length).toBeGreaterThan(3);
    for (const l of links) expect(files, `README links ${l}`).toContain(l);
    expect(read('README.md')).toMatch(/npm i liveai-kit/);
    const notices = read('dist/standalone/THIRD_PARTY_NOTICES.md');
    for (const pkg of ['livekit-client', '@daily-co/daily-js', 'valibot', 'zustand']) expect(notices).toContain(`## ${pkg} `);
  });

  it('no internal references (spec or architecture sections, src/ paths) in shipped docs, docstrings or code', () => {
    const offending = files
      .filter((f) => /\.(md|js|d\.ts)$/.test(f))
      .flatMap((f) =>
        read(f)
          .split('\n')
          .map((line, i) => ({ f, i, line })),
      )
      .filter(({ line }) =>
        /spec §|architecture §|\(spec\)|[\s(`'"]src\/(core|react|components|element|server|emulator|testing)\//.test(line),
      )
      .map(({ f, i, line }) => `${f}:${i + 1}: ${line.trim().slice(0, 120)}`);
    expect(offending).toEqual([]);
  });

  it("the user docs name no file of the repository that does not ship (tests, scripts, size-limit's config)", () => {
    const offending = ['docs/core.md', 'docs/components.md', 'docs/emulator.md']
      .flatMap((f) =>
        read(f)
          .split('\n')
          .map((line, i) => ({ f, i, line })),
      )
      .filter(({ line }) => /[\s(`'"](test|scripts)\/[\w.-]+|\.size-limit\.cjs/.test(line))
      .map(({ f, i, line }) => `${f}:${i + 1}: ${line.trim().slice(0, 120)}`);
    expect(offending).toEqual([]);
  });

  it('docs for coding assistants: llms.txt links only shipped files, AGENTS.md states the rules from the docs', () => {
    expect(files).toContain('llms.txt');
    expect(files).toContain('AGENTS.md');
    const index = read('llms.txt');
    expect(index).toMatch(/^# liveai-kit\n\n> /);
    const links = [...index.matchAll(/\]\(([^)#\s]+)\)/g)].map((m) => m[1]!);
    expect(links).toEqual(expect.arrayContaining(['AGENTS.md', 'docs/proxy.md', 'docs/core.md', 'docs/components.md']));
    for (const l of links) expect(files, `llms.txt links ${l}`).toContain(l);
    const rules = read('AGENTS.md');
    expect(rules).toContain("import 'liveai-kit/livekit';");
    expect(rules).toContain("import 'liveai-kit/daily';");
    // Every proxy option AGENTS.md names is one docs/proxy.md documents (a renamed option fails here).
    const documented = new Set([...read('docs/proxy.md').matchAll(/^\| `([\w.]+)`/gm)].map((m) => m[1]!.split('.')[0]!));
    const named = [...rules.matchAll(/`(\w+): /g)]
      .map((m) => m[1]!)
      .filter((n) => !['url', 'remoteAddress', 'baseUrl', 'changeOrigin'].includes(n));
    expect(named.length).toBeGreaterThan(5);
    for (const n of named) expect(documented, `AGENTS.md names the proxy option ${n}`).toContain(n);
    // The client-address rows match docs/proxy.md's table for the same platforms.
    for (const header of ['x-real-ip', 'cf-connecting-ip']) expect(read('docs/proxy.md')).toContain(`req.headers.get('${header}')`);
  });

  it('sizes are stated in one place: docs/core.md defers to docs/benchmarks.md', () => {
    expect(read('docs/core.md')).not.toMatch(/\d+(\.\d+)?\s?kB/);
    expect(read('docs/benchmarks.md')).toMatch(/\d+(\.\d+)?\s?kB/);
  });
});
