#!/usr/bin/env node
// Post-build steps of `liveai-kit`: dist/styles.css, the standalone <liveai-avatar> bundle with its third-party
// notices, then dist/element.js (the element of the package, with Preact). (The `liveai-emulator` bin ships in its
// own package: scripts/build-emulator.mjs.)
import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

if (existsSync('scripts/build-css.mjs')) execFileSync(process.execPath, ['scripts/build-css.mjs'], { stdio: 'inherit' });
if (existsSync('vite.element.config.ts')) {
  execFileSync('npx', ['vite', 'build', '--config', 'vite.element.config.ts'], { stdio: 'inherit' });
  // dist/element.js (liveai-kit/element): Preact inside, the core from dist/index.js and dist/internal.js.
  execFileSync('npx', ['vite', 'build', '--config', 'vite.element.config.ts', '--mode', 'package'], { stdio: 'inherit' });
}
