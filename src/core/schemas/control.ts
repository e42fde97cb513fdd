import * as v from 'valibot';
import { INLINE_IMAGE_LIMIT_BYTES } from '../constants';
import { LiveAiError, invalidRequest } from '../errors';
import { decodedBase64Bytes, inlineImageTooLarge, isBase64 } from './plain';
import { urlSchema } from './parts';

export { stripDataUrl, isBase64, decodedBase64Bytes, inlineImageTooLarge, CONTROL_EVENT_NAMES, type ControlEventName } from './plain';

const nonEmpty = (field: string) => v.pipe(v.string(), v.trim(), v.minLength(1, `${field} must not be empty`));

/**
 * `terminate`: shuts the avatar down and removes it from the room.
 * @public
 */
export const TerminateEventSchema = v.object({ event: v.literal('terminate') });
/**
 * `update-image`: exactly one of `image_url` (http or https) or `image_base64` (bare or data URL).
 * The 921600-byte limit is a separate 413 condition, checked with `inlineImageTooLarge`.
 * @public
 */
export const UpdateImageEventSchema = v.pipe(
  v.object({
    event: v.literal('update-image'),
    image_url: v.optional(urlSchema(['http', 'https'], 'image_url must be an http(s) URL')),
    image_base64: v.optional(v.pipe(v.string(), v.check(isBase64, 'image_base64 must be base64 or a base64 data URL'))),
  }),
  v.forward(
    v.check(
      (e) => (e.image_url === undefined) !== (e.image_base64 === undefined),
      'update-image needs exactly one of image_url or image_base64',
    ),
    ['image_url'],
  ),
);
/**
 * `update-agent-prompt`.
 * @public
 */
export const UpdateAgentPromptEventSchema = v.object({ event: v.literal('update-agent-prompt'), agent_prompt: nonEmpty('agent_prompt') });
/**
 * `update-idle-prompt`.
 * @public
 */
export const UpdateIdlePromptEventSchema = v.object({ event: v.literal('update-idle-prompt'), idle_prompt: nonEmpty('idle_prompt') });
/**
 * `action`: a whole-body action by name (the service does not publish the list of names).
 * @public
 */
export const ActionEventSchema = v.object({ event: v.literal('action'), action: nonEmpty('action') });
/**
 * `reset-idle-timeout`: restarts the idle timer.
 * @public
 */
export const ResetIdleTimeoutEventSchema = v.object({ event: v.literal('reset-idle-timeout') });

/**
 * Body of `POST /liveai/sessions/{id}/control`: one of the six events, by `event`.
 * @public
 */
export const ControlEventSchema = v.variant('event', [
  TerminateEventSchema,
  UpdateImageEventSchema,
  UpdateAgentPromptEventSchema,
  UpdateIdlePromptEventSchema,
  ActionEventSchema,
  ResetIdleTimeoutEventSchema,
]);
/** @public */
export type ControlEvent = v.InferOutput<typeof ControlEventSchema>;

/**
 * 200 response of control: accepted, not yet applied.
 * @public
 */
export const ControlResponseSchema = v.object({ success: v.boolean() });
/** @public */
export type ControlResponse = v.InferOutput<typeof ControlResponseSchema>;

/**
 * Body of `POST /liveai/sessions/{id}/leave-meeting`.
 * @public
 */
export const LeaveMeetingRequestSchema = v.object({ meeting_bot_id: nonEmpty('meeting_bot_id') });
/** @public */
export type LeaveMeetingRequest = v.InferOutput<typeof LeaveMeetingRequestSchema>;
/**
 * 200 response of leave-meeting.
 * @public
 */
export const LeaveMeetingResponseSchema = v.object({ status: v.literal('left') });
/** @public */
export type LeaveMeetingResponse = v.InferOutput<typeof LeaveMeetingResponseSchema>;

/**
 * Validates one control event before any network call.
 * @throws LiveAiError `invalid_request` (400 rules: unknown event, missing fields, empty prompt or action,
 *   not exactly one of `image_url` / `image_base64`, malformed base64) or `payload_too_large`
 *   (413 rule: decoded `image_base64` at or above 921600 bytes).
 * @public
 */
export function validateControlEvent(event: unknown): ControlEvent {
  const parsed = v.safeParse(ControlEventSchema, event);
  if (!parsed.success) throw invalidRequest(parsed.issues);
  const e = parsed.output;
  if (e.event === 'update-image' && e.image_base64 !== undefined && inlineImageTooLarge(e.image_base64)) {
    throw new LiveAiError(
      'payload_too_large',
      `image_base64 decodes to ${decodedBase64Bytes(e.image_base64)} bytes; inline images must ` +
        `be under ${INLINE_IMAGE_LIMIT_BYTES} bytes — host the image and send its URL instead`,
      { status: 413 },
    );
  }
  return e;
}
