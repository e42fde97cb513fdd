import * as v from 'valibot';
import { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT } from '../constants';

/**
 * `{detail}` body of every 4xx/5xx error response.
 * @public
 */
export const ErrorBodySchema = v.object({ detail: v.string() });
/** @public */
export type ErrorBody = v.InferOutput<typeof ErrorBodySchema>;

/**
 * Session statuses.
 * @public
 */
export const SessionStatusSchema = v.picklist(['QUEUED', 'ACTIVE', 'COMPLETED', 'TIMED_OUT', 'FAILED']);
/** @public */
export type SessionStatus = v.InferOutput<typeof SessionStatusSchema>;
export { FINAL_STATUSES, isFinalStatus } from './plain';

/**
 * `transport_type` of session creation.
 * @public
 */
export const TransportTypeSchema = v.picklist(['rtc-a', 'rtc-b', 'websocket-rtc-a', 'websocket-rtc-b']);
/** @public */
export type TransportType = v.InferOutput<typeof TransportTypeSchema>;
/**
 * The two media transports a browser joins: `rtc-a` (LiveKit) and `rtc-b` (Daily).
 * @public
 */
export const MediaTransportSchema = v.picklist(['rtc-a', 'rtc-b']);
/** @public */
export type MediaTransport = v.InferOutput<typeof MediaTransportSchema>;

/**
 * `provider` label of a session list item: `RTC_A` / `RTC_B`.
 * @public
 */
export const ProviderSchema = v.picklist(['RTC_A', 'RTC_B']);
/** @public */
export type Provider = v.InferOutput<typeof ProviderSchema>;

/**
 * ISO 8601 date-time with seconds and a timezone, `Z` or `±hh:mm` (`created_at`, `expires_at`).
 * @public
 */
export const DateTimeSchema = v.pipe(v.string(), v.isoTimestamp('must be an ISO 8601 date-time with a timezone'));

/** An integer. */
const int = () => v.pipe(v.number(), v.integer('must be an integer'));

/**
 * Pagination object of the list endpoints.
 * @public
 */
export const PaginationSchema = v.object({
  page: int(),
  limit: int(),
  total: int(),
  total_pages: int(),
  has_more: v.boolean(),
});
/** @public */
export type Pagination = v.InferOutput<typeof PaginationSchema>;

/** A query-string integer: digits become a number, absent or empty becomes `def`, anything else fails. */
const intParam = (def: number, min: number, max: number, message: string) =>
  v.optional(
    v.pipe(
      v.unknown(),
      v.transform((x) => (x === '' ? def : typeof x === 'string' && /^-?\d+$/.test(x.trim()) ? Number(x) : x)),
      v.number('must be an integer'),
      v.integer('must be an integer'),
      v.minValue(min, message),
      v.maxValue(max, message),
    ),
    def,
  );

/**
 * Query of the list endpoints: `page` ≥ 1 (default 1), `limit` 1–100 (default 25).
 * The maximum offset rule (1000) is checked separately.
 * @public
 */
export const PaginationQuerySchema = v.object({
  page: intParam(1, 1, Number.MAX_SAFE_INTEGER, 'page must be >= 1'),
  limit: intParam(DEFAULT_PAGE_LIMIT, 1, MAX_PAGE_LIMIT, 'limit must be between 1 and 100'),
});
/** @public */
export type PaginationQuery = v.InferOutput<typeof PaginationQuerySchema>;
