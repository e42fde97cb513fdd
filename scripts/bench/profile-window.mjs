#!/usr/bin/env node
// Where a page's main-thread script goes between the Start click and the first frame, by source function: reads the
// windows `e2e.ts --profile --profile-dir DIR` wrote (one JSON per traced run) and maps each sample through the
// pages' hidden source maps (DIR/app) to src/ files and npm packages.
//   node scripts/bench/profile-window.mjs DIR PAGE [--by function|file] [--total] [--top 40]
// PAGE: widget, element, bare, …; --total: inclusive time (a function and what it calls) instead of self time.
// Samples are counted (× the 0.2 ms sampling interval), not their wall-time deltas: on a loaded machine a delta also
// holds the time the thread waited for a core. Also prints the render pipeline (style, layout, paint) per run, with
// the layouts script forced.
import fs from 'node:fs';
import path from 'node:path';
import { SourceMapConsumer } from 'source-map-js';

const args = process.argv.slice(2);
const opt = (name, def) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : def);
const [dir, page] = args.filter((a, i) => !a.startsWith('--') && !['--by', '--top'].includes(args[i - 1]));
if (!dir || !page) {
  console.error('usage: profile-window.mjs DIR PAGE [--by function|file] [--total] [--top 40]');
  process.exit(2);
}
const by = opt('by', 'function');
const total = args.includes('--total');
const top = Number(opt('top', 40));
const INTERVAL_MS = 0.2;

const maps = new Map();
function mapFor(url) {
  const file = url.includes('/assets/') ? url.replace(/^.*\/assets\//, '') : null;
  if (!file) return null;
  if (!maps.has(file)) {
    const p = path.join(dir, 'app/assets', `${file}.map`);
    maps.set(file, fs.existsSync(p) ? new SourceMapConsumer(JSON.parse(fs.readFileSync(p, 'utf8'))) : null);
  }
  return maps.get(file);
}
const names = new Map();
/** `src/…:line name`, `nm/package/…:line name` or `(native name)`. */
function where({ url, lineNumber, columnNumber, functionName }) {
  const key = `${url}:${lineNumber}:${columnNumber}:${functionName}`;
  if (names.has(key)) return names.get(key);
  let name = url ? `${url.replace(/^.*\//, '')} ${functionName}` : `(${functionName || 'native'})`;
  const o = mapFor(url)?.originalPositionFor({ line: lineNumber + 1, column: columnNumber });
  if (o?.source)
    name = `${o.source.replace(/^.*node_modules\//, 'nm/').replace(/^.*?\/(src|scripts)\//, '$1/')}:${o.line} ${o.name ?? functionName}`;
  names.set(key, name);
  return name;
}
const fileOf = (name) => {
  if (name.startsWith('(')) return '(native)';
  const file = name.split(':')[0];
  if (!file.startsWith('nm/')) return file;
  const parts = file.split('/');
  return parts.slice(0, parts[1].startsWith('@') ? 3 : 2).join('/');
};

const files = fs.readdirSync(dir).filter((f) => f.endsWith('.json') && f.split('-').slice(0, -1).pop() === page);
const sums = new Map();
let samples = 0;
const pipeline = [];
for (const f of files) {
  const { click, frame, profile, tasks } = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'));
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  let t = profile.startTime;
  profile.samples.forEach((id, i) => {
    t += profile.timeDeltas[i];
    if (t < click || t > frame || ['(idle)', '(program)', '(root)'].includes(nodes.get(id).callFrame.functionName)) return;
    samples++;
    const seen = new Set();
    for (let cur = id; cur !== undefined && nodes.get(cur).callFrame.functionName !== '(root)'; cur = total ? parent.get(cur) : undefined) {
      const name = where(nodes.get(cur).callFrame);
      const key = by === 'file' ? fileOf(name) : name;
      if (!seen.has(key)) sums.set(key, (sums.get(key) ?? 0) + 1);
      seen.add(key);
    }
  });
  const scripts = tasks.filter((e) =>
    ['FunctionCall', 'EventDispatch', 'TimerFire', 'FireAnimationFrame', 'RunMicrotasks'].includes(e.name),
  );
  const forced = (e) => scripts.some((s) => s.ts <= e.ts && s.ts + s.dur >= e.ts + (e.dur ?? 0));
  const stages = {};
  for (const e of tasks.filter((e) => ['UpdateLayoutTree', 'Layout', 'PrePaint', 'Paint', 'Layerize', 'HitTest'].includes(e.name))) {
    const k = `${e.name}${forced(e) ? ' (forced by script)' : ''}`;
    const s = (stages[k] ??= { n: 0, ms: 0 });
    s.n++;
    s.ms += (e.tdur ?? e.dur ?? 0) / 1000;
  }
  pipeline.push(
    Object.entries(stages)
      .map(([k, s]) => `${k} ${s.n}× ${s.ms.toFixed(1)}`)
      .join(', '),
  );
}
const ms = (n) => ((n * INTERVAL_MS) / files.length).toFixed(1);
console.log(`${page}: ${files.length} runs, ${ms(samples)} ms of script per run (${total ? 'inclusive' : 'self'} ms per run below)`);
for (const [key, n] of [...sums].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${ms(n).padStart(7)}  ${key}`);
console.log('render pipeline per run (thread ms):');
for (const p of pipeline) console.log(`  ${p}`);
