import * as v from 'valibot';
import { INLINE_IMAGE_LIMIT_BYTES } from '../constants';
import { LiveAiError, invalidRequest } from '../errors';
import { decodedBase64Bytes, inlineImageTooLarge, isBase64 } from './plain';
import { urlSchema } from './parts';

export { inlineImageTooLarge } from './plain';

const nonEmpty = (field: string) => v.pipe(v.string(), v.trim(), v.minLength(1, `${field} must not be empty`));

/**
 * Who may send a control event through the proxy (`liveai-kit/server`), besides holding the session's client token:
 * - `'token'`: nobody else decides; the client token is enough;
 * - `'imageChanges'`: the proxy's `imageChanges` option decides (403 `forbidden` when it refuses);
 * - `'promptChanges'`: the proxy's `promptChanges` option decides (403 `forbidden` when it refuses).
 * @public
 */
export type ControlEventPolicy = 'token' | 'imageChanges' | 'promptChanges';

/**
 * One row of `CONTROL_EVENTS` (in `liveai-kit/schemas`): the schema of the event's body (its `event` field is the
 * row's name) and who may send it through the proxy.
 * @public
 */
export interface ControlEventDefinition<Name extends string = string> {
  /**
   * The body of the event: `{event: Name, …fields}` with the rules of its fields; an object schema, or a pipe on one
   * (for rules across fields), so that the rows make one `v.variant` on `event`.
   */
  readonly schema: v.GenericSchema<unknown, { event: Name }> & { readonly type: 'object' | 'pipe' };
  /** Who may send it through the proxy; see {@link ControlEventPolicy}. */
  readonly proxy: ControlEventPolicy;
}

/** The table, checked: each row's schema is for an event of the row's own name. */
const table = <T extends { [Name in keyof T]: ControlEventDefinition<Name & string> }>(rows: T): T => rows;

/**
 * Every control event of `POST /liveai/sessions/{id}/control`, once: its name, the schema of its body, and who may
 * send it through the proxy. Everything else is derived from this table: {@link CONTROL_EVENT_NAMES},
 * {@link ControlEventSchema}, the types {@link ControlEvent} and {@link ControlEventName}, the checks of the proxy and
 * of the local service, and the events of the local service's OpenAPI document.
 * @public
 */
export const CONTROL_EVENTS = table({
  /** `terminate`: shuts the avatar down and removes it from the room. */
  terminate: { schema: v.object({ event: v.literal('terminate') }), proxy: 'token' },
  /**
   * `update-image`: exactly one of `image_url` (http or https) or `image_base64` (bare or data URL). The 921600-byte
   * limit is a separate 413 condition, checked with `inlineImageTooLarge`.
   */
  'update-image': {
    schema: v.pipe(
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
    ),
    proxy: 'imageChanges',
  },
  /** `update-agent-prompt`: replaces the prompt that shapes the avatar's demeanour while it speaks. */
  'update-agent-prompt': {
    schema: v.object({ event: v.literal('update-agent-prompt'), agent_prompt: nonEmpty('agent_prompt') }),
    proxy: 'promptChanges',
  },
  /** `update-idle-prompt`: replaces the prompt that shapes its expressions while idle. */
  'update-idle-prompt': {
    schema: v.object({ event: v.literal('update-idle-prompt'), idle_prompt: nonEmpty('idle_prompt') }),
    proxy: 'promptChanges',
  },
  /** `action`: a whole-body action by name (the service does not publish the list of names). */
  action: { schema: v.object({ event: v.literal('action'), action: nonEmpty('action') }), proxy: 'token' },
  /** `reset-idle-timeout`: restarts the idle timer. */
  'reset-idle-timeout': { schema: v.object({ event: v.literal('reset-idle-timeout') }), proxy: 'token' },
});

/**
 * Name of a control event: a key of `CONTROL_EVENTS` (in `liveai-kit/schemas`).
 * @public
 */
export type ControlEventName = keyof typeof CONTROL_EVENTS;
/**
 * Names of the control events, in the order of {@link CONTROL_EVENTS}.
 * @public
 */
export const CONTROL_EVENT_NAMES = Object.keys(CONTROL_EVENTS) as readonly ControlEventName[];

/**
 * The schema of one control event: its row's `schema` in `CONTROL_EVENTS` (in `liveai-kit/schemas`).
 * @public
 */
export type ControlEventSchemaOf<Name extends ControlEventName> = (typeof CONTROL_EVENTS)[Name]['schema'];

/**
 * `terminate`: shuts the avatar down and removes it from the room.
 * @public
 */
export const TerminateEventSchema: ControlEventSchemaOf<'terminate'> = CONTROL_EVENTS.terminate.schema;
/**
 * `update-image`: exactly one of `image_url` (http or https) or `image_base64` (bare or data URL).
 * The 921600-byte limit is a separate 413 condition, checked with `inlineImageTooLarge`.
 * @public
 */
export const UpdateImageEventSchema: ControlEventSchemaOf<'update-image'> = CONTROL_EVENTS['update-image'].schema;
/**
 * `update-agent-prompt`.
 * @public
 */
export const UpdateAgentPromptEventSchema: ControlEventSchemaOf<'update-agent-prompt'> = CONTROL_EVENTS['update-agent-prompt'].schema;
/**
 * `update-idle-prompt`.
 * @public
 */
export const UpdateIdlePromptEventSchema: ControlEventSchemaOf<'update-idle-prompt'> = CONTROL_EVENTS['update-idle-prompt'].schema;
/**
 * `action`: a whole-body action by name (the service does not publish the list of names).
 * @public
 */
export const ActionEventSchema: ControlEventSchemaOf<'action'> = CONTROL_EVENTS.action.schema;
/**
 * `reset-idle-timeout`: restarts the idle timer.
 * @public
 */
export const ResetIdleTimeoutEventSchema: ControlEventSchemaOf<'reset-idle-timeout'> = CONTROL_EVENTS['reset-idle-timeout'].schema;

/**
 * One control event: the body of one of the rows of `CONTROL_EVENTS` (in `liveai-kit/schemas`), told apart by `event`.
 * @public
 */
export type ControlEvent = { [Name in ControlEventName]: v.InferOutput<ControlEventSchemaOf<Name>> }[ControlEventName];

/**
 * Body of `POST /liveai/sessions/{id}/control`: one of the events of {@link CONTROL_EVENTS}, by `event`.
 * @public
 */
export const ControlEventSchema: v.VariantSchema<'event', ControlEventSchemaOf<ControlEventName>[], undefined> = v.variant(
  'event',
  Object.values(CONTROL_EVENTS).map((row) => row.schema) as ControlEventSchemaOf<ControlEventName>[],
);

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
