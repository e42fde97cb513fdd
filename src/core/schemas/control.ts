import * as z from 'zod/mini';
import { INLINE_IMAGE_LIMIT_BYTES } from '../constants';

const nonEmpty = (field: string) => z.string().check(z.trim(), z.minLength(1, `${field} must not be empty`));

/**
 * Strips an optional data-URL prefix (`data:image/png;base64,`) and returns the bare base64 text
 * (spec §4.6: "a data URL form is also accepted").
 */
export function stripDataUrl(value: string): string {
  const m = /^data:[^,]*;base64,/i.exec(value);
  return m ? value.slice(m[0].length) : value;
}

/** True when `value` (bare base64 or data URL) is well-formed standard base64. */
export function isBase64(value: string): boolean {
  const s = stripDataUrl(value).replace(/\s+/g, '');
  return s.length > 0 && s.length % 4 === 0 && /^[A-Za-z0-9+/]+={0,2}$/.test(s);
}

/** Decoded size in bytes of a base64 string or data URL, computed without decoding (spec §4.6 rule 1). */
export function decodedBase64Bytes(value: string): number {
  const s = stripDataUrl(value).replace(/\s+/g, '');
  const pad = s.endsWith('==') ? 2 : s.endsWith('=') ? 1 : 0;
  return Math.floor((s.length * 3) / 4) - pad;
}

/** True when the decoded inline image is too large: at or above 921600 bytes (spec §4.6 rule 1, §7 413). */
export const inlineImageTooLarge = (value: string): boolean => decodedBase64Bytes(value) >= INLINE_IMAGE_LIMIT_BYTES;

/** `terminate`: shuts the avatar down and removes it from the room (spec §4.6). */
export const TerminateEventSchema = z.object({ event: z.literal('terminate') });
/**
 * `update-image`: exactly one of `image_url` or `image_base64` (bare or data URL) (spec §4.6).
 * The 921600-byte limit is a separate 413 condition, checked with `inlineImageTooLarge`.
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
/** `update-agent-prompt` (spec §4.6). */
export const UpdateAgentPromptEventSchema = z.object({ event: z.literal('update-agent-prompt'), agent_prompt: nonEmpty('agent_prompt') });
/** `update-idle-prompt` (spec §4.6). */
export const UpdateIdlePromptEventSchema = z.object({ event: z.literal('update-idle-prompt'), idle_prompt: nonEmpty('idle_prompt') });
/** `action`: a whole-body action by name (spec §4.6; the list of names is not shown, see README). */
export const ActionEventSchema = z.object({ event: z.literal('action'), action: nonEmpty('action') });
/** `reset-idle-timeout`: restarts the idle timer (spec §4.6). */
export const ResetIdleTimeoutEventSchema = z.object({ event: z.literal('reset-idle-timeout') });

/** Body of `POST /liveai/sessions/{id}/control`: one of the six events, by `event` (spec §4.6). */
export const ControlEventSchema = z.union([
  TerminateEventSchema,
  UpdateImageEventSchema,
  UpdateAgentPromptEventSchema,
  UpdateIdlePromptEventSchema,
  ActionEventSchema,
  ResetIdleTimeoutEventSchema,
]);
export type ControlEvent = z.infer<typeof ControlEventSchema>;
export const CONTROL_EVENT_NAMES = [
  'terminate',
  'update-image',
  'update-agent-prompt',
  'update-idle-prompt',
  'action',
  'reset-idle-timeout',
] as const;
export type ControlEventName = (typeof CONTROL_EVENT_NAMES)[number];

/** 200 response of control: accepted, not yet applied (spec §4.6 rule 3). */
export const ControlResponseSchema = z.object({ success: z.boolean() });
export type ControlResponse = z.infer<typeof ControlResponseSchema>;

/** Body of `POST /liveai/sessions/{id}/leave-meeting` (spec §4.7). */
export const LeaveMeetingRequestSchema = z.object({ meeting_bot_id: nonEmpty('meeting_bot_id') });
export type LeaveMeetingRequest = z.infer<typeof LeaveMeetingRequestSchema>;
/** 200 response of leave-meeting (spec §4.7). */
export const LeaveMeetingResponseSchema = z.object({ status: z.literal('left') });
export type LeaveMeetingResponse = z.infer<typeof LeaveMeetingResponseSchema>;

/**
 * Leave-meeting failure details, in the words of spec §7. Statuses chosen where the spec says
 * "not shown" (README "Rules"): missing id 400, invalid key 401, failed/could not leave 409,
 * not configured 503, timed out 504.
 */
export const LEAVE_MEETING_DETAILS = {
  missing: 'Missing meeting_bot_id',
  invalidKey: 'Invalid API key',
  failed: 'Failed to leave the meeting',
  couldNot: 'Could not leave the meeting',
  notConfigured: 'Meeting service is not configured',
  timedOut: 'Request timed out',
} as const;
