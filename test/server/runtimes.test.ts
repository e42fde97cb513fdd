import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { EdgeRuntime } from 'edge-runtime';
import { bundle } from './runtimes/bundle';
import { startEmulator, type Emulator } from './helpers';

/**
 * `liveai-kit/server` on the other server runtimes users deploy to, each from its npm package: Vercel's Edge runtime
 * (the `edge-runtime` package Vercel and Next.js use to emulate it), Deno and Bun. The proxy is bundled
 * (esbuild, `node:*` left as imports) and runs one create → status → control → end against the local service.
 * A runtime whose binary is missing fails the run with CI=true, and is skipped (said so) otherwise.
 */
const run = promisify(execFile);
const ci = process.env.CI === 'true' || process.env.CI === '1';
const bin = (name: string) => resolve(`node_modules/.bin/${name}`);
const OK = [201, 200, 200, 200, 1];

let emulator: Emulator;
let dir: string;
let entry: string;

beforeAll(async () => {
  emulator = await startEmulator(5);
  // Inside the project, so that the proxy's check of its optional packages finds them as in an app.
  mkdirSync(resolve('node_modules/.cache'), { recursive: true });
  dir = mkdtempSync(resolve('node_modules/.cache/liveai-runtimes-'));
  entry = join(dir, 'smoke.mjs');
  writeFileSync(entry, await bundle('test/server/runtimes/smoke-main.ts'));
});
afterAll(async () => {
  await emulator.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs `command` when its binary is installed; without it, fails under CI and skips (with a note) elsewhere. */
function withBinary(name: string, test: () => Promise<void>) {
  return async (ctx: { skip: (note?: string) => void }) => {
    if (!existsSync(bin(name))) {
      if (ci) throw new Error(`${name} is not installed (npm ci installs it from the registry)`);
      ctx.skip(`${name} is not installed`);
      return;
    }
    await test();
  };
}

describe('the proxy on other server runtimes', () => {
  it('Vercel Edge (edge-runtime): imports and runs create → status → control → end', async () => {
    const code = await bundle('test/server/runtimes/smoke.ts', 'iife', 'liveaiSmoke');
    const runtime = new EdgeRuntime({ initialCode: code });
    const statuses = (await runtime.evaluate(`liveaiSmoke.smoke(${JSON.stringify(emulator.url)})`)) as number[];
    expect([...statuses]).toEqual(OK);
  });

  it(
    'Deno: imports and runs create → status → control → end',
    withBinary('deno', async () => {
      const { stdout } = await run(
        bin('deno'),
        ['run', '--no-prompt', '--no-config', '--allow-net=127.0.0.1', '--allow-env', `--allow-read=${resolve('.')}`, entry, emulator.url],
        {
          cwd: dir,
          env: { ...process.env, DENO_DIR: join(dir, '.deno'), NO_COLOR: '1' },
        },
      );
      expect(JSON.parse(stdout.trim().split('\n').at(-1)!)).toEqual(OK);
    }),
  );

  it(
    'Bun: imports and runs create → status → control → end',
    withBinary('bun', async () => {
      const { stdout } = await run(bin('bun'), ['run', entry, emulator.url], { cwd: dir });
      expect(JSON.parse(stdout.trim().split('\n').at(-1)!)).toEqual(OK);
    }),
  );
});
