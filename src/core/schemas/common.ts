import * as z from 'zod/mini';
import { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT } from '../constants';

/**
 * `{detail}` body of every 4xx/5xx error response.
 * @public
 */
export const ErrorBodySchema = z.object({ detail: z.string() });
/** @public */
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

/**
 * Session statuses.
 * @public
 */
export const SessionStatusSchema = z.enum(['QUEUED', 'ACTIVE', 'COMPLETED', 'TIMED_OUT', 'FAILED']);
/** @public */
export type SessionStatus = z.infer<typeof SessionStatusSchema>;
export { FINAL_STATUSES, isFinalStatus } from './plain';

/**
 * `transport_type` of session creation.
 * @public
 */
export const TransportTypeSchema = z.enum(['rtc-a', 'rtc-b', 'websocket-rtc-a', 'websocket-rtc-b']);
/** @public */
export type TransportType = z.infer<typeof TransportTypeSchema>;
/**
 * The two media transports a browser joins: `rtc-a` (LiveKit) and `rtc-b` (Daily).
 * @public
 */
export const MediaTransportSchema = z.enum(['rtc-a', 'rtc-b']);
/** @public */
export type MediaTransport = z.infer<typeof MediaTransportSchema>;

/**
 * `provider` label of a session list item: `RTC_A` / `RTC_B`.
 * @public
 */
export const ProviderSchema = z.enum(['RTC_A', 'RTC_B']);
/** @public */
export type Provider = z.infer<typeof ProviderSchema>;

/**
 * ISO 8601 date-time with a timezone (`created_at`).
 * @public
 */
export const DateTimeSchema = z.iso.datetime({ offset: true });

/**
 * Pagination object of the list endpoints.
 * @public
 */
export const PaginationSchema = z.object({
  page: z.int(),
  limit: z.int(),
  total: z.int(),
  total_pages: z.int(),
  has_more: z.boolean(),
});
/** @public */
export type Pagination = z.infer<typeof PaginationSchema>;

/** A query-string integer: digits become a number, absent or empty becomes `def`, anything else fails. */
const intParam = (def: number, ...checks: z.core.$ZodCheck<number>[]) =>
  z.pipe(
    z.pipe(
      z.transform((v: unknown) =>
        v === undefined || v === '' ? undefined : typeof v === 'string' && /^-?\d+$/.test(v.trim()) ? Number(v) : v,
      ),
      z._default(z.int('must be an integer'), def),
    ),
    z.int().check(...checks),
  );

/**
 * Query of the list endpoints: `page` ≥ 1 (default 1), `limit` 1–100 (default 25).
 * The maximum offset rule (1000) is checked separately, see `checkPaginationOffset`.
 * @public
 */
export const PaginationQuerySchema = z.object({
  page: intParam(1, z.gte(1, 'page must be >= 1')),
  limit: intParam(
    DEFAULT_PAGE_LIMIT,
    z.gte(1, 'limit must be between 1 and 100'),
    z.lte(MAX_PAGE_LIMIT, 'limit must be between 1 and 100'),
  ),
});
/** @public */
export type PaginationQuery = z.infer<typeof PaginationQuerySchema>;
