import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Issue 39.1, on the built package (CI builds before testing): `liveai-kit/element` imports no React (Preact is
 * inside it), and takes the core from the package's own core files, never a copy: one transport registry, so
 * `import 'liveai-kit/livekit'` registers the transport the element joins with.
 */
const built = existsSync('dist/element.js') && existsSync('dist/livekit.js');
if (!built && process.env.CI === 'true') throw new Error('dist/ is missing: CI must run `npm run build` before `npm test`');

/** Every file of the package that `entry` loads, statically or with import(), and every bare specifier they import. */
function graph(entry: string): { files: string[]; bare: Set<string> } {
  const files = new Set<string>();
  const bare = new Set<string>();
  const walk = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    for (const [, spec] of readFileSync(file, 'utf8').matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)["']([^"']+)["']/g)) {
      if (spec!.startsWith('.')) walk(resolve(dirname(file), spec!));
      else bare.add(spec!);
    }
  };
  walk(resolve(entry));
  return { files: [...files], bare };
}

describe.skipIf(!built)('dist/element.js (liveai-kit/element)', () => {
  it('imports no React, and one transport registry with liveai-kit/livekit', () => {
    const element = graph('dist/element.js');
    expect([...element.bare].filter((s) => /^react(-dom)?(\/|$)/.test(s))).toEqual([]);
    const registry = (files: string[]) => files.filter((f) => /\bfunction registerTransport\(/.test(readFileSync(f, 'utf8')));
    const shared = registry(element.files);
    expect(shared).toHaveLength(1);
    expect(registry(graph('dist/livekit.js').files)).toEqual(shared);
    expect(element.files).toContain(resolve('dist/index.js'));
    expect(element.files.every((f) => f.startsWith(resolve('dist') + '/'))).toBe(true);
  });
});
