import * as v from 'valibot';
import { CARTOON_ASPECT_RATIO } from '../constants';
import { DateTimeSchema, PaginationSchema, ProviderSchema, SessionStatusSchema, TransportTypeSchema } from './common';
import { urlSchema, withProblems } from './parts';

const wssUrl = urlSchema(['ws', 'wss'], 'must be a ws:// or wss:// URL');
const httpUrl = urlSchema(['http', 'https'], 'must be an http(s) URL');
const nonEmpty = v.pipe(v.string(), v.minLength(1));

/**
 * `properties` for `rtc-a` / `rtc_a_properties` for `websocket-rtc-a`. `rtc_a_token` is a secret.
 * @public
 */
export const RtcAPropertiesSchema = v.object({ rtc_a_url: wssUrl, rtc_a_token: nonEmpty });
/**
 * `properties` for `rtc-b` / `rtc_b_properties` for `websocket-rtc-b`. `rtc_b_token` is a secret.
 * @public
 */
export const RtcBPropertiesSchema = v.object({ rtc_b_url: httpUrl, rtc_b_token: nonEmpty });

/**
 * Fields of session creation, before cross-field rules.
 * @public
 */
export const SessionCreateFieldsSchema = v.object({
  agent_id: v.optional(nonEmpty),
  agent_image_url: v.optional(httpUrl),
  agent_prompt: v.optional(v.string()),
  transport_type: TransportTypeSchema,
  properties: v.optional(v.union([RtcAPropertiesSchema, RtcBPropertiesSchema])),
  rtc_a_properties: v.optional(RtcAPropertiesSchema),
  rtc_b_properties: v.optional(RtcBPropertiesSchema),
  model: v.optional(v.string()),
  aspect_ratio: v.optional(v.string()),
  /** Prompt for expressions while idle (sent by published avatar plugins; same effect as `update-idle-prompt`). */
  agent_idle_prompt: v.optional(v.string()),
  /** Idle timeout of this session, seconds (sent by published avatar plugins); overrides the service default. */
  idle_timeout: v.optional(
    v.pipe(v.number(), v.gtValue(0, 'must be a positive number of seconds'), v.maxValue(86_400, 'must be at most 86400 seconds')),
  ),
});

/**
 * Cross-field rules of session creation. Where the service leaves a rule open, these are our choices:
 * - exactly one avatar source: `agent_id`, `agent_image_url`, or (multipart) the `image` part;
 * - the properties object of the chosen `transport_type` is required:
 *   `rtc-a` → `properties.rtc_a_*`, `rtc-b` → `properties.rtc_b_*`,
 *   `websocket-rtc-a` → `rtc_a_properties`, `websocket-rtc-b` → `rtc_b_properties`;
 * - `model: "cartoon"` accepts `aspect_ratio` `2x3` only.
 * @param hasImagePart true when the multipart `image` part is present.
 * @returns a list of `{path, message}` problems, empty when valid.
 * @public
 */
export function sessionCreateProblems(
  body: v.InferOutput<typeof SessionCreateFieldsSchema>,
  hasImagePart = false,
): { path: string; message: string }[] {
  const problems: { path: string; message: string }[] = [];
  const sources = [body.agent_id !== undefined, body.agent_image_url !== undefined, hasImagePart].filter(Boolean).length;
  if (sources !== 1) {
    problems.push({
      path: 'agent_id',
      message:
        sources === 0
          ? 'one avatar source is required: agent_id, agent_image_url or an image part'
          : 'give exactly one avatar source: agent_id, agent_image_url or an image part',
    });
  }
  const t = body.transport_type;
  const need = (key: 'properties' | 'rtc_a_properties' | 'rtc_b_properties', field: 'rtc_a' | 'rtc_b') => {
    const p = body[key] as Record<string, unknown> | undefined;
    const schema = field === 'rtc_a' ? RtcAPropertiesSchema : RtcBPropertiesSchema;
    if (!p || !v.is(schema, p)) {
      problems.push({
        path: `${key}.${field}_url`,
        message: `${key} with ${field}_url and ${field}_token is required for transport_type ${t}`,
      });
    }
  };
  if (t === 'rtc-a') need('properties', 'rtc_a');
  if (t === 'rtc-b') need('properties', 'rtc_b');
  if (t === 'websocket-rtc-a') need('rtc_a_properties', 'rtc_a');
  if (t === 'websocket-rtc-b') need('rtc_b_properties', 'rtc_b');
  if (body.model === 'cartoon' && body.aspect_ratio !== undefined && body.aspect_ratio !== CARTOON_ASPECT_RATIO) {
    problems.push({ path: 'aspect_ratio', message: `the cartoon model supports aspect_ratio ${CARTOON_ASPECT_RATIO} only` });
  }
  if (body.model !== 'cartoon' && body.aspect_ratio !== undefined) {
    problems.push({ path: 'aspect_ratio', message: 'aspect_ratio applies to the cartoon model only' });
  }
  return problems;
}

/**
 * JSON body of `POST /liveai/sessions` with every cross-field rule applied.
 * @public
 */
export const CreateSessionRequestSchema = v.pipe(SessionCreateFieldsSchema, v.rawCheck(withProblems(sessionCreateProblems)));
/** @public */
export type CreateSessionRequest = v.InferOutput<typeof CreateSessionRequestSchema>;

/**
 * `payload` part of the multipart variant: the same fields; the avatar source may be the `image` part.
 * @public
 */
export const MultipartPayloadSchema = SessionCreateFieldsSchema;

/**
 * 201 response of `POST /liveai/sessions`. `control_url` never leaves the server side.
 * @public
 */
export const SessionSchema = v.object({
  session_id: v.string(),
  control_url: urlSchema(),
  room_url: v.optional(urlSchema()),
  websocket_address: v.optional(urlSchema()),
});
/** @public */
export type Session = v.InferOutput<typeof SessionSchema>;

/**
 * 200 response of `GET /liveai/sessions/{id}`; `cost` (credits) only when COMPLETED.
 * @public
 */
export const SessionStatusResponseSchema = v.object({
  session_status: SessionStatusSchema,
  cost: v.optional(v.number()),
});
/** @public */
export type SessionStatusResponse = v.InferOutput<typeof SessionStatusResponseSchema>;

/**
 * Item of `GET /liveai/sessions`.
 * @public
 */
export const SessionListItemSchema = v.object({
  session_id: v.string(),
  created_at: DateTimeSchema,
  session_status: SessionStatusSchema,
  credits_used: v.optional(v.nullable(v.number())),
  provider: v.optional(v.nullable(ProviderSchema)),
});
/** @public */
export type SessionListItem = v.InferOutput<typeof SessionListItemSchema>;

/**
 * 200 response of `GET /liveai/sessions`.
 * @public
 */
export const SessionListSchema = v.object({ sessions: v.array(SessionListItemSchema), pagination: PaginationSchema });
/** @public */
export type SessionList = v.InferOutput<typeof SessionListSchema>;
