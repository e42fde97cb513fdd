import sharp from 'sharp';
import { LiveAiError } from '../../core/index';
import { faceGeometry, FRAME_HEIGHT, FRAME_WIDTH, MARGIN_PX, type FaceGeometry, type Rgb } from './face';
import { type I420Image, i420FromRgba } from './i420';
import type { FaceLayout } from './types';

/** A decoded reference image, ready to animate: the padded I420 picture plus the colours the overlays use. */
export interface Portrait extends I420Image {
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
 * Builds a {@link Portrait} from raw RGBA (`width`×`height`×4 bytes, both even): converts it to I420 padded with
 * `margin` copies of each row's edge pixels and samples the overlay colours at the places `layout` gives. Pure.
 */
export function portraitFromRgba(rgba: Uint8Array, width: number, height: number, layout?: FaceLayout, margin = MARGIN_PX): Portrait {
  const img = i420FromRgba(rgba, width, height, margin);
  const g = faceGeometry(width, height, layout);
  // Lids take the skin colour just below each eye (above it there are often eyebrows or hair).
  const lids = g.eyes.map((e) => meanColour(rgba, width, height, e.x, e.y + g.eyeRy + Math.round(height * 0.025), 8, 3)) as [Rgb, Rgb];
  const skin: Rgb = [0, 1, 2].map((i) => Math.round(((lids[0][i] as number) + (lids[1][i] as number)) / 2)) as unknown as Rgb;
  const lip: Rgb = [Math.round(skin[0] * 0.62 + 40), Math.round(skin[1] * 0.45), Math.round(skin[2] * 0.5 + 10)];
  return { ...img, geometry: g, lids, skin, lip };
}

/** Mean RGB of the (2·rx+1)×(2·ry+1) patch centred at (x, y) of `rgba` (`width`×`height`), clipped to the image. */
export function meanColour(rgba: Uint8Array, width: number, height: number, x: number, y: number, rx: number, ry: number): Rgb {
  let r = 0;
  let g = 0;
  let b = 0;
  let n = 0;
  for (let yy = Math.max(0, y - ry); yy <= Math.min(height - 1, y + ry); yy++) {
    for (let xx = Math.max(0, x - rx); xx <= Math.min(width - 1, x + rx); xx++) {
      const i = (yy * width + xx) * 4;
      r += rgba[i] as number;
      g += rgba[i + 1] as number;
      b += rgba[i + 2] as number;
      n++;
    }
  }
  return n ? [Math.round(r / n), Math.round(g / n), Math.round(b / n)] : [200, 170, 150];
}
