import type { I420Image } from './i420';
import { NECK_BAND, NECK_Y, WAIST_Y, type Pose } from './motion';

/** Per destination row: which source row to copy and how far to shift it sideways (px, + right). */
export interface RowLayout {
  srcRow: Int32Array;
  xOff: Int32Array;
}

export const newRowLayout = (height: number): RowLayout => ({ srcRow: new Int32Array(height), xOff: new Int32Array(height) });

/**
 * Fills `out` with the row mapping of `pose` for a frame `height` rows tall whose padding is `margin` px. Pure
 * apart from writing `out`. Rows outside the image repeat the top/bottom row; shifts are clamped to ±margin.
 */
export function layoutRows(pose: Pose, height: number, margin: number, out: RowLayout): RowLayout {
  const bottom = height - 1;
  const fold = 1 + 0.65 * pose.bow;
  for (let y = 0; y < height; y++) {
    let ys = y - pose.dy;
    ys = bottom - (bottom - ys) / (1 + pose.breath);
    if (pose.bow > 0 && ys < WAIST_Y) ys = WAIST_Y - (WAIST_Y - ys) * fold;
    if (pose.nod !== 0 && ys < NECK_Y) {
      const w = ys <= NECK_Y - NECK_BAND ? 1 : (NECK_Y - ys) / NECK_BAND;
      ys -= pose.nod * w;
    }
    const row = Math.round(ys);
    out.srcRow[y] = row < 0 ? 0 : row > bottom ? bottom : row;
    const lean = pose.shear * (bottom - y) + pose.bow * 0.04 * Math.max(0, WAIST_Y - y);
    const off = Math.round(pose.dx + lean);
    out.xOff[y] = off < -margin ? -margin : off > margin ? margin : off;
  }
  return out;
}

/** True when `hscale` is 1 within rounding: {@link composeFrame} then moves whole rows. */
export const isUnscaled = (hscale: number): boolean => Math.abs(hscale - 1) < 1e-3;

/**
 * Writes the frame (`src.width`×`src.height`, I420, margin 0) into `dst` by copying whole rows of each plane of `src`
 * (fast path: one memcpy per row, `TypedArray.set`), or, when `hscale` ≠ 1, by a per-row gather with a column map
 * computed once per frame (`cols`, length at least 1.5 × `src.width`: the Y columns, then the chroma columns).
 * A chroma row follows the first of its two Y rows; its sideways shift is half theirs (rounded down).
 */
export function composeFrame(src: I420Image, layout: RowLayout, hscale: number, dst: I420Image, cols: Int32Array): void {
  const { width, height, margin, stride, cstride } = src;
  const cw = width / 2;
  const cm = margin / 2;
  if (isUnscaled(hscale)) {
    for (let y = 0; y < height; y++) {
      const start = (layout.srcRow[y] as number) * stride + margin - (layout.xOff[y] as number);
      dst.y.set(src.y.subarray(start, start + width), y * width);
    }
    for (let cy = 0; cy < height / 2; cy++) {
      const start = ((layout.srcRow[2 * cy] as number) >> 1) * cstride + cm - ((layout.xOff[2 * cy] as number) >> 1);
      dst.u.set(src.u.subarray(start, start + cw), cy * cw);
      dst.v.set(src.v.subarray(start, start + cw), cy * cw);
    }
    return;
  }
  const s = Math.sign(hscale || 1) * Math.max(0.06, Math.abs(hscale));
  const ycols = cols.subarray(0, width);
  const ccols = cols.subarray(width, width + cw);
  for (let x = 0; x < width; x++) ycols[x] = Math.round((width - 1) / 2 + (x - (width - 1) / 2) / s);
  for (let x = 0; x < cw; x++) ccols[x] = Math.round((cw - 1) / 2 + (x - (cw - 1) / 2) / s);
  for (let y = 0; y < height; y++) {
    gatherRow(src.y, (layout.srcRow[y] as number) * stride, margin - (layout.xOff[y] as number), stride, ycols, dst.y, y * width);
  }
  for (let cy = 0; cy < height / 2; cy++) {
    const row = ((layout.srcRow[2 * cy] as number) >> 1) * cstride;
    const shift = cm - ((layout.xOff[2 * cy] as number) >> 1);
    gatherRow(src.u, row, shift, cstride, ccols, dst.u, cy * cw);
    gatherRow(src.v, row, shift, cstride, ccols, dst.v, cy * cw);
  }
}

