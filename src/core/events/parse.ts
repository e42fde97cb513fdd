import { LiveAiError, formatZodError } from '../errors';
import { AvatarEventSchema, type AvatarEvent } from '../schemas';

/** Result of parsing one transport message. */
export type ParsedMessage = { ok: true; event: AvatarEvent } | { ok: false; error: LiveAiError };

let decoder: TextDecoder | undefined;

/**
 * Parses one data/app message of the media transport into a service event.
 * Accepts UTF-8 JSON bytes (`Uint8Array`/`ArrayBuffer`, rtc-a data messages), a JSON string,
 * or an already decoded object (rtc-b `app-message` data). Never throws:
 * bad JSON or an object that is not a service event gives `{ok: false, error}` with code `invalid_event`.
 */
export function parseAvatarEventMessage(data: unknown): ParsedMessage {
  let value: unknown = data;
  try {
    // Realm-independent checks: payloads may come from another frame or test realm.
    if (Object.prototype.toString.call(data) === '[object ArrayBuffer]') value = new Uint8Array(data as ArrayBuffer);
    if (ArrayBuffer.isView(value)) value = (decoder ??= new TextDecoder()).decode(value as Uint8Array);
    if (typeof value === 'string') value = JSON.parse(value);
  } catch {
    return { ok: false, error: new LiveAiError('invalid_event', 'transport message is not valid UTF-8 JSON') };
  }
  const parsed = AvatarEventSchema.safeParse(value);
  if (parsed.success) return { ok: true, event: parsed.data };
  return { ok: false, error: new LiveAiError('invalid_event', `not a service event: ${formatZodError(parsed.error)}`) };
}
