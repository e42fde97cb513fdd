/** Options of `createKeepAlive`. */
export interface KeepAliveOptions {
  /** Minimum time between two `send()` calls, in ms. */
  intervalMs: number;
  /** Sends one keep-alive (the session sends the `reset-idle-timeout` control event). */
  send: () => void;
  /** Where activity is observed (default `window`; nothing is observed without one). */
  target?: Pick<EventTarget, 'addEventListener' | 'removeEventListener'>;
  /** Document whose `visibilitychange` to a visible page counts as activity (default `document`). */
  document?: Pick<Document, 'addEventListener' | 'removeEventListener' | 'visibilityState'>;
  now?: () => number;
}

/** Events that count as user activity. */
export const ACTIVITY_EVENTS = ['pointerdown', 'pointermove', 'keydown', 'wheel', 'touchstart', 'scroll'] as const;

/**
 * Keeps a session alive while the user is active (anchors: "idle disconnects that end paid sessions by surprise"):
 * on a pointer, key, wheel, touch or scroll event, or when the page becomes visible again, calls `send()`
 * if at least `intervalMs` passed since the last send (or since `start()`). Nothing is sent while the user is away.
 */
export function createKeepAlive(o: KeepAliveOptions) {
  const now = o.now ?? Date.now;
  const target = o.target ?? (typeof window === 'undefined' ? undefined : window);
  const doc = o.document ?? (typeof document === 'undefined' ? undefined : document);
  let last = 0;
  let running = false;
  const onActivity = () => {
    if (!running) return;
    const t = now();
    if (t - last < o.intervalMs) return;
    last = t;
    o.send();
  };
  const onVisibility = () => {
    if (doc?.visibilityState === 'visible') onActivity();
  };
  return {
    start() {
      if (running) return;
      running = true;
      last = now();
      for (const name of ACTIVITY_EVENTS) target?.addEventListener(name, onActivity, { passive: true, capture: true });
      doc?.addEventListener('visibilitychange', onVisibility);
    },
    stop() {
      if (!running) return;
      running = false;
      for (const name of ACTIVITY_EVENTS) target?.removeEventListener(name, onActivity, { capture: true });
      doc?.removeEventListener('visibilitychange', onVisibility);
    },
  };
}
export type KeepAlive = ReturnType<typeof createKeepAlive>;
