import { type ControlEventPolicy, LiveAiError, MAX_PAGINATION_OFFSET } from '../../core/index';
import { CreateRoomRequestSchema, PaginationQuerySchema } from '../../core/validation';
import { serviceClientOver, type ServiceClient } from '../service/client';
import { createClientTokens, type ClientTokens } from '../session/client-token';
import { proxyLogger, secretsOf, type ProxyLog } from '../logging';
import { resolveOptions, type AvatarProxyOptions, type ProxyAction, type ResolvedOptions } from '../options';
import { followsAgents } from '../session/browser-fields';
import { createSessionAction, handOver, type Upload } from '../session/create';
import { parseBody } from './validate';
import { createGuard, type Guard } from '../limits/guard';
import { checkSite, ORIGIN_GUARDED, type RequestSite } from './site';
import { createSpawner, LATE_GRACE_MS, type Spawner } from '../session/spawn';
import { sessionAction, verifySessionToken } from '../session/actions';
import { cappedFetchJson, createUpstreamExchange, createUpstreamFetch, openPool } from '../service/upstream-fetch';
import { transportOfRoomUrl } from '../../shared/room-url';
import { createTransportHint, type TransportHint } from './transport-hint';
import { createSealer, type Sealer } from '../session/handle';
import { dailyRoomAllowed } from '../session/daily-rooms';
import { createBackground, platformWarnings, type Background, type WaitUntil } from '../platform';
import { createOps, type Ops } from '../ops/ops';
import { refused } from '../ops/events';

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
  /** Client address for the per-client limits (see `trustProxy`); undefined when unknown. */
  client?: string;
  /** `Origin`, `Sec-Fetch-Site` and the proxy's own origin, for the origin policy. */
  site?: RequestSite;
  /** True once the browser has gone away (a session created then is ended by the proxy). */
  gone?: () => boolean;
  /** The request's own `waitUntil` (Cloudflare's `ctx.waitUntil`); the `waitUntil` option otherwise. */
  waitUntil?: WaitUntil;
  /**
   * Set by adapters that relay WebSockets: the browser's address (on this proxy) for the service's
   * `websocket_address` of session `handle`. Without it, WebSocket transports are refused (400).
   */
  relay?: (handle: string, upstreamAddress: string) => Promise<string>;
  /** True when the adapter's token gate already counted this request against its session's request limit. */
  sessionCounted?: boolean;
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
  /** False when no logger was given: the adapters then skip the per-request log line entirely. */
  logsRequests: boolean;
  /** Counters and session ledger (also used by the adapters' per-client request limit). */
  guard: Guard;
  /** The answer of `GET /transport`. */
  transportHint: TransportHint;
  /** Seals and opens session handles and relay tickets. */
  sealer: Sealer;
  /** Checks a session route's client token as the route itself does (the adapters check it before reading a body). */
  verifyToken(token: string | undefined, handle: string): Promise<{ attached: boolean }>;
  /**
   * Counts a request with a valid token against its session's request limit (`rateLimit.perSession`), before its
   * body is read. @throws 429 `rate_limited` over it.
   */
  sessionHit(handle: string): Promise<void>;
  /** Runs work the browser does not wait for, through the request's or the option's `waitUntil`. */
  background: Background;
  /** Notes a request (with its own `waitUntil`, if any): the first one without any, where needed, logs a warning. */
  seen(waitUntil: WaitUntil | undefined): void;
  /** Events, metrics, spend ledger, health and usage. */
  ops: Ops;
  handle(call: ProxyCall<Req>): Promise<ProxyReply>;
}

/** Shared context of the action functions. */
export interface ActionContext<Req> {
  options: ResolvedOptions<Req>;
  upstream: ServiceClient;
  tokens: ClientTokens;
  guard: Guard;
  spawner: Spawner;
  log: ProxyLog;
  transportHint: TransportHint;
  /** Seals the service's session ids into the browser's handles, and opens them. */
  sealer: Sealer;
  /** Events, metrics, spend ledger, health and usage. */
  ops: Ops;
  allow(call: ProxyCall<Req>): Promise<void>;
  agentAllowed(agentId: string | undefined, req: Req): Promise<void>;
  /** The proxy's policy for a control event (its row of `CONTROL_EVENTS`). @throws 403 `forbidden`. */
  controlAllowed(policy: ControlEventPolicy, req: Req): Promise<void>;
  /** The `dailyRooms` policy for a browser's `rtc_b_url`. @throws 403 `forbidden`. */
  roomAllowed(roomUrl: string, req: Req): Promise<void>;
}

