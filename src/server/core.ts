import type { z } from 'zod';
import { LiveAiError } from '../core/errors';
import { createServiceClient, type ServiceClient } from '../core/service-client';
import { createClientTokens, bearerToken, type ClientTokens } from './client-token';
import { proxyLogger, type ProxyLog } from './logging';
import { resolveOptions, type AvatarProxyOptions, type ProxyAction, type ResolvedOptions } from './options';
import { createSessionAction, type Upload } from './create-session';
import { parseBody } from './validate';
import { upstreamErrors } from './wire-error';
import { CreateRoomRequestSchema, PaginationQuerySchema, LeaveMeetingRequestSchema, EndRequestSchema } from '../core/schemas';
import { CONTROL_EVENT_NAMES, ControlEventSchema, inlineImageTooLarge, decodedBase64Bytes, type ControlEvent } from '../core/schemas/control';
import * as control from '../core/schemas/control';
import { INLINE_IMAGE_LIMIT_BYTES, MAX_PAGINATION_OFFSET } from '../core/constants';

export type { Upload };

/** One request, already routed and its body parsed, independent of the web framework. */
export interface ProxyCall<Req> {
  action: ProxyAction;
  /** The framework's request, for `authorize`, `admin` and `agents`. */
  req: Req;
  requestId: string;
  /** Raw `:id` path parameter of the session routes. */
  sessionId?: string;
  /** `Authorization` header. */
  authorization?: string | null;
  /** Parsed JSON body, or text for `text/plain`. */
  body?: unknown;
  query?: Record<string, unknown>;
  /** Present when the request was `multipart/form-data`. */
  multipart?: Upload;
}

/** Status and JSON body to send. */
export interface ProxyReply {
  status: number;
  body: unknown;
}

/** The framework-free proxy: options, logger, and `handle(call)` which resolves a reply or throws `LiveAiError`. */
export interface ProxyCore<Req> {
  options: ResolvedOptions<Req>;
  log: ProxyLog;
  handle(call: ProxyCall<Req>): Promise<ProxyReply>;
}

/** Shared context of the action functions. */
export interface ActionContext<Req> {
  options: ResolvedOptions<Req>;
  upstream: ServiceClient;
  tokens: ClientTokens;
  allow(call: ProxyCall<Req>): Promise<void>;
  agentAllowed(agentId: string | undefined, req: Req): Promise<void>;
}

const MAX_ID_CHARS = 256;
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;

/** Builds the proxy core from validated options (see `resolveOptions` for the errors thrown). */
export function createProxyCore<Req>(raw: AvatarProxyOptions<Req>, factory: string): ProxyCore<Req> {
  const options = resolveOptions(raw, factory);
  const upstream = tagged(
    createServiceClient({
      baseUrl: options.upstream.baseUrl,
      apiKey: options.upstream.apiKey,
      fetch: options.upstream.fetch,
      timeoutMs: options.upstream.timeoutMs,
      retries: options.upstream.retries,
    }),
  );
  const ctx: ActionContext<Req> = {
    options,
    upstream,
    tokens: createClientTokens(options.secretKey, options.tokenTtlSeconds),
    async allow(call) {
      if (options.authorize && !(await options.authorize(call.req, call.action))) throw forbidden('Not authorized');
      if ((call.action === 'listRooms' || call.action === 'listSessions') && !(options.admin && (await options.admin(call.req)))) {
        throw forbidden('Listing rooms and sessions is for administrators only');
      }
    },
    async agentAllowed(agentId, req) {
      const agents = options.agents;
      if (agents === undefined) return;
      const ok = typeof agents === 'function' ? await agents(agentId, req) : agentId !== undefined && agents.includes(agentId);
      if (!ok) throw forbidden(agentId === undefined ? 'Custom avatar images are not allowed here' : 'This agent is not allowed here');
    },
  };
  return { options, log: proxyLogger(options.logger), handle: (call) => handle(ctx, call) };
}

/** Marks every error of the service client as the service's (see `toWireError`). */
function tagged(client: ServiceClient): ServiceClient {
  const wrap =
    <A extends unknown[], R>(f: (...a: A) => Promise<R>) =>
    (...a: A) =>
      f(...a).catch((e: unknown) => {
        if (typeof e === 'object' && e !== null) upstreamErrors.add(e);
        throw e;
      });
  return {
    listRooms: wrap(client.listRooms),
    createRoom: wrap(client.createRoom),
    listSessions: wrap(client.listSessions),
    createSession: wrap(client.createSession),
    getSession: wrap(client.getSession),
    control: wrap(client.control),
    leaveMeeting: wrap(client.leaveMeeting),
  };
}

