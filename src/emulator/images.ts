import sharp from 'sharp';
import { AVATAR_HEIGHT_PX, AVATAR_WIDTH_PX, LiveAiError } from '../core/index';
import { stripDataUrl } from '../core/internal';
import { assetNameOf } from './assets';
import type { EmulatorContext } from './context';
import { download } from './download';

/** Largest image download accepted (update-image `image_url`, `agent_image_url`), bytes. */
export const MAX_DOWNLOAD_BYTES = 10 * 1024 * 1024;

/** True for `localhost`, 127.0.0.0/8 and ::1. */
export const isLoopbackHost = (hostname: string): boolean =>
  hostname === 'localhost' || /^127(\.\d{1,3}){3}$/.test(hostname) || hostname === '[::1]' || hostname === '::1';

/** Redirects an image download may follow; each target is checked like the first URL. */
export const MAX_IMAGE_REDIRECTS = 3;
/** What the browser is told when a download fails; the reason goes to the emulator's log only. */
export const IMAGE_DOWNLOAD_FAILED = 'could not download the image';

/** Absolute form of an image URL that may be relative to the emulator base URL. */
export function resolveImageUrl(ctx: EmulatorContext, url: string): string {
  return new URL(url, `${ctx.baseUrl()}/`).toString();
}

/** Decodes `image_base64` (bare or data URL) to bytes. */
export const decodeInlineImage = (value: string): Buffer => Buffer.from(stripDataUrl(value).replace(/\s+/g, ''), 'base64');

/**
 * Downloads image bytes under the `imageHosts` policy (see `download`), with the fetch timeout, at most
 * `MAX_IMAGE_REDIRECTS` redirects and the 10 MB cap applied while reading. Built-in assets of this emulator are
 * read from memory; the seed's own image URLs are allowed whatever their host.
 * @throws Error with the generic text `could not download the image`; the reason is logged.
 */
export async function fetchImage(ctx: EmulatorContext, url: string): Promise<Buffer> {
  let abs: URL;
  try {
    abs = new URL(resolveImageUrl(ctx, url));
  } catch {
    throw new Error(IMAGE_DOWNLOAD_FAILED);
  }
  const own = abs.origin === new URL(ctx.baseUrl()).origin ? assetNameOf(abs.pathname) : null;
  const asset = own === null ? undefined : ctx.assets.get(own);
  if (asset) return asset;
  const seeded = [...ctx.store.agents.values()].some((a) => resolveImageUrl(ctx, a.imageUrl) === abs.href);
  try {
    return await download(
      abs,
      {
        policy: ctx.options.imageHosts,
        timeoutMs: ctx.options.imageFetchTimeoutMs,
        maxBytes: MAX_DOWNLOAD_BYTES,
        maxRedirects: MAX_IMAGE_REDIRECTS,
      },
      seeded,
    );
  } catch (e) {
    ctx.options.logger.warn({ host: abs.host, reason: e instanceof Error ? e.message : String(e) }, 'image download refused or failed');
    throw new Error(IMAGE_DOWNLOAD_FAILED);
  }
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
    throw new LiveAiError('invalid_request', 'the image is not a decodable image (PNG, JPEG, WebP, GIF, AVIF, TIFF or SVG)', {
      status: 400,
    });
  }
}
