import * as z from 'zod/mini';

/**
 * Events the service pushes over the media transport: on `rtc-a` as UTF-8 JSON data messages
 * on the event topic, on `rtc-b` as `app-message` data. Unknown extra fields are kept (`looseObject`).
 */
const ev = <T extends string, S extends z.core.$ZodLooseShape>(type: T, shape: S) => z.looseObject({ type: z.literal(type), ...shape });

/** @public */
export const BotReadyEventSchema = ev('bot_ready', {});
/** @public */
export const IdleTimeoutEventSchema = ev('idle_timeout', {});
/** @public */
export const UserTranscriptionEventSchema = ev('user_transcription', { transcription: z.string() });
/** @public */
export const AgentTranscriptionEventSchema = ev('agent_transcription', { transcription: z.string() });
/** @public */
export const ImageChangeRequestedEventSchema = ev('image_change_requested', {});
/** @public */
export const ImageCreatedEventSchema = ev('image_created', {});
/** @public */
export const ImageChangeCompleteEventSchema = ev('image_change_complete', {});
/** @public */
export const ImageChangeErrorEventSchema = ev('image_change_error', { error: z.unknown() });
/** @public */
export const DailyErrorEventSchema = ev('daily_error', { error: z.unknown(), fatal: z.boolean() });
/** @public */
export const VideoGenerationErrorEventSchema = ev('video_generation_error', {});

/**
 * Union of the ten service events, discriminated by `type`.
 * @public
 */
export const AvatarEventSchema = z.discriminatedUnion('type', [
  BotReadyEventSchema,
  IdleTimeoutEventSchema,
  UserTranscriptionEventSchema,
  AgentTranscriptionEventSchema,
  ImageChangeRequestedEventSchema,
  ImageCreatedEventSchema,
  ImageChangeCompleteEventSchema,
  ImageChangeErrorEventSchema,
  DailyErrorEventSchema,
  VideoGenerationErrorEventSchema,
]);
/** @public */
export type AvatarEvent = z.infer<typeof AvatarEventSchema>;
/** @public */
export type AvatarEventType = AvatarEvent['type'];
/**
 * Map from event `type` to its payload type.
 * @public
 */
export type AvatarEventMap = { [E in AvatarEvent as E['type']]: E };
export { AVATAR_EVENT_TYPES } from './plain';

/**
 * `chat-msg` app message: text for the agent to answer (hosted-room flow).
 * @public
 */
export const ChatMessageSchema = z.object({
  event: z.literal('chat-msg'),
  message: z.string().check(z.trim(), z.minLength(1, 'message must not be empty')),
  name: z.string(),
});
/**
 * `force-end` app message: the agent leaves at once and billing stops.
 * @public
 */
export const ForceEndMessageSchema = z.object({ event: z.literal('force-end') });
/**
 * App messages a client sends over the transport.
 * @public
 */
export const AppMessageSchema = z.discriminatedUnion('event', [ChatMessageSchema, ForceEndMessageSchema]);
/** @public */
export type AppMessage = z.infer<typeof AppMessageSchema>;
