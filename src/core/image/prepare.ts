/** @public */
export interface PrepareImageOptions {
  /** Encoded size must stay under this many bytes (default 917504). */
  maxBytes?: number;
  /** Output type (default `image/jpeg`; `image/webp` where the browser encodes it, else JPEG). */
  type?: 'image/jpeg' | 'image/webp';
}

/**
 * A prepared avatar image: 368×560 px, encoded, with its base64 (no data-URL prefix) and size in bytes.
 * @public
 */
export interface PreparedImage {
  blob: Blob;
  base64: string;
  width: number;
  height: number;
  bytes: number;
  type: string;
}

/**
 * Prepares an avatar image in the browser (size 368×560, within the inline limit of 921600 bytes): decodes `blob` with
 * `createImageBitmap` (JPEG, PNG, WebP, GIF, and HEIC where the browser decodes it; at most 40 MP), centre-crops
 * to 368×560 drawing through halving steps, and encodes lowering the quality until under `maxBytes`.
 * @throws LiveAiError `invalid_request` when the input is not a decodable image, is larger than 40 MP, or no
 *   canvas is available; `payload_too_large` when even the lowest quality is over `maxBytes`.
 * The canvas work lives in its own chunk, loaded with `import()` on the first call.
 * @public
 */
export async function prepareImage(blob: Blob, options: PrepareImageOptions = {}): Promise<PreparedImage> {
  return (await import('./prepare-canvas')).prepareImageNow(blob, options);
}
