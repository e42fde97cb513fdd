import * as z from 'zod/mini';
import { TransportTypeSchema } from './common';
import { RtcBPropertiesSchema, SessionCreateFieldsSchema, sessionCreateProblems } from './sessions';

/**
 * What the browser holds for one session, as returned by the proxy's `POST /rooms` and `POST /sessions`,
 * or handed to it by the app's server for the attach flow.
 * - `client_token`: signed, expiring, bound to `session_id`; sent as `Authorization: Bearer …`.
 * - `room_url` + `token`: where and how the browser joins the media room (`ws(s)://` → rtc-a, `http(s)://` → rtc-b).
 * - `websocket_address`: for `websocket-*` sessions, where PCM16 audio is streamed.
 * - `expires_at`: when `client_token` expires (the client renews it while the session lives).
 * - `session_expires_at`: when the proxy will end the session at the latest (its maximum length), if it has one.
 * Never contains the API key, the LiveKit secret or the upstream `control_url`.
 * @public
 */
export const ClientSessionSchema = z.object({
  session_id: z.string().check(z.minLength(1)),
  client_token: z.string().check(z.minLength(1)),
  expires_at: z.optional(z.iso.datetime({ offset: true })),
  session_expires_at: z.optional(z.iso.datetime({ offset: true })),
  transport: z.optional(TransportTypeSchema),
  room_url: z.optional(z.url()),
  token: z.optional(z.string()),
  image_url: z.optional(z.url()),
  websocket_address: z.optional(z.url()),
});
/** @public */
export type ClientSession = z.infer<typeof ClientSessionSchema>;

/**
 * Answer of the proxy's `POST /sessions/:id/token`: a fresh client token for the same session.
 * @public
 */
export const ClientTokenSchema = z.object({
  client_token: z.string().check(z.minLength(1)),
  expires_at: z.iso.datetime({ offset: true }),
});
/** @public */
export type ClientToken = z.infer<typeof ClientTokenSchema>;

/**
 * Body of the proxy's `POST /sessions` (JSON, or the multipart `payload` part). Like session creation,
 * except that LiveKit credentials for `rtc-a` / `websocket-rtc-a` are minted by the proxy and must not be sent.
 * @public
 */
export const ProxySessionFieldsSchema = z.extend(
  z.omit(SessionCreateFieldsSchema, { properties: true, rtc_a_properties: true, rtc_b_properties: true }),
  { properties: z.optional(RtcBPropertiesSchema), rtc_b_properties: z.optional(RtcBPropertiesSchema) },
);
/** @public */
export const proxySessionProblems = (body: z.infer<typeof ProxySessionFieldsSchema>, hasImagePart = false) =>
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
export const ProxySessionRequestSchema = ProxySessionFieldsSchema.check(
  z.superRefine((body, ctx) => {
    for (const p of proxySessionProblems(body)) ctx.addIssue({ code: 'custom', path: p.path.split('.'), message: p.message });
  }),
);
/** @public */
export type ProxySessionRequest = z.infer<typeof ProxySessionRequestSchema>;

/**
 * Body of the proxy's `POST /sessions/:id/end` when the token travels in the body (sendBeacon).
 * @public
 */
export const EndRequestSchema = z.object({ client_token: z.optional(z.string().check(z.minLength(1))) });
