import { LiveAiError, formatZodError } from '../errors';
import { AvatarEventSchema } from '../schemas';
import { decodeMessage, type ParsedMessage } from './read';

export type { ParsedMessage } from './read';

/**
 * Parses one data/app message of the media transport into a service event.
 * Accepts UTF-8 JSON bytes (`Uint8Array`/`ArrayBuffer`, rtc-a data messages), a JSON string,
 * or an already decoded object (rtc-b `app-message` data). Never throws:
 * bad JSON or an object that is not a service event gives `{ok: false, error}` with code `invalid_event`.
 * @public
 */
export function parseAvatarEventMessage(data: unknown): ParsedMessage {
  const decoded = decodeMessage(data);
  if (!decoded.ok) return decoded;
  const parsed = AvatarEventSchema.safeParse(decoded.value);
  if (parsed.success) return { ok: true, event: parsed.data };
  return { ok: false, error: new LiveAiError('invalid_event', `not a service event: ${formatZodError(parsed.error)}`) };
}
