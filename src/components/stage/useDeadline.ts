import { useEffect, useRef, useState } from 'react';

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
