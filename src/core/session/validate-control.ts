import { INLINE_IMAGE_LIMIT_BYTES } from '../constants';
import { LiveAiError, invalidRequest } from '../errors';
import * as v from 'valibot';
import { ControlEventSchema, decodedBase64Bytes, inlineImageTooLarge, type ControlEvent } from '../schemas';

/**
 * Validates one control event before any network call.
 * @throws LiveAiError `invalid_request` (400 rules: unknown event, missing fields, empty prompt or action,
 *   not exactly one of `image_url` / `image_base64`, malformed base64) or `payload_too_large`
 *   (413 rule: decoded `image_base64` at or above 921600 bytes).
 * @public
 */
export function validateControlEvent(event: unknown): ControlEvent {
  const parsed = v.safeParse(ControlEventSchema, event);
  if (!parsed.success) throw invalidRequest(parsed.issues);
  const e = parsed.output;
  if (e.event === 'update-image' && e.image_base64 !== undefined && inlineImageTooLarge(e.image_base64)) {
    throw new LiveAiError(
      'payload_too_large',
      `image_base64 decodes to ${decodedBase64Bytes(e.image_base64)} bytes; inline images must ` +
        `be under ${INLINE_IMAGE_LIMIT_BYTES} bytes — host the image and send its URL instead`,
      { status: 413 },
    );
  }
  return e;
}
