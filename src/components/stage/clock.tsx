import type { EndReason, Phase } from '../../core/index';
import { useDeadline } from './useDeadline';
import { useMessages } from '../i18n/context';
import { formatClock, formatNumber, type Messages } from '../i18n/messages';

/** How long before the end the countdown shows, ms. */
export const COUNTDOWN_WINDOW_MS = 30_000;
const noop = () => undefined;

const spoken = (m: Messages, seconds: number) =>
  m.endsInSpoken(formatNumber(seconds, m), new Intl.PluralRules(m.locale).select(seconds), seconds === 30);

/**
 * The session's maximum length running out: "Call ends in 0:27" during the last 30 s before `expiresAt`
 * (epoch ms; the proxy's `session_expires_at`), nothing before. The seconds are shown, not announced; a polite
 * live region says it twice (at 30 s and at 10 s).
 */
export function TimeLimitCountdown({ expiresAt }: { expiresAt: number | null }) {
  const m = useMessages();
  const left = useDeadline(expiresAt, noop, COUNTDOWN_WINDOW_MS);
  const show = left !== null && left > 0 && left <= COUNTDOWN_WINDOW_MS;
  const s = show ? Math.ceil(left / 1000) : 0;
  return (
    <div className="liveai-stage__countdown" data-visible={show || undefined}>
      {show && <span aria-hidden="true">{m.callEndsIn(formatClock(s * 1000, m.locale))}</span>}
      <span className="liveai-visually-hidden" role="status" aria-live="polite">
        {/* What screen readers hear: once when the countdown appears, once at 10 s (not every second). */}
        {show ? spoken(m, s > 10 ? 30 : 10) : ''}
      </span>
    </div>
  );
}

/** The proxy's `session_expires_at` as epoch ms, or null when absent or unreadable. */
export function expiresAtMs(sessionExpiresAt: string | null | undefined): number | null {
  const t = sessionExpiresAt ? Date.parse(sessionExpiresAt) : Number.NaN;
  return Number.isFinite(t) ? t : null;
}

/** Ends the page chose itself (end(), page unload, unmount): never the time limit. */
const OWN_ENDS: ReadonlySet<EndReason> = new Set(['user', 'unload', 'unmount']);

/**
 * Whether the call ended because it reached its maximum length: it ended, not by the page, at or after
 * `expiresAt` (less 5 s for clocks and the proxy's sweep), whatever ended it first on this side (the avatar
 * leaving the room, or the final status).
 */
export function timeLimitReached(phase: Phase, endReason: EndReason | null, expiresAt: number | null, now = Date.now()): boolean {
  return phase === 'ended' && expiresAt !== null && !(endReason && OWN_ENDS.has(endReason)) && now >= expiresAt - 5000;
}
