import * as v from 'valibot';
import { LiveAiError, formatIssues } from '../errors';
import { AvatarEventSchema, type AvatarEvent } from '../schemas/events';

/**
 * Result of parsing one transport message.
 * @public
 */
export type ParsedMessage = { ok: true; event: AvatarEvent } | { ok: false; error: LiveAiError };

let decoder: TextDecoder | undefined;

/**
 * Decodes one data/app message of the media transport: UTF-8 JSON bytes (`Uint8Array`/`ArrayBuffer`), a JSON
 * string, or an already decoded object. Bad bytes or JSON give `{ok: false}` with code `invalid_event`.
 */
export function decodeMessage(data: unknown): { ok: true; value: unknown } | { ok: false; error: LiveAiError } {
  let value: unknown = data;
  try {
    // Realm-independent checks: payloads may come from another frame or test realm.
    if (Object.prototype.toString.call(data) === '[object ArrayBuffer]') value = new Uint8Array(data as ArrayBuffer);
    if (ArrayBuffer.isView(value)) value = (decoder ??= new TextDecoder()).decode(value as Uint8Array);
    if (typeof value === 'string') value = JSON.parse(value);
  } catch {
    return { ok: false, error: new LiveAiError('invalid_event', 'transport message is not valid UTF-8 JSON') };
  }
  return { ok: true, value };
}

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
  const parsed = v.safeParse(AvatarEventSchema, decoded.value);
  if (parsed.success) return { ok: true, event: parsed.output };
  return { ok: false, error: new LiveAiError('invalid_event', `not a service event: ${formatIssues(parsed.issues)}`) };
}

/**
 * Reads one transport message into a service event and hands the result to `deliver`, at once.
 * Returns whether it was an event.
 */
export function readAvatarEventMessage(data: unknown, deliver: (parsed: ParsedMessage) => void): 'event' | 'invalidMessage' {
  const parsed = parseAvatarEventMessage(data);
  deliver(parsed);
  return parsed.ok ? 'event' : 'invalidMessage';
}
