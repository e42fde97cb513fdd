import { LiveAiError } from '../errors';
import type { ImageInput } from './types';

/**
 * Checks that an `updateImage` input names exactly one source (`url`, `base64` or `blob`).
 * @throws LiveAiError `invalid_request` otherwise.
 */
export function imageSource(input: ImageInput): 'url' | 'base64' | 'blob' {
  const o = (input ?? {}) as Record<string, unknown>;
  const keys = (['url', 'base64', 'blob'] as const).filter((k) => o[k] != null);
  if (keys.length !== 1) {
    throw new LiveAiError('invalid_request', 'updateImage needs exactly one of url, base64 or blob', { status: 400 });
  }
  const key = keys[0]!;
  if (key === 'blob' && !(o.blob instanceof Blob)) {
    throw new LiveAiError('invalid_request', 'updateImage blob must be a Blob or File', { status: 400 });
  }
  if (key !== 'blob' && typeof o[key] !== 'string') {
    throw new LiveAiError('invalid_request', `updateImage ${key} must be a string`, { status: 400 });
  }
  return key;
}
