import { useEffect, useState } from 'react';

/**
 * The current time (epoch ms), re-read once a second while `ticking` is true and frozen otherwise: the clock the
 * queue and call timers count with.
 * @internal
 */
export function useNow(ticking: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!ticking) return;
    setNow(Date.now());
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, [ticking]);
  return now;
}
