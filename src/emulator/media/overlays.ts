import type { FaceGeometry, Rgb } from './face';
import { type I420Image, type Yuv, yuvOf } from './i420';

/** A rectangle in unpadded image coordinates, px (x1/y1 exclusive). */
export interface Rect {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

const MOUTH_INSIDE = yuvOf([74, 22, 32]);
const TEETH = yuvOf([236, 233, 226]);
const LASH = yuvOf([40, 28, 30]);

/** Paints row `y` from `xa` to `xb` (px, rounded) in colour `c`; chroma covers the 2×2 blocks the span touches. */
function span(img: I420Image, y: number, xa: number, xb: number, c: Yuv): void {
  if (y < 0 || y >= img.height) return;
  const x0 = Math.max(0, Math.round(xa)) + img.margin;
  const x1 = Math.min(img.width, Math.round(xb)) + img.margin;
  if (x1 <= x0) return;
  const row = y * img.stride;
  img.y.fill(c[0], row + x0, row + x1);
  const crow = (y >> 1) * img.cstride;
  img.u.fill(c[1], crow + (x0 >> 1), crow + ((x1 + 1) >> 1));
  img.v.fill(c[2], crow + (x0 >> 1), crow + ((x1 + 1) >> 1));
}

/** Paints column `x` from `ya` to `yb` (px, rounded) in colour `c`; chroma covers the 2×2 blocks it touches. */
function column(img: I420Image, x: number, ya: number, yb: number, c: Yuv): void {
  if (x < 0 || x >= img.width) return;
  const y0 = Math.max(0, Math.round(ya));
  const y1 = Math.min(img.height, Math.round(yb));
  if (y1 <= y0) return;
  const xp = x + img.margin;
  for (let y = y0, i = y0 * img.stride + xp; y < y1; y++, i += img.stride) img.y[i] = c[0];
  for (let cy = y0 >> 1, i = cy * img.cstride + (xp >> 1); cy < (y1 + 1) >> 1; cy++, i += img.cstride) {
    img.u[i] = c[1];
    img.v[i] = c[2];
  }
}

/** Copies `rect` (widened to whole 2×2 chroma blocks) from `from` into `to` (same geometry), one copy per row. */
export function restoreRect(to: I420Image, from: I420Image, r: Rect): void {
  const x0 = (Math.max(0, r.x0) + to.margin) & ~1;
  const x1 = Math.min(to.width, r.x1) + to.margin;
  if (x1 <= x0) return;
  const y0 = Math.max(0, r.y0) & ~1;
  const y1 = Math.min(to.height, r.y1);
  for (let y = y0; y < y1; y++) {
    const a = y * to.stride + x0;
    to.y.set(from.y.subarray(a, a + x1 - x0), a);
  }
  for (let cy = y0 >> 1; cy < (y1 + 1) >> 1; cy++) {
    const a = cy * to.cstride + (x0 >> 1);
    const b = cy * to.cstride + ((x1 + 1) >> 1);
    to.u.set(from.u.subarray(a, b), a);
    to.v.set(from.v.subarray(a, b), a);
  }
}

/** Rectangles the face overlays may touch (eyes, mouth): restore these before drawing the next frame. */
export function overlayRects(g: FaceGeometry): Rect[] {
  const eye = (e: { x: number; y: number }): Rect => ({
    x0: e.x - g.eyeRx - 2,
    y0: e.y - g.eyeRy - 3,
    x1: e.x + g.eyeRx + 3,
    y1: e.y + g.eyeRy + 4,
  });
  const m = g.mouth;
  const h = g.mouthMaxOpen + g.mouthCornerLift + 5;
  return [eye(g.eyes[0]!), eye(g.eyes[1]!), { x0: m.x - g.mouthHalfWidth - 3, y0: m.y - h, x1: m.x + g.mouthHalfWidth + 4, y1: m.y + h }];
}

/**
 * Draws eyelids over both eyes: `closed` 0 (nothing drawn) … 1 (fully shut, lid colour over the whole eye
 * ellipse, lash line at the lid edge). Writes only inside {@link overlayRects}.
 */
export function drawEyelids(img: I420Image, g: FaceGeometry, lids: readonly [Rgb, Rgb], closed: number): void {
  if (closed <= 0.02) return;
  g.eyes.forEach((e, k) => {
    const lid = yuvOf(lids[k as 0 | 1]);
    for (let i = -g.eyeRx; i <= g.eyeRx; i++) {
      const u = i / g.eyeRx;
      const hh = g.eyeRy * Math.sqrt(Math.max(0, 1 - u * u));
      const top = e.y - hh - 1;
      const edge = top + (2 * hh + 2) * closed;
      column(img, e.x + i, top, edge, lid);
      column(img, e.x + i, edge - 1, edge + 1.5, LASH);
    }
  });
}

/** Below this |smile| a closed mouth is not drawn at all, so the image's own mouth shows at rest. */
export const VISIBLE_SMILE = 0.25;

/**
 * Draws the mouth centred on `g.mouth`: `open` 0 (closed) … 1 (open by `g.mouthMaxOpen` px each way, dark inside,
 * teeth when more than 40 % open); `smile` −1…1 bends the corners down/up by up to `g.mouthCornerLift` px. A closed
 * mouth is drawn as a curved lip line only when |smile| ≥ {@link VISIBLE_SMILE}; otherwise the image's own mouth
 * stays visible. Writes only inside {@link overlayRects}.
 */
export function drawMouth(img: I420Image, g: FaceGeometry, lipRgb: Rgb, open: number, smile: number): void {
  const lip = yuvOf(lipRgb);
  const { x: mx, y: my } = g.mouth;
  const w = g.mouthHalfWidth;
  const oh = Math.max(0, Math.min(1, open)) * g.mouthMaxOpen;
  for (let i = -w; i <= w; i++) {
    const u = i / w;
    const c = my - smile * g.mouthCornerLift * u * u;
    const hh = oh * Math.sqrt(Math.max(0, 1 - u * u));
    const x = mx + i;
    if (hh < 1) {
      if (Math.abs(smile) >= VISIBLE_SMILE) column(img, x, c - 1.5, c + 1.5, lip);
      continue;
    }
    column(img, x, c - hh, c + hh, MOUTH_INSIDE);
    if (open > 0.4) column(img, x, c - hh + 1, c - hh + 1 + hh * 0.35, TEETH);
    column(img, x, c - hh - 2, c - hh + 1, lip);
    column(img, x, c + hh - 1, c + hh + 2.5, lip);
  }
}

/**
 * Draws a waving arm into a finished frame (`frame` is unpadded, margin 0): a forearm rising from
 * the bottom right, rotated by `angle` radians from vertical (+ outwards), ending in an outlined palm with four
 * fingers beside the head.
 */
export function drawWavingArm(frame: I420Image, angle: number, skinRgb: Rgb): void {
  const { width: W, height: H } = frame;
  const px = W * 0.8;
  const py = H * 1.02;
  const len = H * 0.45;
  const hx = px + Math.sin(angle) * len;
  const hy = py - Math.cos(angle) * len;
  const [r, g, b] = skinRgb;
  const edge = yuvOf([Math.round(r * 0.55), Math.round(g * 0.5), Math.round(b * 0.5)]);
  const shade = yuvOf([Math.round(r * 0.85), Math.round(g * 0.82), Math.round(b * 0.8)]);
  const skin = yuvOf(skinRgb);
  const fingers = (radius: number, c: Yuv) => {
    for (let f = -1.5; f <= 1.5; f++) {
      const a = angle + f * 0.3;
      const l = f === -1.5 || f === 1.5 ? 40 : 50;
      for (let t = 20; t <= l; t += 4) disc(frame, hx + Math.sin(a) * t, hy - Math.cos(a) * t, radius, c);
    }
  };
  for (let t = 0; t <= 1; t += 0.025) disc(frame, px + (hx - px) * t, py + (hy - py) * t, 23, edge);
  fingers(9, edge);
  disc(frame, hx, hy, 35, edge);
  for (let t = 0; t <= 1; t += 0.025) disc(frame, px + (hx - px) * t, py + (hy - py) * t, 20, shade);
  fingers(6, skin);
  disc(frame, hx, hy, 32, skin);
}

function disc(img: I420Image, cx: number, cy: number, r: number, c: Yuv): void {
  for (let dy = -r; dy <= r; dy++) {
    const hw = Math.sqrt(r * r - dy * dy);
    span(img, Math.round(cy + dy), cx - hw, cx + hw, c);
  }
}
