import type { PaddedImage } from './compose';
import type { FaceGeometry, Rgb } from './face';

/** A rectangle in unpadded image coordinates, px (x1/y1 exclusive). */
export interface Rect {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

const MOUTH_INSIDE: Rgb = [74, 22, 32];
const TEETH: Rgb = [236, 233, 226];
const LASH: Rgb = [40, 28, 30];

function span(img: PaddedImage, y: number, xa: number, xb: number, c: Rgb): void {
  if (y < 0 || y >= img.height) return;
  const x0 = Math.max(0, Math.round(xa));
  const x1 = Math.min(img.width, Math.round(xb));
  const p = img.pixels;
  for (let x = x0, i = (y * img.stride + x0 + img.margin) * 4; x < x1; x++, i += 4) {
    p[i] = c[0];
    p[i + 1] = c[1];
    p[i + 2] = c[2];
  }
}

function column(img: PaddedImage, x: number, ya: number, yb: number, c: Rgb): void {
  if (x < 0 || x >= img.width) return;
  const y0 = Math.max(0, Math.round(ya));
  const y1 = Math.min(img.height, Math.round(yb));
  const p = img.pixels;
  const step = img.stride * 4;
  for (let y = y0, i = (y0 * img.stride + x + img.margin) * 4; y < y1; y++, i += step) {
    p[i] = c[0];
    p[i + 1] = c[1];
    p[i + 2] = c[2];
  }
}

/** Copies `rect` from `from` into `to` (same geometry), one Buffer-like row copy per row. */
export function restoreRect(to: PaddedImage, from: PaddedImage, r: Rect): void {
  const x0 = Math.max(0, r.x0) + to.margin;
  const x1 = Math.min(to.width, r.x1) + to.margin;
  if (x1 <= x0) return;
  for (let y = Math.max(0, r.y0); y < Math.min(to.height, r.y1); y++) {
    const a = (y * to.stride + x0) * 4;
    to.pixels.set(from.pixels.subarray(a, a + (x1 - x0) * 4), a);
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
export function drawEyelids(img: PaddedImage, g: FaceGeometry, lids: readonly [Rgb, Rgb], closed: number): void {
  if (closed <= 0.02) return;
  g.eyes.forEach((e, k) => {
    for (let i = -g.eyeRx; i <= g.eyeRx; i++) {
      const u = i / g.eyeRx;
      const hh = g.eyeRy * Math.sqrt(Math.max(0, 1 - u * u));
      const top = e.y - hh - 1;
      const edge = top + (2 * hh + 2) * closed;
      column(img, e.x + i, top, edge, lids[k as 0 | 1]);
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
export function drawMouth(img: PaddedImage, g: FaceGeometry, lip: Rgb, open: number, smile: number): void {
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
 * Draws a waving arm into a finished frame (`frame` is an unpadded RGBA image, margin 0): a forearm rising from
 * the bottom right, rotated by `angle` radians from vertical (+ outwards), ending in an outlined palm with four
 * fingers beside the head.
 */
export function drawWavingArm(frame: PaddedImage, angle: number, skin: Rgb): void {
  const { width: W, height: H } = frame;
  const px = W * 0.8;
  const py = H * 1.02;
  const len = H * 0.45;
  const hx = px + Math.sin(angle) * len;
  const hy = py - Math.cos(angle) * len;
  const edge: Rgb = [Math.round(skin[0] * 0.55), Math.round(skin[1] * 0.5), Math.round(skin[2] * 0.5)];
  const shade: Rgb = [Math.round(skin[0] * 0.85), Math.round(skin[1] * 0.82), Math.round(skin[2] * 0.8)];
  const fingers = (r: number, c: Rgb) => {
    for (let f = -1.5; f <= 1.5; f++) {
      const a = angle + f * 0.3;
      const l = f === -1.5 || f === 1.5 ? 40 : 50;
      for (let t = 20; t <= l; t += 4) disc(frame, hx + Math.sin(a) * t, hy - Math.cos(a) * t, r, c);
    }
  };
  for (let t = 0; t <= 1; t += 0.025) disc(frame, px + (hx - px) * t, py + (hy - py) * t, 23, edge);
  fingers(9, edge);
  disc(frame, hx, hy, 35, edge);
  for (let t = 0; t <= 1; t += 0.025) disc(frame, px + (hx - px) * t, py + (hy - py) * t, 20, shade);
  fingers(6, skin);
  disc(frame, hx, hy, 32, skin);
}

function disc(img: PaddedImage, cx: number, cy: number, r: number, c: Rgb): void {
  for (let dy = -r; dy <= r; dy++) {
    const hw = Math.sqrt(r * r - dy * dy);
    span(img, Math.round(cy + dy), cx - hw, cx + hw, c);
  }
}
