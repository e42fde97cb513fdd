import { spawn, type ChildProcess } from 'node:child_process';

/** This process's environment without the test suite's own settings (its namespace, vitest), plus `extra`. */
export function userEnv(drop: string[] = [], extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith('LIVEAI_') && !k.startsWith('VITEST') && !drop.includes(k)),
  );
  return { ...env, ...extra };
}

export interface DevRun {
  /** The process that leads the namespace playing the host (`nsenter -t pid -n …` runs there). */
  process: ChildProcess;
  /** The URL `npm run dev` printed as ready. */
  url: string;
  /** Everything it printed so far. */
  output(): string;
  /** Ctrl-C to the whole process group; SIGKILL if it has not exited after 15 s. */
  stop(): Promise<void>;
}

/**
 * Runs `script` (which ends by exec-ing `npm run dev` or `node scripts/dev.mjs`) in bash inside a new network
 * namespace with loopback up: that namespace plays the host. Resolves once it prints "playground ready: URL";
 * rejects with its output if it exits first.
 */
export function startDevOnHostSide(script: string, opts: { cwd: string; env: NodeJS.ProcessEnv }): Promise<DevRun> {
  const child = spawn('unshare', ['-n', '--', 'bash', '-c', `set -e; ip link set lo up; ${script}`], {
    ...opts,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    process.kill(-child.pid!, 'SIGINT');
    const kill = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 15_000);
    await exited;
    clearTimeout(kill);
  };
  return new Promise((resolve, reject) => {
    const onData = (b: Buffer) => {
      out += b.toString();
      const m = /playground ready: (http\S+)/.exec(out);
      if (m) resolve({ process: child, url: m[1]!, output: () => out, stop });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`npm run dev exited (${code}) before it was ready:\n${out.slice(-3000)}`)));
  });
}
