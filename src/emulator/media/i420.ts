import type { Rgb } from './face';

/**
 * A picture in I420 (YUV 4:2:0: full-size Y plane, U and V at half width and half height), the layout the video
 * encoder takes, so frames go out without a colour conversion. Padded with `margin` edge-replicated columns on each
 * side (0 for a finished frame). All three planes live in one buffer, `data`, in the order Y, U, V, which starts at
 * offset 0 of its own ArrayBuffer: `data` is a complete I420 frame `stride` px wide.
 * `width`, `height` and `margin` are even; `stride` = width + 2·margin (Y bytes per row), `cstride` = stride / 2.
 */
export interface I420Image {
  width: number;
  height: number;
  margin: number;
  stride: number;
  cstride: number;
  data: Uint8Array;
  y: Uint8Array;
  u: Uint8Array;
  v: Uint8Array;
}

/** Luma and chroma of one colour: [Y, U, V], 0–255 each. */
export type Yuv = readonly [number, number, number];

/** A blank (all zero) picture of `width`×`height` px with `margin` px of padding each side; all sizes even. */
export function newI420(width: number, height: number, margin = 0): I420Image {
  if (width % 2 || height % 2 || margin % 2) throw new RangeError(`I420 sizes must be even: ${width}×${height}, margin ${margin}`);
  const stride = width + 2 * margin;
  const cstride = stride / 2;
  const ySize = stride * height;
  const cSize = (cstride * height) / 2;
  const data = new Uint8Array(new ArrayBuffer(ySize + 2 * cSize));
  return {
    width,
    height,
    margin,
    stride,
    cstride,
    data,
    y: data.subarray(0, ySize),
    u: data.subarray(ySize, ySize + cSize),
    v: data.subarray(ySize + cSize),
  };
}

/** A copy of `img` with its own buffer. */
export function cloneI420(img: I420Image): I420Image {
  const copy = newI420(img.width, img.height, img.margin);
  copy.data.set(img.data);
  return copy;
}

// BT.601 limited range, the integer form libyuv (and so WebRTC's RGBA → I420 path) uses.
const lumaOf = (r: number, g: number, b: number) => (66 * r + 129 * g + 25 * b + 0x1080) >> 8;
const uOf = (r: number, g: number, b: number) => (112 * b - 74 * g - 38 * r + 0x8080) >> 8;
const vOf = (r: number, g: number, b: number) => (112 * r - 94 * g - 18 * b + 0x8080) >> 8;

/** The Y, U, V values of the RGB colour `c`. */
export function yuvOf(c: Rgb): Yuv {
  return [lumaOf(c[0], c[1], c[2]), uOf(c[0], c[1], c[2]), vOf(c[0], c[1], c[2])];
}

/**
 * Converts `rgba` (`width`×`height`×4 bytes, alpha ignored) into a new picture padded with `margin` px each side,
 * the padding repeating each row's edge pixels. Chroma is taken from the mean colour of each 2×2 block.
 */
export function i420FromRgba(rgba: Uint8Array, width: number, height: number, margin: number): I420Image {
  const img = newI420(width, height, margin);
  const { stride, cstride, y: Y, u: U, v: V } = img;
  const cm = margin / 2;
  for (let cy = 0; cy < height / 2; cy++) {
    const top = 2 * cy * width * 4;
    const bottom = top + width * 4;
    const yTop = 2 * cy * stride + margin;
    const yBottom = yTop + stride;
    const c = cy * cstride + cm;
    for (let cx = 0; cx < width / 2; cx++) {
      const i = top + cx * 8;
      const j = bottom + cx * 8;
      let r = 0;
      let g = 0;
      let b = 0;
      for (const k of [i, i + 4, j, j + 4]) {
        r += rgba[k] as number;
        g += rgba[k + 1] as number;
        b += rgba[k + 2] as number;
      }
      Y[yTop + 2 * cx] = lumaOf(rgba[i] as number, rgba[i + 1] as number, rgba[i + 2] as number);
      Y[yTop + 2 * cx + 1] = lumaOf(rgba[i + 4] as number, rgba[i + 5] as number, rgba[i + 6] as number);
      Y[yBottom + 2 * cx] = lumaOf(rgba[j] as number, rgba[j + 1] as number, rgba[j + 2] as number);
      Y[yBottom + 2 * cx + 1] = lumaOf(rgba[j + 4] as number, rgba[j + 5] as number, rgba[j + 6] as number);
      r = (r + 2) >> 2;
      g = (g + 2) >> 2;
      b = (b + 2) >> 2;
      U[c + cx] = uOf(r, g, b);
      V[c + cx] = vOf(r, g, b);
    }
  }
  padRows(Y, stride, height, margin, width);
  padRows(U, cstride, height / 2, cm, width / 2);
  padRows(V, cstride, height / 2, cm, width / 2);
  return img;
}

/** Fills the `margin` bytes each side of every row with that row's first and last value. */
function padRows(plane: Uint8Array, stride: number, rows: number, margin: number, width: number): void {
  for (let y = 0; y < rows; y++) {
    const s = y * stride;
    plane.fill(plane[s + margin] as number, s, s + margin);
    plane.fill(plane[s + margin + width - 1] as number, s + margin + width, s + stride);
  }
}
