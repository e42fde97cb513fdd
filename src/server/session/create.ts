import { type CreateSessionRequest, LiveAiError, type ProxySessionRequest, type Session } from '../../core/index';
import { ProxySessionFieldsSchema, proxySessionProblems } from '../../core/validation';
import type { ActionContext, ProxyCall, ProxyReply } from '../proxy/core';
import { sniffImageType } from './images';
import { mintRoomTokens, viewerTokenTtlS, type RoomTokens } from './livekit';
import { parseBody } from '../proxy/validate';
import { checkBrowserFields } from './browser-fields';

/** The parts of a `multipart/form-data` session creation, as received by the framework adapter. */
export interface Upload {
  /** The `image` part: bytes (≤ 4 MB, checked by the adapter) and declared type (checked by the adapter). */
  image?: { bytes: Uint8Array; mimetype: string; filename?: string };
  /** The `payload` part's text (a JSON object). */
  payload?: string;
}

/** Longest `payload` part, in bytes of text. */
const MAX_PAYLOAD_CHARS = 64 * 1024;

/**
 * `POST /sessions`: validates the JSON body or the multipart parts with
 * `ProxySessionFieldsSchema` + `proxySessionProblems`, checks the agent allow-list and what else a browser may set
 * (`checkBrowserFields`), mints LiveKit tokens for
 * `rtc-a` / `websocket-rtc-a`, calls the service, and answers 201 with the browser's `ClientSession`.
 * @throws LiveAiError 400 (invalid body, rtc-a without `livekit` configured, a WebSocket transport where the
 *   adapter cannot relay it), 403 (agent or Daily room not allowed), plus the upstream errors.
 */
export async function createSessionAction<Req>(ctx: ActionContext<Req>, call: ProxyCall<Req>): Promise<ProxyReply> {
  const upload = call.multipart;
  const image = upload ? checkImage(upload) : undefined;
  const parsed = parseBody(ProxySessionFieldsSchema, upload ? parsePayload(upload.payload) : call.body, upload ? 'payload' : 'body');
  const problems = proxySessionProblems(parsed, image !== undefined);
  if (problems.length > 0) {
    throw new LiveAiError(
      'invalid_request',
      `Invalid ${upload ? 'payload' : 'body'}: ${problems.map((p) => `${p.path}: ${p.message}`).join('; ')}`,
      {
        status: 400,
      },
    );
  }
  await ctx.agentAllowed(parsed.agent_id, call.req);
  const fields = await checkBrowserFields(ctx.options, parsed, call.req);
  const dailyRoom = (fields.transport_type === 'rtc-b' ? fields.properties : fields.rtc_b_properties)?.rtc_b_url;
  if (dailyRoom !== undefined) await ctx.roomAllowed(dailyRoom, call.req);
  if (fields.transport_type.startsWith('websocket-') && !call.relay) {
    throw new LiveAiError(
      'invalid_request',
      `transport_type ${fields.transport_type} is not available here: its audio WebSocket must not reach a browser, ` +
        'and this proxy cannot relay WebSockets (createAvatarProxy relays them when the ws package is installed; ' +
        'createAvatarHandler cannot): create the session on your server with createServiceClient and attach the ' +
        'browser with issueClientToken',
      { status: 400 },
    );
  }
  const wantsRtcA = fields.transport_type === 'rtc-a' || fields.transport_type === 'websocket-rtc-a';
  const lk = ctx.options.livekit;
  if (wantsRtcA && !lk) {
    throw new LiveAiError(
      'invalid_request',
      `transport_type ${fields.transport_type} is not available: this proxy has no LiveKit server configured`,
      {
        status: 400,
      },
    );
  }
  const room =
    wantsRtcA && lk
      ? await mintRoomTokens(lk, viewerTokenTtlS(ctx.options.sessionCaps ? ctx.options.sessionCaps.maxDurationMs : undefined))
      : undefined;
  const body = upstreamBody(fields, room, lk?.url);
  const session = await ctx.spawner.spawn(call, (up) =>
    up.createSession(image ? formData(body, image) : body, { requestId: call.requestId }),
  );
  const { handle, issued } = await handOver(ctx, call, session, fields.agent_id, fields.transport_type);
  const ends = session.session_expires_at ? { session_expires_at: session.session_expires_at } : {};
  const relayed = session.websocket_address && call.relay ? await call.relay(handle, session.websocket_address) : undefined;
  return {
    status: 201,
    body: {
      session_id: handle,
      ...issued,
      ...ends,
      transport: fields.transport_type,
      ...media(fields, session, room, lk?.url),
      ...(relayed ? { websocket_address: relayed } : {}),
    },
  };
}

