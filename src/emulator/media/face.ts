import { AVATAR_HEIGHT_PX, AVATAR_WIDTH_PX } from '../../core/index';
import type { FaceLayout } from './types';

/** Video frame width in px (avatar images are 368×560). */
export const FRAME_WIDTH = AVATAR_WIDTH_PX;
/** Video frame height in px. */
export const FRAME_HEIGHT = AVATAR_HEIGHT_PX;
/** Default video frame rate, frames/s. */
export const DEFAULT_FPS = 25;
/** Audio sample rate of the published track, Hz (mono). */
export const AUDIO_SAMPLE_RATE = 48_000;
/** Samples in one published 10 ms audio frame at 48 kHz. */
export const AUDIO_FRAME_SAMPLES = 480;
/** Length of a whole-body action, ms. */
export const ACTION_MS = 1500;
/** Horizontal margin, px, of edge-replicated columns around the image: the largest sideways shift. */
export const MARGIN_PX = 64;

/**
 * Where the synthetic face features are drawn, as fractions of the frame width (x) and height (y).
 * The emulator's built-in face images put their eyes and mouth here; for any other image the overlays are
 * still drawn at these spots. `eyeDx` is the distance of each eye from the vertical centre line.
 */
export const FACE_LAYOUT = {
  eyeY: 0.38,
  eyeDx: 0.18,
  eyeRx: 0.065,
  eyeRy: 0.028,
  mouthY: 0.63,
  mouthHalfWidth: 0.085,
  /** Half-height of the fully open mouth. */
  mouthMaxOpen: 0.03,
  /** How far the mouth corners move up (smile) or down (frown) at full demeanour. */
  mouthCornerLift: 0.013,
};

/** An RGB colour, 0–255 per channel. */
export type Rgb = readonly [number, number, number];

/**
 * Feature positions in px of a frame of `width`×`height` (unpadded coordinates), from {@link FACE_LAYOUT} with
 * `layout` overriding it (values outside the frame are clamped to it).
 */
export function faceGeometry(width = FRAME_WIDTH, height = FRAME_HEIGHT, layout: FaceLayout = {}) {
  const L = { ...FACE_LAYOUT };
  for (const [k, v] of Object.entries(layout) as Array<[keyof FaceLayout, number | undefined]>) {
    if (typeof v === 'number' && Number.isFinite(v) && k in L)
      L[k] = Math.min(k === 'eyeY' || k === 'mouthY' ? 0.95 : 0.45, Math.max(0.005, v));
  }
  return {
    eyes: [
      { x: Math.round(width * (0.5 - L.eyeDx)), y: Math.round(height * L.eyeY) },
      { x: Math.round(width * (0.5 + L.eyeDx)), y: Math.round(height * L.eyeY) },
    ],
    eyeRx: Math.round(width * L.eyeRx),
    eyeRy: Math.round(height * L.eyeRy),
    mouth: { x: Math.round(width / 2), y: Math.round(height * L.mouthY) },
    mouthHalfWidth: Math.round(width * L.mouthHalfWidth),
    mouthMaxOpen: Math.round(height * L.mouthMaxOpen),
    mouthCornerLift: Math.round(height * L.mouthCornerLift),
  };
}
export type FaceGeometry = ReturnType<typeof faceGeometry>;
