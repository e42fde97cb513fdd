import type { ErrorRequestHandler, RequestHandler } from 'express';
import { LiveAiError } from '../../core/index';
import { codeForStatus } from '../../core/internal';
import { STATUS_BY_CODE } from '../../shared/wire-errors';
import type { EmulatorLogger } from '../logger';

/** A `LiveAiError` carrying an HTTP status; the error handler answers it as `{detail}`. */
export const httpError = (status: number, detail: string): LiveAiError => new LiveAiError(codeForStatus(status), detail, { status });

const clip = (s: string, n = 200) => (s.length > n ? `${s.slice(0, n)}…` : s);

/** Status and detail of body-parser and router errors that carry a 4xx status (unknown kinds → 400). */
function bodyError(err: { type?: unknown; status?: unknown; message?: unknown; limit?: unknown }): [number, string] | null {
  if (typeof err.status !== 'number' || err.status < 400 || err.status >= 500) return null;
  // A path parameter with malformed percent-encoding names nothing that can exist.
  if (err instanceof URIError) return [404, 'not found: the path has malformed percent-encoding'];
  if (typeof err.type !== 'string') return [400, `invalid request: ${clip(String(err.message))}`];
  if (err.type === 'entity.too.large') return [413, `request body is larger than the ${String(err.limit)}-byte limit`];
  if (err.type === 'entity.parse.failed') return [400, `malformed JSON body: ${clip(String(err.message))}`];
  return [400, `invalid request body: ${clip(String(err.message))}`];
}

/**
 * Final error handler: every 4xx and 5xx answer is JSON `{detail}`. `LiveAiError` keeps its status;
 * body-parser errors become 400 (413 when too large); anything else is logged and answered 500.
 */
export function errorHandler(log: EmulatorLogger, relabel: (detail: string) => string = (d) => d): ErrorRequestHandler {
  return (err: unknown, req, res, _next) => {
    let status = 500;
    let detail = 'internal error in the emulator';
    const parsed = typeof err === 'object' && err !== null ? bodyError(err as Record<string, unknown>) : null;
    if (err instanceof LiveAiError) {
      status = err.status ?? STATUS_BY_CODE[err.code] ?? 500;
      detail = err.detail;
    } else if (parsed) {
      [status, detail] = parsed;
    } else {
      log.error({ err: String(err), stack: (err as Error)?.stack, path: req.path }, 'unexpected error');
    }
    if (res.headersSent) {
      res.destroy();
      return;
    }
    res.status(status).json({ detail: relabel(detail) });
  };
}

/** 404 `{detail}` for a path no route serves. */
export const notFound: RequestHandler = (req, res) => {
  res.status(404).json({ detail: `no route for ${req.method} ${clip(req.path)}` });
};

/** 405 `{detail}` with an `Allow` header, for a known path called with another method. */
export const methodNotAllowed =
  (allowed: string[]): RequestHandler =>
  (req, res) => {
    res
      .set('Allow', allowed.join(', '))
      .status(405)
      .json({ detail: `method ${req.method} is not allowed here; use ${allowed.join(' or ')}` });
  };
