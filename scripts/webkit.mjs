// WebKit for headless runs here: Debian's WebKitGTK (package webkit2gtk-driver) — its MiniBrowser, driven by
// WebKitWebDriver over W3C WebDriver on loopback with selenium-webdriver, in an Xvfb display of its own (WebKitGTK
// has no headless mode). WebKitGTK is the engine of Safari without Apple's media stack: it renders and runs the
// page as Safari's engine does, but Debian's build has no WebRTC.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import net from 'node:net';
import { Builder } from 'selenium-webdriver';
import { startXvfb } from './xvfb.mjs';

export const WEBKIT_DRIVER = process.env.WEBKIT_DRIVER ?? '/usr/bin/WebKitWebDriver';

/** MiniBrowser of the installed WebKitGTK (its path holds the multiarch triplet and the API version). */
export function miniBrowserPath() {
  if (process.env.WEBKIT_MINIBROWSER) return process.env.WEBKIT_MINIBROWSER;
  for (const lib of ['/usr/lib', '/usr/libexec']) {
    if (!existsSync(lib)) continue;
    for (const arch of readdirSync(lib)) {
      for (const api of ['webkitgtk-6.0', 'webkit2gtk-4.1', 'webkit2gtk-4.0']) {
        const p = `${lib}/${arch}/${api}/MiniBrowser`;
        if (existsSync(p)) return p;
      }
    }
  }
  return null;
}

const freePort = () =>
  new Promise((resolve, reject) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });

/** Resolves once something accepts TCP connections on 127.0.0.1:port; rejects when `child` exits first or after 20 s. */
async function untilListening(port, child) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`WebKitWebDriver exited (${child.exitCode})`);
    const ok = await new Promise((r) => {
      const s = net.connect(port, '127.0.0.1', () => (s.destroy(), r(true))).on('error', () => r(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error('WebKitWebDriver did not listen within 20 s');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Starts Xvfb (its own display, no TCP), WebKitWebDriver on a free loopback port and a MiniBrowser session.
 * `args` are MiniBrowser's WebKitSettings flags (e.g. `--enable-webrtc=true`). Returns the selenium-webdriver
 * driver, `resize(width, height)` and `close()`, which ends the session and both processes.
 *
 * `resize` keeps the window focused, as a visitor's window is while they type: this display has no window manager,
 * so X gives the keyboard focus to the window under the pointer, and Xvfb's pointer rests at the screen's centre.
 * A narrow window left at the screen's left edge is not under it, has no focus (`document.hasFocus()` false), and
 * WebKit then matches no `:focus-visible` and draws no focus ring. So the window is placed over the centre.
 * MiniBrowser's window is never narrower than its toolbar (447 px here), whatever width is asked.
 * @param {{ args?: string[], width?: number, height?: number }} [options]
 */
export async function launchWebKit({ args = [], width = 1280, height = 1024 } = {}) {
  const binary = miniBrowserPath();
  if (!binary) throw new Error('WebKitGTK MiniBrowser not found. Run: sudo apt-get install -y webkit2gtk-driver xvfb');
  const xvfb = await startXvfb({ width, height });
  const kill = (p) => p.exitCode === null && p.signalCode === null && p.kill('SIGKILL');
  let wd;
  try {
    const port = await freePort();
    wd = spawn(WEBKIT_DRIVER, [`--port=${port}`, '--host=local'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, DISPLAY: xvfb.display },
    });
    await untilListening(port, wd);
    const driver = await new Builder()
      .usingServer(`http://127.0.0.1:${port}`)
      .withCapabilities({
        browserName: 'MiniBrowser',
        'webkitgtk:browserOptions': { binary, args: ['--automation', ...args] },
      })
      .build();
    return {
      driver,
      /** Sets the window's size (px) and places it over the pointer, so that it keeps the keyboard focus. */
      async resize(w, h) {
        const x = Math.max(0, Math.round(width / 2 - w / 2));
        const y = Math.max(0, Math.round(height / 2 - h / 2));
        await driver.manage().window().setRect({ x, y, width: w, height: h });
      },
      async close() {
        await driver.quit().catch(() => {});
        kill(wd);
        xvfb.close();
      },
    };
  } catch (e) {
    if (wd) kill(wd);
    xvfb.close();
    throw e;
  }
}
