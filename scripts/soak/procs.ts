// The processes of a soak run: one redis-server, the local service and two proxy instances, each its own OS
// process on loopback, so that a fault (SIGKILL, SIGSTOP, a restart) hits one of them as it would in production.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ProxyChildConfig } from './proxy-child';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const HERE = fileURLToPath(new URL('./', import.meta.url));

/** A free loopback port (the processes keep theirs across restarts). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** What a child process reports on `stats`. */
export interface ChildStats {
  cpu: { user: number; system: number };
  mem: NodeJS.MemoryUsage;
  handles: Record<string, number>;
  now: number;
  served?: number;
  redisCalls?: Record<string, number>;
  redisErrors?: number;
  calls?: Record<string, number>;
}

/** A Node child (TypeScript through tsx) that prints `READY <url>` once it listens and answers `stats`. */
export class NodeChild {
  proc: ChildProcess | null = null;
  url = '';
  private log = '';
  constructor(
    readonly name: string,
    private readonly script: string,
    private readonly arg: unknown,
  ) {}

  async start(env: Record<string, string> = {}): Promise<void> {
    const preload = ['--expose-gc', '--import', 'tsx', '--import', join(HERE, 'skew.mjs')];
    const proc = spawn(process.execPath, [...preload, join(HERE, this.script), JSON.stringify(this.arg)], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    this.proc = proc;
    proc.stderr!.on('data', (d: Buffer) => (this.log = (this.log + d.toString()).slice(-4000)));
    this.url = await new Promise<string>((resolve, reject) => {
      proc.once('exit', (code, signal) => reject(new Error(`${this.name} exited (${code ?? signal}) before it listened: ${this.log}`)));
      proc.stdout!.on('data', (d: Buffer) => {
        const m = /READY (\S+)/.exec(String(d));
        if (m) resolve(m[1]!);
      });
    });
    proc.removeAllListeners('exit');
  }

  /** The last lines the child wrote to stderr (its warnings and errors). */
  stderr(): string {
    return this.log;
  }

  /** CPU, memory, handles and counters; `gc` runs a full GC first (for the idle baseline and after the run). */
  stats(gc = false): Promise<ChildStats | null> {
    const proc = this.proc;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null || !proc.connected) return Promise.resolve(null);
    return new Promise((resolve) => {
      const t = setTimeout(() => resolve(null), 5000);
      proc.once('message', (m) => {
        clearTimeout(t);
        resolve(m as ChildStats);
      });
      // A child killed meanwhile (the proxy-kill fault) closes the channel: no stats, rather than an 'error' event
      // that ends the soak.
      proc.send(gc ? 'stats-gc' : 'stats', (err) => {
        if (!err) return;
        clearTimeout(t);
        resolve(null);
      });
    });
  }

  /** Sends an IPC message (e.g. `{skewMs}` to scripts/soak/skew.mjs). */
  send(message: unknown): void {
    if (this.proc?.connected) this.proc.send(message as never, () => {});
  }

  kill(signal: NodeJS.Signals): Promise<void> {
    const proc = this.proc;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      proc.once('exit', () => resolve());
      proc.kill(signal);
    });
  }
}

export const proxyChild = (name: string, config: ProxyChildConfig) => new NodeChild(name, 'proxy-child.ts', config);
export const serviceChild = (config: { port: number; queueMs: number; idleTimeoutS: number; seed: unknown }) =>
  new NodeChild('service', 'service-child.ts', config);

/** A real redis-server on loopback; `persist` keeps an append-only file (fsync always) in its own directory. */
export class RedisProc {
  proc: ChildProcess | null = null;
  readonly dir = mkdtempSync(join(tmpdir(), 'liveai-soak-redis-'));
  constructor(readonly port: number) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start({ persist }: { persist: boolean }): Promise<void> {
    if (!persist) {
      // Started without persistence: whatever the last run wrote is gone, as on a fresh Redis.
      rmSync(this.dir, { recursive: true, force: true });
      mkdirSync(this.dir, { recursive: true });
    }
    const args = ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--dir', this.dir];
    args.push(...(persist ? ['--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no']));
    const proc = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    this.proc = proc;
    await new Promise<void>((resolve, reject) => {
      let out = '';
      proc.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('Ready to accept connections')) resolve();
      });
      proc.once('exit', (code) => reject(new Error(`redis-server exited (${code}): ${out.slice(-500)}`)));
    });
    proc.removeAllListeners('exit');
  }

  signal(signal: NodeJS.Signals): void {
    this.proc?.kill(signal);
  }

  kill(): Promise<void> {
    const proc = this.proc;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      proc.once('exit', () => resolve());
      proc.kill('SIGKILL');
    });
  }

  /** `INFO commandstats` as {command: calls}. */
  async commandStats(send: (args: string[]) => Promise<unknown>): Promise<Record<string, number>> {
    const text = String(await send(['INFO', 'commandstats']));
    const out: Record<string, number> = {};
    for (const m of text.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) out[m[1]!] = Number(m[2]);
    return out;
  }

  cleanup(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}
