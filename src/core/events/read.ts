import { LiveAiError } from '../errors';
import { loadValidation } from '../lazy';
import { avatarEventGuard } from '../schemas/guards';
import type { AvatarEvent } from '../schemas';

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
 * Reads one transport message into a service event and hands the result to `deliver`: at once for a well-formed
 * event or undecodable bytes; otherwise after the zod schemas (loaded on first need) gave the exact `invalid_event`
 * error, or accepted the event after all. Returns the result when it was delivered at once, `'checking'` otherwise.
 */
export function readAvatarEventMessage(data: unknown, deliver: (parsed: ParsedMessage) => void): 'event' | 'invalidMessage' | 'checking' {
  const decoded = decodeMessage(data);
  const event = decoded.ok ? avatarEventGuard(decoded.value) : undefined;
  if (event) deliver({ ok: true, event });
  else if (!decoded.ok) deliver(decoded);
  else {
    loadValidation().then(
      (v) => deliver(v.parseAvatarEventMessage(decoded.value)),
      (e: unknown) => deliver({ ok: false, error: new LiveAiError('invalid_event', `could not check a transport message: ${String(e)}`) }),
    );
    return 'checking';
  }
  return event ? 'event' : 'invalidMessage';
}
