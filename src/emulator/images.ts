import sharp from 'sharp';
import { AVATAR_HEIGHT_PX, AVATAR_WIDTH_PX } from '../core/constants';
import { LiveAiError } from '../core/errors';
import { stripDataUrl } from '../core/schemas';
import { assetNameOf } from './assets';
import type { EmulatorContext } from './context';

/** Largest image download accepted (update-image `image_url`, `agent_image_url`), bytes. */
export const MAX_DOWNLOAD_BYTES = 10 * 1024 * 1024;

/** True for `localhost`, 127.0.0.0/8 and ::1. */
export const isLoopbackHost = (hostname: string): boolean =>
  hostname === 'localhost' || /^127(\.\d{1,3}){3}$/.test(hostname) || hostname === '[::1]' || hostname === '::1';

/** Absolute form of an image URL that may be relative to the emulator base URL. */
export function resolveImageUrl(ctx: EmulatorContext, url: string): string {
  return new URL(url, `${ctx.baseUrl()}/`).toString();
}

/** Decodes `image_base64` (bare or data URL) to bytes. */
export const decodeInlineImage = (value: string): Buffer => Buffer.from(stripDataUrl(value).replace(/\s+/g, ''), 'base64');

/**
 * Downloads image bytes with a timeout (`imageFetchTimeoutMs`). Built-in assets of this emulator are read
 * from memory. Throws an Error with a readable message on network errors, non-2xx answers, time-outs,
 * bodies above 10 MB, and non-loopback hosts when `imageHosts` is `loopback`.
 */
export async function fetchImage(ctx: EmulatorContext, url: string): Promise<Buffer> {
  const abs = new URL(resolveImageUrl(ctx, url));
  const own = abs.origin === new URL(ctx.baseUrl()).origin ? assetNameOf(abs.pathname) : null;
  const asset = own === null ? undefined : ctx.assets.get(own);
  if (asset) return asset;
  if (abs.protocol !== 'http:' && abs.protocol !== 'https:') throw new Error(`unsupported image URL scheme ${abs.protocol}`);
  const loopbackOnly = ctx.options.imageHosts === 'loopback';
  if (loopbackOnly && !isLoopbackHost(abs.hostname)) throw new Error(`could not download the image: ${abs.hostname} is not a loopback host (imageHosts: loopback)`);
  let res: Response;
  try {
    res = await fetch(abs, { signal: AbortSignal.timeout(ctx.options.imageFetchTimeoutMs), redirect: loopbackOnly ? 'error' : 'follow' });
  } catch (e) {
    const err = e as Error;
    const why = err.name === 'TimeoutError' ? `timed out after ${ctx.options.imageFetchTimeoutMs} ms` : (err.cause as Error | undefined)?.message ?? err.message;
    throw new Error(`could not download the image: ${why}`);
  }
  if (!res.ok) throw new Error(`could not download the image: HTTP ${res.status}`);
  const body = Buffer.from(await res.arrayBuffer());
  if (body.length > MAX_DOWNLOAD_BYTES) throw new Error(`the image is larger than ${MAX_DOWNLOAD_BYTES} bytes`);
  return body;
}

/**
 * Decodes any image sharp reads and center-crops it to the avatar size 368×560, as PNG bytes.
 * @throws LiveAiError `invalid_request` (400) when the bytes are not a decodable image.
 */
export async function toAvatarPng(bytes: Uint8Array): Promise<Buffer> {
  try {
    return await sharp(bytes, { failOn: 'error', limitInputPixels: 50_000_000 })
      .rotate()
      .resize(AVATAR_WIDTH_PX, AVATAR_HEIGHT_PX, { fit: 'cover', position: 'centre' })
      .png()
      .toBuffer();
  } catch {
    throw new LiveAiError('invalid_request', 'the image is not a decodable image (PNG, JPEG, WebP, GIF, AVIF, TIFF or SVG)', { status: 400 });
  }
}
