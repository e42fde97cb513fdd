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

// Which packages each entry's declarations may import. An app type-checks the whole declaration graph of what it
// imports (with `skipLibCheck: false`), so a bare import of an optional peer there fails with TS2307 in every app
// that did not install it. `liveai-kit/server` must need none: the Fetch handler runs without express or pino.
const DEPENDENCIES = ['valibot', 'zod', 'zustand', 'jose'];
const ENTRIES = {
  'core/index.d.ts': [],
  'core/validation.d.ts': [],
  'server/index.d.ts': [],
  'server/express-entry.d.ts': ['express'],
  'testing/index.d.ts': [],
};
const BARE = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])([^'".][^'"]*)\1/g;
const RELATIVE = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])(\.{1,2}\/[^'"]*)\1/g;
const problems = [];
for (const [entry, allowed] of Object.entries(ENTRIES)) {
  const seen = new Set();
  const queue = [join(root, entry)];
  while (queue.length) {
    const file = queue.pop();
    if (seen.has(file) || !existsSync(file)) continue;
    seen.add(file);
    // Code only: docstrings may quote an import.
    const src = readFileSync(file, 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/^\s*\/\/.*$/gm, '');
    for (const [, , spec] of src.matchAll(RELATIVE)) queue.push(resolve(dirname(file), spec.replace(/\.js$/, '.d.ts')));
    for (const [, , spec] of src.matchAll(BARE)) {
      const pkg = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0];
      if (spec.startsWith('node:') || DEPENDENCIES.includes(pkg) || allowed.includes(pkg)) continue;
      problems.push(`${entry} reaches '${spec}' through ${file.slice(root.length + 1)}`);
    }
  }
}
if (problems.length) {
  console.error(`fix-dts: declarations import packages their entry must not need:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log(`fix-dts: ${Object.keys(ENTRIES).join(', ')} import only their own packages`);
