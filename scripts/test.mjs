#!/usr/bin/env node
// `npm test`: every tier — unit, server (proxy + emulator + property tests, Redis store), browser (real LiveKit + real
// Chromium and Firefox + emulator, WebKitGTK for what needs no WebRTC, and the first-run test), soak (a short run of
// scripts/soak: visitors, two proxies, Redis and faults, its invariants asserted), consumer (packed
// packages in fresh apps) — inside a private network namespace.
// Everything a tier needs is found or installed FIRST, on the host side: Chromium and redis-server (with apt-get when
// root), the LiveKit server (scripts/livekit.mjs). When something cannot be installed it stops at once with the one command
// to run, instead of starting a tier that cannot pass. Where no namespace can be made (a container without
// CAP_SYS_ADMIN) the tiers without media run on the host's loopback and it says so; with CI=true that is a failure.
// Extra arguments go to vitest, e.g. `npm test -- --project unit`.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { installLivekit } from './livekit.mjs';
import { NETNS_RUN, isRoot, probeNamespace } from './netns.mjs';

const ci = process.env.CI === 'true' || process.env.CI === '1';
let args = process.argv.slice(2);

// `--livekit-client lowest` (or a version): the browser tier's LiveKit tests against another livekit-client than the
// installed one, by default the lowest the peer range allows. It is installed once into node_modules/.side/ (here,
// with network) and the test pages' Vite server resolves `livekit-client` to it (test/browser/page-server.ts).
const LIVEKIT_CLIENT_TESTS = ['early-video', 'widget-e2e', 'participants', 'reliability-livekit-restart', 'agent-plugin'].map(
  (name) => `test/browser/${name}.test.ts`,
);
const lkAt = args.indexOf('--livekit-client');
if (lkAt >= 0) {
  const wanted = args[lkAt + 1] ?? 'lowest';
  args.splice(lkAt, 2);
  const range = JSON.parse(readFileSync('package.json', 'utf8')).peerDependencies['livekit-client'];
  const version = wanted === 'lowest' ? /\d+\.\d+\.\d+/.exec(range)?.[0] : wanted;
  if (!version) stop(`cannot read the lowest livekit-client from the peer range ${range}`);
  const installed = JSON.parse(readFileSync('node_modules/livekit-client/package.json', 'utf8')).version;
  if (version === installed) {
    console.log(`test: livekit-client ${version}, the lowest the peer range allows, is the installed one: the main run tested it`);
    process.exit(0);
  }
  const dir = resolve(`node_modules/.side/livekit-client-${version}`);
  if (!existsSync(`${dir}/node_modules/livekit-client/package.json`)) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(`${dir}/package.json`, '{"name":"side","private":true}\n');
    const npm = ['install', '--no-audit', '--no-fund', '--no-package-lock', `livekit-client@${version}`];
    if (spawnSync('npm', npm, { cwd: dir, stdio: 'inherit' }).status !== 0) stop(`could not install livekit-client@${version}`);
  }
  process.env.LIVEAI_LIVEKIT_CLIENT = `${dir}/node_modules/livekit-client`;
  process.env.LIVEAI_LIVEKIT_CLIENT_VERSION = version;
  console.log(`test: livekit-client ${version} for the browser tier (${process.env.LIVEAI_LIVEKIT_CLIENT})`);
  if (!args.some((a) => a.endsWith('.test.ts'))) args.push(...LIVEKIT_CLIENT_TESTS);
  if (!args.includes('--project')) args.push('--project', 'browser');
}
const projects = args.flatMap((a, i) => (args[i - 1] === '--project' ? [a] : a.startsWith('--project=') ? [a.slice(10)] : []));
const all = projects.length === 0;
const needsBrowser = all || projects.includes('browser');
const needsMedia = needsBrowser || projects.includes('server'); // the server tier has the emulator's media tests

function stop(message) {
  console.error(`test: ${message}`);
  process.exit(1);
}

