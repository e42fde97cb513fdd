import type { BaseIssue } from 'valibot';
import type * as z from 'zod/mini';

/**
 * Stable error codes. One per condition, plus client-side ones.
 * | code | HTTP | when |
 * |---|---|---|
 * | invalid_request | 400 | invalid arguments, missing fields, bad pagination, invalid control event |
 * | invalid_api_key | 401 | missing/wrong `X-API-Key`, or missing/invalid client token at the proxy |
 * | insufficient_funds | 402 | agent owner has no credits |
 * | forbidden | 403 | agent or session owned by someone else; client token of another session |
 * | not_found | 404 | unknown agent or session |
 * | conflict | 409 | e.g. leave-meeting could not leave |
 * | payload_too_large | 413 | inline image ≥ 921600 bytes; upload > 4 MB |
 * | rate_limited | 429 | proxy rate limit |
 * | upstream_error | 500/502/503 | unexpected service error, network failure |
 * | timeout | 504 / client | the service or the client gave up waiting |
 * | transport_failed | client | joining or keeping the media room failed |
 * | autoplay_blocked | client | the browser blocked audio until a user gesture |
 * | aborted | client | the caller aborted (unmount, `end()` during start) |
 * | invalid_event | client | a transport message was not a valid service events |
 * | missing_peer | client | an optional peer dependency (transport SDK) is not installed |
 * | handler_error | client | a function you gave threw: an event handler, or `uploadImage` |
 * | device_failed | client | `setDevice` could not use a microphone, camera or speaker: unknown, in use, not allowed |
 * @public
 */
export type ErrorCode =
  | 'invalid_request'
  | 'invalid_api_key'
  | 'insufficient_funds'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'payload_too_large'
  | 'rate_limited'
  | 'upstream_error'
  | 'timeout'
  | 'transport_failed'
  | 'autoplay_blocked'
  | 'aborted'
  | 'invalid_event'
  | 'missing_peer'
  | 'handler_error'
  | 'device_failed';

const CODE_BY_STATUS: Record<number, ErrorCode> = {
  400: 'invalid_request',
  401: 'invalid_api_key',
  402: 'insufficient_funds',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  413: 'payload_too_large',
  422: 'invalid_request',
  429: 'rate_limited',
  504: 'timeout',
};

/** Maps an HTTP status to its error code; other 5xx are `upstream_error`. */
export const codeForStatus = (status: number): ErrorCode =>
  CODE_BY_STATUS[status] ?? (status >= 500 ? 'upstream_error' : 'invalid_request');

/**
 * Where an error came from: `service` (the avatar service answered with it, or did not answer), `proxy` (your
 * proxy answered with it, or could not be reached), `local` (this process: input checks, the room, your functions).
 * @public
 */
export type ErrorSource = 'service' | 'proxy' | 'local';

/**
 * Options of the `LiveAiError` constructor.
 * @public
 */
export interface LiveAiErrorOptions {
  status?: number | undefined;
  cause?: unknown;
  /** Default `local`. */
  source?: ErrorSource;
  /** Overrides the default of the code (e.g. false for a well-formed but unexpected answer: retrying will not help). */
  retryable?: boolean;
}

/**
 * The one error class of liveai-kit. `code` is stable; `detail` is the server's `{detail}` text (or ours);
 * `status` is the HTTP status when the error came from HTTP.
 * @public
 */
export class LiveAiError extends Error {
  override readonly name = 'LiveAiError';
  readonly code: ErrorCode;
  readonly detail: string;
  readonly status: number | undefined;
  /** True when retrying the same call later may succeed (429, 5xx, timeouts, transport failures). */
  readonly retryable: boolean;
  /** Where the error came from (see `ErrorSource`). */
  readonly source: ErrorSource;
  constructor(code: ErrorCode, detail: string, options: LiveAiErrorOptions = {}) {
    super(`${code}: ${detail}`, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.detail = detail;
    this.status = options.status;
    this.source = options.source ?? 'local';
    this.retryable =
      options.retryable ?? (code === 'rate_limited' || code === 'upstream_error' || code === 'timeout' || code === 'transport_failed');
  }
  /** Builds the error of an HTTP response with a `{detail}` body. */
  static fromResponse(status: number, detail: string, source: ErrorSource = 'local'): LiveAiError {
    return new LiveAiError(codeForStatus(status), detail, { status, source });
  }
  /** `{detail}` wire body of this error. */
  toJSON(): { detail: string } {
    return { detail: this.detail };
  }
}

/**
 * True for any liveai-kit error, optionally of one code.
 * @public
 */
export const isLiveAiError = (e: unknown, code?: ErrorCode): e is LiveAiError =>
  e instanceof LiveAiError && (code === undefined || e.code === code);

/** One readable line from valibot issues: `field: message; field2: message`. */
export function formatIssues(issues: readonly BaseIssue<unknown>[]): string {
  return issues
    .map((i) => {
      const path = i.path?.map((p) => String(p.key)).join('.');
      return path ? `${path}: ${i.message}` : i.message;
    })
    .join('; ');
}

/** One readable line from a zod error (the options of the proxy and the local service): `field: message`. */
export function formatZodError(error: z.core.$ZodError): string {
  return error.issues
    .map((i) => {
      const path = i.path.map(String).join('.');
      return path ? `${path}: ${i.message}` : i.message;
    })
    .join('; ');
}

/** Wraps a validation failure (valibot issues) as `invalid_request` (400). */
export const invalidRequest = (issues: readonly BaseIssue<unknown>[]): LiveAiError =>
  new LiveAiError('invalid_request', formatIssues(issues), { status: 400 });

/**
 * The error of a browser that has no WebRTC (no `RTCPeerConnection`: some WebViews, WebKitGTK builds, privacy
 * modes): `transport_failed`, not retryable (trying again cannot help), with a `detail` a visitor understands.
 */
export const noWebRtc = (): LiveAiError =>
  new LiveAiError(
    'transport_failed',
    'This browser cannot make video calls (it has no WebRTC). Open this page in a current Chrome, Edge, Firefox or Safari.',
    { retryable: false },
  );

/** Whether this page can make WebRTC calls (`RTCPeerConnection` exists). */
export const hasWebRtc = (): boolean => typeof globalThis.RTCPeerConnection === 'function';
