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
export type { MetricsOptions, MeterProviderLike, MeterLike, InstrumentOptions, MetricAttributes } from './ops/metrics';
export type { MaybePromise } from './options';
export type { ProxyStore, SessionLedger, LedgerEntry, ReserveLimits, ReserveRefusal, ReserveResult, FoundSession } from './limits/store';
export type { SpendLedger, SpendDay, SpendTotals, SpendSession, SpendEntry } from './ops/spend-ledger';
export type { Logger, LogFn, Store, RateLimitInfo } from './peer-types';
export type { NeutralProvider, ProviderLabels, ProviderLabelsInput } from '../core/internal';
