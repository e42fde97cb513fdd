import { INLINE_IMAGE_LIMIT_BYTES } from '../constants';
import type { SessionStatus } from './common';
import type { AvatarEventType } from './events';

/**
 * The zod-free values of the schema modules: constants and pure helpers. The browser entry `liveai-kit`
 * exports these; the zod schemas themselves live in `liveai-kit/schemas` (loaded lazily by the engine).
 */

/**
 * Statuses after which a session never changes again.
 * @public
 */
export const FINAL_STATUSES: readonly SessionStatus[] = ['COMPLETED', 'TIMED_OUT', 'FAILED'];
/** @public */
export const isFinalStatus = (s: SessionStatus): boolean => FINAL_STATUSES.includes(s);

/**
 * Strips an optional data-URL prefix (`data:image/png;base64,`) and returns the bare base64 text
 * ("a data URL form is also accepted").
 * @public
 */
export function stripDataUrl(value: string): string {
  const m = /^data:[^,]*;base64,/i.exec(value);
  return m ? value.slice(m[0].length) : value;
}

/**
 * True when `value` (bare base64 or data URL) is well-formed standard base64.
 * @public
 */
export function isBase64(value: string): boolean {
  const s = stripDataUrl(value).replace(/\s+/g, '');
  return s.length > 0 && s.length % 4 === 0 && /^[A-Za-z0-9+/]+={0,2}$/.test(s);
}

/**
 * Decoded size in bytes of a base64 string or data URL, computed without decoding.
 * @public
 */
export function decodedBase64Bytes(value: string): number {
  const s = stripDataUrl(value).replace(/\s+/g, '');
  const pad = s.endsWith('==') ? 2 : s.endsWith('=') ? 1 : 0;
  return Math.floor((s.length * 3) / 4) - pad;
}

/**
 * True when the decoded inline image is too large: at or above 921600 bytes (413).
 * @public
 */
export const inlineImageTooLarge = (value: string): boolean => decodedBase64Bytes(value) >= INLINE_IMAGE_LIMIT_BYTES;

/**
 * The ten service event types of the service.
 * @public
 */
export const AVATAR_EVENT_TYPES = [
  'bot_ready',
  'idle_timeout',
  'user_transcription',
  'agent_transcription',
  'image_change_requested',
  'image_created',
  'image_change_complete',
  'image_change_error',
  'daily_error',
  'video_generation_error',
] as const satisfies readonly AvatarEventType[];
