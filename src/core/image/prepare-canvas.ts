import { AVATAR_HEIGHT_PX, AVATAR_WIDTH_PX, INLINE_IMAGE_LIMIT_BYTES } from '../constants';
import { LiveAiError } from '../errors';
import { blobToArrayBuffer } from './blob';
import { bytesToBase64, coverCropRect, downscaleSteps, searchQuality } from './geometry';
import { DEFAULT_PREPARED_MAX_BYTES, MAX_SOURCE_PIXELS } from '../constants';
import type { PrepareImageOptions, PreparedImage } from './prepare';

type AnyCanvas = OffscreenCanvas | HTMLCanvasElement;
type Ctx = OffscreenCanvasRenderingContext2D | CanvasRenderingContext2D;

function makeCanvas(width: number, height: number): AnyCanvas {
  if (typeof OffscreenCanvas !== 'undefined') return new OffscreenCanvas(width, height);
  const c = document.createElement('canvas');
  c.width = width;
  c.height = height;
  return c;
}
function encode(canvas: AnyCanvas, type: string, quality: number): Promise<Blob> {
  if ('convertToBlob' in canvas) return canvas.convertToBlob({ type, quality });
  return new Promise((resolve, reject) =>
    canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('canvas could not be encoded'))), type, quality),
  );
}

/** The work of `prepareImage` (see there): loaded on demand so a page pays for it only when it sends an image. */
export async function prepareImageNow(blob: Blob, options: PrepareImageOptions = {}): Promise<PreparedImage> {
  const maxBytes = options.maxBytes ?? DEFAULT_PREPARED_MAX_BYTES;
  if (typeof Blob === 'undefined' || !(blob instanceof Blob) || blob.size === 0) {
    throw new LiveAiError('invalid_request', 'the image is empty or not a Blob/File', { status: 400 });
  }
  if (typeof createImageBitmap !== 'function') {
    throw new LiveAiError('invalid_request', 'image preparation needs a browser (createImageBitmap is missing)', { status: 400 });
  }
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(blob);
  } catch (cause) {
    throw new LiveAiError('invalid_request', `the image could not be decoded (${blob.type || 'unknown type'})`, { status: 400, cause });
  }
  try {
    const { width, height } = bitmap;
    if (width * height > MAX_SOURCE_PIXELS) {
      throw new LiveAiError('invalid_request', `the image has ${((width * height) / 1e6).toFixed(1)} MP; at most 40 MP is supported`, {
        status: 400,
      });
    }
    const crop = coverCropRect(width, height, AVATAR_WIDTH_PX, AVATAR_HEIGHT_PX);
    let source: CanvasImageSource = bitmap;
    let rect = crop;
    let canvas: AnyCanvas | undefined;
    for (const step of downscaleSteps(crop.sw, crop.sh, AVATAR_WIDTH_PX, AVATAR_HEIGHT_PX)) {
      canvas = makeCanvas(step.width, step.height);
      const ctx = canvas.getContext('2d') as Ctx | null;
      if (!ctx) throw new LiveAiError('invalid_request', 'no 2D canvas is available to prepare the image', { status: 400 });
      ctx.imageSmoothingEnabled = true;
      ctx.imageSmoothingQuality = 'high';
      ctx.drawImage(source, rect.sx, rect.sy, rect.sw, rect.sh, 0, 0, step.width, step.height);
      source = canvas;
      rect = { sx: 0, sy: 0, sw: step.width, sh: step.height };
    }
    const wanted = options.type ?? 'image/jpeg';
    const found = await searchQuality(async (q) => {
      const b = await encode(canvas!, wanted, q);
      // Browsers without a WebP encoder return PNG: fall back to JPEG.
      return b.type === wanted ? b : encode(canvas!, 'image/jpeg', q);
    }, maxBytes);
    if (!found) {
      throw new LiveAiError(
        'payload_too_large',
        `the image does not compress under ${maxBytes} bytes even at the lowest quality; inline images must be under ` +
          `${INLINE_IMAGE_LIMIT_BYTES} bytes and liveai-kit cannot host larger ones: upload it yourself and pass { url }`,
        { status: 413 },
      );
    }
    const out = found.result;
    const base64 = bytesToBase64(new Uint8Array(await blobToArrayBuffer(out)));
    return { blob: out, base64, width: AVATAR_WIDTH_PX, height: AVATAR_HEIGHT_PX, bytes: out.size, type: out.type };
  } finally {
    bitmap.close?.();
  }
}
