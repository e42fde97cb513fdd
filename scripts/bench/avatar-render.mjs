#!/usr/bin/env node
// The local service's avatar drawing alone, without LiveKit: CPU time (this thread's user + system,
// process.threadCpuUsage) per rendered 368×560 I420 frame, in µs, for each kind of frame a session shows: idle
// (breathing, swaying, blinking), speaking (the mouth moving), waving (the arm drawn over the frame) and spinning
// (every pixel resampled). Medians of --rounds rounds of --frames frames each; only measures, asserts nothing.
//   node scripts/bench/avatar-render.mjs [--frames 2000] [--rounds 7] [--json]
// The whole avatar's cost (encoding, audio, the FFI) is what scripts/bench-avatars.mjs measures: this is the part
// of it that the service's own drawing code takes.
import { parseArgs } from 'node:util';
import { median } from './stats.mjs';

const { values } = parseArgs({
  options: {
    frames: { type: 'string', default: '2000' },
    rounds: { type: 'string', default: '7' },
    json: { type: 'boolean', default: false },
  },
});
const FRAMES = Number(values.frames);
const ROUNDS = Number(values.rounds);

const { register } = await import('tsx/esm/api');
register();
const { AvatarRenderer } = await import('../../src/emulator/media/renderer.ts');
const { decodePortrait } = await import('../../src/emulator/media/portrait.ts');
const sharp = (await import('sharp')).default;

const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="368" height="560">
  <rect width="368" height="560" fill="hsl(200,45%,80%)"/>
  <ellipse cx="184" cy="270" rx="125" ry="165" fill="#f0c8a4"/>
  <circle cx="118" cy="213" r="15" fill="#fff"/><circle cx="250" cy="213" r="15" fill="#fff"/>
  <rect x="60" y="470" width="248" height="120" rx="60" fill="hsl(20,40%,45%)"/></svg>`;
const portrait = await decodePortrait(new Uint8Array(await sharp(Buffer.from(svg)).png().toBuffer()));

const FRAME_MS = 40; // 25 fps
/** One frame of `mode` at frame index `i` (the renderer's clock advances 40 ms per frame). */
const scenes = {
  idle: (r, i) => r.render(i * FRAME_MS, 0),
  speaking: (r, i) => r.render(i * FRAME_MS, 0.5 + 0.5 * Math.sin(i / 2)),
  wave: (r, i) => {
    if (i % 37 === 0) r.playAction('wave', i * FRAME_MS); // an action lasts 1.5 s: always waving
    r.render(i * FRAME_MS, 0);
  },
  spin: (r, i) => {
    if (i % 37 === 0) r.playAction('spin', i * FRAME_MS);
    r.render(i * FRAME_MS, 0);
  },
};

const cpuUs = () => {
  const u = process.threadCpuUsage();
  return u.user + u.system;
};
const result = {};
for (const [name, frame] of Object.entries(scenes)) {
  const perFrame = [];
  for (let round = 0; round < ROUNDS; round++) {
    const r = new AvatarRenderer(portrait, 7);
    for (let i = 0; i < 100; i++) frame(r, i); // warm up
    const t0 = cpuUs();
    for (let i = 100; i < 100 + FRAMES; i++) frame(r, i);
    perFrame.push((cpuUs() - t0) / FRAMES);
  }
  result[name] = { medianUs: median(perFrame), minUs: Math.min(...perFrame), maxUs: Math.max(...perFrame) };
}
if (values.json) console.log(JSON.stringify(result));
else {
  console.log(`avatar drawing, CPU µs per 368×560 frame (median of ${ROUNDS} rounds of ${FRAMES} frames; min–max)`);
  for (const [name, r] of Object.entries(result))
    console.log(`${name.padEnd(9)} ${r.medianUs.toFixed(1).padStart(7)}  (${r.minUs.toFixed(1)}–${r.maxUs.toFixed(1)})`);
}