function checkImage(upload: Upload): { bytes: Uint8Array; type: string } {
  if (!upload.image) throw bad('multipart requests need an image part (PNG, JPEG or WebP, at most 4 MB)');
  if (upload.image.bytes.length === 0) throw bad('the image part is empty');
  const type = sniffImageType(upload.image.bytes);
  if (!type) throw bad('the image part is not a PNG, JPEG or WebP image');
  return { bytes: upload.image.bytes, type };
}

function parsePayload(payload: string | undefined): unknown {
  if (payload === undefined) throw bad('multipart requests need a payload part (a JSON object)');
  if (payload.length > MAX_PAYLOAD_CHARS) throw bad('the payload part is too long');
  try {
    return JSON.parse(payload);
  } catch {
    throw bad('the payload part must be JSON');
  }
}

/** The body sent upstream: the validated fields plus, for rtc-a, the avatar's LiveKit credentials. */
function upstreamBody(fields: ProxySessionRequest, room: RoomTokens | undefined, url: string | undefined): CreateSessionRequest {
  const { properties, rtc_b_properties, ...rest } = fields;
  if (room && url && fields.transport_type === 'rtc-a') return { ...rest, properties: { rtc_a_url: url, rtc_a_token: room.avatarToken } };
  if (room && url) return { ...rest, rtc_a_properties: { rtc_a_url: url, rtc_a_token: room.avatarToken } };
  return { ...rest, ...(properties ? { properties } : {}), ...(rtc_b_properties ? { rtc_b_properties } : {}) };
}

function formData(body: CreateSessionRequest, image: { bytes: Uint8Array; type: string }): FormData {
  const form = new FormData();
  const ext = image.type.split('/')[1] ?? 'png';
  form.append('image', new Blob([image.bytes as Uint8Array<ArrayBuffer>], { type: image.type }), `avatar.${ext}`);
  form.append('payload', new Blob([JSON.stringify(body)], { type: 'application/json' }), 'payload.json');
  return form;
}

/** Where the browser joins: never the upstream `control_url` nor `websocket_address` (the proxy relays that). */
function media(fields: ProxySessionRequest, session: Session, room: RoomTokens | undefined, url: string | undefined) {
  if (room && url) return { room_url: url, token: room.viewerToken, avatar_identity: room.avatarIdentity };
  const rtcB = fields.transport_type === 'rtc-b' ? fields.properties : fields.rtc_b_properties;
  const room_url = session.room_url ?? rtcB?.rtc_b_url;
  return { ...(room_url ? { room_url } : {}), ...(rtcB ? { token: rtcB.rtc_b_token } : {}) };
}

const bad = (detail: string) => new LiveAiError('invalid_request', detail, { status: 400 });

/**
 * What the browser gets for a session the service created: its handle (with the deadline sealed in, so it holds
 * whatever the store remembers) and a client token capped at that deadline; the create is recorded for operators.
 */
export async function handOver<Req>(
  ctx: ActionContext<Req>,
  call: ProxyCall<Req>,
  created: { session_id: string; session_expires_at?: string },
  agent: string | undefined,
  transport: string,
) {
  const endsAt = created.session_expires_at ? Date.parse(created.session_expires_at) : undefined;
  // The client key it was counted under (as the spawner reserved it) travels sealed, so a lost store counts it again.
  const handle = await ctx.sealer.handle({ sessionId: created.session_id, startedAt: Date.now(), endsAt, client: call.client ?? '-' });
  const issued = await ctx.tokens.issue(handle, false, endsAt);
  await ctx.ops.created({ requestId: call.requestId, sessionId: created.session_id, agent, transport, client: call.client });
  return { handle, issued };
}