/** apt-get install as root (quietly); false when this machine has no apt-get or we are not root. */
function aptInstall(pkgs) {
  if (!isRoot() || spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status !== 0) return false;
  console.log(`test: installing ${pkgs.join(', ')} with apt-get…`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  if (spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env }).status !== 0) return false;
  return spawnSync('apt-get', ['install', '-y', '-qq', ...pkgs], { stdio: ['ignore', 'ignore', 'inherit'], env }).status === 0;
}

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (needsBrowser && !existsSync(chromium)) {
  if (process.env.CHROMIUM_PATH || !aptInstall(['chromium', 'fonts-dejavu-core']) || !existsSync(chromium)) {
    stop(
      `Chromium not found at ${chromium}. Run: sudo apt-get install -y chromium   (or set CHROMIUM_PATH to a Chromium or Chrome binary)`,
    );
  }
}
// The Firefox and WebKit runs of the browser tier (test/browser/driver.ts, webkit.test.ts): Debian's firefox-esr,
// WebKitGTK's WebKitWebDriver + MiniBrowser, and Xvfb (WebKitGTK has no headless mode; Firefox needs a display for
// WebGL). A missing one is installed like Chromium, or the run stops: never a silently skipped engine.
const ENGINE_PACKAGES = [
  ['firefox-esr', () => existsSync(process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr')],
  ['webkit2gtk-driver', () => existsSync(process.env.WEBKIT_DRIVER ?? '/usr/bin/WebKitWebDriver')],
  ['xvfb', () => spawnSync('Xvfb', ['-help'], { stdio: 'ignore' }).error === undefined],
];
if (needsBrowser) {
  const missing = ENGINE_PACKAGES.filter(([, ok]) => !ok()).map(([pkg]) => pkg);
  if (missing.length > 0 && (!aptInstall(missing) || ENGINE_PACKAGES.some(([, ok]) => !ok()))) {
    stop(`the Firefox and WebKit runs need ${missing.join(', ')}. Run: sudo apt-get install -y ${missing.join(' ')}`);
  }
}
if (
  (all || projects.includes('server') || projects.includes('soak')) &&
  spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status !== 0 &&
  !aptInstall(['redis-server'])
) {
  stop('redis-server not found. Run: sudo apt-get install -y redis-server');
}
// Prometheus and promtool (Debian's `prometheus` package): the proxy's metrics scraped by a real Prometheus, and the
// alerting rules' own tests.
if (
  (all || projects.includes('server')) &&
  (spawnSync('promtool', ['--version'], { stdio: 'ignore' }).status !== 0 || !existsSync('/usr/bin/prometheus')) &&
  !aptInstall(['prometheus'])
) {
  stop('prometheus not found. Run: sudo apt-get install -y prometheus');
}
// The impaired link's relay (scripts/impair/relay.py, Python standard library) for its self-test in the server tier.
if (
  (all || projects.includes('server')) &&
  spawnSync('python3', ['--version'], { stdio: 'ignore' }).status !== 0 &&
  !aptInstall(['python3'])
) {
  stop('python3 not found. Run: sudo apt-get install -y python3');
}
// schemathesis, for the server tier's OpenAPI run (test/emulator/schemathesis.test.ts): found on PATH, else installed
// like the LiveKit server, into a git-ignored virtualenv (.cache/schemathesis, python3 -m venv + pip), idempotently.
// When that is not possible the run goes on without it and the closing line says so (with CI=true it stops).
const SCHEMATHESIS = 'schemathesis>=4.0,<5';
let schemathesisMissing = null;
if (all || projects.includes('server')) {
  const onPath = () => spawnSync('sh', ['-c', 'command -v schemathesis'], { stdio: 'ignore' }).status === 0;
  const venv = resolve('.cache/schemathesis');
  const bin = `${venv}/bin`;
  if (!onPath()) {
    if (!existsSync(`${bin}/schemathesis`)) {
      console.log(`test: installing ${SCHEMATHESIS} into .cache/schemathesis (python3 -m venv, pip)…`);
      const made = spawnSync('python3', ['-m', 'venv', venv], { stdio: ['ignore', 'ignore', 'inherit'] }).status === 0;
      const pip = ['-m', 'pip', 'install', '-q', '--disable-pip-version-check', SCHEMATHESIS];
      if (made) spawnSync(`${bin}/python3`, pip, { stdio: ['ignore', 'ignore', 'inherit'] });
    }
    if (existsSync(`${bin}/schemathesis`)) process.env.PATH = `${bin}:${process.env.PATH}`;
    if (!onPath()) {
      schemathesisMissing = `schemathesis could not be installed; run: python3 -m pip install '${SCHEMATHESIS}'`;
      if (ci) stop(`${schemathesisMissing} (CI=true: a missing prerequisite is a failure)`);
    }
  }
}
if (needsMedia && process.platform === 'linux' && spawnSync('ip', ['-V'], { stdio: 'ignore' }).status !== 0 && !aptInstall(['iproute2'])) {
  stop('`ip` not found. Run: sudo apt-get install -y iproute2');
}
if (needsMedia) {
  try {
    installLivekit();
  } catch (e) {
    stop(e.message);
  }
}

const ns = probeNamespace();
if (!ns.ok) {
  console.log(
    `test: no network namespace here (${ns.reason}): running the tiers without media (unit, server, soak, consumer) on the host's loopback; the media tiers (browser, emulator media) need one — run as root, or the container with --cap-add SYS_ADMIN.`,
  );
  const keep = all ? ['unit', 'server', 'soak', 'consumer'] : projects.filter((p) => p !== 'browser');
  args = [
    ...args.filter((a, i) => a !== '--project' && args[i - 1] !== '--project' && !a.startsWith('--project=')),
    ...keep.flatMap((p) => ['--project', p]),
    '--exclude',
    'test/emulator/media-on.test.ts',
  ];
}

// The LiveKit Agents app (examples/livekit-agent/agent) has its own package.json and lockfile; the browser tier drives
// it and the server tier runs it on a loopback-only machine (test/scripts/example-agent-loopback.test.ts). Install it
// here, with network, for either: a tier must never find it missing (its tests would only be skipped). The same
// file the tests look for (test/browser/agent-process.ts), so a half-done install is done again; npm's own output
// is shown only when it fails.
const agentApp = 'examples/livekit-agent/agent';
if (
  (needsBrowser || projects.includes('server')) &&
  !existsSync(`${agentApp}/node_modules/@livekit/agents-plugin-lemonslice/package.json`)
) {
  const r = spawnSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: agentApp, encoding: 'utf8' });
  if (r.status !== 0) process.stderr.write(`${r.stdout ?? ''}${r.stderr ?? ''}`);
  if (r.status !== 0) stop('could not install examples/livekit-agent/agent. Run: (cd examples/livekit-agent/agent && npm ci)');
}

