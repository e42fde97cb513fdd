/**
 * Numeric limits and defaults taken from the spec (`avatar-session-service.md`).
 * Every value carries its unit in the name or the comment.
 */

/** Decoded inline image (`image_base64`) must be strictly below this many bytes (spec §4.6 rule 1, §8). */
export const INLINE_IMAGE_LIMIT_BYTES = 921_600;
/** Maximum uploaded avatar image in the multipart variant, in bytes: 4 MB (spec §2, §8). */
export const MAX_UPLOAD_BYTES = 4 * 1024 * 1024;
/** Target avatar image width in px (spec §2, multipart `image`). */
export const AVATAR_WIDTH_PX = 368;
/** Target avatar image height in px (spec §2, multipart `image`). */
export const AVATAR_HEIGHT_PX = 560;
/** Deepest pagination offset `(page-1)*limit` the list endpoints accept (spec §4.1, §8). */
export const MAX_PAGINATION_OFFSET = 1000;
/** Default and bounds of the `limit` query parameter (spec §8). */
export const DEFAULT_PAGE_LIMIT = 25;
export const MAX_PAGE_LIMIT = 100;
/** Longest cold start a session may spend `QUEUED`, in ms: 2.5 minutes (spec §3, §8). */
export const COLD_START_MAX_MS = 150_000;
/** Typical image change latency, in ms (spec §4.6, §8). */
export const IMAGE_CHANGE_TYPICAL_MS = 600;
/** Default data-message topic for events on `rtc-a` (spec §6: the lowercase service name). */
export const DEFAULT_EVENT_TOPIC = 'liveai';
/** Only aspect ratio the cartoon model supports (spec §2, §8). */
export const CARTOON_ASPECT_RATIO = '2x3';
