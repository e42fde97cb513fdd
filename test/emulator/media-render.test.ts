import { VideoBufferType, VideoFrame } from '@livekit/rtc-node';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { isLiveAiError } from '../../src/core/errors';
import { AudioPlayer, type AudioSink } from '../../src/emulator/media/audio-player';
import { composeFrame, layoutRows, newRowLayout } from '../../src/emulator/media/compose';
import { styleFromPrompt, stylesFromDemeanour } from '../../src/emulator/media/demeanour';
import { faceGeometry, FRAME_HEIGHT as H, FRAME_WIDTH as W, type Rgb } from '../../src/emulator/media/face';
import { type I420Image, newI420, yuvOf } from '../../src/emulator/media/i420';
import { actionKind, BlinkSchedule, BLINK_MS, idlePose, type Pose } from '../../src/emulator/media/motion';
import { drawEyelids, drawMouth } from '../../src/emulator/media/overlays';
import { nextDelay, RateMeter } from '../../src/emulator/media/pacer';
import { decodePortrait, portraitFromRgba, type Portrait } from '../../src/emulator/media/portrait';
import { AvatarRenderer } from '../../src/emulator/media/renderer';
import { ArrayPcmSource, Upsampler3x } from '../../src/emulator/media/resample';
import { mouthLevel, rms, SpeechStream, syllabify, synthesizeSpeech } from '../../src/emulator/media/speech';

const g = faceGeometry();
const still: Pose = { dx: 0, dy: 0, shear: 0, breath: 0, nod: 0, bow: 0, hscale: 1, wave: null };

