import { formatIssues } from '../../core/internal';
import { LiveAiError } from '../../core/index';
import * as v from 'valibot';

/**
 * Parses untrusted input with a core schema before anything reaches the service (bad input costs no credits).
 * @throws LiveAiError `invalid_request` (400) naming the fields, or saying the body is missing.
 */
export function parseBody<T>(schema: v.GenericSchema<unknown, T>, value: unknown, where: 'body' | 'query' | 'payload' = 'body'): T {
  if (where !== 'query' && (value === undefined || value === null || typeof value !== 'object' || Array.isArray(value))) {
    const detail =
      where === 'payload' ? 'The payload part must be a JSON object' : 'The body must be a JSON object (Content-Type: application/json)';
    throw new LiveAiError('invalid_request', detail, { status: 400 });
  }
  const r = v.safeParse(schema, value);
  if (!r.success) throw new LiveAiError('invalid_request', `Invalid ${where}: ${formatIssues(r.issues)}`, { status: 400 });
  return r.output;
}
