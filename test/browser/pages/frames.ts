// Test-page helpers: read what the user actually sees in the avatar <video> (decoded frames drawn into a canvas).
// Used by image-swap.tsx and websocket-audio.tsx; the tests read the results through window globals.

/** A rectangle of the 368×560 video frame, px. */
export interface Rect {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** Background corner of the frame, away from the face overlays (eyes at 38 %, mouth at 63 % height). */
export const CORNER: Rect = { x0: 6, y0: 6, x1: 46, y1: 66 };
/** A generous box around the mouth (centre x, y ≈ 0.63·560), as in test/browser/media.test.ts. */
export const MOUTH: Rect = { x0: 122, y0: 308, x1: 246, y1: 404 };

let canvas: HTMLCanvasElement | null = null;

/** The avatar's <video> once it shows decoded frames, else null. */
export function avatarVideo(): HTMLVideoElement | null {
  const v = document.querySelector('video');
  return v && v.videoWidth > 0 && v.readyState >= 2 ? v : null;
}

/** RGBA pixels of `r` in the current frame of `video` (frame drawn at its natural size). */
export function grab(video: HTMLVideoElement, r: Rect): Uint8ClampedArray {
  canvas ??= document.createElement('canvas');
  canvas.width = video.videoWidth;
  canvas.height = video.videoHeight;
  const ctx = canvas.getContext('2d', { willReadFrequently: true })!;
  ctx.drawImage(video, 0, 0);
  return ctx.getImageData(r.x0, r.y0, r.x1 - r.x0, r.y1 - r.y0).data;
}

/** Mean [R, G, B] of `r` in the current frame, or null while no frame is shown. */
export function meanRgb(r: Rect = CORNER): number[] | null {
  const v = avatarVideo();
  if (!v) return null;
  const px = grab(v, r);
  const sum = [0, 0, 0];
  for (let i = 0; i < px.length; i += 4) for (let c = 0; c < 3; c++) sum[c]! += px[i + c]!;
  return sum.map((s) => Math.round((s * 4) / px.length));
}

/** One presented frame: time (ms, performance.now), dark pixels (luma < 90) and mean |Δ| to the previous frame, in the mouth box. */
export interface MouthSample {
  t: number;
  dark: number;
  diff: number;
}

/**
 * Samples every frame the <video> presents (requestVideoFrameCallback) into `out`: how open the mouth looks and how
 * much the mouth region changed since the previous frame. Returns a stop function.
 */
export function sampleMouth(out: MouthSample[]): () => void {
  let stopped = false;
  let prev: Uint8ClampedArray | null = null;
  const tick = () => {
    if (stopped) return;
    const v = avatarVideo();
    if (!v) return void requestAnimationFrame(tick);
    const px = grab(v, MOUTH);
    let dark = 0;
    let diff = 0;
    for (let i = 0; i < px.length; i += 4) {
      if (0.299 * px[i]! + 0.587 * px[i + 1]! + 0.114 * px[i + 2]! < 90) dark++;
      if (prev) diff += Math.abs(px[i]! - prev[i]!) + Math.abs(px[i + 1]! - prev[i + 1]!) + Math.abs(px[i + 2]! - prev[i + 2]!);
    }
    if (prev) out.push({ t: performance.now(), dark, diff: diff / ((px.length / 4) * 3) });
    prev = px;
    v.requestVideoFrameCallback(tick);
  };
  tick();
  return () => void (stopped = true);
}
