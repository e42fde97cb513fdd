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
  if (Math.abs(hscale - 1) < 1e-3) {
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

/** dst[d + x] = the source row's value at column `shift + cols[x]` (clamped to the row), for each x of `cols`. */
function gatherRow(from: Uint8Array, rowStart: number, shift: number, stride: number, cols: Int32Array, to: Uint8Array, d: number): void {
  const maxCol = stride - 1;
  for (let x = 0; x < cols.length; x++) {
    let c = shift + (cols[x] as number);
    c = c < 0 ? 0 : c > maxCol ? maxCol : c;
    to[d + x] = from[rowStart + c] as number;
  }
}
