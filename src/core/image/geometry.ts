/** Source rectangle of a centre crop, in px of the source image. */
export interface CropRect {
  sx: number;
  sy: number;
  sw: number;
  sh: number;
}

/**
 * Centre crop of a `srcW`×`srcH` image to the aspect ratio of `dstW`×`dstH` (px), the way the service
 * centre-crops a mismatched upload (multipart `image`). Pure.
 * @throws RangeError for non-positive sizes.
 */
export function coverCropRect(srcW: number, srcH: number, dstW: number, dstH: number): CropRect {
  if (!(srcW > 0 && srcH > 0 && dstW > 0 && dstH > 0)) throw new RangeError('image sizes must be positive');
  const target = dstW / dstH;
  if (srcW / srcH > target) {
    const sw = Math.min(srcW, Math.max(1, Math.round(srcH * target)));
    return { sx: Math.floor((srcW - sw) / 2), sy: 0, sw, sh: srcH };
  }
  const sh = Math.min(srcH, Math.max(1, Math.round(srcW / target)));
  return { sx: 0, sy: Math.floor((srcH - sh) / 2), sw: srcW, sh };
}

/**
 * Sizes to draw through when shrinking `sw`×`sh` to `dstW`×`dstH` (px): halve while both sides stay above
 * twice the target, then the target itself (the last entry). Halving steps keep large photos (up to 40 MP)
 * sharp and avoid one huge resample. Pure.
 */
export function downscaleSteps(sw: number, sh: number, dstW: number, dstH: number): { width: number; height: number }[] {
  const steps: { width: number; height: number }[] = [];
  let w = sw;
  let h = sh;
  while (w / 2 >= dstW * 2 && h / 2 >= dstH * 2) {
    w = Math.round(w / 2);
    h = Math.round(h / 2);
    steps.push({ width: w, height: h });
  }
  steps.push({ width: dstW, height: dstH });
  return steps;
}

/**
 * Finds the highest encoder quality whose output is under `maxBytes`: tries `max` first, then a binary search
 * down to `min` over `iterations` rounds. Returns null when even `min` is too large. Pure over `encode`.
 * @param encode encodes at a quality 0..1 and reports the size in bytes.
 */
export async function searchQuality<T extends { size: number }>(
  encode: (quality: number) => Promise<T>,
  maxBytes: number,
  { min = 0.4, max = 0.92, iterations = 6 }: { min?: number; max?: number; iterations?: number } = {},
): Promise<{ result: T; quality: number } | null> {
  const top = await encode(max);
  if (top.size < maxBytes) return { result: top, quality: max };
  let best: { result: T; quality: number } | null = null;
  let lo = min;
  let hi = max;
  const bottom = await encode(min);
  if (bottom.size >= maxBytes) return null;
  best = { result: bottom, quality: min };
  for (let i = 0; i < iterations; i++) {
    const q = Math.round(((lo + hi) / 2) * 1000) / 1000;
    const r = await encode(q);
    if (r.size < maxBytes) {
      best = { result: r, quality: q };
      lo = q;
    } else hi = q;
  }
  return best;
}

/** Standard base64 of bytes, in chunks (no stack overflow on large images). */
export function bytesToBase64(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}
