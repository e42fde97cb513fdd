import * as v from 'valibot';

/**
 * Events the service pushes over the media transport: on `rtc-a` as UTF-8 JSON data messages
 * on the event topic, on `rtc-b` as `app-message` data. Unknown extra fields are kept (`looseObject`).
 */
const ev = <T extends string, S extends v.ObjectEntries>(type: T, entries: S) => v.looseObject({ type: v.literal(type), ...entries });

/** @public */
export const BotReadyEventSchema = ev('bot_ready', {});
/** @public */
export const IdleTimeoutEventSchema = ev('idle_timeout', {});
/** @public */
export const UserTranscriptionEventSchema = ev('user_transcription', { transcription: v.string() });
/** @public */
export const AgentTranscriptionEventSchema = ev('agent_transcription', { transcription: v.string() });
/** @public */
export const ImageChangeRequestedEventSchema = ev('image_change_requested', {});
/** @public */
export const ImageCreatedEventSchema = ev('image_created', {});
/** @public */
export const ImageChangeCompleteEventSchema = ev('image_change_complete', {});
/** @public */
export const ImageChangeErrorEventSchema = ev('image_change_error', { error: v.unknown() });
/** @public */
export const DailyErrorEventSchema = ev('daily_error', { error: v.unknown(), fatal: v.boolean() });
/** @public */
export const VideoGenerationErrorEventSchema = ev('video_generation_error', {});

/**
 * Union of the ten service events, discriminated by `type`.
 * @public
 */
export const AvatarEventSchema = v.variant('type', [
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
export type AvatarEvent = v.InferOutput<typeof AvatarEventSchema>;
/** @public */
export type AvatarEventType = AvatarEvent['type'];
/**
 * Map from event `type` to its payload type.
 * @public
 */
export type AvatarEventMap = { [E in AvatarEvent as E['type']]: E };
export { AVATAR_EVENT_TYPES } from './plain';

/**
 * `chat-msg` app message: text for the agent to answer (hosted-room flow). The message is trimmed and must not be
 * empty.
 * @public
 */
export const ChatMessageSchema = v.object({
  event: v.literal('chat-msg'),
  message: v.pipe(v.string(), v.trim(), v.minLength(1, 'message must not be empty')),
  name: v.string(),
});
/**
 * `force-end` app message: the agent leaves at once and billing stops.
 * @public
 */
export const ForceEndMessageSchema = v.object({ event: v.literal('force-end') });
/**
 * App messages a client sends over the transport.
 * @public
 */
export const AppMessageSchema = v.variant('event', [ChatMessageSchema, ForceEndMessageSchema]);
/** @public */
export type AppMessage = v.InferOutput<typeof AppMessageSchema>;
