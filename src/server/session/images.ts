import { LiveAiError } from '../../core/index';

/** Image types accepted for the multipart `image` part: PNG, JPEG, WebP. */
export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
export type ImageType = (typeof IMAGE_TYPES)[number];

/** Checks the declared type of the `image` part. @throws `invalid_request` with status 415 for other types. */
export function checkDeclaredImageType(mimetype: string): void {
  const type = mimetype.split(';')[0]?.trim().toLowerCase() ?? '';
  if (!(IMAGE_TYPES as readonly string[]).includes(type)) {
    throw new LiveAiError('invalid_request', `image must be PNG, JPEG or WebP (got ${type.slice(0, 60) || 'no type'})`, { status: 415 });
  }
}

/** Type of an image from its first bytes (magic numbers), or undefined when it is none of PNG, JPEG, WebP. */
export function sniffImageType(bytes: Uint8Array): ImageType | undefined {
  const at = (i: number, ...xs: number[]) => xs.every((x, k) => bytes[i + k] === x);
  if (at(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (at(0, 0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (at(0, 0x52, 0x49, 0x46, 0x46) && at(8, 0x57, 0x45, 0x42, 0x50)) return 'image/webp';
  return undefined;
}
