/**
 * liveai-kit/server: the companion proxy. It imports and runs on Node, Bun, Deno, Cloudflare Workers and Vercel's
 * Node and Edge runtimes (`createAvatarHandler`; the Express router needs Node). It keeps the API key and the LiveKit
 * secret on your server, gives each browser a client token bound to its session, validates every body with
 * the core schemas before the service is called, and answers only JSON (`{detail}` on errors).
 *
 * @module liveai-kit/server
 */
import { createAvatarProxy as createExpressRouter } from './adapters/express/router';
import type { AvatarProxyOptions } from './options';
import type { ExpressMiddleware, NodeRequest } from './peer-types';
export { createServiceClient, type ServiceClient, type ServiceClientOptions, type ServiceCallOptions } from './service/client';
export { createAvatarHandler, type AvatarHandler, type AvatarHandlerOptions, type PlatformInfo } from './adapters/fetch/handler';
export {
  memoryStore,
  type ProxyStore,
  type SessionLedger,
  type LedgerEntry,
  type ReserveLimits,
  type ReserveRefusal,
  type ReserveResult,
  type FoundSession,
  FOUND_CLIENT,
} from './limits/store';
export { redisStore, type RedisStoreOptions, type RedisSendCommand } from './limits/redis-store';
export {
  durableObjectStore,
  ProxyStoreObject,
  type DurableObjectNamespaceLike,
  type DurableObjectStoreOptions,
} from './limits/durable-object-store';
export type { WaitUntil } from './platform';
export { readUsage, type UsageReport, type UsageSession, type UsageOptions } from './ops/usage';
export type { SpendLedger, SpendDay, SpendTotals, SpendSession, SpendEntry } from './ops/spend-ledger';
export type { MetricsOptions, MeterProviderLike, MeterLike, InstrumentOptions, MetricAttributes } from './ops/metrics';
export type { SessionEndReason, RefusalLimit } from './ops/events';
export type { AvatarProxyOptions, MaybePromise, OwnerLimitOptions, ProxyAction, RateLimitOptions, SessionLimitOptions } from './options';
export { issueClientToken, type ClientTokenOptions } from './session/attach';
export { REDACT_PATHS } from './logging';
export { AVATAR_TOKEN_TTL_S, VIEWER_TOKEN_TTL_S } from './session/livekit';
export type { NeutralProvider, ProviderLabels, ProviderLabelsInput } from '../core/internal';
export type { ExpressMiddleware, LogFn, Logger, NodeRequest, RateLimitInfo, Store } from './peer-types';
// The service's shapes the service client takes and returns (their schemas are in `liveai-kit/schemas`).
export type {
  ControlEvent,
  ControlEventName,
  ControlEventSchemaOf,
  ControlResponse,
  CreateRoomRequest,
  CreateSessionRequest,
  LeaveMeetingRequest,
  LeaveMeetingResponse,
  PaginationQuery,
  Room,
  RoomList,
  Session,
  SessionList,
  SessionStatusResponse,
} from '../core/index';

/**
 * The companion proxy as an Express router: `app.use('/api/avatar', createAvatarProxy({...}))`. Routes, relative
 * to the mount point: `POST /rooms`, `POST /sessions` (JSON or multipart `image` ≤ 4 MB + `payload`),
 * `GET /sessions/:id`, `POST /sessions/:id/control`, `POST /sessions/:id/leave-meeting`, `POST /sessions/:id/end`,
 * admin-only `GET /rooms` and `GET /sessions`, and `GET /transport`. Every answer is JSON (`{detail}` on errors)
 * with `x-request-id`.
 *
 * Declared here without Express's types, so that this entry's declarations need none of the optional packages:
 * your callbacks get a {@link NodeRequest} unless you annotate their parameter (`(req: Request) => …` with
 * Express's `Request`), and the result is an Express middleware. The same function with Express's own types:
 * `import { createAvatarProxy } from 'liveai-kit/server/express'`.
 * @throws LiveAiError `invalid_request` naming a bad option; `missing_peer` (at creation) listing every package
 *   the options need that is not installed (express, multer, express-rate-limit unless `rateLimit: false`,
 *   livekit-server-sdk when `livekit` is set) with one `npm install` command.
 * @public
 */
export function createAvatarProxy<Req = NodeRequest>(options: AvatarProxyOptions<Req>): ExpressMiddleware {
  // At run time Req is always Express's Request: the router hands its own request to the callbacks.
  return createExpressRouter(options as unknown as Parameters<typeof createExpressRouter>[0]) as unknown as ExpressMiddleware;
}
