import {
  CONTROL_EVENT_NAMES,
  type ControlEvent,
  INLINE_IMAGE_LIMIT_BYTES,
  isFinalStatus,
  LiveAiError,
  inlineImageTooLarge,
} from '../../core/index';
import { decodedBase64Bytes } from '../../core/internal';
import { ControlEventSchema, EndRequestSchema, LeaveMeetingRequestSchema } from '../../core/validation';
import { bearerToken } from './client-token';
import type { ActionContext, ProxyCall, ProxyReply } from '../proxy/core';
import { parseBody } from '../proxy/validate';
import { controlSchemaOf } from './control-event';

const MAX_ID_CHARS = 256;
// Control characters are never part of a session id.
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;

/**
 * The routes of one session: checks the id and the client token (401/403) before
 * `authorize`, validates the body (400/413), then calls the service: get, control,
 * leave-meeting, end (= control `terminate`; the token may come in the body, for `sendBeacon`), token
 * renewal. The `:id` is the session's handle (opaque to the browser), opened here into the service's session id.
 * After the session ended (by `/end`, by the proxy, or as the service reported), its token only reads status (403
 * otherwise).
 */
export async function sessionAction<Req>(ctx: ActionContext<Req>, call: ProxyCall<Req>): Promise<ProxyReply> {
  const handle = checkSessionId(call.sessionId);
  const o = { requestId: call.requestId };
  let token = bearerToken(call.authorization);
  if (call.action === 'end' && token === undefined) token = endBodyToken(call.body);
  const { attached } = await ctx.tokens.verify(token, handle);
  // The browser holds the handle; the service's session id never leaves the server.
  const { sessionId: id, startedAt } = await ctx.sealer.open(handle);
  // Only requests with a valid token count against the session's budget, and /end is never limited,
  // so nobody can use up the owner's budget and stop them from ending their session.
  if (call.action !== 'end') await ctx.guard.sessionHit(id);
  // `/end` always reaches the service: a store fault only costs it the "already ended" shortcut.
  const endedReason = await ctx.guard.endedReason(id).catch((e: unknown) => {
    if (call.action === 'end') return undefined;
    throw e;
  });
  if (endedReason !== undefined && call.action !== 'getSession' && call.action !== 'end') throw sessionEnded();
  if (attached && endedReason === undefined && call.action !== 'end') await ctx.guard.adopt(id, startedAt, call.requestId, call.client);
  await ctx.allow(call);
  switch (call.action) {
    case 'getSession': {
      const status = await ctx.upstream.getSession(id, o);
      if (endedReason === undefined && isFinalStatus(status.session_status)) await ctx.guard.ended(id, 'ended', call.client);
      return { status: 200, body: endedReason === undefined || endedReason === 'ended' ? status : { ...status, end_reason: endedReason } };
    }
    case 'renewToken': {
      // The service may have ended the session on its own (idle timeout, failure, the avatar left): no new token then.
      const status = await ctx.upstream.getSession(id, o);
      if (isFinalStatus(status.session_status)) {
        await ctx.guard.ended(id, 'ended', call.client);
        throw sessionEnded();
      }
      return { status: 200, body: await ctx.tokens.issue(handle, attached) };
    }
    case 'control': {
      const b = call.body as { event?: unknown; image_base64?: unknown } | undefined;
      if (b?.event === 'update-image' && typeof b.image_base64 === 'string' && inlineImageTooLarge(b.image_base64)) {
        throw new LiveAiError(
          'payload_too_large',
          `image_base64 decodes to ${decodedBase64Bytes(b.image_base64)} bytes; the limit is ` +
            `under ${INLINE_IMAGE_LIMIT_BYTES} bytes (host larger images and send image_url)`,
          { status: 413 },
        );
      }
      const event = parseControlEvent(call.body);
      if (event.event === 'update-image') await ctx.imageChangeAllowed(call.req);
      return { status: 200, body: await ctx.upstream.control(id, event, o) };
    }
    case 'leaveMeeting': {
      const body = parseBody(LeaveMeetingRequestSchema, call.body);
      return { status: 200, body: await ctx.upstream.leaveMeeting(id, body, o) };
    }
    case 'end': {
      if (endedReason !== undefined) return { status: 200, body: { success: true } };
      const answer = await ctx.upstream.control(id, { event: 'terminate' }, o);
      await ctx.guard
        .ended(id, 'ended', call.client)
        .catch((e: unknown) =>
          ctx.log.error(
            { reqId: call.requestId, sessionId: id, err: e instanceof Error ? e.message : String(e) },
            'avatar proxy store failed after an end',
          ),
        );
      return { status: 200, body: answer };
    }
    default:
      throw new LiveAiError('not_found', 'Not found', { status: 404 });
  }
}

const sessionEnded = () => new LiveAiError('forbidden', 'This session has ended; its token can only read its status', { status: 403 });

/** One control event, checked against its own schema for a precise `detail`. */
function parseControlEvent(body: unknown): ControlEvent {
  const own = controlSchemaOf(body);
  if (own) return parseBody(own, body);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) parseBody(ControlEventSchema, undefined);
  throw badRequest(`Invalid body: event must be one of ${CONTROL_EVENT_NAMES.join(', ')}`);
}

/** The `client_token` of an `/end` body: a JSON object, or its text (text/plain from `navigator.sendBeacon`). */
function endBodyToken(body: unknown): string | undefined {
  let value = body;
  if (typeof body === 'string') {
    if (body.trim() === '') return undefined;
    try {
      value = JSON.parse(body);
    } catch {
      throw badRequest('The body of /end must be JSON like {"client_token": "…"}');
    }
  }
  if (value === undefined || value === null) return undefined;
  return parseBody(EndRequestSchema, value).client_token;
}

function checkSessionId(id: string | undefined): string {
  if (!id || id.length > MAX_ID_CHARS || CONTROL_CHARS.test(id)) throw badRequest('Invalid session id');
  return id;
}

const badRequest = (detail: string) => new LiveAiError('invalid_request', detail, { status: 400 });