// Every temporary file of the run (browser profiles, Miniflare's and the soak's folders, the consumer projects, the
// schemathesis config, …) goes to one folder of the system's temp folder, the run's TMPDIR, removed once the run is
// over whatever its outcome: a run leaves nothing there, even when a test or a tool forgets to clean up or is killed.
const runTmp = mkdtempSync(join(tmpdir(), 'liveai-test-'));
process.env.TMPDIR = runTmp;
// Ctrl-C reaches the child (prepare, vitest) too, as one process group: this process outlives it, so the removals
// below still run when a run is interrupted.
process.on('SIGINT', () => {});
const removeRunTmp = () => rmSync(runTmp, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });

// Consumer tier: pack the packages and install the consumer apps from the registry here, OUTSIDE the namespace
// (it has no network); the tests then build and run them inside it. They live in the system's temp folder, and are
// removed once the run is over, whatever its outcome (test/consumer/apps.mjs).
const consumer = all || projects.includes('consumer');
const { removeConsumerDir } = consumer ? await import('../test/consumer/apps.mjs') : { removeConsumerDir: () => {} };
if (consumer) {
  const prep = spawnSync(process.execPath, ['test/consumer/prepare.mjs'], { stdio: 'inherit' });
  if (prep.status !== 0) {
    removeConsumerDir();
    removeRunTmp();
    stop('the consumer tier could not be prepared (test/consumer/prepare.mjs failed)');
  }
}

const results = process.env.LIVEAI_TEST_RESULTS ?? 'test-results/vitest.json';
mkdirSync(dirname(results), { recursive: true });
rmSync(results, { force: true }); // a run that is interrupted must not report the last run's counts
const vitest = ['npx', 'vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${results}`, ...args];
const cmd = ns.ok ? [NETNS_RUN, ...vitest] : vitest;
const run = spawnSync(cmd[0], cmd.slice(1), { stdio: 'inherit', env: { ...process.env, CHROMIUM_PATH: chromium } });
removeConsumerDir();
removeRunTmp();

// One plain closing line that any CI reader understands.
try {
  const r = JSON.parse(readFileSync(results, 'utf8'));
  const skipped = (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
  const why = schemathesisMissing && skipped > 0 ? ` (the OpenAPI run: ${schemathesisMissing})` : '';
  console.log(`\n${r.numPassedTests} passed, ${r.numFailedTests} failed, ${skipped} skipped${why}`);
  if (r.numTotalTests === 0) process.exit(1);
} catch {
  console.log('\n0 passed, 1 failed');
  process.exit(1);
}
if (!ns.ok && ci) stop('CI=true: the media tiers could not run without a network namespace.');
process.exit(run.status ?? 1);