async function handle<Req>(ctx: ActionContext<Req>, call: ProxyCall<Req>): Promise<ProxyReply> {
  const o = { requestId: call.requestId };
  switch (call.action) {
    case 'createRoom': {
      await ctx.allow(call);
      const body = parseBody(CreateRoomRequestSchema, call.body);
      await ctx.agentAllowed(body.agent_id, call.req);
      const room = await ctx.upstream.createRoom(body, o);
      const issued = await ctx.tokens.issue(room.session_id);
      const transport = /^wss?:/i.test(room.room_url) ? 'rtc-a' : 'rtc-b';
      const { room_url, token, image_url } = room;
      return { status: 201, body: { session_id: room.session_id, ...issued, transport, room_url, token, image_url } };
    }
    case 'createSession':
      await ctx.allow(call);
      return createSessionAction(ctx, call);
    case 'listRooms':
    case 'listSessions': {
      await ctx.allow(call);
      const q = parseBody(PaginationQuerySchema, pickQuery(call.query), 'query');
      if ((q.page - 1) * q.limit > MAX_PAGINATION_OFFSET) {
        throw badRequest(`page too deep: the maximum offset (page-1)*limit is ${MAX_PAGINATION_OFFSET}`);
      }
      const list = call.action === 'listRooms' ? await ctx.upstream.listRooms(q, o) : await ctx.upstream.listSessions(q, o);
      return { status: 200, body: list };
    }
    default:
      return sessionAction(ctx, call);
  }
}

async function sessionAction<Req>(ctx: ActionContext<Req>, call: ProxyCall<Req>): Promise<ProxyReply> {
  const id = checkSessionId(call.sessionId);
  const o = { requestId: call.requestId };
  let token = bearerToken(call.authorization);
  if (call.action === 'end' && token === undefined) token = endBodyToken(call.body);
  await ctx.tokens.verify(token, id);
  await ctx.allow(call);
  switch (call.action) {
    case 'getSession':
      return { status: 200, body: await ctx.upstream.getSession(id, o) };
    case 'control': {
      const b = call.body as { event?: unknown; image_base64?: unknown } | undefined;
      if (b?.event === 'update-image' && typeof b.image_base64 === 'string' && inlineImageTooLarge(b.image_base64)) {
        throw new LiveAiError(
          'payload_too_large',
          `image_base64 decodes to ${decodedBase64Bytes(b.image_base64)} bytes; the limit is under ${INLINE_IMAGE_LIMIT_BYTES} bytes (host larger images and send image_url)`,
          { status: 413 },
        );
      }
      const event = parseControlEvent(call.body);
      return { status: 200, body: await ctx.upstream.control(id, event, o) };
    }
    case 'leaveMeeting': {
      const body = parseBody(LeaveMeetingRequestSchema, call.body);
      return { status: 200, body: await ctx.upstream.leaveMeeting(id, body, o) };
    }
    case 'end':
      return { status: 200, body: await ctx.upstream.control(id, { event: 'terminate' }, o) };
    default:
      throw new LiveAiError('not_found', 'Not found', { status: 404 });
  }
}

const CONTROL_SCHEMAS = {
  terminate: control.TerminateEventSchema,
  'update-image': control.UpdateImageEventSchema,
  'update-agent-prompt': control.UpdateAgentPromptEventSchema,
  'update-idle-prompt': control.UpdateIdlePromptEventSchema,
  action: control.ActionEventSchema,
  'reset-idle-timeout': control.ResetIdleTimeoutEventSchema,
} as const;

/** One control event (spec §4.6), checked against its own schema for a precise `detail`. */
function parseControlEvent(body: unknown): ControlEvent {
  const name = (body as { event?: unknown } | null | undefined)?.event;
  if (typeof body === 'object' && body !== null && typeof name === 'string' && Object.hasOwn(CONTROL_SCHEMAS, name)) {
    parseBody(CONTROL_SCHEMAS[name as keyof typeof CONTROL_SCHEMAS] as z.ZodType<unknown>, body);
    return parseBody(ControlEventSchema, body);
  }
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

function pickQuery(query: Record<string, unknown> | undefined): Record<string, unknown> {
  return { page: query?.page, limit: query?.limit };
}

const forbidden = (detail: string) => new LiveAiError('forbidden', detail, { status: 403 });
const badRequest = (detail: string) => new LiveAiError('invalid_request', detail, { status: 400 });
