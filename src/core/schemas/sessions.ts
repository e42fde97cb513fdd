import * as z from 'zod/mini';
import { CARTOON_ASPECT_RATIO } from '../constants';
import { DateTimeSchema, PaginationSchema, ProviderSchema, SessionStatusSchema, TransportTypeSchema } from './common';

const wssUrl = z.url({ protocol: /^wss?$/, error: 'must be a ws:// or wss:// URL' });
const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });

/**
 * `properties` for `rtc-a` / `rtc_a_properties` for `websocket-rtc-a`. `rtc_a_token` is a secret.
 * @public
 */
export const RtcAPropertiesSchema = z.object({ rtc_a_url: wssUrl, rtc_a_token: z.string().check(z.minLength(1)) });
/**
 * `properties` for `rtc-b` / `rtc_b_properties` for `websocket-rtc-b`. `rtc_b_token` is a secret.
 * @public
 */
export const RtcBPropertiesSchema = z.object({ rtc_b_url: httpUrl, rtc_b_token: z.string().check(z.minLength(1)) });

/**
 * Fields of session creation, before cross-field rules.
 * @public
 */
export const SessionCreateFieldsSchema = z.object({
  agent_id: z.optional(z.string().check(z.minLength(1))),
  agent_image_url: z.optional(httpUrl),
  agent_prompt: z.optional(z.string()),
  transport_type: TransportTypeSchema,
  properties: z.optional(z.union([RtcAPropertiesSchema, RtcBPropertiesSchema])),
  rtc_a_properties: z.optional(RtcAPropertiesSchema),
  rtc_b_properties: z.optional(RtcBPropertiesSchema),
  model: z.optional(z.string()),
  aspect_ratio: z.optional(z.string()),
  /** Prompt for expressions while idle (sent by published avatar plugins; same effect as `update-idle-prompt`). */
  agent_idle_prompt: z.optional(z.string()),
  /** Idle timeout of this session, seconds (sent by published avatar plugins); overrides the service default. */
  idle_timeout: z.optional(
    z.number().check(z.positive('must be a positive number of seconds'), z.lte(86_400, 'must be at most 86400 seconds')),
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
  body: z.infer<typeof SessionCreateFieldsSchema>,
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
    if (!p || !schema.safeParse(p).success) {
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
export const CreateSessionRequestSchema = SessionCreateFieldsSchema.check(
  z.superRefine((body, ctx) => {
    for (const p of sessionCreateProblems(body)) ctx.addIssue({ code: 'custom', path: p.path.split('.'), message: p.message });
  }),
);
/** @public */
export type CreateSessionRequest = z.infer<typeof CreateSessionRequestSchema>;

/**
 * `payload` part of the multipart variant: the same fields; the avatar source may be the `image` part.
 * @public
 */
export const MultipartPayloadSchema = SessionCreateFieldsSchema;

/**
 * 201 response of `POST /liveai/sessions`. `control_url` never leaves the server side.
 * @public
 */
export const SessionSchema = z.object({
  session_id: z.string(),
  control_url: z.url(),
  room_url: z.optional(z.url()),
  websocket_address: z.optional(z.url()),
});
/** @public */
export type Session = z.infer<typeof SessionSchema>;

/**
 * 200 response of `GET /liveai/sessions/{id}`; `cost` (credits) only when COMPLETED.
 * @public
 */
export const SessionStatusResponseSchema = z.object({
  session_status: SessionStatusSchema,
  cost: z.optional(z.number()),
});
/** @public */
export type SessionStatusResponse = z.infer<typeof SessionStatusResponseSchema>;

/**
 * Item of `GET /liveai/sessions`.
 * @public
 */
export const SessionListItemSchema = z.object({
  session_id: z.string(),
  created_at: DateTimeSchema,
  session_status: SessionStatusSchema,
  credits_used: z.optional(z.nullable(z.number())),
  provider: z.optional(z.nullable(ProviderSchema)),
});
/** @public */
export type SessionListItem = z.infer<typeof SessionListItemSchema>;

/**
 * 200 response of `GET /liveai/sessions`.
 * @public
 */
export const SessionListSchema = z.object({ sessions: z.array(SessionListItemSchema), pagination: PaginationSchema });
/** @public */
export type SessionList = z.infer<typeof SessionListSchema>;
