/**
 * What the proxy and the local service answer on the wire when a request fails. Browser code never needs these: it
 * reads the status and `{detail}` it receives (see `LiveAiError.fromResponse`).
 */

/** HTTP status to answer with for each error code (`LiveAiError['code']`) a server side sends. */
export const STATUS_BY_CODE: Readonly<Record<string, number>> = {
  invalid_request: 400,
  invalid_api_key: 401,
  insufficient_funds: 402,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  rate_limited: 429,
  upstream_error: 500,
  timeout: 504,
};

/**
 * Leave-meeting failure details, in the service's words. The service does not publish every status; ours
 * (docs/emulator.md, "Rules where the service is silent"): missing id 400, invalid key 401, failed/could not leave 409,
 * not configured 503, timed out 504.
 */
export const LEAVE_MEETING_DETAILS = {
  missing: 'Missing meeting_bot_id',
  invalidKey: 'Invalid API key',
  failed: 'Failed to leave the meeting',
  couldNot: 'Could not leave the meeting',
  notConfigured: 'Meeting service is not configured',
  timedOut: 'Request timed out',
} as const;
