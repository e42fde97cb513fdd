#!/usr/bin/env node
// Consumer tier, step 1 (runs OUTSIDE the network namespace, because it installs from the npm registry):
// packs liveai-kit and liveai-emulator (`npm pack`, building first when dist/ is missing), then makes one fresh
// project per consumer app (apps.mjs `CONSUMER_DIR`/<app>) from test/consumer/apps/<app> and installs the tarballs
// plus the app's third-party packages from the registry. The projects live in the system's temp folder and
// scripts/test.mjs removes them once the run is over; with LIVEAI_CONSUMER_DIR (a folder you keep) an app whose
// package.json and tarballs did not change keeps its node_modules between runs. The tests (test/consumer/*.test.ts) then
// build and run these projects inside the namespace, with no network. It prints nothing unless it fails: what it did
// goes to test-results/consumer/prepare.log, and a failing command's own output to stderr.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { APPS, CONSUMER_DIR, PACKS_DIR } from './apps.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** Runs a command, its output kept; when it fails, that output goes to stderr before the error is thrown. */
const run = (cmd, args, cwd) => {
  try {
    return execFileSync(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  } catch (e) {
    process.stderr.write(`consumer: ${cmd} ${args.join(' ')} failed in ${cwd}:\n${e.stdout ?? ''}${e.stderr ?? ''}\n`);
    throw e;
  }
};
const LOG = join(ROOT, 'test-results/consumer/prepare.log');
mkdirSync(dirname(LOG), { recursive: true });
writeFileSync(LOG, '');
const log = (msg) => appendFileSync(LOG, `consumer: ${msg}\n`);

if (!existsSync(join(ROOT, 'dist/index.js')) || !existsSync(join(ROOT, 'packages/liveai-emulator/dist/bin.js'))) {
  log('building (dist/ is missing)');
  run('npm', ['run', 'build'], ROOT);
}
rmSync(PACKS_DIR, { recursive: true, force: true });
mkdirSync(PACKS_DIR, { recursive: true });
run('npm', ['pack', '--loglevel=warn', '--pack-destination', PACKS_DIR], ROOT);
run('npm', ['pack', '--loglevel=warn', '-w', 'liveai-emulator', '--pack-destination', PACKS_DIR], ROOT);
const packs = Object.fromEntries(readdirSync(PACKS_DIR).map((f) => [f.replace(/-\d+\.\d+\.\d+.*\.tgz$/, ''), join(PACKS_DIR, f)]));
const sha = (file) => createHash('sha256').update(readFileSync(file)).digest('hex');
log(`packed ${Object.values(packs).join(', ')}`);

// LIVEAI_CONSUMER_APPS=vue-element,emulator prepares only those apps (when running one consumer test by hand).
const only = process.env.LIVEAI_CONSUMER_APPS?.split(',').map((a) => a.trim());
for (const [name, app] of Object.entries(APPS)) {
  if (only && !only.includes(name)) continue;
  const dir = join(CONSUMER_DIR, name);
  const pkg = { name: `consumer-${name}`, private: true, type: 'module', dependencies: {} };
  for (const p of app.packs) pkg.dependencies[p] = `file:${packs[p]}`;
  Object.assign(pkg.dependencies, app.registry);
  const key = createHash('sha256')
    .update(JSON.stringify(pkg))
    .update(app.packs.map((p) => sha(packs[p])).join())
    .digest('hex');
  const keyFile = join(dir, '.install-key');
  const fresh = !(existsSync(keyFile) && readFileSync(keyFile, 'utf8') === key);
  if (fresh) rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  // Always a fresh copy of the app's sources (never node_modules or build output).
  for (const f of readdirSync(dir))
    if (!['node_modules', 'package-lock.json', '.install-key'].includes(f)) rmSync(join(dir, f), { recursive: true, force: true });
  if (app.template) cpSync(join(ROOT, 'test/consumer/apps', app.template), dir, { recursive: true });
  for (const [file, text] of Object.entries(app.files ?? {})) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
  if (fresh) {
    log(`${name}: npm install (${[...app.packs, ...Object.keys(app.registry)].join(', ')})`);
    run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], dir);
    writeFileSync(keyFile, key);
  } else log(`${name}: up to date`);
}
log('ready');
