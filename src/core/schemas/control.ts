import * as z from 'zod/mini';
import { isBase64 } from './plain';

export { stripDataUrl, isBase64, decodedBase64Bytes, inlineImageTooLarge, CONTROL_EVENT_NAMES, type ControlEventName } from './plain';

const nonEmpty = (field: string) => z.string().check(z.trim(), z.minLength(1, `${field} must not be empty`));

/**
 * `terminate`: shuts the avatar down and removes it from the room.
 * @public
 */
export const TerminateEventSchema = z.object({ event: z.literal('terminate') });
/**
 * `update-image`: exactly one of `image_url` or `image_base64` (bare or data URL).
 * The 921600-byte limit is a separate 413 condition, checked with `inlineImageTooLarge`.
 * @public
 */
export const UpdateImageEventSchema = z
  .object({
    event: z.literal('update-image'),
    image_url: z.optional(z.url({ protocol: /^https?$/ })),
    image_base64: z.optional(z.string().check(z.refine(isBase64, 'image_base64 must be base64 or a base64 data URL'))),
  })
  .check(
    z.refine((e) => (e.image_url === undefined) !== (e.image_base64 === undefined), {
      message: 'update-image needs exactly one of image_url or image_base64',
      path: ['image_url'],
    }),
  );
/**
 * `update-agent-prompt`.
 * @public
 */
export const UpdateAgentPromptEventSchema = z.object({ event: z.literal('update-agent-prompt'), agent_prompt: nonEmpty('agent_prompt') });
/**
 * `update-idle-prompt`.
 * @public
 */
export const UpdateIdlePromptEventSchema = z.object({ event: z.literal('update-idle-prompt'), idle_prompt: nonEmpty('idle_prompt') });
/**
 * `action`: a whole-body action by name (the service does not publish the list of names).
 * @public
 */
export const ActionEventSchema = z.object({ event: z.literal('action'), action: nonEmpty('action') });
/**
 * `reset-idle-timeout`: restarts the idle timer.
 * @public
 */
export const ResetIdleTimeoutEventSchema = z.object({ event: z.literal('reset-idle-timeout') });

/**
 * Body of `POST /liveai/sessions/{id}/control`: one of the six events, by `event`.
 * @public
 */
export const ControlEventSchema = z.union([
  TerminateEventSchema,
  UpdateImageEventSchema,
  UpdateAgentPromptEventSchema,
  UpdateIdlePromptEventSchema,
  ActionEventSchema,
  ResetIdleTimeoutEventSchema,
]);
/** @public */
export type ControlEvent = z.infer<typeof ControlEventSchema>;

/**
 * 200 response of control: accepted, not yet applied.
 * @public
 */
export const ControlResponseSchema = z.object({ success: z.boolean() });
/** @public */
export type ControlResponse = z.infer<typeof ControlResponseSchema>;

/**
 * Body of `POST /liveai/sessions/{id}/leave-meeting`.
 * @public
 */
export const LeaveMeetingRequestSchema = z.object({ meeting_bot_id: nonEmpty('meeting_bot_id') });
/** @public */
export type LeaveMeetingRequest = z.infer<typeof LeaveMeetingRequestSchema>;
/**
 * 200 response of leave-meeting.
 * @public
 */
export const LeaveMeetingResponseSchema = z.object({ status: z.literal('left') });
/** @public */
export type LeaveMeetingResponse = z.infer<typeof LeaveMeetingResponseSchema>;
