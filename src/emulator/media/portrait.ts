import sharp from 'sharp';
import { LiveAiError } from '../../core/index';
import type { PaddedImage } from './compose';
import { faceGeometry, FRAME_HEIGHT, FRAME_WIDTH, MARGIN_PX, type FaceGeometry, type Rgb } from './face';
import type { FaceLayout } from './types';

/** A decoded reference image, ready to animate: padded pixels plus the colours the overlays use. */
export interface Portrait extends PaddedImage {
  /** Where the overlays go on this image, px. */
  geometry: FaceGeometry;
  /** Eyelid colour per eye (sampled just below each eye). */
  lids: [Rgb, Rgb];
  /** Skin colour (mean of the two lid colours): used for the waving hand. */
  skin: Rgb;
  /** Lip colour (a darker, redder skin tone). */
  lip: Rgb;
}

/** Background behind transparent pixels of the reference image. */
const BACKGROUND = { r: 232, g: 234, b: 240 };

/**
 * Decodes `bytes` (any format sharp reads: PNG, JPEG, WebP, GIF, SVG, …) into a 368×560 portrait: EXIF-rotated,
 * resized to cover and centre-cropped, transparency flattened onto a light grey. Throws `LiveAiError`
 * `invalid_request` when the bytes are empty or not a decodable image. `layout` places the face overlays.
 */
export async function decodePortrait(bytes: Uint8Array, layout?: FaceLayout): Promise<Portrait> {
  if (!(bytes instanceof Uint8Array) || bytes.byteLength === 0) {
    throw new LiveAiError('invalid_request', 'the avatar image is empty');
  }
  let rgba: Buffer;
  try {
    rgba = await sharp(bytes, { failOn: 'error', limitInputPixels: 64_000_000 })
      .rotate()
      .resize(FRAME_WIDTH, FRAME_HEIGHT, { fit: 'cover', position: 'centre' })
      .flatten({ background: BACKGROUND })
      .ensureAlpha()
      .raw()
      .toBuffer();
  } catch (e) {
    const reason = e instanceof Error ? e.message.split('\n')[0] : String(e);
    throw new LiveAiError('invalid_request', `the avatar image could not be decoded: ${reason}`, { cause: e });
  }
  return portraitFromRgba(rgba, FRAME_WIDTH, FRAME_HEIGHT, layout);
}

/**
 * Builds a {@link Portrait} from raw RGBA (`width`×`height`×4 bytes): pads each row with `margin` copies of its
 * edge pixels and samples the overlay colours at the places `layout` gives. Pure; the result owns a fresh
 * 4-byte-aligned buffer.
 */
export function portraitFromRgba(rgba: Uint8Array, width: number, height: number, layout?: FaceLayout, margin = MARGIN_PX): Portrait {
  const stride = width + 2 * margin;
  const pixels = new Uint8Array(new ArrayBuffer(stride * height * 4));
  const src32 = new Uint32Array(rgba.buffer.slice(rgba.byteOffset, rgba.byteOffset + width * height * 4));
  const dst32 = new Uint32Array(pixels.buffer);
  for (let y = 0; y < height; y++) {
    const s = y * width;
    const d = y * stride;
    dst32.set(src32.subarray(s, s + width), d + margin);
    dst32.fill(src32[s] as number, d, d + margin);
    dst32.fill(src32[s + width - 1] as number, d + margin + width, d + stride);
  }
  const img: PaddedImage = { width, height, margin, stride, pixels };
  const g = faceGeometry(width, height, layout);
  // Lids take the skin colour just below each eye (above it there are often eyebrows or hair).
  const lids = g.eyes.map((e) => meanColour(img, e.x, e.y + g.eyeRy + Math.round(height * 0.025), 8, 3)) as [Rgb, Rgb];
  const skin: Rgb = [0, 1, 2].map((i) => Math.round(((lids[0][i] as number) + (lids[1][i] as number)) / 2)) as unknown as Rgb;
  const lip: Rgb = [Math.round(skin[0] * 0.62 + 40), Math.round(skin[1] * 0.45), Math.round(skin[2] * 0.5 + 10)];
  return { ...img, geometry: g, lids, skin, lip };
}

/** Mean RGB of the (2·rx+1)×(2·ry+1) patch centred at (x, y) in unpadded coordinates, clipped to the image. */
export function meanColour(img: PaddedImage, x: number, y: number, rx: number, ry: number): Rgb {
  let r = 0;
  let g = 0;
  let b = 0;
  let n = 0;
  for (let yy = Math.max(0, y - ry); yy <= Math.min(img.height - 1, y + ry); yy++) {
    for (let xx = Math.max(0, x - rx); xx <= Math.min(img.width - 1, x + rx); xx++) {
      const i = (yy * img.stride + xx + img.margin) * 4;
      r += img.pixels[i] as number;
      g += img.pixels[i + 1] as number;
      b += img.pixels[i + 2] as number;
      n++;
    }
  }
  return n ? [Math.round(r / n), Math.round(g / n), Math.round(b / n)] : [200, 170, 150];
}
