import * as v from 'valibot';
import { DateTimeSchema, TransportTypeSchema } from './common';
import { urlSchema } from './parts';
import {
  RtcBPropertiesSchema,
  SessionCreateFieldsSchema,
  SessionStatusResponseSchema,
  sessionCreateProblems,
  type SessionStatusResponse,
} from './sessions';
import { withProblems } from './parts';

/**
 * What the browser holds for one session, as returned by the proxy's `POST /rooms` and `POST /sessions`,
 * or handed to it by the app's server for the attach flow.
 * - `client_token`: signed, expiring, bound to `session_id`; sent as `Authorization: Bearer …`.
 * - `room_url` + `token`: where and how the browser joins the media room (`ws(s)://` → rtc-a, `http(s)://` → rtc-b).
 * - `websocket_address`: for `websocket-*` sessions, where PCM16 audio is streamed.
 * - `expires_at`: when `client_token` expires (the client renews it while the session lives).
 * - `session_expires_at`: when the proxy will end the session at the latest (its maximum length), if it has one.
 * - `avatar_identity`: on LiveKit (rtc-a), the avatar's participant identity when the proxy minted its token; the
 *   browser then listens to that participant only (anyone else in the room is ignored).
 * Never contains the API key, the LiveKit secret or the upstream `control_url`.
 * @public
 */
export const ClientSessionSchema = v.object({
  session_id: v.pipe(v.string(), v.minLength(1)),
  client_token: v.pipe(v.string(), v.minLength(1)),
  expires_at: v.optional(DateTimeSchema),
  session_expires_at: v.optional(DateTimeSchema),
  transport: v.optional(TransportTypeSchema),
  room_url: v.optional(urlSchema()),
  token: v.optional(v.string()),
  image_url: v.optional(urlSchema()),
  websocket_address: v.optional(urlSchema()),
  avatar_identity: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(256))),
});
/** @public */
export type ClientSession = v.InferOutput<typeof ClientSessionSchema>;

/**
 * Answer of the proxy's `POST /sessions/:id/token`: a fresh client token for the same session.
 * @public
 */
export const ClientTokenSchema = v.object({
  client_token: v.pipe(v.string(), v.minLength(1)),
  expires_at: DateTimeSchema,
});
/** @public */
export type ClientToken = v.InferOutput<typeof ClientTokenSchema>;

/**
 * Body of the proxy's `POST /sessions` (JSON, or the multipart `payload` part). Like session creation,
 * except that LiveKit credentials for `rtc-a` / `websocket-rtc-a` are minted by the proxy and must not be sent.
 * @public
 */
export const ProxySessionFieldsSchema = v.object({
  ...v.omit(SessionCreateFieldsSchema, ['properties', 'rtc_a_properties', 'rtc_b_properties']).entries,
  properties: v.optional(RtcBPropertiesSchema),
  rtc_b_properties: v.optional(RtcBPropertiesSchema),
});
/** @public */
export const proxySessionProblems = (body: v.InferOutput<typeof ProxySessionFieldsSchema>, hasImagePart = false) =>
  sessionCreateProblems(
    {
      ...body,
      // rtc-a credentials are filled in by the proxy; treat them as present for validation.
      ...(body.transport_type === 'rtc-a' ? { properties: { rtc_a_url: 'wss://x', rtc_a_token: 'x' } } : {}),
      ...(body.transport_type === 'websocket-rtc-a' ? { rtc_a_properties: { rtc_a_url: 'wss://x', rtc_a_token: 'x' } } : {}),
    },
    hasImagePart,
  );
/** @public */
export const ProxySessionRequestSchema = v.pipe(
  ProxySessionFieldsSchema,
  v.rawCheck(withProblems((body: v.InferOutput<typeof ProxySessionFieldsSchema>) => proxySessionProblems(body))),
);
/** @public */
export type ProxySessionRequest = v.InferOutput<typeof ProxySessionRequestSchema>;

/**
 * Body of the proxy's `POST /sessions/:id/end` when the token travels in the body (sendBeacon).
 * @public
 */
export const EndRequestSchema = v.object({ client_token: v.optional(v.pipe(v.string(), v.minLength(1))) });

/**
 * 200 response of the proxy's `GET /sessions/{id}`: the service's status (`session_status`, `cost` in credits once
 * COMPLETED), plus `end_reason` when the proxy ended the session itself: `max_duration` once it reached the maximum
 * length the proxy allows.
 * @public
 */
export const ProxySessionStatusSchema = v.object({ ...SessionStatusResponseSchema.entries, end_reason: v.optional(v.string()) });
/**
 * The proxy's status answer: `session_status`, `cost` (credits, once COMPLETED), `end_reason` (`max_duration`).
 * @public
 */
export type ProxySessionStatus = SessionStatusResponse & { end_reason?: string | undefined };
