import { useEffect, useRef } from 'react';

/**
 * A ref for a Start button: `prefetch` runs once the button is at least half in view (IntersectionObserver), so
 * what start() downloads is fetched while the user reads the page. Without IntersectionObserver it does nothing
 * (hover and focus still prefetch).
 */
export function usePrefetchInView(prefetch: (() => void) | undefined) {
  const ref = useRef<HTMLButtonElement>(null);
  const latest = useRef(prefetch);
  latest.current = prefetch;
  const enabled = prefetch !== undefined;
  useEffect(() => {
    const el = ref.current;
    if (!el || !enabled || typeof IntersectionObserver === 'undefined') return;
    const io = new IntersectionObserver(
      (entries) => {
        if (!entries.some((e) => e.isIntersecting)) return;
        io.disconnect();
        latest.current?.();
      },
      { threshold: 0.5 },
    );
    io.observe(el);
    return () => io.disconnect();
  }, [enabled]);
  return ref;
}
