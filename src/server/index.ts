/**
 * liveai-kit/server: the companion proxy. Node only. It keeps the API key and the LiveKit
 * secret on your server, gives each browser a client token bound to its session, validates every body with
 * the core schemas before the service is called, and answers only JSON (`{detail}` on errors).
 *
 * @module liveai-kit/server
 */
export { createAvatarProxy } from './express';
export { createServiceClient, type ServiceClient, type ServiceClientOptions, type ServiceCallOptions } from './service-client';
export { createAvatarHandler, type AvatarHandlerOptions, type PlatformInfo } from './fetch';
export { memoryStore, type ProxyStore, type SessionLedger, type LedgerEntry, type ReserveLimits, type ReserveRefusal } from './store';
export { redisStore, type RedisStoreOptions, type RedisSendCommand } from './redis-store';
export type { AvatarProxyOptions, OwnerLimitOptions, ProxyAction, RateLimitOptions, SessionLimitOptions } from './options';
export { issueClientToken, type ClientTokenOptions } from './attach';
export { REDACT_PATHS } from './logging';
export { AVATAR_TOKEN_TTL_S, VIEWER_TOKEN_TTL_S } from './livekit';
export type { ProviderLabels, ProviderLabelsInput } from '../core/provider-labels';
