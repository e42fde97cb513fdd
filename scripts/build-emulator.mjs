#!/usr/bin/env node
// Builds the `liveai-emulator` package (packages/liveai-emulator): its JS (vite.emulator.config.ts), an executable
// bin with a shebang, its declaration files (copied from dist/types after `tsc` + fix-dts) and the LICENSE.
import { chmodSync, cpSync, readFileSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

const out = 'packages/liveai-emulator';
execFileSync('npx', ['vite', 'build', '--config', 'vite.emulator.config.ts', '--logLevel', 'warn'], { stdio: 'inherit' });
const bin = `${out}/dist/bin.js`;
const src = readFileSync(bin, 'utf8');
if (!src.startsWith('#!')) writeFileSync(bin, `#!/usr/bin/env node\n${src}`);
chmodSync(bin, 0o755);
cpSync('dist/types', `${out}/dist/types`, {
  recursive: true,
  filter: (p) => !/dist\/types\/(react|components|element|testing)(\/|$)/.test(p),
});
cpSync('LICENSE', `${out}/LICENSE`);
console.log(`build-emulator: ${out} ready`);
