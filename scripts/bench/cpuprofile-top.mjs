#!/usr/bin/env node
// Top self-time functions of a V8 .cpuprofile (e.g. from `node scripts/bench-proxy.mjs --cpu-prof-dir DIR`),
// idle time left out, with each function's share of the busy time.
//   node scripts/bench/cpuprofile-top.mjs FILE.cpuprofile [--top 30] [--by function|package] [--requests N]
// --by package sums by npm package / source file; --requests N adds µs per request.
import fs from 'node:fs';

const args = process.argv.slice(2);
const opt = (name, def) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : def;
};
const file = args.find((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--'));
if (!file) {
  console.error('usage: cpuprofile-top.mjs FILE.cpuprofile [--top 30] [--by function|package] [--requests N]');
  process.exit(2);
}
const top = Number(opt('top', 30));
const by = opt('by', 'function');
const requests = Number(opt('requests', 0));

const profile = JSON.parse(fs.readFileSync(file, 'utf8'));
const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map();
profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));

const short = (url) =>
  url
    .replace(/^file:\/\/.*?\/node_modules\//, 'nm/')
    .replace(/^file:\/\/.*?\/(src|scripts)\//, '$1/')
    .replace(/^.*\/node_modules\//, 'nm/');
const pkg = (url) => {
  if (!url) return '(native)';
  const u = short(url);
  if (!u.startsWith('nm/')) return u;
  const parts = u.split('/');
  return parts.slice(0, parts[1].startsWith('@') ? 3 : 2).join('/');
};
const sums = new Map();
let busy = 0;
for (const [id, us] of self) {
  const { functionName, url, lineNumber } = nodes.get(id).callFrame;
  if (functionName === '(idle)') continue;
  busy += us;
  const key = by === 'package' ? pkg(url) : `${functionName || '(anonymous)'} ${url ? `${short(url)}:${lineNumber + 1}` : ''}`;
  sums.set(key, (sums.get(key) ?? 0) + us);
}
console.log(`busy ${(busy / 1000).toFixed(0)} ms${requests ? `, ${(busy / requests).toFixed(1)} µs per request` : ''}`);
for (const [key, us] of [...sums].sort((a, b) => b[1] - a[1]).slice(0, top)) {
  const per = requests ? ` ${(us / requests).toFixed(1).padStart(6)} µs/req` : '';
  console.log(`${((us / busy) * 100).toFixed(1).padStart(5)} % ${(us / 1000).toFixed(0).padStart(6)} ms${per}  ${key}`);
}
