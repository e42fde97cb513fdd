import { INLINE_IMAGE_LIMIT_BYTES } from '../constants';
import { LiveAiError, invalidRequest } from '../errors';
import { ControlEventSchema, decodedBase64Bytes, inlineImageTooLarge, type ControlEvent } from '../schemas';
import type { ImageInput } from './types';

/**
 * Validates one control event (spec §4.6) before any network call.
 * @throws LiveAiError `invalid_request` (400 rules: unknown event, missing fields, empty prompt or action,
 *   not exactly one of `image_url` / `image_base64`, malformed base64) or `payload_too_large`
 *   (413 rule: decoded `image_base64` at or above 921600 bytes).
 */
export function validateControlEvent(event: unknown): ControlEvent {
  const parsed = ControlEventSchema.safeParse(event);
  if (!parsed.success) throw invalidRequest(parsed.error);
  const e = parsed.data;
  if (e.event === 'update-image' && e.image_base64 !== undefined && inlineImageTooLarge(e.image_base64)) {
    throw new LiveAiError(
      'payload_too_large',
      `image_base64 decodes to ${decodedBase64Bytes(e.image_base64)} bytes; inline images must be under ${INLINE_IMAGE_LIMIT_BYTES} bytes — host the image and send its URL instead`,
      { status: 413 },
    );
  }
  return e;
}

/**
 * Checks that an `updateImage` input names exactly one source (`url`, `base64` or `blob`).
 * @throws LiveAiError `invalid_request` otherwise.
 */
export function imageSource(input: ImageInput): 'url' | 'base64' | 'blob' {
  const o = (input ?? {}) as Record<string, unknown>;
  const keys = (['url', 'base64', 'blob'] as const).filter((k) => o[k] !== undefined && o[k] !== null);
  if (keys.length !== 1) {
    throw new LiveAiError('invalid_request', 'updateImage needs exactly one of url, base64 or blob', { status: 400 });
  }
  const key = keys[0]!;
  if (key === 'blob' && !(typeof Blob !== 'undefined' && o.blob instanceof Blob)) {
    throw new LiveAiError('invalid_request', 'updateImage blob must be a Blob or File', { status: 400 });
  }
  if (key !== 'blob' && typeof o[key] !== 'string') {
    throw new LiveAiError('invalid_request', `updateImage ${key} must be a string`, { status: 400 });
  }
  return key;
}
