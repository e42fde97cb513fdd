import type * as z from 'zod/mini';
import { ErrorBodySchema } from './common';
import { AvatarEventSchema, ChatMessageSchema } from './events';
import { ClientSessionSchema, ClientTokenSchema } from './proxy';
import { SessionStatusResponseSchema } from './sessions';

/**
 * The checks a call makes on what it receives (service events, the session handle, status answers, chat input),
 * each made from the one schema of its shape: the value the schema accepts (its output), or `undefined` when the
 * schema rejects it. This module holds only the schemas a call needs, without zod's English messages, so the call
 * path loads less than `liveai-kit/schemas`; on a rejection the caller loads that entry for the exact error message.
 * @internal
 */
export type Guard<T> = (value: unknown) => T | undefined;

const guard =
  <T>(schema: z.ZodMiniType<T>): Guard<T> =>
  (value) => {
    const parsed = schema.safeParse(value);
    return parsed.success ? parsed.data : undefined;
  };

/** `AvatarEventSchema`: one of the ten service events by `type`, extra fields kept. */
export const avatarEventGuard = guard(AvatarEventSchema);
/** `ClientSessionSchema`: the session handle the proxy answers a create call with. */
export const clientSessionGuard = guard(ClientSessionSchema);
/** `ClientTokenSchema`: a renewed client token. */
export const clientTokenGuard = guard(ClientTokenSchema);
/** `SessionStatusResponseSchema`: `{session_status, cost?}`. */
export const sessionStatusGuard = guard(SessionStatusResponseSchema);
/** `ErrorBodySchema`: `{detail}`. */
export const errorBodyGuard = guard(ErrorBodySchema);
/** `ChatMessageSchema`: the message is trimmed and must not be empty. */
export const chatMessageGuard = guard(ChatMessageSchema);
