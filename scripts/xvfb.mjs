// A private X display for browsers that need one here: WebKitGTK (no headless mode) and Firefox when a page needs
// WebGL (headless Firefox has no GL; under Xvfb it draws WebGL with Mesa's software rasteriser, llvmpipe).
import { spawn } from 'node:child_process';

/**
 * Starts Xvfb on the first free display number (it picks one and prints it: -displayfd), listening on its Unix
 * socket only (no TCP). Returns `{ display: ':N', close() }`.
 * @param {{ width?: number, height?: number }} [options]
 */
export function startXvfb({ width = 1280, height = 1024 } = {}) {
  const xvfb = spawn('Xvfb', ['-displayfd', '1', '-nolisten', 'tcp', '-screen', '0', `${width}x${height}x24`], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    xvfb.on('error', (e) => reject(new Error(`Xvfb could not start (${e.message}). Run: sudo apt-get install -y xvfb`)));
    xvfb.stderr.on('data', (d) => (err += d));
    xvfb.stdout.on('data', (d) => {
      out += d;
      const m = /^(\d+)\n/.exec(out);
      if (m)
        resolve({
          display: `:${m[1]}`,
          close: () => void (xvfb.exitCode === null && xvfb.signalCode === null && xvfb.kill('SIGKILL')),
        });
    });
    xvfb.once('exit', (code) => reject(new Error(`Xvfb exited (${code}) before it was ready: ${err.trim().slice(-400)}`)));
  });
}
