import { LiveAiError, MAX_UPLOAD_BYTES } from '../../core/index';
import { STATUS_BY_CODE } from '../../shared/wire-errors';
import type { ProxyLog } from '../logging';

/** An error as the proxy sends it: status and `{detail}`; `upstream` marks the service's failures for logs. */
export interface WireError {
  status: number;
  detail: string;
  code: string;
  /** True when the problem is the service's (time-out, network, 5xx), false for the caller's. */
  upstream: boolean;
  /** True for a bug of ours or of a callback (logged at error level). */
  unexpected: boolean;
}

const BODY_PARSER: Record<string, [number, string]> = {
  'entity.parse.failed': [400, 'The body is not valid JSON'],
  'entity.too.large': [413, 'The body is too large'],
  'encoding.unsupported': [415, 'Unsupported content encoding'],
  'charset.unsupported': [415, 'Unsupported charset'],
  'request.aborted': [400, 'The request was aborted'],
  'request.size.invalid': [400, 'The body does not match its Content-Length'],
  'parameters.too.many': [413, 'Too many parameters'],
};

const MULTER: Record<string, [number, string]> = {
  LIMIT_FILE_SIZE: [413, `The image is larger than 4 MB (${MAX_UPLOAD_BYTES} bytes)`],
  LIMIT_FIELD_VALUE: [413, 'A multipart field is too large'],
  LIMIT_UNEXPECTED_FILE: [400, 'Unexpected multipart part: send only "image" and "payload"'],
};

/**
 * Maps anything thrown while serving a request to status + `{detail}`:
 * our 4xx `LiveAiError`s and the service's 4xx pass through (except a service 401, which concerns the proxy's
 * API key: 502 and an error log line); a service time-out → 504, a network failure
 * or a service 5xx/invalid answer → 502 with a generic detail (the service's own text stays in the log);
 * body-parser and multer errors → 400/413/415; anything else → 500 "internal error" (never an HTML page).
 */
export function toWireError(err: unknown): WireError {
  if (err instanceof LiveAiError) {
    // The proxy's own 503s (the owner's ceilings, its store unavailable, clients it cannot tell apart) say why.
    if (err.status === 503 && err.source === 'local')
      return { status: 503, detail: err.detail, code: err.code, upstream: false, unexpected: false };
    if (err.code === 'timeout') return up(504, 'timeout', 'The avatar service did not answer in time; try again');
    if (err.code === 'upstream_error') return up(502, 'upstream_error', 'The avatar service is unavailable; try again later');
    if (err.status === 401 && err.source === 'service') {
      // The service refused the proxy's own API key: a server misconfiguration, not the browser's fault.
      return {
        status: 502,
        detail: 'The avatar service refused the proxy credentials',
        code: 'upstream_error',
        upstream: true,
        unexpected: true,
      };
    }
    const status = err.status ?? STATUS_BY_CODE[err.code] ?? 500;
    if (status >= 400 && status < 500 && err.source === 'service') return clientSafe(status);
    if (status >= 400 && status < 500) return { status, detail: err.detail, code: err.code, upstream: false, unexpected: false };
    return { status: 500, detail: 'Internal error in the avatar proxy', code: err.code, upstream: false, unexpected: true };
  }
  const e = (err ?? {}) as { type?: unknown; code?: unknown; field?: unknown; name?: unknown; status?: unknown; statusCode?: unknown };
  if (typeof e.type === 'string' && BODY_PARSER[e.type]) return mine(...BODY_PARSER[e.type]!);
  if (e.name === 'MulterError' && typeof e.code === 'string') {
    if (e.code === 'LIMIT_FILE_SIZE' && e.field === 'payload') return mine(413, 'The payload part is too large');
    return mine(...(MULTER[e.code] ?? [400, 'Malformed multipart body']));
  }
  const status = Number(e.status ?? e.statusCode);
  if (Number.isInteger(status) && status >= 400 && status < 500) return mine(status, status === 404 ? 'Not found' : 'Bad request');
  return { status: 500, detail: 'Internal error in the avatar proxy', code: 'internal', upstream: false, unexpected: true };
}

/**
 * The service's own 4xx texts can name the owner's balance, other accounts' agents or internal details: the
 * browser gets the status and one of these texts; 403 and 404 look the same, so agent ids of other accounts
 * cannot be probed. The service's text goes to the log.
 */
const SAFE: Record<number, [number, string, string]> = {
  400: [400, 'invalid_request', 'The avatar service refused the request as invalid'],
  402: [402, 'insufficient_funds', 'The avatar service cannot start a session: insufficient funds'],
  403: [404, 'not_found', 'Not found (unknown agent or session)'],
  404: [404, 'not_found', 'Not found (unknown agent or session)'],
  409: [409, 'conflict', 'The avatar service could not do this now'],
  413: [413, 'payload_too_large', 'The image is too large for the avatar service'],
  422: [400, 'invalid_request', 'The avatar service refused the request as invalid'],
  429: [429, 'rate_limited', 'The avatar service is busy; try again later'],
};

function clientSafe(status: number): WireError {
  const [s, code, detail] = SAFE[status] ?? [status, 'invalid_request', 'The avatar service refused the request'];
  return { status: s, detail, code, upstream: true, unexpected: false };
}

const mine = (status: number, detail: string): WireError => ({
  status,
  detail,
  code: status === 413 ? 'payload_too_large' : 'invalid_request',
  upstream: false,
  unexpected: false,
});
const up = (status: number, code: string, detail: string): WireError => ({ status, detail, code, upstream: true, unexpected: false });

/**
 * Logs a failed request: a warning for the service's failures (with the service's own text), an error for bugs;
 * never bodies. The proxy's logger blanks secrets and tokens in every field and cuts long texts.
 */
export function logFailure(log: ProxyLog, err: unknown, requestId: string, w: WireError): void {
  const fields = { reqId: requestId, status: w.status, code: w.code };
  if (w.unexpected)
    log.error({ ...fields, err: err instanceof Error ? { name: err.name, message: err.message } : String(err) }, 'avatar proxy error');
  else if (w.upstream) {
    const upstream = err instanceof LiveAiError ? { upstreamStatus: err.status, upstreamDetail: err.detail } : {};
    log.warn({ ...fields, ...upstream }, 'avatar service failed');
  }
}
