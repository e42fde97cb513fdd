/**
 * Small helpers shared by the views: class names, clock and credit formatting, and a readable
 * explanation of a `LiveAiError`-like value (by its code). No DOM access at import.
 */
import { en } from './i18n/en';
import type { Messages } from './i18n/messages';

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

export { cx } from './cx';
export { formatClock } from './i18n/messages';
export { formatCredits } from './i18n/en';

/**
 * What to show a visitor for an error: `title`, one short sentence (e.g. "The avatar could not start."), and
 * sometimes a `hint` that says what to do beyond trying again (e.g. "Check your internet connection."). Neither
 * repeats "try again": the button says it. `retryable` is false when the error says trying again cannot help
 * (`retryable: false`, e.g. a browser without WebRTC): offer no "Try again" then; the hint says what the visitor can
 * do instead (e.g. "Open this page in a current Chrome, Edge, Firefox or Safari."). `detail` is the technical text
 * (the server's `{detail}` or the message), for logs, `onError` and admin screens, not for visitors: it stays English.
 * `messages` picks the language (English by default; see `MessagesProvider`).
 * @returns `{title, hint?, detail?, retryable}`
 * @public
 */
export function explainError(
  error: ErrorLike,
  messages: Messages = en,
): { title: string; hint?: string; detail?: string; retryable: boolean } {
  // A 503 from the proxy: the site's own ceilings (or its store) say "not now", the same "busy" as a 429.
  const code = error.status === 503 && error.code === 'upstream_error' ? 'busy' : (error.code ?? '');
  const detail = error.detail ?? error.message;
  // An error trying again cannot mend (a browser without WebRTC) gets no "check your connection" but what to do instead.
  const retryable = error.retryable !== false;
  const m = messages;
  const hint = retryable ? m.errorHints[code] : (m.errorFinalHints[code] ?? m.errorHints[code] ?? m.errorFinalHints.default);
  return { title: m.errorTitles[code] ?? m.errorTitles.default, hint, detail, retryable };
}
