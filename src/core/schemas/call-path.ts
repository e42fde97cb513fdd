/**
 * The schemas of what a call receives (the session handle, a renewed token, status answers, `{detail}` errors, chat
 * input, service events) and valibot's `safeParse`: a small chunk loaded when a session starts, in parallel with the
 * create call, so a page pays for the rest of the schemas only when it validates something else.
 * @internal
 */
export { safeParse } from 'valibot';
export { ErrorBodySchema } from './common';
export { ChatMessageSchema, AvatarEventSchema } from './events';
export { ClientSessionSchema, ClientTokenSchema, ProxySessionStatusSchema } from './proxy';
export { SessionStatusResponseSchema } from './sessions';
