import { AVATAR_EVENT_TYPES } from './plain';
import type { AvatarEvent } from './events';
import type { ClientSession, ClientToken } from './proxy';
import type { SessionStatusResponse } from './sessions';
import type { ErrorBody } from './common';

/**
 * Small checks of what a call receives (service events, the session handle, status answers, chat input), so the
 * call path runs without the zod chunk. Each guard returns exactly what the matching zod schema's `safeParse` returns
 * as `data`, or `undefined` when the schema would reject the value; then the caller loads the schemas for the exact
 * error message. They import nothing of zod (that would bring its whole core into the call path); a property test
 * checks each against its schema, so they cannot drift apart.
 * @internal
 */
export type Guard<T> = (value: unknown) => T | undefined;

/** A field check: the field's output, or NO; `optional` fields may be absent. */
type Field = ((value: unknown) => unknown) & { optional?: true };
const NO = Symbol('no');

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const str: Field = (v) => (typeof v === 'string' ? v : NO);
const nonEmpty: Field = (v) => (typeof v === 'string' && v.length > 0 ? v : NO);
const num: Field = (v) => (typeof v === 'number' && Number.isFinite(v) ? v : NO);
const bool: Field = (v) => (typeof v === 'boolean' ? v : NO);
const any: Field = (v) => v;
const oneOf =
  (values: readonly string[]): Field =>
  (v) =>
    typeof v === 'string' && values.includes(v) ? v : NO;
/** `z.url()`: zod trims, asks the URL parser, and drops tabs and line breaks. */
const url: Field = (v) => {
  if (typeof v !== 'string') return NO;
  const t = v.trim();
  try {
    new URL(t);
    return t.replace(/[\t\n\r]/g, '');
  } catch {
    return NO;
  }
};
/** zod's ISO date-time with seconds and a `Z` or `±hh:mm` offset, leap days included. */
const date =
  '(?:(?:\\d\\d[2468][048]|\\d\\d[13579][26]|\\d\\d0[48]|[02468][048]00|[13579][26]00)-02-29|' +
  '\\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|02-(?:0[1-9]|1\\d|2[0-8])))';
const dateTimePattern = new RegExp(`^${date}T(?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(?:\\.\\d+)?(?:Z|[+-](?:[01]\\d|2[0-3]):[0-5]\\d)$`);
/** `z.iso.datetime({offset: true})`. */
const dateTime: Field = (v) => (typeof v === 'string' && dateTimePattern.test(v) ? v : NO);
/** `z.optional(field)`. */
const optional = (field: Field): Field =>
  Object.assign((v: unknown) => (v === undefined ? undefined : field(v)), { optional: true as const });

/**
 * `z.object(shape)` (unknown keys dropped) or, with `loose`, `z.looseObject(shape)` (unknown keys kept). Keys whose
 * check is `optional` may be absent; every other key must be present.
 */
function object<T>(shape: Record<string, Field>, loose = false): Guard<T> {
  return (v) => {
    if (!isObject(v)) return undefined;
    const out: Record<string, unknown> = loose ? { ...v } : {};
    for (const key in shape) {
      const field = shape[key]!;
      if (!(key in v)) {
        if (field.optional) continue;
        return undefined;
      }
      const value = field(v[key]);
      if (value === NO) return undefined;
      out[key] = value;
    }
    return out as T;
  };
}

const event = (shape: Record<string, Field> = {}) => object<AvatarEvent>(shape, true);
const transcription = event({ transcription: str });
const EVENTS: Partial<Record<AvatarEvent['type'], Guard<AvatarEvent>>> = {
  user_transcription: transcription,
  agent_transcription: transcription,
  image_change_error: event({ error: any }),
  daily_error: event({ error: any, fatal: bool }),
};
const bare = event();

/** `AvatarEventSchema`: one of the ten service events by `type`, extra fields kept. */
export const avatarEventGuard: Guard<AvatarEvent> = (v) => {
  const type = isObject(v) ? v.type : undefined;
  if (typeof type !== 'string' || !(AVATAR_EVENT_TYPES as readonly string[]).includes(type)) return undefined;
  return (EVENTS[type as AvatarEvent['type']] ?? bare)(v);
};

/** `ClientSessionSchema`: the session handle the proxy answers a create call with. */
export const clientSessionGuard = object<ClientSession>({
  session_id: nonEmpty,
  client_token: nonEmpty,
  expires_at: optional(dateTime),
  session_expires_at: optional(dateTime),
  transport: optional(oneOf(['rtc-a', 'rtc-b', 'websocket-rtc-a', 'websocket-rtc-b'])),
  room_url: optional(url),
  token: optional(str),
  image_url: optional(url),
  websocket_address: optional(url),
});

/** `ClientTokenSchema`: a renewed client token. */
export const clientTokenGuard = object<ClientToken>({ client_token: nonEmpty, expires_at: dateTime });

/** `SessionStatusResponseSchema`: `{session_status, cost?}`. */
export const sessionStatusGuard = object<SessionStatusResponse>({
  session_status: oneOf(['QUEUED', 'ACTIVE', 'COMPLETED', 'TIMED_OUT', 'FAILED']),
  cost: optional(num),
});

/** `ErrorBodySchema`: `{detail}`. */
export const errorBodyGuard = object<ErrorBody>({ detail: str });

/** `ChatMessageSchema`: the message is trimmed and must not be empty. */
export const chatMessageGuard = object<{ event: 'chat-msg'; message: string; name: string }>({
  event: oneOf(['chat-msg']),
  message: (v) => (typeof v === 'string' && v.trim() ? v.trim() : NO),
  name: str,
});
