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
  /** False when trying again cannot help (e.g. a browser without WebRTC): the visitor gets no "Try again", a hint instead. */
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

/** What a visitor reads: one short sentence per code, no codes, no service wording. */
const TITLES: Record<string, string> = {
  invalid_request: 'The avatar could not start.',
  invalid_api_key: 'The avatar is not set up correctly.',
  insufficient_funds: 'The avatar is not available right now.',
  forbidden: 'The avatar is not available here.',
  not_found: 'This avatar could not be found.',
  conflict: 'That did not work.',
  payload_too_large: 'The image is too large.',
  rate_limited: 'The avatar is busy right now.',
  busy: 'The avatar is busy right now.',
  upstream_error: 'The avatar could not start.',
  timeout: 'The avatar service did not answer in time.',
  transport_failed: 'Could not connect to the call.',
  autoplay_blocked: 'Sound is blocked by the browser.',
  missing_peer: 'The avatar is not set up correctly.',
  image_change_error: 'The avatar could not use this image.',
};

/** A second sentence when it tells the visitor something the title and the button ("Try again") do not. */
const HINTS: Record<string, string> = {
  invalid_api_key: 'Please let the site owner know.',
  insufficient_funds: 'Please come back later.',
  missing_peer: 'Please let the site owner know.',
  not_found: 'It may have been removed.',
  payload_too_large: 'Inline images must be under 900 KB (uploads at most 4 MB). Use a smaller image or a URL.',
  rate_limited: 'Many people are calling at once. Wait a moment.',
  busy: 'Many people are calling at once. Wait a few minutes.',
  transport_failed: 'Check your internet connection.',
  image_change_error: 'Try a different picture.',
};

/** What to do instead when trying again cannot help (`retryable: false`): every such code says something. */
const FINAL_HINTS: Record<string, string> = {
  ...HINTS,
  invalid_request: 'Please reload the page. If it happens again, let the site owner know.',
  forbidden: 'Please let the site owner know.',
  conflict: 'Please reload the page.',
  upstream_error: 'Please come back later.',
  timeout: 'Please come back later.',
  rate_limited: 'Please come back later.',
  busy: 'Please come back later.',
  transport_failed: 'Open this page in a current Chrome, Edge, Firefox or Safari.',
  autoplay_blocked: 'Allow sound for this site in the browser settings.',
};

/**
 * What to show a visitor for an error: `title`, one short sentence (e.g. "The avatar could not start."), and
 * sometimes a `hint` that says what to do beyond trying again (e.g. "Check your internet connection."). Neither
 * repeats "try again": the button says it. `retryable` is false when the error says trying again cannot help
 * (`retryable: false`, e.g. a browser without WebRTC): offer no "Try again" then; the hint says what the visitor can
 * do instead (e.g. "Open this page in a current Chrome, Edge, Firefox or Safari."). `detail` is the technical text
 * (the server's `{detail}` or the message), for logs, `onError` and admin screens, not for visitors.
 * @returns `{title, hint?, detail?, retryable}`
 * @public
 */
export function explainError(error: ErrorLike): { title: string; hint?: string; detail?: string; retryable: boolean } {
  // A 503 from the proxy: the site's own ceilings (or its store) say "not now", the same "busy" as a 429.
  const code = error.status === 503 && error.code === 'upstream_error' ? 'busy' : (error.code ?? '');
  const detail = error.detail ?? error.message;
  // An error trying again cannot mend (a browser without WebRTC) gets no "check your connection" but what to do instead.
  const retryable = error.retryable !== false;
  const hint = retryable ? HINTS[code] : (FINAL_HINTS[code] ?? 'Please reload the page.');
  return { title: TITLES[code] ?? 'Something went wrong.', hint, detail, retryable };
}
