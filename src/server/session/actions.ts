import {
  type ControlEvent,
  type ControlEventPolicy,
  INLINE_IMAGE_LIMIT_BYTES,
  isFinalStatus,
  LiveAiError,
  inlineImageTooLarge,
} from '../../core/index';
import { decodedBase64Bytes } from '../../core/internal';
import { CONTROL_EVENT_NAMES, ControlEventSchema, EndRequestSchema, LeaveMeetingRequestSchema } from '../../core/validation';
import { bearerToken } from './client-token';
import type { ActionContext, ProxyCall, ProxyReply } from '../proxy/core';
import { parseBody } from '../proxy/validate';
import { controlEventOf } from './control-event';
import type { HandleContents } from './handle';
import type { ResolvedOptions } from '../options';

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
  const { attached } = await verifySessionToken(ctx, token, handle);
  // The browser holds the handle; the service's session id never leaves the server.
  const contents = await ctx.sealer.open(handle);
  const { sessionId: id } = contents;
  // The deadline travels in the handle, so it holds whatever the store remembers (a restart, a lost store).
  const deadline = deadlineOf(contents, ctx.options.sessionCaps);
  const overdue = deadline !== undefined && deadline <= Date.now();
  // The client the session was counted under at its create, sealed in its handle (the caller's address may have
  // changed since); an attached session's handle has none: its browser is the caller.
  const client = contents.client ?? call.client;
  // Only requests with a valid token count against the session's budget, and /end is never limited,
  // so nobody can use up the owner's budget and stop them from ending their session.
  // (The adapters count it before reading the body; then not again.)
  if (call.action !== 'end' && !call.sessionCounted) await ctx.guard.sessionHit(id);
  // A store that lost the session (Redis wiped, a new process, or a count that found it at the service without
  // knowing its browser) counts it under its client again, in the same store step that reads whether it ended: its
  // running-session cap holds from this call on. (An attached session is counted by `adopt` below.)
  const claims = !attached && contents.client !== undefined && !overdue && call.action !== 'end';
  // `/end` always reaches the service: a store fault only costs it the "already ended" shortcut.
  let endedReason = await (claims ? ctx.guard.claim(id, contents.client!, deadline) : ctx.guard.endedReason(id)).catch((e: unknown) => {
    if (call.action === 'end' || overdue) return undefined;
    throw e;
  });
  if (overdue && endedReason === undefined) {
    // Past its deadline and not known as ended: end it at the service now (the store may have lost it).
    // A failure is logged by the guard; the next call (or the sweep) tries again, and this one is refused anyway.
    endedReason = await ctx.guard.endSession(id, 'max_duration', call.requestId, client).then(
      () => 'max_duration',
      () => undefined,
    );
  }
  if (overdue && call.action !== 'getSession' && call.action !== 'end') throw pastDeadline();
  if (endedReason !== undefined && call.action !== 'getSession' && call.action !== 'end') throw sessionEnded();
  if (attached && endedReason === undefined && call.action !== 'end' && deadline !== undefined)
    await ctx.guard.adopt(id, deadline, call.requestId, call.client);
  await ctx.allow(call);
  switch (call.action) {
    case 'getSession': {
      const status = await ctx.upstream.getSession(id, o);
      ctx.ops.status(id, contents.startedAt, status, endedReason, call.requestId);
      if (endedReason === undefined && isFinalStatus(status.session_status)) await ctx.guard.ended(id, 'ended', client);
      return { status: 200, body: endedReason === undefined || endedReason === 'ended' ? status : { ...status, end_reason: endedReason } };
    }
    case 'renewToken': {
      // The service may have ended the session on its own (idle timeout, failure, the avatar left): no new token then.
      const status = await ctx.upstream.getSession(id, o);
      ctx.ops.status(id, contents.startedAt, status, endedReason, call.requestId);
      if (isFinalStatus(status.session_status)) {
        await ctx.guard.ended(id, 'ended', client);
        throw sessionEnded();
      }
      return { status: 200, body: await ctx.tokens.issue(handle, attached, deadline) };
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
      const { event, proxy } = parseControlEvent(call.body);
      await ctx.controlAllowed(proxy, call.req);
      return { status: 200, body: await ctx.upstream.control(id, event, o) };
    }
    case 'leaveMeeting': {
      const body = parseBody(LeaveMeetingRequestSchema, call.body);
      return { status: 200, body: await ctx.upstream.leaveMeeting(id, body, o) };
    }
    case 'end': {
      if (endedReason !== undefined) return { status: 200, body: { success: true } };
      const answer = await ctx.upstream.control(id, { event: 'terminate' }, o);
      await ctx.ops.ended(id, 'user', call.requestId);
      await ctx.guard
        .ended(id, 'ended', client)
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

/**
 * Checks a session route's client token (see `ClientTokens.verify`). A token's expiry is capped at the session's
 * deadline, so one that was valid until then still proves its holder: past the deadline it passes here, and the
 * route tells why the session is over (403) rather than that the token expired (401).
 * @throws LiveAiError 401 `invalid_api_key` (missing, invalid, or expired before the deadline), 403 `forbidden`.
 */
export async function verifySessionToken<Req>(
  ctx: Pick<ActionContext<Req>, 'tokens' | 'sealer' | 'options'>,
  token: string | undefined,
  handle: string,
): Promise<{ attached: boolean }> {
  try {
    return await ctx.tokens.verify(token, handle);
  } catch (e) {
    const expired = token !== undefined && e instanceof LiveAiError && e.status === 401;
    const contents = expired ? await ctx.sealer.open(handle).catch(() => undefined) : undefined;
    const deadline = contents && deadlineOf(contents, ctx.options.sessionCaps);
    if (deadline === undefined || deadline > Date.now()) throw e;
    return ctx.tokens.verify(token, handle, deadline - 1000);
  }
}

/**
 * When the session behind a handle must end (ms since epoch): the deadline sealed at its create or attach, or
 * its start plus the maximum length when that is sooner (or the handle has none); undefined without either.
 */
export function deadlineOf(contents: HandleContents, caps: ResolvedOptions<unknown>['sessionCaps']): number | undefined {
  const byOptions = caps ? contents.startedAt + caps.maxDurationMs : undefined;
  if (contents.endsAt === undefined) return byOptions;
  return byOptions === undefined ? contents.endsAt : Math.min(contents.endsAt, byOptions);
}

const pastDeadline = () =>
  new LiveAiError('forbidden', 'This session reached its maximum length and has ended; its token can only read its status', {
    status: 403,
  });
const sessionEnded = () => new LiveAiError('forbidden', 'This session has ended; its token can only read its status', { status: 403 });

/** One control event, checked against its own schema for a precise `detail`, with the proxy's policy for it. */
function parseControlEvent(body: unknown): { event: ControlEvent; proxy: ControlEventPolicy } {
  const own = controlEventOf(body);
  if (own) return { event: parseBody(own.schema, body), proxy: own.proxy };
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
