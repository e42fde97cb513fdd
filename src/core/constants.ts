/**
 * Numeric limits and defaults of the avatar session service.
 * Every value carries its unit in the name or the comment.
 */

/**
 * Decoded inline image (`image_base64`) must be strictly below this many bytes.
 * @public
 */
export const INLINE_IMAGE_LIMIT_BYTES = 921_600;
/**
 * Maximum uploaded avatar image in the multipart variant, in bytes: 4 MB.
 * @public
 */
export const MAX_UPLOAD_BYTES = 4 * 1024 * 1024;
/**
 * Target avatar image width in px (multipart `image`).
 * @public
 */
export const AVATAR_WIDTH_PX = 368;
/**
 * Target avatar image height in px (multipart `image`).
 * @public
 */
export const AVATAR_HEIGHT_PX = 560;
/**
 * Deepest pagination offset `(page-1)*limit` the list endpoints accept.
 * @public
 */
export const MAX_PAGINATION_OFFSET = 1000;
/**
 * Default and bounds of the `limit` query parameter.
 * @public
 */
export const DEFAULT_PAGE_LIMIT = 25;
/** @public */
export const MAX_PAGE_LIMIT = 100;
/**
 * Longest cold start a session may spend `QUEUED`, in ms: 2.5 minutes.
 * @public
 */
export const COLD_START_MAX_MS = 150_000;
/**
 * Typical image change latency, in ms.
 * @public
 */
export const IMAGE_CHANGE_TYPICAL_MS = 600;
/**
 * Default data-message topic for events on `rtc-a` (the lowercase service name).
 * @public
 */
export const DEFAULT_EVENT_TOPIC = 'liveai';
/**
 * Only aspect ratio the cartoon model supports.
 * @public
 */
export const CARTOON_ASPECT_RATIO = '2x3';
/**
 * Largest source image decoded, in pixels (40 MP).
 * @public
 */
export const MAX_SOURCE_PIXELS = 40_000_000;
/**
 * Default byte budget: under the inline limit (921600 bytes) with a 4 KB margin.
 * @public
 */
export const DEFAULT_PREPARED_MAX_BYTES = INLINE_IMAGE_LIMIT_BYTES - 4096;

/**
 * The RPC method a LiveKit agent registers so a visitor can stop it speaking: `session.interrupt()` calls it on the
 * agent the avatar speaks for (empty payload, 5 s to answer). In the agent, call your voice session's `interrupt()`
 * from it; the agent then clears the avatar's audio buffer and the avatar falls silent.
 * @public
 */
export const INTERRUPT_RPC_METHOD = 'liveai.interrupt';
