/**
 * liveai-kit/server/express: the companion proxy's Express router with Express's own types (your callbacks get
 * Express's `Request`, the result is an Express `Router`). It needs `express` (and `@types/express` for
 * TypeScript); `liveai-kit/server` exports the same function without Express's types.
 *
 * @module liveai-kit/server/express
 */
export { createAvatarProxy } from './adapters/express/router';
export type { AvatarProxyOptions, OwnerLimitOptions, ProxyAction, RateLimitOptions, SessionLimitOptions } from './options';
export type { WaitUntil } from './platform';