/** The answer to a control event its policy refused. */
const CONTROL_REFUSED: Record<Exclude<ControlEventPolicy, 'token'>, string> = {
  imageChanges: 'Changing the avatar image is not allowed here (see the imageChanges option)',
  promptChanges: "Changing the avatar's prompts is not allowed here (see the promptChanges option)",
};

/** Builds the proxy core from validated options (see `resolveOptions` for the errors thrown). */
export function createProxyCore<Req>(raw: AvatarProxyOptions<Req>, factory: string): ProxyCore<Req> {
  const options = resolveOptions(raw, factory);
  // Default: one undici keep-alive pool to the service for every call of this proxy (see upstream-fetch.ts): the
  // browsers' calls over dispatch(), ending, checking and creating over its fetch; without undici, the global fetch.
  const pool = options.upstream.fetch ? undefined : openPool(options.upstream.baseUrl);
  const upstreamFetch = options.upstream.fetch ?? (pool && createUpstreamFetch(pool));
  const clientOptions = {
    baseUrl: options.upstream.baseUrl,
    apiKey: options.upstream.apiKey,
    fetch: options.upstream.fetch,
    timeoutMs: options.upstream.timeoutMs,
    retries: options.upstream.retries,
    providerLabels: options.providerLabels,
  };
  const log = proxyLogger(options.logger, secretsOf(options));
  const ops = createOps({ store: options.store, metrics: options.metrics, log });
  const upstream = serviceClientOver(clientOptions, ops.timedExchange(pool ? createUpstreamExchange(pool) : cappedFetchJson));
  // Ending sessions and checking on them may wait longer than a browser's call: they run in the background.
  const cleanup = serviceClientOver(
    {
      baseUrl: options.upstream.baseUrl,
      apiKey: options.upstream.apiKey,
      fetch: ops.timedFetch(upstreamFetch),
      timeoutMs: (options.upstream.timeoutMs ?? 15_000) + LATE_GRACE_MS,
      retries: options.upstream.retries,
    },
    cappedFetchJson,
  );
  const background = createBackground(options.waitUntil, log);
  const warnings = platformWarnings(log, {
    factory,
    store: options.store !== undefined,
    limits: options.sessionCaps !== false || options.ownerCaps !== false,
    waitUntil: options.waitUntil !== undefined,
  });
  const guard = createGuard({ ...options, store: ops.store }, cleanup, log, background);
  ops.useService(upstream);
  const ctx: ActionContext<Req> = {
    options,
    upstream,
    tokens: createClientTokens(options.secretKey, options.tokenTtlSeconds),
    guard,
    spawner: createSpawner(options, guard, log, ops.timedFetch(upstreamFetch), background),
    log,
    ops,
    transportHint: createTransportHint(options, log),
    async allow(call) {
      if (options.authorize && !(await options.authorize(call.req, call.action))) throw refused(forbidden('Not authorized'), 'authorize');
      if ((call.action === 'listRooms' || call.action === 'listSessions') && !(options.admin && (await options.admin(call.req)))) {
        throw forbidden('Listing rooms and sessions is for administrators only');
      }
      if (call.action === 'usage' && !(options.admin && (await options.admin(call.req))))
        throw forbidden('Usage is for administrators only');
    },
    sealer: createSealer(options.secretKey),
    async controlAllowed(policy, req) {
      // Each policy but `token` is the proxy option of the same name.
      if (policy !== 'token' && !(await followsAgents(options[policy], options.agents, req))) throw forbidden(CONTROL_REFUSED[policy]);
    },
    async roomAllowed(roomUrl, req) {
      if (!(await dailyRoomAllowed(options.dailyRooms, roomUrl, req))) {
        throw refused(forbidden('The avatar may not be sent to this room: choose it on the server (see the dailyRooms option)'), 'room');
      }
    },
    async agentAllowed(agentId, req) {
      const agents = options.agents;
      if (agents === undefined) return;
      const ok = typeof agents === 'function' ? await agents(agentId, req) : agentId !== undefined && agents.includes(agentId);
      if (!ok)
        throw refused(
          forbidden(agentId === undefined ? 'Custom avatar images are not allowed here' : 'This agent is not allowed here'),
          'agent',
        );
    },
  };
  const { transportHint, sealer } = ctx;
  return {
    options,
    log,
    guard,
    transportHint,
    sealer,
    verifyToken: (token, handle) => verifySessionToken(ctx, token, handle),
    sessionHit: async (handle) => guard.sessionHit((await sealer.open(handle)).sessionId),
    background,
    seen: warnings.request,
    ops,
    logsRequests: options.logger !== undefined,
    handle: (call) => {
      warnings.request(call.waitUntil);
      return CREATES.has(call.action) ? ops.observeCreate(call.requestId, handle(ctx, call)) : handle(ctx, call);
    },
  };
}

