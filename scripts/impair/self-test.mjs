#!/usr/bin/env node
// Self-test of the impaired link (index.mjs): a UDP echo server in this namespace, a prober in the inner one that
// sends `probes` numbered datagrams `intervalMs` apart and times each echo. Prints (and resolves with)
// `{ probes, lost, rttMs: { min, median, p95, max } }`. Run it with `node scripts/impair/self-test.mjs [--delay-ms 40
// --jitter-ms 10 --loss 0.02 --probes 200]`; it re-runs itself in a private network namespace.
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startImpairedLink } from './index.mjs';

const PROBER = `
const s = require('node:dgram').createSocket('udp4');
const [host, port, n, every] = process.argv.slice(1);
const sent = new Map(); const rtt = [];
s.on('message', (m) => { const i = m.readUInt32BE(0); if (sent.has(i)) { rtt.push(performance.now() - sent.get(i)); sent.delete(i); } });
let i = 0;
const t = setInterval(() => {
  const b = Buffer.alloc(64); b.writeUInt32BE(i); sent.set(i, performance.now()); s.send(b, +port, host);
  if (++i === +n) { clearInterval(t); setTimeout(() => { console.log(JSON.stringify(rtt)); s.close(); }, 1500); }
}, +every);
`;

const ECHO = `
const s = require('node:dgram').createSocket('udp4');
s.on('message', (m, from) => s.send(m, from.port, from.address));
s.bind(0, process.argv[1], () => console.log(s.address().port));
process.stdin.on('end', () => process.exit(0)).resume();
`;

/**
 * The echo server and the prober are processes of their own, at a higher priority (nice -10, best effort, as the
 * relay): on a busy machine a process waiting for a core would add that wait to the round trips it times.
 */
const urgent = (file, args) => ['nice', ['-n', '-10', file, ...args]];

/** Measures `link` (from startImpairedLink) with `probes` echoes `intervalMs` apart. */
export async function measureLink(link, { probes = 200, intervalMs = 20 } = {}) {
  const echo = spawn(...urgent(process.execPath, ['-e', ECHO, link.outer]), { stdio: ['pipe', 'pipe', 'ignore'] });
  try {
    const port = await new Promise((resolve, reject) => {
      echo.stdout.once('data', (d) => resolve(String(d).trim()));
      echo.once('exit', (code) => reject(new Error(`echo server exited with ${code}`)));
    });
    const [file, args] = link.command(...urgent(process.execPath, ['-e', PROBER, link.outer, port, String(probes), String(intervalMs)]));
    const out = await new Promise((resolve, reject) => {
      const c = spawn(file, args, { stdio: ['ignore', 'pipe', 'ignore'] });
      let text = '';
      c.stdout.on('data', (d) => (text += d));
      c.on('exit', (code) => (code === 0 ? resolve(text) : reject(new Error(`prober exited with ${code}`))));
    });
    const rtt = JSON.parse(out).sort((a, b) => a - b);
    const at = (q) => rtt[Math.min(rtt.length - 1, Math.floor(q * rtt.length))];
    const r1 = (x) => Math.round(x * 10) / 10;
    return { probes, lost: probes - rtt.length, rttMs: { min: r1(rtt[0]), median: r1(at(0.5)), p95: r1(at(0.95)), max: r1(rtt.at(-1)) } };
  } finally {
    echo.stdin.end();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.env.LIVEAI_IN_NETNS !== '1') {
    const ns = fileURLToPath(new URL('../netns-run.sh', import.meta.url));
    process.exit(spawnSync(ns, [process.execPath, ...process.argv.slice(1)], { stdio: 'inherit' }).status ?? 1);
  }
  const { values: v } = parseArgs({
    options: {
      'delay-ms': { type: 'string', default: '40' },
      'jitter-ms': { type: 'string', default: '10' },
      loss: { type: 'string', default: '0.02' },
      probes: { type: 'string', default: '200' },
    },
  });
  const link = await startImpairedLink({ delayMs: +v['delay-ms'], jitterMs: +v['jitter-ms'], loss: +v.loss });
  try {
    const r = await measureLink(link, { probes: +v.probes });
    console.log(JSON.stringify({ ...r, relay: await link.stats() }));
  } finally {
    await link.close();
  }
}
