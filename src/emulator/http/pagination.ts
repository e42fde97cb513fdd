import * as v from 'valibot';
import { MAX_PAGINATION_OFFSET, type Pagination } from '../../core/index';
import { PaginationQuerySchema } from '../../core/validation';
import { formatIssues } from '../../core/internal';
import { httpError } from './errors';

/**
 * Parses `page` (≥ 1, default 1) and `limit` (1–100, default 25).
 * The offset `(page-1)*limit` may be at most 1000: 1000 is accepted, anything above is 400.
 * @throws LiveAiError 400 with a detail naming the parameter, or stating the maximum offset of 1000.
 */
export function parsePagination(query: unknown): { page: number; limit: number } {
  const q = (query ?? {}) as Record<string, unknown>;
  for (const name of ['page', 'limit']) {
    if (q[name] === '') throw httpError(400, `invalid pagination: ${name}: must be an integer, not empty`);
  }
  const parsed = v.safeParse(PaginationQuerySchema, query ?? {});
  if (!parsed.success) throw httpError(400, `invalid pagination: ${formatIssues(parsed.issues)}`);
  const { page, limit } = parsed.output;
  const offset = (page - 1) * limit;
  if (offset > MAX_PAGINATION_OFFSET) {
    throw httpError(400, `page too deep: offset (page-1)*limit = ${offset} exceeds the maximum offset of ${MAX_PAGINATION_OFFSET}`);
  }
  return { page, limit };
}

/** One page of `items` (already sorted newest first) and the full pagination object. */
export function paginate<T>(items: T[], page: number, limit: number): { items: T[]; pagination: Pagination } {
  const total = items.length;
  const totalPages = Math.ceil(total / limit);
  return {
    items: items.slice((page - 1) * limit, page * limit),
    pagination: { page, limit, total, total_pages: totalPages, has_more: page < totalPages },
  };
}
