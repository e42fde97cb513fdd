#!/usr/bin/env node
// Post-build steps of `liveai-kit`: dist/styles.css, then the standalone <liveai-avatar> bundle with its
// third-party notices. (The `liveai-emulator` bin ships in its own package: scripts/build-emulator.mjs.)
import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

if (existsSync('scripts/build-css.mjs')) execFileSync(process.execPath, ['scripts/build-css.mjs'], { stdio: 'inherit' });
if (existsSync('vite.element.config.ts'))
  execFileSync('npx', ['vite', 'build', '--config', 'vite.element.config.ts'], { stdio: 'inherit' });
