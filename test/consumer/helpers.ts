import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { RESULTS } from '../setup/results';
// @ts-expect-error -- plain ESM module without types
import { CONSUMER_DIR } from './apps.mjs';

export { CONSUMER_DIR };
export const appDir = (name: string): string => join(CONSUMER_DIR as string, name);

/** Fails with a clear message when prepare.mjs has not installed the app (it runs outside the namespace). */
export function requireApp(name: string): string {
  const dir = appDir(name);
  if (!existsSync(join(dir, '.install-key'))) {
    throw new Error(`${dir} is not installed: run \`node test/consumer/prepare.mjs\` first (npm test does it outside the namespace)`);
  }
  return dir;
}

export interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to completion (no shell), collecting its output. Never throws for a non-zero exit. */
export function run(cmd: string, args: string[], options: { cwd: string; env?: Record<string, string> }): Promise<Result> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, {
      cwd: options.cwd,
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export interface Served {
  url: string;
  output: () => string;
  stop(): Promise<void>;
}

/** A hung step, for a person to read after the run: test-results/consumer/hung-steps.log (never printed). */
function noteHungStep(message: string): void {
  mkdirSync(join(RESULTS, 'consumer'), { recursive: true });
  appendFileSync(join(RESULTS, 'consumer/hung-steps.log'), `${new Date().toISOString()} ${message}\n`);
}

/**
 * Awaits `work`, failing after `ms` with the step's name and `context()` (a server's output, say) instead of
 * letting one hung step run the test into its own limit, which names neither the step nor what the server said.
 */
export async function within<T>(what: string, ms: number, work: () => Promise<T>, context?: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const tail = context?.().slice(-4000);
      const message = `${what} did not finish within ${ms} ms${tail ? `; output so far:\n${tail}` : ''}`;
      // Also in test-results/consumer/hung-steps.log: a test that passes on its retry would not show the first
      // attempt's error.
      noteHungStep(message);
      reject(new Error(message));
    }, ms);
  });
  try {
    return await Promise.race([work(), deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** Grace between SIGTERM and SIGKILL when stopping a served process (Next.js waits for open connections). */
const STOP_GRACE_MS = 10_000;

/**
 * Starts a long-running process and resolves once a line of its output matches `ready` (the first capture group,
 * if any, is the URL). Rejects with the output when it exits first, or when it is not ready within `readyMs`
 * (it is then killed). `stop()` sends SIGTERM to its process group and SIGKILL after a grace period.
 */
export function serve(
  cmd: string,
  args: string[],
  options: { cwd: string; env?: Record<string, string>; ready: RegExp; readyMs?: number },
): Promise<Served> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(cmd, args, {
      cwd: options.cwd,
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let out = '';
    let done = false;
    const readyMs = options.readyMs ?? 120_000;
    const signal = (sig: NodeJS.Signals) => {
      try {
        process.kill(-child.pid!, sig);
      } catch {
        /* already gone */
      }
    };
    const stop = () =>
      new Promise<void>((r) => {
        if (child.exitCode !== null || child.signalCode !== null) return r();
        const kill = setTimeout(() => {
          noteHungStep(`${cmd} ${args.join(' ')} had not exited ${STOP_GRACE_MS} ms after SIGTERM: killed`);
          signal('SIGKILL');
        }, STOP_GRACE_MS);
        child.once('exit', () => {
          clearTimeout(kill);
          r();
        });
        signal('SIGTERM');
      });
    const notReady = setTimeout(() => {
      if (done) return;
      done = true;
      signal('SIGKILL');
      reject(new Error(`${cmd} ${args.join(' ')} was not ready within ${readyMs} ms:\n${out.slice(-4000)}`));
    }, readyMs);
    const onData = (d: Buffer) => {
      out += d;
      const m = options.ready.exec(out);
      if (m && !done) {
        done = true;
        clearTimeout(notReady);
        resolve({ url: m[1] ?? '', output: () => out, stop });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(notReady);
      if (!done) {
        done = true;
        reject(new Error(`${cmd} ${args.join(' ')} exited with ${code} before it was ready:\n${out}`));
      }
    });
  });
}

/**
 * Records the JavaScript and CSS a page downloads from `origin` until `mark()` is called, and returns the total
 * gzip size of those bodies (gzip level 9 computed here, whatever the server sent): the page's first load.
 */
export function recordFirstLoad(page: Page, origin: string): { mark(): Promise<{ files: number; gzipBytes: number; urls: string[] }> } {
  const bodies: Promise<{ url: string; gz: number }>[] = [];
  let open = true;
  page.on('response', (res) => {
    const url = res.url();
    if (!open || !url.startsWith(origin) || !/\.(m?js|css)(\?|$)/.test(new URL(url).pathname)) return;
    bodies.push(
      res.body().then(
        (b) => ({ url, gz: gzipSync(b, { level: 9 }).length }),
        () => ({ url, gz: 0 }),
      ),
    );
  });
  return {
    async mark() {
      open = false;
      const all = await Promise.all(bodies);
      return { files: all.length, gzipBytes: all.reduce((n, b) => n + b.gz, 0), urls: all.map((b) => b.url) };
    },
  };
}
