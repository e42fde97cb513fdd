#!/usr/bin/env node
// Post-build: gives every relative import in the emitted declaration files (dist/types) an explicit `.js`
// extension (`./x` -> `./x.js` or `./x/index.js`), so the types resolve under `moduleResolution: node16/nodenext`
// as well as `bundler`. The sources keep extension-less imports; only the shipped .d.ts files are rewritten.
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const root = resolve(process.argv[2] ?? 'dist/types');
const SPEC = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\bexport\s+\*\s+from\s*)(['"])(\.{1,2}\/[^'"]*|\.{1,2})\2/g;

function fixSpec(file, spec) {
  if (/\.(js|mjs|cjs|json|css)$/.test(spec)) return spec;
  const base = resolve(dirname(file), spec);
  if (existsSync(`${base}.d.ts`)) return `${spec}.js`;
  if (existsSync(join(base, 'index.d.ts'))) return `${spec.replace(/\/$/, '')}/index.js`;
  throw new Error(`${file}: cannot resolve "${spec}" to a declaration file`);
}

let files = 0;
let specs = 0;
function walk(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (name.endsWith('.d.ts')) {
      const src = readFileSync(path, 'utf8');
      const out = src.replace(SPEC, (_m, pre, q, spec) => {
        specs++;
        return `${pre}${q}${fixSpec(path, spec)}${q}`;
      });
      if (out !== src) {
        writeFileSync(path, out);
        files++;
      }
    }
  }
}
walk(root);
console.log(`fix-dts: ${specs} relative imports in ${files} declaration files now end in .js`);