/** A light face on a light background: nothing dark near the mouth, so a dark mouth is easy to count. */
async function facePng(bg = '#9ec5e8'): Promise<Uint8Array> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><rect width="${W}" height="${H}" fill="${bg}"/>
    <ellipse cx="184" cy="270" rx="125" ry="165" fill="#f0c8a4"/>
    <circle cx="118" cy="213" r="14" fill="#fff"/><circle cx="250" cy="213" r="14" fill="#fff"/>
    <circle cx="118" cy="213" r="7" fill="#222"/><circle cx="250" cy="213" r="7" fill="#222"/></svg>`;
  return new Uint8Array(await sharp(Buffer.from(svg)).png().toBuffer());
}

/** Solid-colour RGBA portrait with a vertical gradient in red (row index) and column index in green. */
function gradientPortrait(): Portrait {
  const rgba = new Uint8Array(W * H * 4);
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) rgba.set([y % 256, x % 256, 100, 255], (y * W + x) * 4);
  return portraitFromRgba(rgba, W, H);
}

/** The RGBA pixels of `img` (its full padded width, `img.stride` px), converted back the way a viewer does (libyuv). */
const rgba = (img: I420Image): Uint8Array =>
  new VideoFrame(img.data, img.stride, img.height, VideoBufferType.I420).convert(VideoBufferType.RGBA).data;
/** [Y, U, V] of the pixel at (x, y) of `img` (unpadded coordinates). */
const yuvAt = (img: I420Image, x: number, y: number): number[] => {
  const c = (y >> 1) * img.cstride + ((x + img.margin) >> 1);
  return [img.y[y * img.stride + x + img.margin] as number, img.u[c] as number, img.v[c] as number];
};
/** Y of the pixel at (x, y): per pixel, so it shows exactly where each source pixel went. */
const yAt = (img: I420Image, x: number, y: number) => yuvAt(img, x, y)[0];
const lumaOf = (c: Rgb) => yuvOf(c)[0];
/** Fills all of `img` (padding included) with the colour `c`. */
function paint(img: I420Image, c: Rgb): void {
  const [y, u, v] = yuvOf(c);
  img.y.fill(y);
  img.u.fill(u);
  img.v.fill(v);
}
const luma = (buf: Uint8Array, i: number) => 0.299 * (buf[i] as number) + 0.587 * (buf[i + 1] as number) + 0.114 * (buf[i + 2] as number);
/** Dark pixels (luma < 90) in a box around the mouth of an unpadded frame. */
function darkAroundMouth(frame: Uint8Array): number {
  let n = 0;
  for (let y = Math.round(H * 0.55); y < Math.round(H * 0.72); y++)
    for (let x = Math.round(W * 0.33); x < Math.round(W * 0.67); x++) if (luma(frame, (y * W + x) * 4) < 90) n++;
  return n;
}
/** Centroid of the very dark pixels (red < 60: only the pupils of {@link facePng}). */
function pupils(frame: Uint8Array): { x: number; y: number } {
  let sx = 0;
  let sy = 0;
  let n = 0;
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++)
      if ((frame[(y * W + x) * 4] as number) < 60) {
        sx += x;
        sy += y;
        n++;
      }
  return n ? { x: sx / n, y: sy / n } : { x: 0, y: 0 };
}
/** Pure white pixels (the whites of the eyes of {@link facePng}). */
function whitePixels(frame: Uint8Array): number {
  let n = 0;
  for (let i = 0; i < frame.length; i += 4) if ((frame[i] as number) > 245 && (frame[i + 2] as number) > 245) n++;
  return n;
}
/** Fraction of pixels where some channel differs by more than 24 between two frames. */
function changedFraction(a: Uint8Array, b: Uint8Array): number {
  let n = 0;
  const d = (i: number) => Math.abs((a[i] as number) - (b[i] as number));
  for (let i = 0; i < a.length; i += 4) if (Math.max(d(i), d(i + 1), d(i + 2)) > 24) n++;
  return n / (a.length / 4);
}

describe('reference image decoding', () => {
  it('decodes to a 368×560 padded portrait and centre-crops a wide image', async () => {
    const wide = await sharp({ create: { width: 1000, height: 560, channels: 3, background: '#ff0000' } })
      .composite([{ input: { create: { width: 500, height: 560, channels: 3, background: '#0000ff' } }, left: 500, top: 0 }])
      .png()
      .toBuffer();
    const p = await decodePortrait(new Uint8Array(wide));
    expect([p.width, p.height, p.stride]).toEqual([W, H, W + 2 * p.margin]);
    expect(yuvAt(p, 10, 100)).toEqual(yuvOf([255, 0, 0])); // left of centre: red
    expect(yuvAt(p, W - 10, 100)).toEqual(yuvOf([0, 0, 255])); // right of centre: blue
    expect(yuvAt(p, -p.margin, 0)).toEqual(yuvOf([255, 0, 0])); // left padding repeats the edge
  });

  it('rejects bytes that are not an image, and empty bytes, with invalid_request', async () => {
    await expect(decodePortrait(new TextEncoder().encode('definitely not an image'))).rejects.toSatisfy((e) =>
      isLiveAiError(e, 'invalid_request'),
    );
    await expect(decodePortrait(new Uint8Array(0))).rejects.toThrow(/empty/);
  });
});

describe('row layout and composition', () => {
  it('copies the image unchanged for a still pose and shifts rows for dx/dy', () => {
    const p = gradientPortrait();
    const out = newI420(W, H);
    const cols = new Int32Array(W * 1.5);
    composeFrame(p, layoutRows(still, H, p.margin, newRowLayout(H)), 1, out, cols);
    expect(yAt(out, 50, 200)).toBe(lumaOf([200, 50, 100]));
    composeFrame(p, layoutRows({ ...still, dx: 5, dy: 10 }, H, p.margin, newRowLayout(H)), 1, out, cols);
    expect(yAt(out, 55, 210)).toBe(lumaOf([200, 50, 100])); // content moved right 5 and down 10
    expect(yAt(out, 2, 0)).toBe(lumaOf([0, 0, 100])); // exposed top-left repeats the edge
  });

  it('mirrors the picture half-way through a spin (hscale −1)', () => {
    const p = gradientPortrait();
    const out = newI420(W, H);
    composeFrame(p, layoutRows(still, H, p.margin, newRowLayout(H)), -1, out, new Int32Array(W * 1.5));
    expect(yAt(out, 10, 30)).toBe(lumaOf([30, (W - 1 - 10) % 256, 100]));
  });
});

describe('blinks', () => {
  it('blinks every 3–6 s for about 150 ms', () => {
    const b = new BlinkSchedule(7);
    const starts: number[] = [];
    let closedMs = 0;
    let was = false;
    for (let t = 0; t < 120_000; t += 5) {
      const c = b.closedness(t) > 0;
      if (c && !was) starts.push(t);
      if (c) closedMs += 5;
      was = c;
    }
    const gaps = starts.slice(1).map((s, i) => s - (starts[i] as number));
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(3000);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(6000 + BLINK_MS);
    expect(closedMs / starts.length).toBeGreaterThan(120);
    expect(closedMs / starts.length).toBeLessThan(170);
  });
});

describe('mouth and demeanour', () => {
  it('opens a dark mouth in proportion to the level', () => {
    const counts = [0, 0.5, 1].map((open) => {
      const p = gradientPortrait();
      paint(p, [230, 230, 230]);
      drawMouth(p, g, [180, 90, 90], open, 0);
      const pixels = rgba(p);
      let n = 0;
      for (let i = 0; i < pixels.length; i += 4) if (luma(pixels, i) < 90) n++;
      return n;
    });
    expect(counts[0]).toBe(0);
    expect(counts[1]).toBeGreaterThan(300);
    expect(counts[2]).toBeGreaterThan((counts[1] as number) * 1.5);
  });

  it('bends the mouth corners up for a smile and down for a frown, and leaves a neutral closed mouth alone', () => {
    const cornerRow = (smile: number) => {
      const p = gradientPortrait();
      paint(p, [230, 230, 230]);
      drawMouth(p, g, [20, 20, 20], 0, smile);
      const pixels = rgba(p);
      const x = g.mouth.x - g.mouthHalfWidth + 1 + p.margin;
      for (let y = 0; y < H; y++) if ((pixels[(y * p.stride + x) * 4] as number) < 100) return y;
      return -1;
    };
    expect(cornerRow(0)).toBe(-1); // neutral and closed: the image's own mouth is left alone
    expect(cornerRow(1)).toBeGreaterThan(0);
    expect(cornerRow(1)).toBeLessThan(g.mouth.y - 4); // corners up
    expect(cornerRow(-1)).toBeGreaterThan(g.mouth.y + 4); // corners down
  });

  it('maps prompt words to style', () => {
    expect(styleFromPrompt('You are a happy, cheerful guide').smile).toBeGreaterThan(0.5);
    expect(styleFromPrompt('sad and gloomy').smile).toBeLessThan(0);
    expect(styleFromPrompt('stay calm and relaxed').speed).toBeLessThan(0.7);
    expect(styleFromPrompt('ENERGETIC host').amount).toBeGreaterThan(1.5);
    expect(styleFromPrompt('a tax adviser')).toEqual(styleFromPrompt(undefined));
    const s = stylesFromDemeanour({ idlePrompt: 'calm' });
    expect(s.speaking.speed).toBeLessThan(1); // falls back to the idle prompt
  });
});

describe('renderer', () => {
  it('keeps idle motion gentle, opens the mouth while speaking and blinks', async () => {
    const portrait = await decodePortrait(await facePng());
    const r = new AvatarRenderer(portrait, 3);
    const pose = idlePose(3, 1);
    expect(Math.abs(pose.dx) + Math.abs(pose.dy)).toBeLessThan(10);
    let silent = 0;
    let talking = 0;
    let t = 0;
    const whites: number[] = [];
    for (; t < 2000; t += 40) silent = Math.max(silent, darkAroundMouth(rgba(r.render(t, 0))));
    for (; t < 4000; t += 40) talking = Math.max(talking, darkAroundMouth(rgba(r.render(t, t % 400 < 200 ? 1 : 0.2))));
    for (; t < 10_000; t += 20) whites.push(whitePixels(rgba(r.render(t, 0))));
    expect(silent).toBeLessThan(20);
    expect(talking).toBeGreaterThan(400);
    // The whites of the eyes disappear during a blink (at least one in 6 s) and are back otherwise.
    expect(Math.min(...whites)).toBeLessThan(Math.max(...whites) * 0.2);
    expect(whites.filter((w) => w < Math.max(...whites) * 0.5).length).toBeLessThan(whites.length * 0.1);
  });

  it('draws the eyelids where the face layout puts the eyes', () => {
    const g13 = faceGeometry(W, H, { eyeDx: 0.13 });
    expect(g13.eyes.map((e) => e.x)).toEqual([Math.round(W * 0.37), Math.round(W * 0.63)]);
    const p = gradientPortrait();
    paint(p, [255, 255, 255]);
    drawEyelids(
      p,
      g13,
      [
        [10, 10, 10],
        [10, 10, 10],
      ],
      1,
    );
    const pixels = rgba(p);
    const dark = (x: number, y: number) => (pixels[(y * p.stride + x + p.margin) * 4] as number) < 100;
    expect(dark(g13.eyes[0]!.x, g13.eyes[0]!.y)).toBe(true);
    expect(dark(g.eyes[0]!.x - 10, g.eyes[0]!.y)).toBe(false); // the default spot is left alone
  });

  it('plays every whole-body action visibly and falls back to sway for unknown names', async () => {
    const portrait = await decodePortrait(await facePng());
    expect(actionKind(' Wave ')).toBe('wave');
    expect(actionKind('moonwalk')).toBe('sway');
    /** Largest change over the action against an idle twin: pupils' displacement (px) and changed area. */
    const peak = (action: string | null) => {
      const r = new AvatarRenderer(portrait, 1);
      const idle = new AvatarRenderer(portrait, 1);
      if (action) r.playAction(action, 0);
      const out = { dx: 0, dy: 0, area: 0 };
      for (let t = 0; t <= 1500; t += 60) {
        const a = pupils(rgba(r.render(t, 0)));
        const b = pupils(rgba(idle.render(t, 0)));
        out.dx = Math.max(out.dx, Math.abs(a.x - b.x));
        out.dy = Math.max(out.dy, Math.abs(a.y - b.y));
        out.area = Math.max(out.area, changedFraction(rgba(r.frame), rgba(idle.frame)));
      }
      return out;
    };
    expect(peak(null)).toEqual({ dx: 0, dy: 0, area: 0 });
    expect(peak('wave').area).toBeGreaterThan(0.04); // an arm appears
    expect(peak('nod').dy).toBeGreaterThan(15);
    expect(peak('jump').dy).toBeGreaterThan(50);
    expect(peak('bow').dy).toBeGreaterThan(50);
    expect(peak('spin').area).toBeGreaterThan(0.2); // the face (~30 % of the frame) turns edge-on
    expect(peak('moonwalk').dx).toBeGreaterThan(15);
  });

  it('draws every frame exactly as a full redraw does, though it copies only the rows that changed', () => {
    // Every row of this portrait differs, so a row left stale or copied from the wrong place shows.
    const first = gradientPortrait();
    const rgbaOf = (f: (x: number, y: number) => [number, number, number]) => {
      const px = new Uint8Array(W * H * 4);
      for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) px.set([...f(x, y), 255], (y * W + x) * 4);
      return px;
    };
    // The second portrait puts the face elsewhere, so the rows that change each frame move too.
    const second = portraitFromRgba(
      rgbaOf((x, y) => [(x * 3) % 256, (y * 7) % 256, 60]),
      W,
      H,
      { eyeY: 0.3, mouthY: 0.7 },
    );
    const fast = new AvatarRenderer(first, 3);
    const full = new AvatarRenderer(first, 3, { incremental: false });
    const both = (f: (r: AvatarRenderer) => void) => [fast, full].forEach(f);
    const actions = ['wave', 'nod', 'jump', 'spin', 'bow', 'sway'];
    let t = 0;
    let differing = 0;
    for (let i = 0; i < 1000; i++) {
      t += i % 97 === 0 ? 300 : 38 + (i % 5); // uneven frame times, and now and then a stalled event loop
      if (i % 60 === 0) both((r) => r.playAction(actions[(i / 60) % actions.length] as string, t));
      if (i === 400) both((r) => r.setDemeanour({ idlePrompt: 'cheerful and energetic', agentPrompt: 'a happy host' }));
      if (i === 500) both((r) => r.setPortrait(second));
      const level = i % 200 < 120 ? Math.abs(Math.sin(i / 3)) : 0; // speaking, then quiet
      if (Buffer.compare(fast.render(t, level).data, full.render(t, level).data) !== 0) differing++;
    }
    expect(differing).toBe(0);
  });

  it('shows a new portrait on the next frame after setPortrait', async () => {
    const r = new AvatarRenderer(await decodePortrait(await facePng('#9ec5e8')));
    const before = yuvAt(r.render(0, 0), 5, 5);
    r.setPortrait(await decodePortrait(await facePng('#205020')));
    expect(yuvAt(r.render(40, 0), 5, 5)).not.toEqual(before);
    expect(yuvAt(r.frame, 5, 5)).toEqual(yuvOf([32, 80, 32]));
  });
});

describe('placeholder speech', () => {
  it('has one syllable per vowel group with word and sentence pauses', () => {
    const s = syllabify('Hello world. Hi!');
    expect(s.map((x) => x.vowel)).toEqual(['e', 'o', 'o', 'i']);
    expect(s.every((x) => x.durMs >= 150 && x.durMs <= 250)).toBe(true);
    expect(s[1]?.gapMs).toBe(90);
    expect(s[2]?.gapMs).toBe(380);
  });

  it('is voiced in syllables with gaps, and its length follows the text', () => {
    const pcm = synthesizeSpeech('The quick brown fox jumps over the lazy dog');
    const seconds = pcm.length / 48_000;
    expect(seconds).toBeGreaterThan(2);
    expect(seconds).toBeLessThan(5);
    const levels: number[] = [];
    for (let i = 0; i + 480 <= pcm.length; i += 480) levels.push(mouthLevel(rms(pcm, i, i + 480)));
    expect(levels.filter((l) => l > 0.8).length / levels.length).toBeGreaterThan(0.4);
    expect(levels.filter((l) => l < 0.3).length).toBeGreaterThan(8); // the gaps close the mouth
    expect(synthesizeSpeech('').length).toBe(0);
  });

  it('streams in pieces identical to the whole', () => {
    const whole = synthesizeSpeech('streaming works fine');
    const s = new SpeechStream('streaming works fine');
    const parts = new Int16Array(whole.length);
    let at = 0;
    for (let got = 1; got > 0; at += got) got = s.read(parts, at, Math.min(333, parts.length - at));
    expect(at).toBe(whole.length);
    expect(parts).toEqual(whole);
  });

  it('maps RMS to a mouth level logarithmically', () => {
    expect(mouthLevel(0)).toBe(0);
    expect(mouthLevel(0.001)).toBe(0);
    expect(mouthLevel(0.02)).toBeGreaterThan(0.3);
    expect(mouthLevel(0.2)).toBe(1);
  });

  it('upsamples 16 kHz to 48 kHz seamlessly across chunks', () => {
    const up = new Upsampler3x();
    const a = up.push(Int16Array.from([0, 300]));
    const b = up.push(Int16Array.from([600]));
    expect(Array.from(a)).toEqual([0, 0, 0, 100, 200, 300]);
    expect(Array.from(b)).toEqual([400, 500, 600]);
  });
});

describe('audio player', () => {
  /** A sink that takes frames on the next macrotask and reports 20 ms queued. */
  function fakeSink() {
    const frames: Int16Array[] = [];
    const sink: AudioSink = {
      capture: (d) => new Promise((r) => setImmediate(() => (frames.push(d), r()))),
      queuedMs: () => 20,
    };
    return { sink, frames };
  }

  /** Lets `n` rounds of macrotasks run: enough for the fake sink to take `n` frames if the player sent them. */
  const turns = async (n: number) => {
    for (let k = 0; k < n; k++) await new Promise((r) => setImmediate(r));
  };

  it('sends nothing while idle (the source fills in silence), then the clip in 10 ms frames, and reports done', async () => {
    const { sink, frames } = fakeSink();
    let now = 0;
    const player = new AudioPlayer(sink, () => now);
    player.start();
    await turns(10);
    expect(frames.length).toBe(0);
    const clip = synthesizeSpeech('hello');
    const done = new Promise<void>((r) => player.enqueue(new ArrayPcmSource(clip), r));
    expect(player.busy).toBe(true);
    await expect.poll(() => frames.some((f) => f.length === 480 && f.some((v) => v !== 0))).toBe(true);
    now = 1e9; // lets the after-playout timer fire at once
    await done;
    const sent = frames.length;
    await turns(10);
    expect(frames.length).toBe(sent); // idle again: nothing more is sent
    await player.stop();
    const voiced = frames.filter((f) => f.length === 480).reduce((n, f) => n + f.length, 0);
    expect(voiced).toBeGreaterThanOrEqual(clip.length);
  });

  it('follows the level in 10 ms steps inside longer frames', async () => {
    let now = 1000;
    const frames: Int16Array[] = [];
    // Each frame takes 40 ms to play; 20 ms are queued ahead of it.
    const sink: AudioSink = {
      capture: (d) => new Promise((r) => setImmediate(() => (frames.push(d), (now += 40), r()))),
      queuedMs: () => 20,
    };
    const player = new AudioPlayer(sink, () => now, 4 * 480);
    const clip = new Int16Array(2 * 1920);
    clip.fill(12_000, 1440, 1920); // the first frame is silent but for its last 10 ms, heard from 1050
    clip.fill(12_000, 1920); // the second frame is loud throughout, heard from 1060
    player.enqueue(new ArrayPcmSource(clip));
    player.start();
    await expect.poll(() => frames.length).toBeGreaterThanOrEqual(2);
    expect(player.levelAt(1045)).toBe(0); // a 40 ms level would already be open here
    expect(player.levelAt(1050)).toBe(1);
    expect(player.levelAt(1099)).toBe(1);
    await player.stop();
  });

  it('reports the level of the frame being heard and cuts off on clear()', async () => {
    const { sink } = fakeSink();
    const now = 1000;
    const player = new AudioPlayer(sink, () => now);
    const loud = new Int16Array(48_000).fill(12_000);
    let cut = false;
    player.enqueue(new ArrayPcmSource(loud), () => (cut = true));
    player.start();
    await expect.poll(() => player.levelAt(now + 20)).toBe(1);
    expect(player.levelAt(now - 100)).toBe(0);
    player.clear();
    expect(cut).toBe(true);
    expect(player.levelAt(now + 20)).toBe(0);
    await player.stop();
  });
});

describe('frame pacing', () => {
  it('schedules by absolute time and skips ticks after a stall', () => {
    expect(nextDelay(0, 40, 1, 3)).toEqual({ n: 1, ms: 37 });
    expect(nextDelay(0, 40, 5, 205)).toEqual({ n: 5, ms: 0 }); // slightly late: no skipping, no drift
    expect(nextDelay(0, 40, 2, 1000)).toEqual({ n: 26, ms: 40 }); // stalled: resume on the grid
  });

  it('measures the rate over the last 2 s', () => {
    const m = new RateMeter(2000);
    for (let t = 0; t < 5000; t += 40) m.mark(t);
    expect(m.total).toBe(125);
    expect(m.rate(4999)).toBeCloseTo(25, 0);
    expect(m.rate(9000)).toBe(0);
  });
});
