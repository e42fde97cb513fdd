import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Issue 7: the browser entries of the built package (dist/) carry no secrets and do not pull in server-only
 * packages. Runs only when dist/ exists; in CI (`npm run build` runs before `npm test`) a missing dist/ fails.
 *
 * Browser files = the browser entries (index, react, components, element, testing, standalone/**) and every
 * chunk they reach through static or dynamic relative imports, plus styles.css. Server chunks (emulator,
 * media) are only reachable from server.js / emulator.js and are not scanned.
 */
const DIST = resolve(__dirname, '../../dist');
const ENTRIES = ['index.js', 'react.js', 'components.js', 'element.js', 'testing.js'];
const SERVER_ONLY = ['express', 'jose', 'livekit-server-sdk', 'pino', 'sharp', 'multer', '@livekit/rtc-node', 'ws', 'express-rate-limit'];

/** Secret patterns: [label, regexp]. */
const SECRET_PATTERNS: [string, RegExp][] = [
  ['built-in dev api key', /dev-key-[a-z0-9]+/i],
  ['LiveKit dev key material', /["'`](?:devkey|secret)["'`]/],
  ['apiSecret value', /apiSecret["'`]?\s*[:=]\s*["'`][^"'`]+["'`]/],
  ['PEM block', /-----BEGIN/],
  ['JWT-looking string', /eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/],
  ['process.env read', /process\.env\s*(?:\.|\[)\s*["'`]?(?!NODE_ENV\b)[A-Za-z_]+/],
];

/** Import specifiers (static `from`/bare `import` and dynamic `import()`) of a JS module's text. */
function importSpecifiers(code: string): string[] {
  const out = new Set<string>();
  for (const m of code.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)["'`]([^"'`]+)["'`]/g)) out.add(m[1]!);
  return [...out];
}

/**
 * Findings of SECRET_PATTERNS and any use of the X-API-Key header in `text`. No browser file may name the header:
 * the API-key client `createServiceClient` is exported from `liveai-kit/server` only.
 */
function scanForSecrets(text: string): string[] {
  const found = SECRET_PATTERNS.filter(([, re]) => re.test(text)).map(([label, re]) => `${label}: ${re.exec(text)![0]}`);
  if (/x-api-key/i.test(text)) found.push('X-API-Key header usage');
  return found;
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? walk(join(dir, n)) : [join(dir, n)]));
}

/** Every dist file a browser can load: entries, standalone/**, styles.css, styles/*.css and the chunks they import. */
function browserFiles(): string[] {
  const standalone = existsSync(join(DIST, 'standalone')) ? walk(join(DIST, 'standalone')).filter((f) => f.endsWith('.js')) : [];
  const queue = [...ENTRIES.map((e) => join(DIST, e)).filter(existsSync), ...standalone];
  const seen = new Set<string>();
  while (queue.length > 0) {
    const file = queue.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const spec of importSpecifiers(readFileSync(file, 'utf8'))) {
      if (spec.startsWith('.')) queue.push(resolve(dirname(file), spec));
    }
  }
  const css = [join(DIST, 'styles.css'), ...(existsSync(join(DIST, 'styles')) ? walk(join(DIST, 'styles')) : [])];
  return [...seen, ...css.filter(existsSync)];
}

const hasDist = existsSync(join(DIST, 'index.js'));
const inCi = process.env.CI === 'true' || process.env.CI === '1';

if (!hasDist && inCi) throw new Error('dist/ is missing: CI must run `npm run build` before `npm test`');

describe('dist/ browser bundles', () => {
  if (!hasDist) {
    it.skip('skipped: dist/ is missing — run `npm run build` to check the built bundles for secrets', () => {});
    return;
  }

  it('the scanner catches planted secrets (negative control)', () => {
    expect(scanForSecrets('const k = "dev-key-alice"')).toHaveLength(1);
    expect(scanForSecrets('new AccessToken("devkey", "secret")')).toHaveLength(1);
    expect(scanForSecrets('{apiSecret: "lk-secret-Zq9"}')).toHaveLength(1);
    expect(scanForSecrets('"-----BEGIN PRIVATE KEY-----"')).toHaveLength(1);
    expect(scanForSecrets('t="eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.abc"')).toHaveLength(1);
    expect(scanForSecrets('const k = process.env.LIVEAI_API_KEY')).toHaveLength(1);
    expect(scanForSecrets('headers: {"X-API-Key": options.apiKey}')).toHaveLength(1);
    expect(scanForSecrets('h.set("x-api-key", key)')).toHaveLength(1);
    expect(scanForSecrets('if (process.env.NODE_ENV !== "production") {}')).toHaveLength(0);
    expect(importSpecifiers('import{a}from"./x.js";import "y";const m=import("./z.js")')).toEqual(['./x.js', 'y', './z.js']);
  });

  it('covers every browser entry and the chunks they load', () => {
    const files = browserFiles().map((f) => relative(DIST, f));
    for (const e of ENTRIES) expect(files).toContain(e);
    expect(files.some((f) => f.startsWith('standalone/'))).toBe(true);
    expect(files.filter((f) => f.startsWith('chunks/')).length).toBeGreaterThan(0);
    // server-only chunks (the emulator, its media, the API-key service client) stay out of the browser graph
    expect(files.filter((f) => /chunks\/(emulator|media|service-client)-/.test(f))).toEqual([]);
  });

  it('no browser file contains secrets', () => {
    const findings = browserFiles().flatMap((f) => {
      const rel = relative(DIST, f);
      return scanForSecrets(readFileSync(f, 'utf8')).map((x) => `${rel}: ${x}`);
    });
    expect(findings).toEqual([]);
  });

  it('no browser file imports a server-only package or node: builtin', () => {
    const bad = browserFiles()
      .filter((f) => f.endsWith('.js'))
      .flatMap((f) =>
        importSpecifiers(readFileSync(f, 'utf8'))
          .filter((s) => s.startsWith('node:') || SERVER_ONLY.some((p) => s === p || s.startsWith(`${p}/`)))
          .map((s) => `${relative(DIST, f)} imports ${s}`),
      );
    expect(bad).toEqual([]);
  });
});
