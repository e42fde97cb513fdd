/**
 * The call's clocks: a countdown to a deadline (`useDeadline`), the session's maximum length, and whether a call
 * reached it. (The wait counted from the click on Start is `useCallClock`, with the progress that shows it.)
 */
import { useEffect, useRef, useState } from 'react';
import type { EndReason, Phase } from '../../core/index';

/**
 * Counts down to `deadline` (epoch ms; null = none). Calls `onExpire` once at the deadline and returns the
 * remaining ms. To avoid re-rendering a whole call, it only ticks (once a second) during the last
 * `windowMs` before the deadline; earlier the value is approximate (never smaller than the truth).
 */
export function useDeadline(deadline: number | null, onExpire: () => void, windowMs = Number.POSITIVE_INFINITY): number | null {
  const [now, setNow] = useState(() => Date.now());
  const expire = useRef(onExpire);
  expire.current = onExpire;
  useEffect(() => {
    if (deadline === null) return;
    let interval: ReturnType<typeof setInterval> | undefined;
    const tick = () => setNow(Date.now());
    const startTicking = () => {
      tick();
      interval = setInterval(tick, 1000);
    };
    const wait = deadline - windowMs - Date.now();
    const ticker = wait > 0 ? setTimeout(startTicking, wait) : (startTicking(), undefined);
    const expiry = setTimeout(
      () => {
        tick();
        expire.current();
      },
      Math.max(0, deadline - Date.now()),
    );
    return () => {
      clearTimeout(ticker);
      clearTimeout(expiry);
      clearInterval(interval);
    };
  }, [deadline, windowMs]);
  return deadline === null ? null : Math.max(0, deadline - now);
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