/**
 * Rows of a picture `height` rows tall that change from one frame to the next, 1 per changed row: `y` for the
 * luma rows, `c` for the chroma rows (height / 2). See {@link composeChangedRows}.
 */
export interface DirtyRows {
  y: Uint8Array;
  c: Uint8Array;
}

/**
 * The rows that restoring and redrawing the rectangles `rects` (unpadded px, y1 exclusive, as `restoreRect` widens
 * them: from an even row, chroma rows rounded outwards) can change in a picture `height` rows tall.
 */
export function dirtyRowsOf(rects: ReadonlyArray<{ y0: number; y1: number }>, height: number): DirtyRows {
  const out: DirtyRows = { y: new Uint8Array(height), c: new Uint8Array(height / 2) };
  for (const r of rects) {
    const y0 = Math.max(0, r.y0) & ~1;
    const y1 = Math.min(height, r.y1);
    if (y1 <= y0) continue;
    out.y.fill(1, y0, y1);
    out.c.fill(1, y0 >> 1, (y1 + 1) >> 1);
  }
  return out;
}

/**
 * The fast path of {@link composeFrame} (`hscale` 1) for a `dst` that already holds the previous frame: copies only
 * the rows that can differ from it. A luma row is copied when its mapping (source row, sideways shift) differs from
 * `prev` or its source row is marked in `dirty.y`; a chroma row when the mapping of its first luma row differs or its
 * source chroma row is marked in `dirty.c`. The result equals a full `composeFrame(src, layout, 1, dst)` provided
 * `dst` holds exactly `composeFrame(src, prev, 1, …)` of the previous frame (nothing drawn over it since) and `src`
 * changed only in the marked rows. Returns the number of rows copied (luma + chroma).
 */
export function composeChangedRows(src: I420Image, layout: RowLayout, prev: RowLayout, dirty: DirtyRows, dst: I420Image): number {
  const { width, height, margin, stride, cstride } = src;
  const cw = width / 2;
  const cm = margin / 2;
  const { srcRow, xOff } = layout;
  let copied = 0;
  for (let y = 0; y < height; y++) {
    const row = srcRow[y] as number;
    const off = xOff[y] as number;
    if (row === prev.srcRow[y] && off === prev.xOff[y] && !dirty.y[row]) continue;
    const start = row * stride + margin - off;
    dst.y.set(src.y.subarray(start, start + width), y * width);
    copied++;
  }
  for (let cy = 0; cy < height / 2; cy++) {
    const row = srcRow[2 * cy] as number;
    const off = xOff[2 * cy] as number;
    if (row === prev.srcRow[2 * cy] && off === prev.xOff[2 * cy] && !dirty.c[row >> 1]) continue;
    const start = (row >> 1) * cstride + cm - (off >> 1);
    dst.u.set(src.u.subarray(start, start + cw), cy * cw);
    dst.v.set(src.v.subarray(start, start + cw), cy * cw);
    copied++;
  }
  return copied;
}

/** dst[d + x] = the source row's value at column `shift + cols[x]` (clamped to the row), for each x of `cols`. */
function gatherRow(from: Uint8Array, rowStart: number, shift: number, stride: number, cols: Int32Array, to: Uint8Array, d: number): void {
  const maxCol = stride - 1;
  for (let x = 0; x < cols.length; x++) {
    let c = shift + (cols[x] as number);
    c = c < 0 ? 0 : c > maxCol ? maxCol : c;
    to[d + x] = from[rowStart + c] as number;
  }
}
