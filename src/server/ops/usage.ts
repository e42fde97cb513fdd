import { LiveAiError } from '../../core/index';
import type { ProxyStore } from '../limits/store';
import { memorySpendLedger, RECENT_MAX, SPEND_RETENTION_DAYS, utcDay, type SpendDay, type SpendLedger } from './spend-ledger';

/**
 * One ended session in a {@link UsageReport} (newest first). It names no session id: the report may reach an admin's
 * browser.
 * @public
 */
export interface UsageSession {
  /** When the proxy created it, ISO 8601 (UTC). */
  started_at: string;
  /** When the proxy learned of its end, ISO 8601 (UTC). */
  ended_at: string;
  /** `agent_id`, `custom_image`, or `unknown` (a session this proxy did not create). */
  agent: string;
  /** The client key of the per-client limits (the signed-in user from `clientKey`, or the address group). */
  client: string;
  /** `user`, `max_duration`, `orphaned`, `service_ended`, `service_failed`, `service_timed_out`. */
  reason: string;
  /** Credits the service charged, or null when it reported none. */
  credits: number | null;
  /** From create to end, s. */
  seconds: number;
}

/**
 * What the avatars cost: per UTC day (totals, per agent, per client key, sessions per end reason) and the latest
 * ended sessions. Returned by {@link readUsage} and by the admin route `GET /usage`.
 * @public
 */
export interface UsageReport {
  /** First and last day of `days` (`YYYY-MM-DD`, UTC). */
  from: string;
  to: string;
  /** One entry per day, oldest first; days without sessions are zeros. */
  days: SpendDay[];
  recent: UsageSession[];
}

/**
 * Options of {@link readUsage}.
 * @public
 */
export interface UsageOptions {
  /** Days to read, ending today (UTC): 1–35, default 14. */
  days?: number;
  /** Ended sessions to list, newest first: 0–200, default 50. */
  recent?: number;
}

function whole(v: unknown, name: string, min: number, max: number, fallback: number): number {
  if (v === undefined || v === '') return fallback;
  const n = typeof v === 'string' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < min || n > max) {
    throw new LiveAiError('invalid_request', `${name} must be a whole number from ${min} to ${max}`, { status: 400 });
  }
  return n;
}

/** The report of `spend` for `query` (`days`, `recent`, as numbers or query strings). @throws 400 `invalid_request`. */
export async function usageReport(spend: SpendLedger, query: Record<string, unknown> | undefined): Promise<UsageReport> {
  const days = whole(query?.days, 'days', 1, SPEND_RETENTION_DAYS, 14);
  const recent = whole(query?.recent, 'recent', 0, RECENT_MAX, 50);
  const now = Date.now();
  const to = utcDay(now);
  const from = utcDay(now - (days - 1) * 86_400_000);
  const [list, ended] = await Promise.all([spend.days(from, to), spend.recent(recent)]);
  return {
    from,
    to,
    days: list,
    recent: ended.map((e) => ({
      started_at: new Date(e.startedAt).toISOString(),
      ended_at: new Date(e.endedAt).toISOString(),
      agent: e.agent,
      client: e.client,
      reason: e.reason,
      credits: e.credits,
      seconds: e.seconds,
    })),
  };
}

/**
 * Reads the spend ledger that a proxy keeps in `store` (the same `store` you gave `createAvatarProxy` or
 * `createAvatarHandler`: `redisStore(...)` sees what every instance entered; a `memoryStore()` only what the proxy
 * in this process entered). The same report answers the admin route `GET /usage`.
 * @throws LiveAiError `invalid_request` for days outside 1–35 or recent outside 0–200; the store's errors (a Redis
 *   fault: `upstream_error`, status 503).
 * @public
 */
export async function readUsage(store: ProxyStore, options: UsageOptions = {}): Promise<UsageReport> {
  return usageReport(store.spend ?? memorySpendLedger(), { days: options.days, recent: options.recent });
}