async function handle<Req>(ctx: ActionContext<Req>, call: ProxyCall<Req>): Promise<ProxyReply> {
  const o = { requestId: call.requestId };
  if (ORIGIN_GUARDED.has(call.action))
    await checkSite(ctx.options.allowedOrigins, call.site ?? {}, call.req).catch((e: Error) => Promise.reject(refused(e, 'origin')));
  switch (call.action) {
    case 'createRoom': {
      await ctx.allow(call);
      const body = parseBody(CreateRoomRequestSchema, call.body);
      await ctx.agentAllowed(body.agent_id, call.req);
      const room = await ctx.spawner.spawn(call, (up) => up.createRoom(body, o));
      const { handle, issued } = await handOver(ctx, call, room, body.agent_id, 'room');
      const transport = transportOfRoomUrl(room.room_url) ?? 'rtc-b';
      ctx.transportHint.learn(transport, room.room_url);
      const { room_url, token, image_url, session_expires_at } = room;
      return {
        status: 201,
        body: {
          session_id: handle,
          ...issued,
          transport,
          room_url,
          token,
          image_url,
          ...(session_expires_at ? { session_expires_at } : {}),
        },
      };
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
      if (call.action === 'listRooms') {
        const { rooms, pagination } = await ctx.upstream.listRooms(q, o);
        return { status: 200, body: { rooms: await withHandles(ctx.sealer, rooms), pagination } };
      }
      const { sessions, pagination } = await ctx.upstream.listSessions(q, o);
      return { status: 200, body: { sessions: await withHandles(ctx.sealer, sessions), pagination } };
    }
    case 'usage':
      await ctx.allow(call);
      return { status: 200, body: await ctx.ops.usage(call.query) };
    default:
      return sessionAction(ctx, call);
  }
}

/**
 * The items of an admin list with each service session id replaced by a handle, as every answer that can reach a
 * browser: an admin page must not learn ids that the service's control endpoint would accept from anyone.
 */
function withHandles<T extends { session_id: string; created_at: string }>(sealer: Sealer, items: readonly T[]): Promise<T[]> {
  return Promise.all(
    items.map(async (item) => {
      const startedAt = Date.parse(item.created_at);
      const session_id = await sealer.handle({ sessionId: item.session_id, startedAt: Number.isNaN(startedAt) ? Date.now() : startedAt });
      return { ...item, session_id };
    }),
  );
}

function pickQuery(query: Record<string, unknown> | undefined): Record<string, unknown> {
  return { page: query?.page, limit: query?.limit };
}

const CREATES: ReadonlySet<ProxyAction> = new Set<ProxyAction>(['createRoom', 'createSession']);
const forbidden = (detail: string) => new LiveAiError('forbidden', detail, { status: 403 });
const badRequest = (detail: string) => new LiveAiError('invalid_request', detail, { status: 400 });
