#!/usr/bin/env node
// Post-build steps: make dist/bin/liveai-emulator.js an executable with a shebang, then build dist/styles.css.
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

const bin = 'dist/bin/liveai-emulator.js';
const src = readFileSync(bin, 'utf8');
if (!src.startsWith('#!')) writeFileSync(bin, `#!/usr/bin/env node\n${src}`);
chmodSync(bin, 0o755);
if (existsSync('scripts/build-css.mjs')) execFileSync(process.execPath, ['scripts/build-css.mjs'], { stdio: 'inherit' });
if (existsSync('vite.element.config.ts')) execFileSync('npx', ['vite', 'build', '--config', 'vite.element.config.ts'], { stdio: 'inherit' });
