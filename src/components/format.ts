/**
 * Small helpers shared by the views: class names, clock and credit formatting, and a readable
 * explanation of a `LiveAiError`-like value (by its code). No DOM access at import.
 */

/**
 * Anything with the fields of a `LiveAiError` (`code`, `detail`); plain `Error`s work too.
 * @public
 */
export interface ErrorLike {
  code?: string;
  detail?: string;
  message?: string;
  status?: number;
  /** False when trying again cannot help; a `transport_failed` (a browser without WebRTC) then gets no hint. */
  retryable?: boolean;
}

/** Joins truthy class names. */
export const cx = (...names: (string | false | null | undefined)[]): string => names.filter(Boolean).join(' ');

/**
 * `m:ss` of a duration in ms (negative values count as 0).
 * @public
 */
export function formatClock(ms: number): string {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/**
 * Credits with at most 2 decimals, e.g. `1.25 credits`, `1 credit`.
 * @public
 */
export function formatCredits(credits: number): string {
  const n = new Intl.NumberFormat('en', { maximumFractionDigits: 2 }).format(credits);
  return `${n} ${credits === 1 ? 'credit' : 'credits'}`;
}

const TITLES: Record<string, string> = {
  invalid_request: 'The request was not accepted',
  invalid_api_key: 'Not authorised',
  insufficient_funds: 'Out of credits',
  forbidden: 'Not allowed',
  not_found: 'This avatar was not found',
  conflict: 'Could not complete the request',
  payload_too_large: 'The image is too large',
  rate_limited: 'The avatar is busy right now',
  busy: 'The avatar is busy right now',
  upstream_error: 'The avatar service had a problem',
  timeout: 'The avatar service took too long',
  transport_failed: 'Could not connect to the call',
  autoplay_blocked: 'Sound is blocked by the browser',
  missing_peer: 'A media library is missing',
  image_change_error: 'The avatar could not use this image',
};

const HINTS: Record<string, string> = {
  insufficient_funds: 'The account behind this avatar has no credits left.',
  not_found: 'It may have been removed. Check the link, or try again later.',
  payload_too_large: 'Inline images must be under 900 KB (uploads at most 4 MB). Use a smaller image or a URL.',
  rate_limited: 'Too many calls at once. Wait a moment and try again.',
  busy: 'Wait a few minutes and try again.',
  transport_failed: 'Check your connection and try again.',
  timeout: 'Try again in a moment.',
};

/**
 * A short title, a hint and the server's `detail` for an error, for display.
 * @returns `{title, hint?, detail?}`; `detail` is the `{detail}` text or the message.
 * @public
 */
export function explainError(error: ErrorLike): { title: string; hint?: string; detail?: string } {
  // A 503 from the proxy: the site's own ceilings (or its store) say "not now", the same "busy" as a 429.
  const code = error.status === 503 && error.code === 'upstream_error' ? 'busy' : (error.code ?? '');
  const detail = error.detail ?? error.message;
  // A transport failure that trying again cannot mend (a browser without WebRTC) gets no "check your connection".
  const hint = code === 'transport_failed' && error.retryable === false ? undefined : HINTS[code];
  return { title: TITLES[code] ?? 'Something went wrong', hint, detail };
}
